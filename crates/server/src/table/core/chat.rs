//! The chat's rules: who may say a line, how long, how often (a burst per user in a window of
//! the time handed in), in which room; and the tail of lines kept for the snapshots. The actor
//! stores a line and delivers it (`actor/chat.rs`).

use std::time::Instant;

use super::effects::Step;
use super::state::{Orderer, TableState};
use super::{CHAT_BURST, CHAT_MAX_CHARS, CHAT_TAIL, CHAT_WINDOW};
use crate::error::{ErrorCode, WsError};
use crate::ws::protocol::ChatView;

impl TableState {
    pub(in crate::table) fn check_chat(
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
            record::ChatRoom::Players
        } else {
            record::ChatRoom::Spectators
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
