//! Challenges as stored: one player asks another for a game (docs/bot-api.md). A challenge
//! leaves `created` once, by a conditional update, so of two racing answers (on two nodes)
//! exactly one wins and the loser sees `None`.

use crate::rows::Get;
use crate::{Store, StoreError};

/// One challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    pub challenger_id: String,
    pub dest_id: String,
    pub game: String,
    pub variant: String,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub move_days: Option<i64>,
    /// The challenger's side: `a`, `b` or `random` (drawn when accepted).
    pub side: String,
    pub rated: bool,
    /// `created`, `accepted`, `declined`, `canceled` or `expired`.
    pub status: String,
    pub decline_reason: Option<String>,
    /// The table an accepted challenge started.
    pub game_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

const COLUMNS: &str = "id, challenger_id, dest_id, game, variant, clock_initial_ms, \
     clock_increment_ms, move_days, side, rated, status, decline_reason, game_id, created_at, \
     expires_at";

fn challenge_from<R: Get>(row: &R) -> Result<Challenge, StoreError> {
    Ok(Challenge {
        id: row.text("id")?,
        challenger_id: row.text("challenger_id")?,
        dest_id: row.text("dest_id")?,
        game: row.text("game")?,
        variant: row.text("variant")?,
        clock_initial_ms: row.opt_big("clock_initial_ms")?,
        clock_increment_ms: row.opt_big("clock_increment_ms")?,
        move_days: row.opt_big("move_days")?,
        side: row.text("side")?,
        rated: row.flag("rated")?,
        status: row.text("status")?,
        decline_reason: row.opt_text("decline_reason")?,
        game_id: row.opt_text("game_id")?,
        created_at: row.big("created_at")?,
        expires_at: row.big("expires_at")?,
    })
}

impl Store {
    /// Stores a new challenge. `NotFound` when either player does not exist.
    pub async fn add_challenge(&self, c: &Challenge) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(&format!(
                "INSERT INTO challenges ({COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
            ))
            .bind(&c.id)
            .bind(&c.challenger_id)
            .bind(&c.dest_id)
            .bind(&c.game)
            .bind(&c.variant)
            .bind(c.clock_initial_ms)
            .bind(c.clock_increment_ms)
            .bind(c.move_days)
            .bind(&c.side)
            .bind(c.rated)
            .bind(&c.status)
            .bind(&c.decline_reason)
            .bind(&c.game_id)
            .bind(c.created_at)
            .bind(c.expires_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        on_pool!(self, pool => {
            sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?
                .map(|row| challenge_from(&row))
                .transpose()
        })
    }

    /// Moves a challenge that is still `created` and not past its expiry at `now_ms` to
    /// `status` (with a decline's reason): the challenge as it is now, or `None` when it had
    /// already been answered, cancelled or had expired.
    pub async fn answer_challenge(
        &self,
        id: &str,
        status: &str,
        reason: Option<&str>,
        now_ms: i64,
    ) -> Result<Option<Challenge>, StoreError> {
        on_pool!(self, pool => {
            sqlx::query(&format!(
                "UPDATE challenges SET status = $2, decline_reason = $3 \
                 WHERE id = $1 AND status = 'created' AND expires_at > $4 RETURNING {COLUMNS}"
            ))
            .bind(id)
            .bind(status)
            .bind(reason)
            .bind(now_ms)
            .fetch_optional(pool)
            .await?
            .map(|row| challenge_from(&row))
            .transpose()
        })
    }

    /// Records the table an accepted challenge started.
    pub async fn set_challenge_game(&self, id: &str, game_id: &str) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("UPDATE challenges SET game_id = $2 WHERE id = $1")
                .bind(id)
                .bind(game_id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The challenges `user_id` sent or received that wait for an answer at `now_ms`,
    /// oldest first.
    pub async fn open_challenges_of(
        &self,
        user_id: &str,
        now_ms: i64,
    ) -> Result<Vec<Challenge>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM challenges \
                 WHERE (challenger_id = $1 OR dest_id = $1) AND status = 'created' \
                 AND expires_at > $2 ORDER BY created_at, id"
            ))
            .bind(user_id)
            .bind(now_ms)
            .fetch_all(pool)
            .await?;
            rows.iter().map(challenge_from).collect()
        })
    }

    /// Marks every unanswered challenge past its expiry at `now_ms` `expired` and returns
    /// them (each once: a node that races another for one gets it or does not).
    pub async fn expire_challenges(&self, now_ms: i64) -> Result<Vec<Challenge>, StoreError> {
        on_pool!(self, pool => {
            // A read first: most sweeps find nothing, and a read takes no write lock.
            let due = sqlx::query(
                "SELECT id FROM challenges WHERE status = 'created' AND expires_at <= $1 LIMIT 1",
            )
            .bind(now_ms)
            .fetch_optional(pool)
            .await?;
            if due.is_none() {
                return Ok(Vec::new());
            }
            let rows = sqlx::query(&format!(
                "UPDATE challenges SET status = 'expired' \
                 WHERE status = 'created' AND expires_at <= $1 RETURNING {COLUMNS}"
            ))
            .bind(now_ms)
            .fetch_all(pool)
            .await?;
            rows.iter().map(challenge_from).collect()
        })
    }
}
