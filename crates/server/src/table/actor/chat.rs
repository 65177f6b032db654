//! The table's chat and the voice relay, as the actor carries them out: a chat line is stored
//! before anyone sees it; a voice signal is passed to the opponent's sockets and kept nowhere.
//! Whether a line may be said at all is the rules' question (`core/chat.rs`).

use std::time::Instant;

use catalog::Seat;

use super::Table;
use crate::error::WsError;
use crate::outbox::Frame;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ChatView, Message, UserView, VoiceSignal, encode};

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
