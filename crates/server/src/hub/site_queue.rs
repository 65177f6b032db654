//! Quick match across the nodes of a site. Each node pairs its own waiting players as ever
//! (`quick_match.rs`); the node holding the `quick-match` role also pairs players waiting on
//! different nodes, from the queues every node tells with its part of the lobby.
//!
//! A player is paired once because taking them out of a queue is a claim on their own node,
//! under its lobby lock: the pairing node claims both players, and only when both claims hold
//! does it open the table and tell each player's node the match; if one claim fails (the
//! player left, or was paired at home meanwhile), the other player goes back to their queue.
//! A claim never confirmed (the pairing node died) returns to the queue after [`CLAIM_FOR`].

use crate::ws::protocol::TableId;
use std::time::{Duration, Instant};

use super::Hub;
use super::forwarding::{Ask, Reply};
use super::quick_match::{QueueKey, Standing, Waiting, take_pairs};
use super::site_lobby::WireKey;
use crate::outbox::{ConnId, Frame};
use crate::ws::protocol::{Message, UserView, encode};

/// How long a claimed player waits for their match before going back to the queue.
const CLAIM_FOR: Duration = Duration::from_secs(10);

/// A player waiting somewhere on the site, as the pairing node sees them.
struct Candidate {
    node: String,
    conn: ConnId,
    user: UserView,
    rating: f64,
    since: Instant,
}

impl Candidate {
    fn new(node: &str, (conn, user, rating, since): (ConnId, &UserView, f64, Instant)) -> Self {
        Candidate {
            node: node.to_string(),
            conn,
            user: user.clone(),
            rating,
            since,
        }
    }
}

impl Standing for Candidate {
    fn user_id(&self) -> &str {
        &self.user.id
    }

    fn standing(&self, now: Instant) -> (f64, Duration) {
        (self.rating, now.duration_since(self.since))
    }

    fn rating(&self) -> f64 {
        self.rating
    }
}

/// A player taken out of their queue for a match that is being made.
pub(super) struct Claimed {
    key: QueueKey,
    waiting: Waiting,
    at: Instant,
}

impl Hub {
    /// On the node holding the quick-match role: pairs players waiting on different nodes.
    pub(super) async fn pair_across_nodes(&self) {
        let Some(placement) = self.placement() else {
            return;
        };
        if !placement.leader.is_leader() {
            return;
        }
        let me = placement.node();
        let queues: Vec<(QueueKey, Vec<Candidate>)> = {
            let lobby = self.0.lobby.lock().expect("lobby lock");
            let mut queues: std::collections::BTreeMap<QueueKey, Vec<Candidate>> =
                Default::default();
            let here = lobby.queues.iter().flat_map(|(key, waiting)| {
                waiting.iter().map(move |w| {
                    let at = (w.conn, &w.user, w.rating, w.since);
                    (key, Candidate::new(me, at))
                })
            });
            let elsewhere = lobby.others.iter().flat_map(|(node, other)| {
                other.queues.iter().flat_map(move |(key, waiting)| {
                    waiting.iter().map(move |w| {
                        let at = (w.conn, &w.user, w.rating, w.since);
                        (key, Candidate::new(node, at))
                    })
                })
            });
            for (key, candidate) in here.chain(elsewhere) {
                queues.entry(key.clone()).or_default().push(candidate);
            }
            queues
                .into_iter()
                .filter(|(_, q)| q.iter().any(|c| c.node != me) && q.len() > 1)
                .collect()
        };
        for (key, mut queue) in queues {
            for (a, b) in take_pairs(&mut queue, self.0.match_window) {
                // Two players of one node are that node's to pair.
                if a.node != b.node {
                    self.match_across(&key, a, b).await;
                }
            }
        }
    }

