//! The realtime side: the wire protocol and the per-connection session loop.

pub mod protocol;
pub mod session;
