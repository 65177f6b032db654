//! The table's chat and the voice relay, as the actor carries them out: a chat line is stored
//! before anyone sees it; a voice signal is passed to the opponent's sockets and kept nowhere.
//! Whether a line may be said at all is the rules' question ([`super::core`]).

use catalog::Seat;
use tokio::time::Instant;

use super::core::{Orderer, TableState};
use super::effects::Step;
use super::{CHAT_BURST, CHAT_MAX_CHARS, CHAT_TAIL, CHAT_WINDOW, Table};
use crate::error::{ErrorCode, WsError};
use crate::outbox::Frame;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ChatView, Message, UserView, VoiceSignal, encode};

impl TableState {
    pub(super) fn check_chat(
        &self,
        by: &Orderer<'_>,
        text: &str,
        now: Instant,
    ) -> Result<Step, WsError> {
        if !by.subscribed {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "subscribe to the table before chatting",
            ));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(WsError::bad_request("an empty message"));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(WsError::new(
                ErrorCode::TooLong,
                format!("a chat message has at most {CHAT_MAX_CHARS} characters"),
            ));
        }
        let recent = self.chat_times.get(&by.user.id).map_or(0, |times| {
            times
                .iter()
                .filter(|t| now.duration_since(**t) <= CHAT_WINDOW)
                .count()
        });
        if recent >= CHAT_BURST {
            return Err(WsError::new(
                ErrorCode::RateLimited,
                "too many messages: wait a few seconds",
            ));
        }
        let room = if self.seat_of(&by.user.id).is_some() {
            store::ChatRoom::Players
        } else {
            store::ChatRoom::Spectators
        };
        Ok(Step::Chat {
            text: text.to_string(),
            room,
        })
    }

    /// Keeps a line (stored already) for the snapshots: the last [`CHAT_TAIL`] of them.
    pub fn keep_chat_line(&mut self, line: ChatView) {
        self.chat.push_back(line);
        if self.chat.len() > CHAT_TAIL {
            self.chat.pop_front();
        }
    }

    /// Counts a chat line `user` sends at `now` against their burst.
    pub fn chat_sent(&mut self, user: &str, now: Instant) {
        let times = self.chat_times.entry(user.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > CHAT_WINDOW)
        {
            times.pop_front();
        }
        times.push_back(now);
    }
}

impl Table {
    /// Stores `user`'s line, keeps it in the tail and delivers it to everyone who has not
    /// muted them.
    pub(super) async fn chat(
        &mut self,
        user: &UserView,
        text: String,
        room: store::ChatRoom,
        now: Instant,
    ) -> Result<(), WsError> {
        self.state.chat_sent(&user.id, now);
        let at = unix_ms();
        let id = self
            .services
            .store
            .add_chat(&store::NewChatLine {
                game_id: self.state.id.to_string(),
                user_id: Some(user.id.clone()),
                author: user.name.clone(),
                body: text.clone(),
                sent_at: at,
                room,
            })
            .await?;
        let line = ChatView {
            id,
            author: user.name.clone(),
            user: Some(user.id.clone()),
            text,
            at,
            room,
        };
        self.state.keep_chat_line(line.clone());
        // One encoding for everyone, except those who muted the author.
        let text = Frame::from(encode(
            None,
            &Message::Chat {
                table: self.state.id.to_string(),
                line,
            },
        ));
        self.subscribers
            .retain(|_, sub| sub.out.muted.hides(Some(&user.id)) || sub.out.send(text.clone()));
        Ok(())
    }

    /// Passes a WebRTC signal from the player at `from` to every socket of the player `to`,
    /// except those whose player has muted the sender (a flagged sender is refused before).
    pub(super) fn relay_voice(&self, to: &str, from: Seat, signal: VoiceSignal) {
        let sender = self.state.seats[from.index()]
            .as_ref()
            .map(|u| u.id.as_str());
        let text = Frame::from(encode(
            None,
            &Message::Voice {
                table: self.state.id.to_string(),
                from: from.letter(),
                signal,
            },
        ));
        let receivers = self.subscribers.values().filter(|s| s.user.id == to);
        for sub in receivers.filter(|s| !s.out.muted.hides(sender)) {
            sub.out.send(text.clone());
        }
    }
}
