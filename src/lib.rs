//! The `stolik` command: one binary for everything the platform runs.
//!
//! `main.rs` only parses the command line; each subcommand lives in its own module here so
//! that tests can drive it in-process.

pub mod arena;
pub mod bridge;
pub mod moderate;
pub mod referee;
pub mod solve;
