//! What only round robins ask of the store beside the tournaments' own tables: a round robin
//! ends when its last game does (not at a time set in advance), and a correspondence round
//! robin may forbid its games the vacation days their players have.

use crate::rows::Get;
use crate::{Store, StoreError};

impl Store {
    /// Round robin `id` is over (`finished` or `cancelled`) at `ended_at` (unix ms), with its
    /// final `standings` (JSON) when it has any.
    pub async fn end_round_robin(
        &self,
        id: &str,
        status: &str,
        standings: Option<&str>,
        ended_at: i64,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "UPDATE tournaments SET status = $2, standings = COALESCE($3, standings), \
                 ends_at = $4 WHERE id = $1",
            )
            .bind(id)
            .bind(status)
            .bind(standings)
            .bind(ended_at)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Whether game `game_id` plays for a tournament that forbids vacation days.
    pub async fn game_forbids_vacation(&self, game_id: &str) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n FROM tournament_games g \
                 JOIN tournaments t ON t.id = g.tournament_id \
                 WHERE g.game_id = $1 AND NOT t.vacation",
            )
            .bind(game_id)
            .fetch_one(pool)
            .await?;
            Ok(row.big("n")? > 0)
        })
    }

    /// Links pairing `pairing` of tournament `id` to `game_id`, in place of a game of it
    /// that was called off before it counted.
    pub async fn relink_tournament_game(
        &self,
        id: &str,
        pairing: i64,
        game_id: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO tournament_games (tournament_id, pairing, game_id) \
                 VALUES ($1, $2, $3) ON CONFLICT (tournament_id, pairing) \
                 DO UPDATE SET game_id = excluded.game_id, berserk_a = FALSE, berserk_b = FALSE",
            )
            .bind(id)
            .bind(pairing)
            .bind(game_id)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }
}
