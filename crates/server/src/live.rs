//! The live list: the public games being played now on this node, for the "Live" page,
//! most-watched first, then highest-rated. Tables publish their line; watchers get the whole
//! list after each change, at most every [`LIVE_EVERY`] (a busy site changes it on every
//! move).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Notify;

use crate::outbox::{ConnId, Frame, Outbox};
use crate::ws::protocol::{LiveEntry, Message, encode};

const LIVE_EVERY: Duration = Duration::from_secs(1);

impl LiveEntry {
    /// The mean rating of the rated players, for ordering.
    fn mean_rating(&self) -> f64 {
        let ratings: Vec<f64> = self
            .players
            .iter()
            .filter_map(|p| p.rating.map(|r| f64::from(r.rating)))
            .collect();
        if ratings.is_empty() {
            0.0
        } else {
            ratings.iter().sum::<f64>() / ratings.len() as f64
        }
    }
}

#[derive(Default)]
struct State {
    games: BTreeMap<String, LiveEntry>,
    watchers: HashMap<ConnId, Outbox>,
}

impl State {
    fn list(&self, game: Option<&str>) -> Vec<LiveEntry> {
        let mut list: Vec<LiveEntry> = self
            .games
            .values()
            .filter(|e| game.is_none_or(|g| g == e.game))
            .cloned()
            .collect();
        list.sort_by(|a, b| {
            b.watchers
                .cmp(&a.watchers)
                .then(b.mean_rating().total_cmp(&a.mean_rating()))
                .then(a.id.cmp(&b.id))
        });
        list
    }
}

/// The list and its watchers; cloned handles share it.
#[derive(Clone, Default)]
pub struct Live {
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
}

impl Live {
    /// Starts the task that sends changes to the watchers; it ends when every handle is gone.
    pub fn start(runtime: &tokio::runtime::Handle) -> Live {
        let live = Live::default();
        runtime.spawn(send_changes(
            Arc::downgrade(&live.state),
            live.changed.clone(),
        ));
        live
    }

    /// A table's line, or `None` to take it off the list.
    pub fn set(&self, id: &str, entry: Option<LiveEntry>) {
        let mut state = self.state.lock().expect("live lock");
        let changed = match entry {
            Some(entry) => {
                state.games.insert(id.to_string(), entry);
                true
            }
            None => state.games.remove(id).is_some(),
        };
        let watched = !state.watchers.is_empty();
        drop(state);
        if changed && watched {
            self.changed.notify_one();
        }
    }

    /// A move was played at a listed game: only its ply changes (cheap: no entry is built).
    pub fn set_ply(&self, id: &str, ply: u32) {
        let mut state = self.state.lock().expect("live lock");
        let Some(entry) = state.games.get_mut(id) else {
            return;
        };
        entry.ply = ply;
        let watched = !state.watchers.is_empty();
        drop(state);
        if watched {
            self.changed.notify_one();
        }
    }

    pub fn remove(&self, id: &str) {
        self.set(id, None);
    }

    pub fn list(&self, game: Option<&str>) -> Vec<LiveEntry> {
        self.state.lock().expect("live lock").list(game)
    }

    /// Starts sending the list to a connection; returns it as it is now.
    pub fn watch(&self, conn: ConnId, out: Outbox) -> Vec<LiveEntry> {
        let mut state = self.state.lock().expect("live lock");
        state.watchers.insert(conn, out);
        state.list(None)
    }

    pub fn unwatch(&self, conn: ConnId) {
        self.state.lock().expect("live lock").watchers.remove(&conn);
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // The last handle but the task's weak one: wake the task so that it ends.
        if Arc::strong_count(&self.state) == 1 {
            self.changed.notify_one();
        }
    }
}

async fn send_changes(state: Weak<Mutex<State>>, changed: Arc<Notify>) {
    loop {
        changed.notified().await;
        let Some(state) = state.upgrade() else { return };
        {
            let mut state = state.lock().expect("live lock");
            if !state.watchers.is_empty() {
                let text = Frame::from(encode(
                    None,
                    &Message::Live {
                        games: state.list(None),
                    },
                ));
                state.watchers.retain(|_, out| out.send(text.clone()));
            }
        }
        drop(state);
        tokio::time::sleep(LIVE_EVERY).await;
    }
}
