//! Stolik's server: one actix-web process serving the HTTP API, the WebSocket endpoint and
//! the web client.
//!
//! ```text
//! browser <-> websocket/http <-> session -> hub -> table actor -> store (SQLite | PostgreSQL)
//! ```
//!
//! A table is an actor that owns its game; a move is validated by the engine, committed to the
//! database and only then broadcast. See `ARCHITECTURE.md` for the whole picture.

pub mod analysis;
pub mod api_tokens;
pub mod bot_streams;
pub mod challenges;
pub mod compression;
pub mod cpu_pool;
pub mod domain;
pub mod error;
pub mod health;
pub mod hub;
pub mod identity;
pub mod ladder;
pub mod limits;
pub mod live;
pub mod names;
pub mod ndjson;
pub mod outbox;
pub mod passwords;
pub mod push;
pub mod request;
pub mod restoring;
pub mod routes;
pub mod security;
pub mod sessions;
pub mod solo;
pub mod startup;
pub mod state;
pub mod table;
pub mod telemetry;
pub mod thinking;
pub mod tournaments;
pub mod unix_time;
pub mod web_client;
pub mod ws;

pub use ladder::LadderConfig;
pub use limits::LimitsConfig;
pub use push::PushConfig;
pub use security::SecurityConfig;
pub use solo::TableSource;
pub use startup::{Application, ClusterConfig, Config, Stopper};
pub use tournaments::schedule::Schedule;
pub use web_client::WebClient;
