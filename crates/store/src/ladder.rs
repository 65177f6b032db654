//! The bot ladder as stored (docs/bots.md, "The ladder"): the bot accounts that joined it,
//! and every game it asked for, from the challenge or table to the end.

use crate::rows::Get;
use crate::{Store, StoreError};

/// A bot account on the ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderEntrant {
    pub user_id: String,
    pub name: String,
    pub joined_at: i64,
}

/// One game the ladder asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderGame {
    pub id: String,
    /// The pair, in sorted order (user ids, or a house bot's `bot:LEVEL`).
    pub player_lo: String,
    pub player_hi: String,
    /// Who sits at the first seat.
    pub first: String,
    pub game: String,
    pub variant: String,
    pub challenge_id: Option<String>,
    pub game_id: Option<String>,
    /// `challenged`, `playing`, `over` or `skipped`.
    pub status: String,
    pub created_at: i64,
    pub ended_at: Option<i64>,
}

/// How often a pair has met on the ladder, and when last (unix ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderPair {
    pub player_lo: String,
    pub player_hi: String,
    pub games: i64,
    pub last_at: i64,
}

/// A finished ladder game with its table's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderResult {
    pub game: LadderGame,
    pub result: Option<String>,
    pub reason: Option<String>,
}

const COLUMNS: &str = "id, player_lo, player_hi, first, game, variant, challenge_id, game_id, \
     status, created_at, ended_at";

fn game_from<R: Get>(row: &R) -> Result<LadderGame, StoreError> {
    Ok(LadderGame {
        id: row.text("id")?,
        player_lo: row.text("player_lo")?,
        player_hi: row.text("player_hi")?,
        first: row.text("first")?,
        game: row.text("game")?,
        variant: row.text("variant")?,
        challenge_id: row.opt_text("challenge_id")?,
        game_id: row.opt_text("game_id")?,
        status: row.text("status")?,
        created_at: row.big("created_at")?,
        ended_at: row.opt_big("ended_at")?,
    })
}

/// [`COLUMNS`] of the table aliased `l`, for a join.
fn prefixed_columns() -> String {
    COLUMNS
        .split(", ")
        .map(|c| format!("l.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    /// Puts bot account `user_id` on the ladder (again: a no-op). `NotFound` without such a
    /// user.
    pub async fn join_ladder(&self, user_id: &str, now_ms: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO ladder_entrants (user_id, joined_at) VALUES ($1, $2) \
                 ON CONFLICT (user_id) DO NOTHING",
            )
            .bind(user_id)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// Takes `user_id` off the ladder; whether it was on it.
    pub async fn leave_ladder(&self, user_id: &str) -> Result<bool, StoreError> {
        let removed = on_pool!(self, pool => {
            sqlx::query("DELETE FROM ladder_entrants WHERE user_id = $1")
                .bind(user_id)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(removed > 0)
    }

    /// The bot accounts on the ladder, earliest first.
    pub async fn ladder_entrants(&self) -> Result<Vec<LadderEntrant>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT e.user_id, u.display_name, e.joined_at FROM ladder_entrants e \
                 JOIN users u ON u.id = e.user_id WHERE u.bot = TRUE \
                 ORDER BY e.joined_at, e.user_id",
            )
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(LadderEntrant {
                        user_id: row.text("user_id")?,
                        name: row.text("display_name")?,
                        joined_at: row.big("joined_at")?,
                    })
                })
                .collect()
        })
    }

    pub async fn add_ladder_game(&self, g: &LadderGame) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(&format!(
                "INSERT INTO ladder_games ({COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            ))
            .bind(&g.id)
            .bind(&g.player_lo)
            .bind(&g.player_hi)
            .bind(&g.first)
            .bind(&g.game)
            .bind(&g.variant)
            .bind(&g.challenge_id)
            .bind(&g.game_id)
            .bind(&g.status)
            .bind(g.created_at)
            .bind(g.ended_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// Moves ladder game `id` on: its status, its table once it has one, when it ended.
    pub async fn set_ladder_game(
        &self,
        id: &str,
        status: &str,
        game_id: Option<&str>,
        ended_at: Option<i64>,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "UPDATE ladder_games SET status = $2, game_id = COALESCE($3, game_id), \
                 ended_at = COALESCE($4, ended_at) WHERE id = $1",
            )
            .bind(id)
            .bind(status)
            .bind(game_id)
            .bind(ended_at)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The ladder's games not yet over (waiting for an answer, or being played), each with
    /// its table's status (`open`, `playing`, `finished`, `aborted`) once it has a table.
    pub async fn open_ladder_games(&self) -> Result<Vec<(LadderGame, Option<String>)>, StoreError> {
        let columns = prefixed_columns();
        on_pool!(self, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {columns}, g.status AS table_status FROM ladder_games l \
                 LEFT JOIN games g ON g.id = l.game_id \
                 WHERE l.status IN ('challenged', 'playing') ORDER BY l.created_at, l.id"
            ))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| Ok((game_from(row)?, row.opt_text("table_status")?)))
                .collect()
        })
    }

    /// Every pair that has met on the ladder (skipped challenges included), with how often
    /// and when last.
    pub async fn ladder_pairs(&self) -> Result<Vec<LadderPair>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT player_lo, player_hi, COUNT(*) AS games, MAX(created_at) AS last_at \
                 FROM ladder_games GROUP BY player_lo, player_hi",
            )
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(LadderPair {
                        player_lo: row.text("player_lo")?,
                        player_hi: row.text("player_hi")?,
                        games: row.big("games")?,
                        last_at: row.big("last_at")?,
                    })
                })
                .collect()
        })
    }

    /// The last `limit` ladder games that ended, newest first, with their results.
    pub async fn recent_ladder_games(&self, limit: u32) -> Result<Vec<LadderResult>, StoreError> {
        let columns = prefixed_columns();
        on_pool!(self, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {columns}, g.result, g.end_reason FROM ladder_games l \
                 LEFT JOIN games g ON g.id = l.game_id \
                 WHERE l.status = 'over' ORDER BY l.ended_at DESC, l.id LIMIT $1"
            ))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(LadderResult {
                        game: game_from(row)?,
                        result: row.opt_text("result")?,
                        reason: row.opt_text("end_reason")?,
                    })
                })
                .collect()
        })
    }
}
