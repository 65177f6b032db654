//! Taking back moves in casual games: a player asks for their last move back (and the reply
//! to it, if the opponent has answered); the opponent accepts or declines, a bot accepts at
//! once. The moves are deleted from the record and the position is replayed from the start.

use catalog::{AnyGame, Seat};
use tokio::time::Instant;

use super::clock::Clock;
use store::GameStatus;

use super::{Table, next_turn};
use crate::error::{ErrorCode, WsError};
use crate::identity::{UserView, unix_ms};
use crate::ws::protocol::{Message, OfferKind};

impl Table {
    pub(super) async fn takeback_offer(
        &mut self,
        user: &UserView,
    ) -> Result<Option<Message>, WsError> {
        let seat = self.two_player_seat(user)?;
        self.require(GameStatus::Playing, "a takeback")?;
        if self.settings.rated {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "rated games have no takebacks",
            ));
        }
        let keep = self
            .takeback_keeps(seat)
            .ok_or_else(|| WsError::new(ErrorCode::WrongState, "you have no move to take back"))?;
        // A bot does not mind; and two players asking at once agree.
        if self.bot_opposite(seat).is_some() || self.takeback_offer == Some(seat.other()) {
            return self.take_back(keep).await;
        }
        self.takeback_offer = Some(seat);
        self.broadcast(&Message::Offer {
            table: self.id.to_string(),
            kind: OfferKind::Takeback,
            by: Some(seat.letter()),
        });
        Ok(None)
    }

    pub(super) async fn takeback_answer(
        &mut self,
        user: &UserView,
        accept: bool,
    ) -> Result<Option<Message>, WsError> {
        let seat = self.two_player_seat(user)?;
        let asker = seat.other();
        if self.takeback_offer != Some(asker) {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "no takeback was asked of you",
            ));
        }
        if !accept {
            self.takeback_offer = None;
            self.broadcast_offer_cleared(OfferKind::Takeback);
            return Ok(None);
        }
        self.require(GameStatus::Playing, "a takeback")?;
        let keep = self
            .takeback_keeps(asker)
            .expect("an open takeback offer has a move to take back");
        self.take_back(keep).await
    }

    /// How many plies stay when `seat` takes back its last move: everything before it (the
    /// opponent's answer to it goes too).
    fn takeback_keeps(&self, seat: Seat) -> Option<usize> {
        self.plies.iter().rposition(|ply| ply.by == seat)
    }

    /// Deletes the plies after the first `keep` from the record, then rebuilds the position
    /// and the clocks as they stood after ply `keep`.
    async fn take_back(&mut self, keep: usize) -> Result<Option<Message>, WsError> {
        self.hub
            .store()
            .take_back_moves(&self.id, keep as u32)
            .await?;
        let mut game = AnyGame::new(self.settings.variant, self.seed);
        for ply in &self.plies[..keep] {
            game.play_text(&ply.mv)
                .map_err(|e| WsError::internal("replaying a game", e))?;
        }
        self.plies.truncate(keep);
        self.next = next_turn(&game);
        self.game = game;
        if let Some(clock) = &self.clock {
            let control = clock.control();
            self.clock = Some(match self.plies.last().and_then(|p| p.clock) {
                Some(remaining) => Clock::resumed(control, remaining),
                None => Clock::new(control),
            });
            self.start_clock(Instant::now());
        }
        self.set_deadline(unix_ms());
        self.warned = false;
        self.draw_offer = None;
        self.takeback_offer = None;
        self.publish_turn();
        self.publish_live();
        self.broadcast(&Message::Takeback {
            table: self.id.to_string(),
            ply: keep as u32,
        });
        self.broadcast_snapshots();
        Ok(None)
    }
}
