//! The server end to end: a real server on a loopback port, real WebSocket clients, real
//! SQLite and PostgreSQL.

mod helpers;

mod accounts;
mod addresses;
mod analysis;
mod api_tokens;
mod arena_berserk;
mod arena_house_bots;
mod bad_input;
mod bot_api;
mod bot_endings;
mod cluster;
mod correspondence;
mod correspondence_vacation;
mod durability;
mod farming;
mod games;
mod hardening;
mod ladder;
mod lifecycle;
mod metrics;
mod moderation;
mod ndjson;
mod notifications;
mod openapi;
mod pages;
mod perekati_endings;
mod playing;
mod positions;
mod push;
mod rabbit;
mod rabbit_kept;
mod ratings;
mod records;
mod restoring;
mod round_robins;
mod shared_limits;
mod tables;
mod takeback;
mod thinking;
mod tournaments;
mod web_client;
