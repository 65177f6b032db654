//! Delivery to connections: each socket's bounded outgoing queue and the frames put on it.
//! The table actors, the hub and the live list write to these; the connection's response
//! body (`routes/socket_body.rs`) writes them to the socket.

use std::sync::Arc;

use tokio::sync::{Notify, mpsc};

use crate::sessions::MuteList;

/// Identifies one connection (a socket, or a Bot API stream) on the node that holds it;
/// numbered from one by the hub. A subscription forwarded from another node gets a number of
/// this node's.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ConnId(pub u64);

impl std::fmt::Display for ConnId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One encoded message on its way to connections: reference-counted, so a broadcast encodes
/// once and every subscriber's socket writes the same bytes.
pub type Frame = bytestring::ByteString;

/// The sending side of one connection's outgoing queue. The queue is bounded: a client that
/// does not read is disconnected, not buffered for ever.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Frame>,
    overflow: Arc<Notify>,
    /// Whose chat lines this connection's user does not want delivered.
    pub muted: MuteList,
}

impl Outbox {
    pub fn new(capacity: usize, muted: MuteList) -> (Outbox, mpsc::Receiver<Frame>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(capacity);
        let overflow = Arc::new(Notify::new());
        (
            Outbox {
                tx,
                overflow: overflow.clone(),
                muted,
            },
            rx,
            overflow,
        )
    }

    /// Queues a message; `false` once the connection is gone (or was just cut for not
    /// reading), so callers can forget it.
    pub fn send(&self, text: Frame) -> bool {
        match self.tx.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                metrics::counter!("stolik_delivery_drops_total").increment(1);
                self.overflow.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}
