//! Taking back moves in casual games: a player asks for their last move back (and the reply
//! to it, if the opponent has answered); the opponent accepts or declines, a bot accepts at
//! once. The moves are deleted from the record and the position is replayed from the start.

use catalog::AnyGame;
use tokio::time::Instant;

use super::clock::Clock;
use super::core::TableState;
use super::effects::Effect;
use super::{Table, next_turn};
use crate::error::WsError;
use crate::unix_time::unix_ms;
use crate::ws::protocol::Message;

impl TableState {
    /// The game as it stood after its first `keep` plies, replayed from the seed.
    pub fn position_after(&self, keep: usize) -> Result<AnyGame, WsError> {
        let mut game = AnyGame::new(self.settings.variant, self.seed);
        for ply in &self.plies[..keep] {
            game.play_text(&ply.mv)
                .map_err(|e| WsError::internal("replaying a game", e))?;
        }
        Ok(game)
    }

    /// Goes back to `game`, the position after the first `keep` plies (whose later plies are
    /// deleted from the record already): the clocks as they stood then, a fresh deadline from
    /// `now_ms`, no offers left.
    pub fn apply_takeback(
        &mut self,
        keep: usize,
        game: AnyGame,
        now_ms: i64,
        now: Instant,
    ) -> Vec<Effect> {
        self.plies.truncate(keep);
        self.next = next_turn(&game);
        self.game = game;
        if let Some(clock) = &self.clock {
            let control = clock.control();
            self.clock = Some(match self.plies.last().and_then(|p| p.clock) {
                Some(remaining) => Clock::resumed(control, remaining),
                None => Clock::new(control),
            });
            self.start_clock(now);
        }
        self.set_deadline(now_ms);
        self.warned = false;
        self.draw_offer = None;
        self.takeback_offer = None;
        vec![
            Effect::Turn,
            Effect::Live,
            Effect::Broadcast(Message::Takeback {
                table: self.id.to_string(),
                ply: keep as u32,
            }),
            Effect::Snapshots,
        ]
    }
}

impl Table {
    /// Deletes the plies after the first `keep` from the record, then goes back to the
    /// position and the clocks as they stood after ply `keep`.
    pub(super) async fn take_back(&mut self, keep: usize) -> Result<(), WsError> {
        let game = self.state.position_after(keep)?;
        self.services
            .store
            .take_back_moves(&self.state.id, keep as u32)
            .await?;
        let effects = self
            .state
            .apply_takeback(keep, game, unix_ms(), Instant::now());
        self.deliver(effects);
        Ok(())
    }
}
