//! Berserk at an arena table: the arena side read from the store (at the start, and again
//! while it could still matter and is unknown, since a tournament links its game just after
//! the table opens), and a player's berserk written before the clock is halved.

use std::time::Instant;

use catalog::Seat;

use super::Table;
use crate::error::{ErrorCode, WsError};
use crate::table::core::berserk::ArenaSide;

impl Table {
    /// Reads whether this table plays an arena game, if it does not know yet and it could
    /// still matter (`starting`: the actor starts, maybe on a restored game). A failed read
    /// leaves it unknown (tried again at the next call).
    pub(super) async fn load_arena(&mut self, starting: bool) {
        if !self.state.arena_unknown(starting) {
            return;
        }
        match self.services.store.arena_game(&self.state.id).await {
            Ok(Some(game)) => self.state.set_arena(ArenaSide {
                berserk_allowed: game.berserk_allowed,
                berserk: game.berserk,
            }),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(table = %self.state.id, error = %e, "cannot read the table's arena")
            }
        }
    }

    /// Writes `seat`'s berserk, and only then halves its clock and tells everyone.
    pub(super) async fn go_berserk(&mut self, seat: Seat) -> Result<(), WsError> {
        let stored = self
            .services
            .store
            .go_berserk(&self.state.id, seat.index())
            .await?;
        if !stored {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "this arena does not allow berserk",
            ));
        }
        let effects = self.state.apply_berserk(seat, Instant::now());
        self.deliver(effects);
        Ok(())
    }
}
