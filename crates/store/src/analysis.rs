//! The engine's review of a finished two-player game: written once when it is computed and
//! read back as it was written, by every node.

use crate::rows::Get;
use crate::{Store, StoreError};

impl Store {
    /// The kept review of a finished game, as it was written.
    pub async fn analysis(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let sql = "SELECT body FROM game_analyses WHERE game_id = $1";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(game_id).fetch_optional(pool).await?;
            Ok(row.map(|row| row.text("body")).transpose()?)
        })
    }

    /// Keeps the review of a finished game unless one is there already (written by another
    /// node at the same moment), and returns the one kept: every reader gets the same bytes.
    pub async fn keep_analysis(
        &self,
        game_id: &str,
        body: &str,
        now_ms: i64,
    ) -> Result<String, StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO game_analyses (game_id, body, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(body)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        self.analysis(game_id)
            .await?
            .ok_or_else(|| StoreError::Invalid(format!("the review of {game_id} was not kept")))
    }
}
