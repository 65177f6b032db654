//! The server end to end: a real server on a loopback port, real WebSocket clients, real
//! SQLite and PostgreSQL.

mod helpers;

mod accounts;
mod bad_input;
mod cluster;
mod correspondence;
mod durability;
mod games;
mod hardening;
mod metrics;
mod moderation;
mod openapi;
mod pages;
mod playing;
mod rabbit;
mod ratings;
mod records;
mod restoring;
mod shared_limits;
mod tables;
mod takeback;
