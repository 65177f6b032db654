//! The live list: the public games being played now, for the "Live" page, most-watched
//! first, then highest-rated. Tables publish their line; watchers get the whole list after
//! each change, at most every [`LIVE_EVERY`] (a busy site changes it on every move). On a site
//! of several nodes, each node's part comes with the others' (as JSON, from the hub, which
//! carries the parts between nodes); a part not renewed for [`OTHERS_LAST`] is dropped.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;

use tokio::sync::Notify;

use crate::outbox::{ConnId, Frame, Outbox};
use crate::ws::protocol::{LiveEntry, Message, encode};

const LIVE_EVERY: Duration = Duration::from_secs(1);
/// Another node's part of the list is kept this long after it was last heard.
const OTHERS_LAST: Duration = Duration::from_secs(6);

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

/// The mean rating of the rated players of an entry as JSON (another node's).
fn mean_rating_of(entry: &Value) -> f64 {
    let ratings: Vec<f64> = entry["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["rating"]["rating"].as_f64())
        .collect();
    if ratings.is_empty() {
        0.0
    } else {
        ratings.iter().sum::<f64>() / ratings.len() as f64
    }
}

#[derive(Default)]
struct State {
    games: BTreeMap<String, LiveEntry>,
    watchers: HashMap<ConnId, Outbox>,
    /// Other nodes' parts, by node, with when they were heard.
    others: HashMap<String, (Vec<Value>, Instant)>,
    /// Counts this node's changes, so that its part is sent to the other nodes only when new.
    version: u64,
}

impl State {
    fn list(&self, game: Option<&str>) -> Vec<Value> {
        let here = self
            .games
            .values()
            .filter(|e| game.is_none_or(|g| g == e.game))
            .map(|e| {
                let json = serde_json::to_value(e).expect("live entries serialise");
                (e.watchers as u64, e.mean_rating(), json)
            });
        let elsewhere = self
            .others
            .values()
            .flat_map(|(entries, _)| entries)
            .filter(|e| game.is_none_or(|g| e["game"] == g))
            .map(|e| {
                (
                    e["watchers"].as_u64().unwrap_or(0),
                    mean_rating_of(e),
                    e.clone(),
                )
            });
        let mut list: Vec<(u64, f64, Value)> = here.chain(elsewhere).collect();
        list.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(b.1.total_cmp(&a.1))
                .then(a.2["id"].as_str().cmp(&b.2["id"].as_str()))
        });
        list.into_iter().map(|(_, _, json)| json).collect()
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
        state.version += u64::from(changed);
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
        state.version += 1;
        let watched = !state.watchers.is_empty();
        drop(state);
        if watched {
            self.changed.notify_one();
        }
    }

    pub fn remove(&self, id: &str) {
        self.set(id, None);
    }

    pub fn list(&self, game: Option<&str>) -> Vec<Value> {
        self.state.lock().expect("live lock").list(game)
    }

    /// This node's part of the list, if it changed since `version`, with its version now.
    pub fn part_since(&self, version: u64) -> Option<(u64, Vec<Value>)> {
        let state = self.state.lock().expect("live lock");
        (state.version != version).then(|| {
            let part = state
                .games
                .values()
                .map(|e| serde_json::to_value(e).expect("live entries serialise"))
                .collect();
            (state.version, part)
        })
    }

    /// Another node's part of the list, as it sent it.
    pub fn heard(&self, node: &str, part: Vec<Value>) {
        let mut state = self.state.lock().expect("live lock");
        state
            .others
            .insert(node.to_string(), (part, Instant::now()));
        state
            .others
            .retain(|_, (_, heard)| heard.elapsed() < OTHERS_LAST);
        let watched = !state.watchers.is_empty();
        drop(state);
        if watched {
            self.changed.notify_one();
        }
    }

    /// Starts sending the list to a connection; returns it as it is now.
    pub fn watch(&self, conn: ConnId, out: Outbox) -> Vec<Value> {
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
