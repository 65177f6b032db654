//! The lobby: the open public tables as the tables list them, and its watchers, each
//! following one page of it. A watcher is sent what changed on its page at most every
//! [`LOBBY_EVERY`], encoded once for everyone on the same page; nothing is computed or
//! encoded without watchers.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Notify;

use super::QueueKey;
use super::lobby_pages::{Listed, OrderKey, changes, in_order, page};
use super::quick_match::Waiting;
use super::site_lobby::{Others, REPEAT_EVERY};
use super::{Hub, Inner};
use crate::domain::LobbyQuery;
use crate::outbox::{ConnId, Frame, Outbox};
use crate::table::services::LobbyBoard;
use crate::ws::protocol::{LobbyChanges, LobbyEntry, LobbyView, Message, QueueView, encode};

/// The lobby is sent to its watchers at most this often: a burst of new tables is one update.
const LOBBY_EVERY: Duration = Duration::from_millis(250);

#[derive(Default)]
pub(super) struct Lobby {
    /// This node's open public tables in the lobby's order (`LobbyEntry`s as JSON, the form
    /// the other nodes' arrive in), and where each id stands.
    pub(super) tables: BTreeMap<OrderKey, Listed>,
    places: HashMap<String, OrderKey>,
    pub(super) queues: BTreeMap<QueueKey, Vec<Waiting>>,
    /// The other nodes' parts of the lobby, when several nodes serve the site.
    pub(super) others: Others,
    /// Players taken out of a queue for a match being made across nodes.
    pub(super) claimed: HashMap<ConnId, super::site_queue::Claimed>,
    /// The pages being followed, and which page each watcher follows.
    pages: HashMap<LobbyQuery, Followed>,
    following: HashMap<ConnId, LobbyQuery>,
    /// The queues as the watchers were last told them.
    queues_told: Vec<QueueView>,
}

/// A page of the lobby that somebody follows, as they were last told it.
struct Followed {
    shown: Vec<Value>,
    total: usize,
    watchers: HashMap<ConnId, Outbox>,
}

impl Lobby {
    /// One page of the lobby of the whole site (this node's tables and queues with the other
    /// nodes'), as it is now.
    pub(super) fn view(&self, query: &LobbyQuery) -> LobbyView {
        let (tables, total) = page(self.in_order(), query);
        page_view(query, tables, total, self.queue_views())
    }

    /// Every node's tables in the lobby's order; this node's alone are kept in order already,
    /// so only a site of several nodes sorts.
    fn in_order(&self) -> Vec<&Listed> {
        if self.others.is_empty() {
            return self.tables.values().collect();
        }
        let others = self.others.values().flat_map(|other| other.tables.iter());
        in_order(self.tables.values().chain(others))
    }

    /// Lists `entry` under `id`, or takes the id off the list; whether anything changed.
    fn set(&mut self, id: &str, entry: Option<Value>) -> bool {
        let old = self
            .places
            .remove(id)
            .and_then(|key| self.tables.remove(&key));
        let Some(entry) = entry else {
            return old.is_some();
        };
        let listed = Listed::new(entry);
        let changed = old.as_ref() != Some(&listed);
        self.places.insert(id.to_string(), listed.key.clone());
        self.tables.insert(listed.key.clone(), listed);
        changed
    }

    /// The site's quick-match queues that someone waits in.
    fn queue_views(&self) -> Vec<QueueView> {
        let mut waiting: BTreeMap<&QueueKey, usize> =
            self.queues.iter().map(|(key, w)| (key, w.len())).collect();
        for other in self.others.values() {
            for (key, w) in &other.queues {
                *waiting.entry(key).or_default() += w.len();
            }
        }
        waiting
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
            .collect()
    }

    /// `conn` follows the page `query` (instead of any it followed before): the page as its
    /// other watchers were last told it, so that the next changes apply to it.
    fn follow(&mut self, conn: ConnId, out: Outbox, query: LobbyQuery) -> LobbyView {
        self.unfollow(conn);
        if self.following.is_empty() {
            self.queues_told = self.queue_views();
        }
        if !self.pages.contains_key(&query) {
            let (shown, total) = page(self.in_order(), &query);
            let followed = Followed {
                shown,
                total,
                watchers: HashMap::new(),
            };
            self.pages.insert(query, followed);
        }
        let followed = self.pages.get_mut(&query).expect("the page was just made");
        followed.watchers.insert(conn, out);
        self.following.insert(conn, query);
        let (tables, total) = (followed.shown.clone(), followed.total);
        page_view(&query, tables, total, self.queues_told.clone())
    }

    fn unfollow(&mut self, conn: ConnId) {
        let Some(query) = self.following.remove(&conn) else {
            return;
        };
        if let Some(followed) = self.pages.get_mut(&query) {
            followed.watchers.remove(&conn);
            if followed.watchers.is_empty() {
                self.pages.remove(&query);
            }
        }
    }

    /// Tells each followed page's watchers what changed on it; nothing when nobody watches.
    pub(super) fn broadcast(&mut self) {
        if self.following.is_empty() {
            return;
        }
        metrics::counter!("stolik_lobby_updates_total").increment(1);
        let queues = self.queue_views();
        let queues_changed = queues != self.queues_told;
        // Taken out while the entries are read, put back below.
        let mut pages = std::mem::take(&mut self.pages);
        let mut gone = Vec::new();
        // Ordered once for every page followed.
        let ordered = self.in_order();
        for (query, followed) in &mut pages {
            let (shown, total) = page(ordered.iter().copied(), query);
            let (removed, tables) = changes(&followed.shown, &shown);
            if removed.is_empty() && tables.is_empty() && total == followed.total && !queues_changed
            {
                continue;
            }
            let message = Message::LobbyChanges(LobbyChanges {
                game: query.game().map(|g| g.as_str()),
                offset: query.offset(),
                limit: query.limit(),
                removed,
                tables,
                total,
                queues: queues_changed.then(|| queues.clone()),
            });
            let frame = Frame::from(encode(None, &message));
            followed.watchers.retain(|conn, out| {
                let open = out.send(frame.clone());
                if !open {
                    gone.push(*conn);
                }
                open
            });
            followed.shown = shown;
            followed.total = total;
        }
        self.pages = pages;
        for conn in gone {
            self.unfollow(conn);
        }
        self.queues_told = queues;
    }
}

fn page_view(
    query: &LobbyQuery,
    tables: Vec<Value>,
    total: usize,
    queues: Vec<QueueView>,
) -> LobbyView {
    LobbyView {
        tables,
        total,
        game: query.game().map(|g| g.as_str()),
        offset: query.offset(),
        limit: query.limit(),
        queues,
    }
}

/// Sends each followed page of the lobby its changes, at most every [`LOBBY_EVERY`], and
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
        let entry = entry.map(|e| serde_json::to_value(e).expect("lobby entries serialise"));
        let changed = self.0.lobby.lock().expect("lobby lock").set(id, entry);
        if changed {
            self.lobby_changed();
        }
    }

    /// One page of the lobby as it is now.
    pub fn lobby_view(&self, query: &LobbyQuery) -> LobbyView {
        self.0.lobby.lock().expect("lobby lock").view(query)
    }

    /// `conn` follows one page of the lobby: the page now, then its changes.
    pub fn watch_lobby(&self, conn: ConnId, out: Outbox, query: LobbyQuery) -> LobbyView {
        self.0
            .lobby
            .lock()
            .expect("lobby lock")
            .follow(conn, out, query)
    }

    pub fn unwatch_lobby(&self, conn: ConnId) {
        self.0.lobby.lock().expect("lobby lock").unfollow(conn);
    }
}
