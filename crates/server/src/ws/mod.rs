//! The realtime wire: the protocol's types and parser, and the guard on incoming frames.
//! Nothing here depends on the rest of the server; the per-connection session loop that
//! speaks it is a route (`routes::socket`).

pub mod frame_guard;
pub mod protocol;
