//! What Stolik's nodes share through Redis when several of them serve one site (the lichess
//! split: PostgreSQL is the record, Redis carries what passes between the nodes).
//!
//! - [`Bus`]: channels (a publisher, any number of subscribers on any node) and requests to one
//!   node with its reply. One Redis subscription per channel per node, however many local
//!   subscribers it has; a lost connection is re-established and every subscriber is told it
//!   may have missed messages ([`Delivery::Gap`]), so that it can catch up from the record.
//! - [`Limiter`]: rate limits counted in Redis (GCRA), the same for every node.
//! - [`Leader`]: one node at a time holds a named role (a key with an expiry, renewed by its
//!   holder), for work that must run exactly once, such as pairing the quick-match queue.
//!
//! Nothing here knows about games or tables: payloads are bytes, keys are strings. Every key
//! and channel is under the bus's prefix, so that tests (and several sites) can share one Redis.

mod bus;
mod leader;
mod limiter;
#[cfg(feature = "testing")]
pub mod testing;

pub use bus::{Bus, Delivery, Incoming, Subscription};
pub use leader::Leader;
pub use limiter::{Limiter, Quota};
/// The Redis client this crate speaks through, for commands of the callers' own on
/// [`Bus::connection`].
pub use redis;

/// Why a call through Redis did not get its answer.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Redis could not be reached or broke the connection.
    #[error("redis is unavailable: {0}")]
    Unavailable(#[from] redis::RedisError),
    /// Nobody listens on the node's inbox: it is not running.
    #[error("node {0} is not running")]
    NoSuchNode(String),
    /// The node took the request but did not answer in time.
    #[error("node {0} did not answer in time")]
    Timeout(String),
    /// The bus is shutting down.
    #[error("the bus is closed")]
    Closed,
}
