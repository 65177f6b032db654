//! A tournament's chat room, one for players and watchers alike (docs/tournaments.md, "Chat").
//! A line is stored before anyone sees it; every node reads the tail of each room its sockets
//! follow once a second and sends what they have not been sent, so a line said on one node
//! reaches the watchers of every node without a message between them.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, Weak};
use std::time::Duration;

use super::feed::MAX_FOLLOWED;
use super::{Inner, Tournaments};
use crate::error::{ApiError, ErrorCode};
use crate::identity::UserView;
use crate::outbox::{ConnId, Frame, Outbox};
use crate::table::CHAT_MAX_CHARS as MAX_CHARS;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, TournamentChatView, encode};

const EVERY: Duration = Duration::from_secs(1);
/// The lines a watcher gets on following a room, and how far back each read looks: a line
/// committed late (PostgreSQL hands out ids before commit) is still found within this tail.
const TAIL: u32 = 50;

#[derive(Default)]
pub(super) struct Rooms {
    followed: Mutex<HashMap<String, Room>>,
}

#[derive(Default)]
struct Room {
    watchers: HashMap<ConnId, Outbox>,
    /// The ids of the last tail read: a line of a newer tail not among them is new.
    sent: HashSet<i64>,
}

fn view(line: store::TournamentChatLine) -> TournamentChatView {
    TournamentChatView {
        id: line.id,
        author: line.author,
        user: line.user_id,
        text: line.body,
        at: line.sent_at,
    }
}

impl Tournaments {
    /// Follows tournament `id`'s room for connection `conn`: the answer is its last lines,
    /// and new ones come after.
    pub async fn watch_chat(
        &self,
        id: &str,
        conn: ConnId,
        out: Outbox,
    ) -> Result<Message, ApiError> {
        if self.0.store.tournament(id).await?.is_none() {
            return Err(ApiError::not_found("tournament"));
        }
        {
            let followed = self.0.rooms.followed.lock().expect("rooms lock");
            let count = followed
                .iter()
                .filter(|(room, r)| room.as_str() != id && r.watchers.contains_key(&conn))
                .count();
            if count >= MAX_FOLLOWED {
                return Err(ApiError::new(
                    ErrorCode::WrongState,
                    format!(
                        "a connection follows at most {MAX_FOLLOWED} tournament chats: unsubscribe from one first"
                    ),
                ));
            }
        }
        let tail = self.0.store.tournament_chat_tail(id, TAIL).await?;
        let mut followed = self.0.rooms.followed.lock().expect("rooms lock");
        let room = followed.entry(id.to_string()).or_default();
        if room.watchers.is_empty() {
            room.sent = tail.iter().map(|line| line.id).collect();
        }
        let lines = tail
            .into_iter()
            .filter(|line| !out.muted.hides(line.user_id.as_deref()))
            .map(view)
            .collect();
        room.watchers.insert(conn, out);
        Ok(Message::TournamentChat {
            tournament: id.to_string(),
            lines,
        })
    }

    /// Stops following tournament `id`'s room (every room: `None`) for `conn`.
    pub fn unwatch_chat(&self, id: Option<&str>, conn: ConnId) {
        let mut followed = self.0.rooms.followed.lock().expect("rooms lock");
        followed.retain(|room, r| {
            if id.is_none_or(|id| id == room) {
                r.watchers.remove(&conn);
            }
            !r.watchers.is_empty()
        });
    }

    /// Stores `user`'s line in tournament `id`'s room and answers it; the room's watchers get
    /// it with the next read. The caller has checked the speaker's standing (a flagged
    /// account says nothing) and the chat limits.
    pub async fn say(&self, id: &str, user: &UserView, text: &str) -> Result<Message, ApiError> {
        if user.guest {
            return Err(ApiError::unauthorized(
                "log in to chat in a tournament's room",
            ));
        }
        if user.bot {
            return Err(ApiError::forbidden(
                "a bot account cannot chat in a tournament's room",
            ));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(ApiError::bad_request("an empty message"));
        }
        if text.chars().count() > MAX_CHARS {
            return Err(ApiError::new(
                ErrorCode::TooLong,
                format!("a chat message has at most {MAX_CHARS} characters"),
            ));
        }
        let line = self
            .0
            .store
            .add_tournament_chat(&store::NewTournamentChatLine {
                tournament_id: id.to_string(),
                user_id: user.id.clone(),
                author: user.name.clone(),
                body: text.to_string(),
                sent_at: unix_ms(),
            })
            .await
            .map_err(|e| match e {
                store::StoreError::NotFound => ApiError::not_found("tournament"),
                e => e.into(),
            })?;
        Ok(Message::TournamentChat {
            tournament: id.to_string(),
            lines: vec![view(line)],
        })
    }

    /// Sends each followed room's new lines to its watchers.
    async fn send_chat(&self) {
        let ids: Vec<String> = {
            let followed = self.0.rooms.followed.lock().expect("rooms lock");
            followed.keys().cloned().collect()
        };
        for id in ids {
            match self.0.store.tournament_chat_tail(&id, TAIL).await {
                Ok(tail) => self.send_new_lines(&id, tail),
                Err(error) => {
                    tracing::warn!(tournament = %id, %error, "cannot read a tournament's chat")
                }
            }
        }
    }

    fn send_new_lines(&self, id: &str, tail: Vec<store::TournamentChatLine>) {
        let mut followed = self.0.rooms.followed.lock().expect("rooms lock");
        let Some(room) = followed.get_mut(id) else {
            return;
        };
        let (fresh, _): (Vec<_>, Vec<_>) = tail.iter().partition(|l| !room.sent.contains(&l.id));
        room.sent = tail.iter().map(|line| line.id).collect();
        if fresh.is_empty() {
            return;
        }
        let message = |lines: Vec<TournamentChatView>| {
            Frame::from(encode(
                None,
                &Message::TournamentChat {
                    tournament: id.to_string(),
                    lines,
                },
            ))
        };
        let everyone = message(fresh.iter().map(|l| view((*l).clone())).collect());
        room.watchers.retain(|_, out| {
            // One encoding for everyone, except those who muted an author of these lines.
            if out.muted.is_empty() || !fresh.iter().any(|l| out.muted.hides(l.user_id.as_deref()))
            {
                return out.send(everyone.clone());
            }
            let shown: Vec<_> = fresh
                .iter()
                .filter(|l| !out.muted.hides(l.user_id.as_deref()))
                .map(|l| view((*l).clone()))
                .collect();
            shown.is_empty() || out.send(message(shown))
        });
    }
}

/// The rooms' loop; ends with the service.
pub(super) async fn send_chat(inner: Weak<Inner>) {
    let mut ticks = tokio::time::interval(EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        ticks.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        Tournaments(inner).send_chat().await;
    }
}