    /// Claims both players, opens their table and tells them; puts a claimed player back
    /// if the other could not be claimed.
    async fn match_across(&self, key: &QueueKey, a: Candidate, b: Candidate) {
        let Some(user_a) = self.claim(&a, key).await else {
            return;
        };
        let Some(user_b) = self.claim(&b, key).await else {
            self.unclaim(&a).await;
            return;
        };
        match self.open_match(key, user_a, user_b).await {
            Ok(table) => {
                self.matched(&a, &table).await;
                self.matched(&b, &table).await;
            }
            Err(e) => {
                tracing::error!(error = %e, "could not start a quick-match game across nodes");
                self.unclaim(&a).await;
                self.unclaim(&b).await;
            }
        }
    }

    async fn claim(&self, who: &Candidate, key: &QueueKey) -> Option<UserView> {
        if self.is_this_node(&who.node) {
            return self.claim_here(who.conn, key);
        }
        let ask = Ask::Claim {
            conn: who.conn,
            key: key.into(),
        };
        match self.ask(&who.node, &ask).await {
            Ok(Reply::Claimed(user)) => user,
            _ => None,
        }
    }

    async fn unclaim(&self, who: &Candidate) {
        if self.is_this_node(&who.node) {
            self.unclaim_here(who.conn);
        } else {
            let _ = self.ask(&who.node, &Ask::Unclaim { conn: who.conn }).await;
        }
    }

    async fn matched(&self, who: &Candidate, table: &TableId) {
        if self.is_this_node(&who.node) {
            self.matched_here(who.conn, table);
        } else {
            let ask = Ask::Matched {
                conn: who.conn,
                table: table.clone(),
            };
            let _ = self.ask(&who.node, &ask).await;
        }
    }

    fn is_this_node(&self, node: &str) -> bool {
        self.placement().is_some_and(|p| p.node() == node)
    }

    /// Takes `conn` out of the queue `key` for a match being made elsewhere; their user if
    /// they were still waiting there.
    pub(super) fn claim_here(&self, conn: ConnId, key: &QueueKey) -> Option<UserView> {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        let queue = lobby.queues.get_mut(key)?;
        let index = queue.iter().position(|w| w.conn == conn)?;
        let waiting = queue.remove(index);
        let user = waiting.user.clone();
        lobby.claimed.insert(
            conn,
            Claimed {
                key: key.clone(),
                waiting,
                at: Instant::now(),
            },
        );
        drop(lobby);
        self.lobby_changed();
        Some(user)
    }

    /// The match of a claimed player did not happen: back to their queue, as they were.
    pub(super) fn unclaim_here(&self, conn: ConnId) {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        if let Some(claimed) = lobby.claimed.remove(&conn) {
            lobby
                .queues
                .entry(claimed.key)
                .or_default()
                .push(claimed.waiting);
            drop(lobby);
            self.lobby_changed();
        }
    }

    /// A claimed player's table is ready: tells them.
    pub(super) fn matched_here(&self, conn: ConnId, table: &str) {
        let claimed = self
            .0
            .lobby
            .lock()
            .expect("lobby lock")
            .claimed
            .remove(&conn);
        if let Some(claimed) = claimed {
            let text = Frame::from(encode(
                None,
                &Message::Match {
                    table: table.to_string(),
                },
            ));
            claimed.waiting.out.send(text);
        }
    }

    /// Claims older than [`CLAIM_FOR`] go back to their queues (their pairing node is gone).
    pub(super) fn return_old_claims(&self) {
        let old: Vec<ConnId> = {
            let lobby = self.0.lobby.lock().expect("lobby lock");
            lobby
                .claimed
                .iter()
                .filter(|(_, c)| c.at.elapsed() > CLAIM_FOR)
                .map(|(conn, _)| *conn)
                .collect()
        };
        for conn in old {
            self.unclaim_here(conn);
        }
    }

    /// Answers another node's claim on one of this node's waiting players.
    pub(super) fn answer_claim(&self, conn: ConnId, key: &WireKey) -> Reply {
        let user = key.key().and_then(|key| self.claim_here(conn, &key));
        Reply::Claimed(user)
    }
}
