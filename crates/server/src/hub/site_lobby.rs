//! The lobby of a site of several nodes: each node lists the open tables it runs and the
//! players waiting in its quick-match queues, and tells the others on the `lobby` channel —
//! on every change (at most every few hundred milliseconds, with the lobby's own updates) and
//! every [`REPEAT_EVERY`] besides. Each node shows its own part with the others' latest; a
//! node not heard from for [`FORGET_AFTER`] is dropped from the lobby (its tables are listed
//! again by whoever takes them over).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use cluster::Delivery;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::lobby_pages::Listed;
use super::quick_match::QueueKey;
use super::{Hub, Lobby};
use crate::outbox::ConnId;
use crate::ws::protocol::UserView;

/// A node tells its part of the lobby at least this often, changed or not.
pub(super) const REPEAT_EVERY: Duration = Duration::from_secs(2);
/// A node not heard from for this long has left the lobby.
const FORGET_AFTER: Duration = Duration::from_secs(6);
const CHANNEL: &str = "lobby";

/// One node's part of the lobby, as it travels.
#[derive(Serialize, Deserialize)]
struct Part {
    node: String,
    tables: Vec<Value>,
    queues: Vec<WireQueue>,
}

#[derive(Serialize, Deserialize)]
struct WireQueue {
    key: WireKey,
    waiting: Vec<WireWaiting>,
}

/// A quick-match queue's kind, as it travels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct WireKey {
    game: String,
    variant: String,
    initial_ms: Option<u64>,
    increment_ms: Option<u64>,
    days: Option<u8>,
    rated: bool,
}

impl From<&QueueKey> for WireKey {
    fn from(key: &QueueKey) -> WireKey {
        WireKey {
            game: key.variant.game().as_str().to_string(),
            variant: key.variant.as_str().to_string(),
            initial_ms: key.initial_ms,
            increment_ms: key.increment_ms,
            days: key.days,
            rated: key.rated,
        }
    }
}

impl WireKey {
    pub(super) fn key(&self) -> Option<QueueKey> {
        Some(QueueKey {
            variant: catalog::VariantId::parse(&self.game, Some(&self.variant)).ok()?,
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
            days: self.days,
            rated: self.rated,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct WireWaiting {
    conn: ConnId,
    user: UserView,
    rating: f64,
    waited_ms: u64,
}

/// A player waiting in another node's queue, as this node last heard.
#[derive(Clone)]
pub(super) struct RemoteWaiting {
    pub conn: ConnId,
    pub user: UserView,
    pub rating: f64,
    /// When they started waiting, on this node's clock.
    pub since: Instant,
}

/// What this node knows of another's part of the lobby.
pub(super) struct OtherNode {
    pub tables: Vec<Listed>,
    pub queues: Vec<(QueueKey, Vec<RemoteWaiting>)>,
    heard: Instant,
}

impl Lobby {
    /// Forgets the nodes not heard from lately; true if there were any.
    pub(super) fn forget_silent_nodes(&mut self) -> bool {
        let before = self.others.len();
        self.others
            .retain(|_, other| other.heard.elapsed() < FORGET_AFTER);
        self.others.len() != before
    }

    fn part(&self, node: &str) -> Part {
        let now = Instant::now();
        Part {
            node: node.to_string(),
            tables: self.tables.values().map(|l| l.entry.clone()).collect(),
            queues: self
                .queues
                .iter()
                .filter(|(_, w)| !w.is_empty())
                .map(|(key, waiting)| WireQueue {
                    key: key.into(),
                    waiting: waiting
                        .iter()
                        .map(|w| WireWaiting {
                            conn: w.conn,
                            user: w.user.clone(),
                            rating: w.rating,
                            waited_ms: now.duration_since(w.since).as_millis() as u64,
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

impl Hub {
    /// Tells the other nodes this node's part of the lobby (nothing without other nodes).
    pub(super) async fn tell_lobby(&self) {
        let Some(placement) = self.placement() else {
            return;
        };
        let part = self
            .0
            .lobby
            .lock()
            .expect("lobby lock")
            .part(placement.node());
        let payload = serde_json::to_vec(&part).expect("lobby parts serialise");
        if let Err(e) = placement.bus.publish(CHANNEL, &payload).await {
            tracing::warn!(error = %e, "cannot tell the other nodes this node's lobby");
        }
    }

    /// Keeps the other nodes' parts of the lobby, for as long as the hub lives.
    pub(super) async fn hear_lobbies(self) {
        let placement = self.placement().expect("hearing lobbies needs a placement");
        let mut parts = placement.follow(CHANNEL).await;
        // A newcomer is told everyone's part at their next repeat; ours goes out now.
        self.tell_lobby().await;
        let mut closing = self.closing();
        loop {
            let delivery = tokio::select! {
                delivery = parts.recv() => delivery,
                _ = async { let _ = closing.wait_for(|c| *c).await; } => return,
            };
            match delivery {
                Some(Delivery::Message(payload)) => {
                    match serde_json::from_slice::<Part>(&payload) {
                        Ok(part) if part.node != placement.node() => self.heard(part),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = %e, "a lobby part that does not parse"),
                    }
                }
                // Parts are repeated: what was lost comes again within REPEAT_EVERY.
                Some(Delivery::Gap) => {}
                None => return,
            }
        }
    }

    fn heard(&self, part: Part) {
        let now = Instant::now();
        let queues = part
            .queues
            .into_iter()
            .filter_map(|queue| {
                let key = queue.key.key()?;
                let waiting = queue
                    .waiting
                    .into_iter()
                    .map(|w| RemoteWaiting {
                        conn: w.conn,
                        user: w.user,
                        rating: w.rating,
                        since: now
                            .checked_sub(Duration::from_millis(w.waited_ms))
                            .unwrap_or(now),
                    })
                    .collect();
                Some((key, waiting))
            })
            .collect();
        let other = OtherNode {
            tables: part.tables.into_iter().map(Listed::new).collect(),
            queues,
            heard: now,
        };
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        lobby.others.insert(part.node, other);
        lobby.forget_silent_nodes();
        drop(lobby);
        // Only the watchers hear of it: this node's own part has not changed.
        self.0.lobby_changed.notify_one();
    }
}

/// The other nodes' parts, by node.
pub(super) type Others = HashMap<String, OtherNode>;
