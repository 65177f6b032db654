//! White Rabbit extras beside the leaderboard (`chat.rs`): a day's figures, a player's place
//! on it, and the review of a finished game, written once and read back as it was written.

use crate::rows::{Get, narrow};
use crate::{Store, StoreError};

/// How a day's ranked attempts went: started, ended (won or lost), won.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DailyFigures {
    pub attempts: u32,
    pub finished: u32,
    pub solved: u32,
}

impl Store {
    /// The figures of `day`'s ranked attempts (practice does not count).
    pub async fn daily_figures(&self, day: &str) -> Result<DailyFigures, StoreError> {
        let sql = "SELECT COUNT(*) AS attempts, \
                   COUNT(CASE WHEN g.status = 'finished' THEN 1 END) AS finished, \
                   (SELECT COUNT(*) FROM daily_results d WHERE d.day = $1) AS solved \
                   FROM games g WHERE g.daily = $1 AND g.rated";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(day).fetch_one(pool).await?;
            Ok(DailyFigures {
                attempts: narrow(row.big("attempts")?, "attempts")?,
                finished: narrow(row.big("finished")?, "finished")?,
                solved: narrow(row.big("solved")?, "solved")?,
            })
        })
    }

    /// `user_id`'s place on `day`'s leaderboard (1 for the best), if they solved the deal:
    /// the order of [`Store::daily_leaderboard`].
    pub async fn daily_rank(&self, day: &str, user_id: &str) -> Result<Option<u32>, StoreError> {
        let sql = "SELECT (SELECT COUNT(*) FROM daily_results d WHERE d.day = me.day AND \
                   (d.score > me.score OR (d.score = me.score AND (d.actions < me.actions OR \
                   (d.actions = me.actions AND (d.finished_at < me.finished_at OR \
                   (d.finished_at = me.finished_at AND d.user_id < me.user_id))))))) AS ahead \
                   FROM daily_results me WHERE me.day = $1 AND me.user_id = $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(day).bind(user_id).fetch_optional(pool).await?;
            match row {
                Some(row) => Ok(Some(narrow::<u32>(row.big("ahead")?, "rank")? + 1)),
                None => Ok(None),
            }
        })
    }

    /// The stored review of a finished game, as it was written.
    pub async fn rabbit_review(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let sql = "SELECT body FROM rabbit_reviews WHERE game_id = $1";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(game_id).fetch_optional(pool).await?;
            Ok(row.map(|row| row.text("body")).transpose()?)
        })
    }

    /// Keeps the review of a finished game unless one is there already (written by another
    /// node at the same moment, say), and returns the one kept: every reader then gets the
    /// same bytes.
    pub async fn keep_rabbit_review(
        &self,
        game_id: &str,
        body: &str,
        now_ms: i64,
    ) -> Result<String, StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO rabbit_reviews (game_id, body, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(body)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        self.rabbit_review(game_id)
            .await?
            .ok_or_else(|| StoreError::Invalid(format!("the review of {game_id} was not kept")))
    }
}
