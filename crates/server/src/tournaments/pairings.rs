//! A pairing the director made becomes an ordinary table: the tournament's game and clock,
//! rated as the tournament is, seat A to the director's first player (a house bot sits as the
//! site's bot of its level). The table learns from the game's link whether its arena allows
//! berserk. Both players hear of it on every socket they have open (`tournament.game`), and
//! the tournament page takes them to the table.

use catalog::VariantId;
use tournament::arena::PairingStatus;
use tournament::{Event, PairingId, PlayerId};

use super::{Loaded, Slot, Tournaments};
use crate::error::ApiError;
use crate::table::TableSettings;
use crate::ws::protocol::{Message, TimeControl};

impl Tournaments {
    /// Opens pairing `pairing`'s table, links it to the tournament and tells both players. A
    /// table that cannot be made calls the pairing off, so that its players are free again.
    /// The arena is locked only to record the outcome, not while the table is made.
    pub(super) async fn open_pairing(
        &self,
        slot: &Slot,
        pairing: PairingId,
        seats: [PlayerId; 2],
    ) -> Result<(), ApiError> {
        let store = &self.0.store;
        let (row, berserk) = {
            let loaded = slot.lock().await;
            (loaded.row.clone(), loaded.arena.settings().berserk)
        };
        let mut users = Vec::with_capacity(seats.len());
        for player in &seats {
            if let Some(level) = house_bot_level(player) {
                users.push(Some(crate::table::bot_user(level)));
                continue;
            }
            let user = store
                .user(player.as_str())
                .await?
                .ok_or_else(|| ApiError::not_found("a tournament's player"))?;
            users.push(Some(crate::identity::user_view(user)));
        }
        let opened = async {
            let variant = VariantId::parse(&row.game, Some(&row.variant))
                .map_err(|e| ApiError::internal("a stored tournament's game", e))?;
            let control =
                TimeControl::new(row.clock_initial_ms as u64, row.clock_increment_ms as u64)
                    .map_err(|e| ApiError::internal("a stored tournament's clock", e))?;
            let settings = TableSettings::arena_pairing(variant, control, row.rated);
            self.0.hub.create_table(settings, None, users, None).await
        };
        let table = match opened.await {
            Ok(table) => table,
            Err(error) => {
                tracing::error!(tournament = %row.id, %pairing, %error, "cannot open a tournament table");
                let mut loaded = slot.lock().await;
                loaded.catch_up(store).await?;
                if still_unstarted(&loaded, pairing) {
                    loaded
                        .apply(store, &Event::GameAborted { pairing }, None)
                        .await?;
                }
                return Ok(());
            }
        };
        store
            .link_arena_game(&row.id, i64::from(pairing.0), &table.id, berserk)
            .await?;
        let game = table.id.to_string();
        {
            let mut loaded = slot.lock().await;
            loaded.catch_up(store).await?;
            // A game over already was started with its end (news.rs), once linked.
            if still_unstarted(&loaded, pairing) {
                let started = Event::GameStarted {
                    pairing,
                    game: game.clone(),
                };
                loaded.apply(store, &started, None).await?;
            }
        }
        for player in seats.into_iter().filter(|p| house_bot_level(p).is_none()) {
            self.0.hub.send_to(
                player.to_string(),
                &Message::TournamentGame {
                    tournament: row.id.clone(),
                    table: game.clone(),
                },
            );
        }
        Ok(())
    }
}

/// Whether `pairing` has not been started in the director: made and not yet played, or
/// left uncounted by the arena's end meanwhile (its start is still recorded, as it counts
/// for nothing).
fn still_unstarted(loaded: &Loaded, pairing: PairingId) -> bool {
    loaded.arena.pairing(pairing).is_some_and(|record| {
        matches!(
            record.status,
            PairingStatus::Created | PairingStatus::Uncounted
        ) && record.game.is_none()
    })
}

/// The level of the site's bot that `player` names, when a house bot sits there.
fn house_bot_level(player: &PlayerId) -> Option<ai::Level> {
    player.as_str().strip_prefix("bot:")?.parse().ok()
}
