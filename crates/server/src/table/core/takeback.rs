//! Taking back moves in casual games: a player asks for their last move back (and the reply
//! to it, if the opponent has answered); the opponent accepts or declines, a bot accepts at
//! once. The actor deletes the moves from the record (`actor/orders.rs`); here the position is
//! replayed from the start and the clocks go back.

use catalog::AnyGame;
use std::time::Instant;

use super::clock::Clock;
use super::effects::Effect;
use super::next_turn;
use super::state::TableState;
use crate::error::WsError;
use crate::ws::protocol::Message;

impl TableState {
    /// The game as it stood after its first `keep` plies, replayed from the seed.
    pub fn position_after(&self, keep: usize) -> Result<AnyGame, WsError> {
        let mut game = AnyGame::new(self.settings.variant(), self.seed);
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
            self.keep_berserk_clock();
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
