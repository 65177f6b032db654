//! Stolik's test kit: the plumbing the API tests, the soak and the load generator share.
//!
//! - [`Http`]: JSON over HTTP to one server address, and [`Conn`], one WebSocket as a browser
//!   tab holds it (pings answered, requests numbered);
//! - [`Server`]: a real `stolik serve` child process on a loopback port, started and waited
//!   for until `/healthz` answers, stopped with SIGTERM or killed with SIGKILL, its output
//!   kept in a log file;
//! - [`Nginx`]: nginx in front of several such servers, as a site runs them;
//! - [`PushService`]: a stand-in Web Push service on loopback, which checks and decrypts
//!   what a server pushes.
//!
//! Only tests and the test tools depend on it; the `stolik` binary never does.

mod client;
mod nginx;
mod push_service;
mod server;
mod server_log;
mod socket;

pub use client::{Http, http_client};
pub use nginx::Nginx;
pub use push_service::{PushService, Received};
pub use server::{Server, free_port};
pub use server_log::Watch;
pub use socket::{Conn, Ended};
