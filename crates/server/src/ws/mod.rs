//! The realtime side: the wire protocol and the per-connection session loop.

pub mod frame_guard;
pub mod protocol;
pub mod session;
