//! The "your turn" counters: which table waits for whom, each player's open sockets, and the
//! notifications the tables send them.

use crate::ws::protocol::TableId;
use record::NoteKind;
use std::collections::HashMap;

use super::site_users::UserEvent;
use super::{Hub, NoteOp};
use crate::outbox::{ConnId, Frame, Outbox};
use crate::table::services::TurnSink;
use crate::ws::protocol::{Message, encode};

/// The games where each player is to move, and each player's open connections, so that a
/// player's every tab hears their "your turn" count change.
#[derive(Default)]
pub(super) struct Turns {
    /// Table → the user to move there (people only: bots have no counter).
    pub(super) mover: HashMap<TableId, String>,
    /// User → how many tables wait for them.
    pub(super) waiting: HashMap<String, usize>,
    pub(super) conns: HashMap<String, HashMap<ConnId, Outbox>>,
}

impl Turns {
    pub(super) fn count(&self, user: &str) -> usize {
        self.waiting.get(user).copied().unwrap_or(0)
    }

    pub(super) fn tell(&mut self, user: &str) {
        if self.conns.contains_key(user) {
            let count = self.count(user);
            self.send(user, &Frame::from(encode(None, &Message::Turns { count })));
        }
    }

    /// Sends `text` to every open socket of `user`.
    pub(super) fn send(&mut self, user: &str, text: &Frame) {
        if let Some(conns) = self.conns.get_mut(user) {
            conns.retain(|_, out| out.send(text.clone()));
        }
    }
}

impl TurnSink for Hub {
    fn set_turn(&self, table: &TableId, mover: Option<&str>) {
        Hub::set_turn(self, table, mover);
    }

    fn notify(&self, user_id: &str, kind: NoteKind, table: &str, open: bool) {
        Hub::notify(self, user_id, kind, table, open);
    }

    fn withdraw(&self, user_id: &str, kind: NoteKind, table: &str) {
        self.note(NoteOp::Withdraw {
            user: user_id.to_string(),
            kind,
            table: table.to_string(),
        });
    }

    fn ended(&self, table: &TableId) {
        self.note(NoteOp::Ended {
            table: table.to_string(),
        });
        // Nobody listening is no error: a node without tournaments.
        let _ = self.0.table_ended.send(table.clone());
    }
}

impl Hub {
    /// The tables of this node whose game ends from now on, each once its end is stored.
    pub fn table_ends(&self) -> tokio::sync::broadcast::Receiver<TableId> {
        self.0.table_ended.subscribe()
    }
}

impl Hub {
    /// Records who is to move at `table` (`None`: nobody, or a bot) and tells the players
    /// whose count changed.
    pub fn set_turn(&self, table: &TableId, mover: Option<&str>) {
        if self.apply_turn(table, mover) {
            self.tell_users(UserEvent::Turn {
                table: table.clone(),
                mover: mover.map(str::to_string),
            });
        }
    }

    /// Records who is to move at `table` (here or, told by its node, elsewhere) and tells
    /// this node's sockets of the players whose count changed; true if it changed.
    pub(super) fn apply_turn(&self, table: &TableId, mover: Option<&str>) -> bool {
        let mut turns = self.0.turns.lock().expect("turns lock");
        let before = match mover {
            Some(user) => turns.mover.insert(table.clone(), user.to_string()),
            None => turns.mover.remove(table),
        };
        if before.as_deref() == mover {
            return false;
        }
        if let Some(old) = before {
            if let Some(n) = turns.waiting.get_mut(&old) {
                *n -= 1;
                if *n == 0 {
                    turns.waiting.remove(&old);
                }
            }
            turns.tell(&old);
        }
        if let Some(new) = mover {
            *turns.waiting.entry(new.to_string()).or_default() += 1;
            turns.tell(new);
        }
        true
    }

    /// Records a notification for `user_id` (a person, not a bot) and sends it to their open
    /// sockets, and to their devices by Web Push unless they have the table `open`. In the
    /// background: a table never waits for it, and a failure is only logged.
    pub fn notify(&self, user_id: &str, kind: NoteKind, table: &str, open: bool) {
        self.note(NoteOp::Notify {
            user: user_id.to_string(),
            kind,
            table: table.to_string(),
            push: !open,
        });
    }

    /// Registers a connection of `user` for their "your turn" count; returns the count now.
    pub fn watch_turns(&self, user: &str, conn: ConnId, out: Outbox) -> usize {
        let mut turns = self.0.turns.lock().expect("turns lock");
        turns
            .conns
            .entry(user.to_string())
            .or_default()
            .insert(conn, out);
        turns.count(user)
    }

    pub fn unwatch_turns(&self, user: &str, conn: ConnId) {
        let mut turns = self.0.turns.lock().expect("turns lock");
        if let Some(conns) = turns.conns.get_mut(user) {
            conns.remove(&conn);
            if conns.is_empty() {
                turns.conns.remove(user);
            }
        }
    }
}
