//! The lobby: the open public tables as the tables list them, sent to its watchers at most
//! every [`LOBBY_EVERY`] (and not encoded at all without watchers).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::QueueKey;
use super::quick_match::Waiting;
use super::site_lobby::{Others, REPEAT_EVERY};
use super::{Hub, Inner};
use crate::outbox::{ConnId, Frame, Outbox};
use crate::table::services::LobbyBoard;
use crate::ws::protocol::{LobbyEntry, LobbyView, Message, QueueView, encode};

/// The lobby is sent to its watchers at most this often: a burst of new tables is one update.
const LOBBY_EVERY: Duration = Duration::from_millis(250);

#[derive(Default)]
pub(super) struct Lobby {
    pub(super) watchers: HashMap<ConnId, Outbox>,
    pub(super) tables: BTreeMap<String, LobbyEntry>,
    pub(super) queues: BTreeMap<QueueKey, Vec<Waiting>>,
    /// The other nodes' parts of the lobby, when several nodes serve the site.
    pub(super) others: Others,
    /// Players taken out of a queue for a match being made across nodes.
    pub(super) claimed: HashMap<ConnId, super::site_queue::Claimed>,
}

impl Lobby {
    /// The lobby of the whole site: this node's tables and queues with the other nodes'.
    pub(super) fn view(&self) -> LobbyView {
        let mut tables: Vec<serde_json::Value> = self
            .tables
            .values()
            .map(|entry| serde_json::to_value(entry).expect("lobby entries serialise"))
            .collect();
        let mut waiting: BTreeMap<&QueueKey, usize> =
            self.queues.iter().map(|(key, w)| (key, w.len())).collect();
        for other in self.others.values() {
            tables.extend(other.tables.iter().cloned());
            for (key, w) in &other.queues {
                *waiting.entry(key).or_default() += w.len();
            }
        }
        if !self.others.is_empty() {
            tables.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        }
        LobbyView {
            tables,
            queues: waiting
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(key, n)| QueueView {
                    game: key.variant.game().as_str(),
                    variant: key.variant.as_str(),
                    initial_ms: key.initial_ms,
                    increment_ms: key.increment_ms,
                    days: key.days,
                    rated: key.rated,
                    waiting: n,
                })
                .collect(),
        }
    }

    /// Sends the whole lobby to its watchers; nothing is encoded when nobody watches.
    pub(super) fn broadcast(&mut self) {
        if self.watchers.is_empty() {
            return;
        }
        metrics::counter!("stolik_lobby_updates_total").increment(1);
        let text = Frame::from(encode(None, &Message::Lobby(self.view())));
        self.watchers.retain(|_, out| out.send(text.clone()));
    }
}

/// Sends the lobby to its watchers after each change, at most every [`LOBBY_EVERY`], and
/// tells the other nodes (if any) this node's part when it changed and every
/// [`REPEAT_EVERY`]; ends with the hub.
pub(super) async fn send_lobby_changes(hub: Weak<Inner>, changed: Arc<Notify>) {
    let mut told = Instant::now();
    loop {
        let rung = tokio::time::timeout(REPEAT_EVERY, changed.notified())
            .await
            .is_ok();
        let Some(inner) = hub.upgrade() else { return };
        let hub = Hub(inner);
        {
            let mut lobby = hub.0.lobby.lock().expect("lobby lock");
            if lobby.forget_silent_nodes() || rung {
                lobby.broadcast();
            }
        }
        let own = hub.0.lobby_own_changed.swap(false, Ordering::Relaxed);
        if own || told.elapsed() >= REPEAT_EVERY {
            hub.tell_lobby().await;
            told = Instant::now();
        }
        drop(hub);
        if rung {
            tokio::time::sleep(LOBBY_EVERY).await;
        }
    }
}

impl LobbyBoard for Hub {
    fn set_entry(&self, id: &str, entry: Option<LobbyEntry>) {
        self.set_lobby_entry(id, entry);
    }
}

impl Hub {
    /// The lobby changed: its watchers hear of it with the next update.
    pub(super) fn lobby_changed(&self) {
        self.0.lobby_own_changed.store(true, Ordering::Relaxed);
        self.0.lobby_changed.notify_one();
    }

    pub fn set_lobby_entry(&self, id: &str, entry: Option<LobbyEntry>) {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        let changed = match entry {
            Some(entry) => {
                lobby.tables.insert(id.to_string(), entry);
                true
            }
            None => lobby.tables.remove(id).is_some(),
        };
        drop(lobby);
        if changed {
            self.lobby_changed();
        }
    }

    pub fn lobby_view(&self) -> LobbyView {
        self.0.lobby.lock().expect("lobby lock").view()
    }

    pub fn watch_lobby(&self, conn: ConnId, out: Outbox) -> LobbyView {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        lobby.watchers.insert(conn, out);
        lobby.view()
    }

    pub fn unwatch_lobby(&self, conn: ConnId) {
        self.0
            .lobby
            .lock()
            .expect("lobby lock")
            .watchers
            .remove(&conn);
    }
}
