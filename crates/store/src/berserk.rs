//! Berserk in an arena game (docs/tournaments.md): whether the game's arena allows it, and who
//! went berserk. Kept on the game's link to its tournament (`tournament_games`), where the
//! tournament's runner reads it when the game ends.

use crate::rows::Get;
use crate::{Store, StoreError};

/// An arena game as its table needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaGame {
    /// Its arena allows berserk.
    pub berserk_allowed: bool,
    /// Seats A and B went berserk.
    pub berserk: [bool; 2],
}

impl Store {
    /// The arena side of game `game_id`, or `None` when it is not a tournament's game.
    pub async fn arena_game(&self, game_id: &str) -> Result<Option<ArenaGame>, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT berserk_allowed, berserk_a, berserk_b FROM tournament_games \
                 WHERE game_id = $1",
            )
            .bind(game_id)
            .fetch_optional(pool)
            .await?;
            row.map(|row| {
                Ok(ArenaGame {
                    berserk_allowed: row.flag("berserk_allowed")?,
                    berserk: [row.flag("berserk_a")?, row.flag("berserk_b")?],
                })
            })
            .transpose()
        })
    }

    /// Links pairing `pairing` of arena `id` to its game, with whether the arena allows
    /// berserk: in one write, so that the table never reads the link without it.
    pub async fn link_arena_game(
        &self,
        id: &str,
        pairing: i64,
        game_id: &str,
        berserk_allowed: bool,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO tournament_games (tournament_id, pairing, game_id, berserk_allowed) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(pairing)
            .bind(game_id)
            .bind(berserk_allowed)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// Records that seat `seat` (0 for A, 1 for B) of game `game_id` went berserk; `false`
    /// when the game is not an arena's or its arena does not allow berserk.
    pub async fn go_berserk(&self, game_id: &str, seat: usize) -> Result<bool, StoreError> {
        let sql = match seat {
            0 => {
                "UPDATE tournament_games SET berserk_a = TRUE \
                 WHERE game_id = $1 AND berserk_allowed"
            }
            _ => {
                "UPDATE tournament_games SET berserk_b = TRUE \
                 WHERE game_id = $1 AND berserk_allowed"
            }
        };
        on_pool!(self, pool => {
            let done = sqlx::query(sql)
                .bind(game_id)
                .execute(pool)
                .await
                .map_err(StoreError::from_write)?;
            Ok(done.rows_affected() > 0)
        })
    }
}
