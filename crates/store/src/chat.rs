//! Table chat and the White Rabbit daily-deal leaderboard: both are append-mostly lists
//! read back as a short ordered tail.

use crate::rows::{Get, narrow, sql_limit, to_int};
use crate::{ChatLine, DailyEntry, DailyResult, NewChatLine, Store, StoreError};

fn chat_from<R: Get>(row: &R) -> Result<ChatLine, StoreError> {
    Ok(ChatLine {
        id: row.big("id")?,
        game_id: row.text("game_id")?,
        user_id: row.opt_text("user_id")?,
        author: row.text("author")?,
        body: row.text("body")?,
        sent_at: row.big("sent_at")?,
        room: crate::types::decode_room(&row.text("room")?)?,
    })
}

fn entry_from<R: Get>(row: &R, rank: usize) -> Result<DailyEntry, StoreError> {
    Ok(DailyEntry {
        // LIMIT is a u32, so a position always fits.
        rank: u32::try_from(rank + 1).unwrap_or(u32::MAX),
        user_id: row.text("user_id")?,
        display_name: row.text("display_name")?,
        game_id: row.text("game_id")?,
        score: row.int("score")?,
        actions: narrow(row.int("actions")?.into(), "actions")?,
        finished_at: row.big("finished_at")?,
    })
}

impl Store {
    /// Appends a chat line and returns its id. `NotFound` when the game (or the user) does
    /// not exist.
    pub async fn add_chat(&self, line: &NewChatLine) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "INSERT INTO chat (game_id, user_id, author, body, sent_at, room) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            )
            .bind(&line.game_id)
            .bind(line.user_id.as_deref())
            .bind(&line.author)
            .bind(&line.body)
            .bind(line.sent_at)
            .bind(line.room.as_str())
            .fetch_one(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(row.big("id")?)
        })
    }

    /// One chat line by id.
    pub async fn chat_line(&self, id: i64) -> Result<Option<ChatLine>, StoreError> {
        on_pool!(self, pool => {
            sqlx::query("SELECT id, game_id, user_id, author, body, sent_at, room FROM chat WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
                .map(|row| chat_from(&row))
                .transpose()
        })
    }

    /// The last `n` lines of a game's chat, oldest first, ready to print.
    pub async fn chat_tail(&self, game_id: &str, n: u32) -> Result<Vec<ChatLine>, StoreError> {
        // The inner query picks the newest lines; the outer one puts them back in reading order.
        let sql = "SELECT id, game_id, user_id, author, body, sent_at, room FROM ( \
                       SELECT id, game_id, user_id, author, body, sent_at, room FROM chat \
                       WHERE game_id = $1 ORDER BY id DESC LIMIT $2 \
                   ) AS tail ORDER BY id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(game_id).bind(sql_limit(n)).fetch_all(pool).await?;
            rows.iter().map(chat_from).collect()
        })
    }

    /// Records a daily-deal result, keeping only each player's best of the day: a higher
    /// score, or the same score in fewer actions. True when this result was stored (first of
    /// the day or an improvement), false when an equal or better one was already there.
    /// `NotFound` when the user or game does not exist.
    pub async fn record_daily(&self, r: &DailyResult) -> Result<bool, StoreError> {
        let actions = to_int(r.actions, "actions")?;
        // The WHERE on the upsert makes "keep the best" one atomic statement, so two results
        // arriving at once cannot overwrite a better one.
        let stored = on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO daily_results (day, user_id, game_id, score, actions, finished_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (day, user_id) DO UPDATE SET \
                     game_id = excluded.game_id, score = excluded.score, \
                     actions = excluded.actions, finished_at = excluded.finished_at \
                 WHERE excluded.score > daily_results.score \
                    OR (excluded.score = daily_results.score \
                        AND excluded.actions < daily_results.actions)",
            )
            .bind(&r.day)
            .bind(&r.user_id)
            .bind(&r.game_id)
            .bind(r.score)
            .bind(actions)
            .bind(r.finished_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?
            .rows_affected()
        });
        Ok(stored > 0)
    }

    /// The best results of `day`: highest score first, then fewest actions, then whoever
    /// finished earlier.
    pub async fn daily_leaderboard(
        &self,
        day: &str,
        limit: u32,
    ) -> Result<Vec<DailyEntry>, StoreError> {
        let sql = "SELECT d.user_id, u.display_name, d.game_id, d.score, d.actions, d.finished_at \
                   FROM daily_results d JOIN users u ON u.id = d.user_id \
                   WHERE d.day = $1 \
                   ORDER BY d.score DESC, d.actions ASC, d.finished_at ASC, d.user_id ASC \
                   LIMIT $2";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(day).bind(sql_limit(limit)).fetch_all(pool).await?;
            rows.iter().enumerate().map(|(i, row)| entry_from(row, i)).collect()
        })
    }
}
