//! Carrying out the rules' effects: messages to the table's watchers, and its lines in the
//! lobby, the live list and the "your turn" counters, and a finished solo game's helpers.

use std::time::Instant;

use super::{Table, without_muted};
use crate::outbox::{ConnId, Frame};
use crate::table::core::Effect;
use crate::ws::protocol::{Message, encode};

impl Table {
    /// Tells the outside world what the rules decided, once the state has changed.
    pub(super) fn deliver(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Broadcast(message) => self.broadcast(&message),
                Effect::Snapshots => self.broadcast_snapshots(),
                Effect::Notify { user, kind } => {
                    let open = self.subscribers.values().any(|s| s.user.id == user);
                    self.services
                        .turns
                        .notify(&user, kind, &self.state.id, open)
                }
                Effect::Withdraw { user, kind } => {
                    self.services.turns.withdraw(&user, kind, &self.state.id)
                }
                Effect::NotesEnded => self.services.turns.ended(&self.state.id),
                Effect::Turn => self.publish_turn(),
                Effect::Lobby => self.publish_lobby(),
                Effect::Live => self.publish_live(),
                Effect::LivePly(ply) => self.services.live.set_ply(&self.state.id, ply),
                Effect::Review => self.tell_solo_helpers(),
            }
        }
    }

    /// Sends `message` to every subscriber, encoded once. A move's legal list concerns only
    /// the player to move: everyone else (the player who just moved, spectators) gets the
    /// move without it, encoded once too and only if such a subscriber is there. That keeps
    /// what a crowd of watchers and the waiting player are sent, and parse, small.
    pub(super) fn broadcast(&mut self, message: &Message) {
        let text = Frame::from(encode(None, message));
        let mut without_legal = None;
        let to_move = self.state.mover().map(|user| user.id.as_str());
        self.subscribers.retain(|_, sub| {
            let frame = match message {
                Message::Move(event)
                    if event.has_legal() && to_move != Some(sub.user.id.as_str()) =>
                {
                    without_legal
                        .get_or_insert_with(|| {
                            Frame::from(encode(None, &Message::Move(event.for_watchers())))
                        })
                        .clone()
                }
                _ => text.clone(),
            };
            sub.out.send(frame)
        });
    }

    /// Seats changed: everyone gets a fresh snapshot (their own `you` and `invite`).
    pub(super) fn broadcast_snapshots(&mut self) {
        let views: Vec<(ConnId, Frame)> = self
            .subscribers
            .iter()
            .map(|(conn, sub)| {
                let view = without_muted(
                    self.state.view(Some(&sub.user), Instant::now()),
                    &sub.out.muted,
                );
                (
                    *conn,
                    Frame::from(encode(
                        None,
                        &Message::Table {
                            table: Box::new(view),
                        },
                    )),
                )
            })
            .collect();
        for (conn, text) in views {
            let alive = self
                .subscribers
                .get(&conn)
                .is_some_and(|s| s.out.send(text));
            if !alive {
                self.subscribers.remove(&conn);
            }
        }
    }

    /// Tells the turn counters who is to move here.
    pub(super) fn publish_turn(&self) {
        let mover = self.state.waiting_for();
        self.services.turns.set_turn(&self.state.id, mover);
    }

    /// Tells the lobby whether this table is open for players.
    pub(super) fn publish_lobby(&self) {
        let entry = self.state.lobby_entry();
        self.services.lobby.set_entry(&self.state.id, entry);
    }

    /// Tells the live list whether this game is being played in public, and how it stands.
    pub(super) fn publish_live(&self) {
        let watchers = self
            .subscribers
            .values()
            .filter(|sub| self.state.seat_of(&sub.user.id).is_none())
            .count();
        let entry = self.state.live_entry(watchers);
        self.services.live.set(&self.state.id, entry);
    }
}
