//! The table's chat and the voice relay, as the actor carries them out: a chat line is stored
//! before anyone sees it; a voice signal is passed to the opponent's sockets and kept nowhere.
//! Whether a line may be said at all is the rules' question ([`super::core`]).

use catalog::Seat;
use serde_json::Value;
use tokio::time::Instant;

use super::{CHAT_TAIL, Table};
use crate::error::WsError;
use crate::outbox::Frame;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ChatView, Message, UserView, encode};

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
        self.state.chat.push_back(line.clone());
        if self.state.chat.len() > CHAT_TAIL {
            self.state.chat.pop_front();
        }
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

    /// Passes a WebRTC signal from the player at `from` to every socket of the player `to`.
    pub(super) fn relay_voice(&self, to: &str, from: Seat, signal: Value) {
        let text = Frame::from(encode(
            None,
            &Message::Voice {
                table: self.state.id.to_string(),
                from: from.letter(),
                signal,
            },
        ));
        for sub in self.subscribers.values().filter(|s| s.user.id == to) {
            sub.out.send(text.clone());
        }
    }
}
