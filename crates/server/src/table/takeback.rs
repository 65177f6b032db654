//! Taking back moves in casual games: a player asks for their last move back (and the reply
//! to it, if the opponent has answered); the opponent accepts or declines, a bot accepts at
//! once. The moves are deleted from the record and the position is replayed from the start.

use catalog::AnyGame;
use tokio::time::Instant;

use super::clock::Clock;
use super::{Table, next_turn};
use crate::error::WsError;
use crate::unix_time::unix_ms;
use crate::ws::protocol::Message;

impl Table {
    /// Deletes the plies after the first `keep` from the record, then rebuilds the position
    /// and the clocks as they stood after ply `keep`.
    pub(super) async fn take_back(&mut self, keep: usize) -> Result<(), WsError> {
        self.services
            .store
            .take_back_moves(&self.state.id, keep as u32)
            .await?;
        let mut game = AnyGame::new(self.state.settings.variant, self.state.seed);
        for ply in &self.state.plies[..keep] {
            game.play_text(&ply.mv)
                .map_err(|e| WsError::internal("replaying a game", e))?;
        }
        self.state.plies.truncate(keep);
        self.state.next = next_turn(&game);
        self.state.game = game;
        if let Some(clock) = &self.state.clock {
            let control = clock.control();
            self.state.clock = Some(match self.state.plies.last().and_then(|p| p.clock) {
                Some(remaining) => Clock::resumed(control, remaining),
                None => Clock::new(control),
            });
            self.state.start_clock(Instant::now());
        }
        self.state.set_deadline(unix_ms());
        self.state.warned = false;
        self.state.draw_offer = None;
        self.state.takeback_offer = None;
        self.publish_turn();
        self.publish_live();
        self.broadcast(&Message::Takeback {
            table: self.state.id.to_string(),
            ply: keep as u32,
        });
        self.broadcast_snapshots();
        Ok(())
    }
}
