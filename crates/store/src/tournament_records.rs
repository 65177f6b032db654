//! Tournaments beyond the ones players create: the site's scheduled occurrences, created once
//! each by their key, and the record a player keeps of the tournaments they took part in.

use crate::tournaments::{COLUMNS, TournamentRow, tournament_from};
use crate::{Store, StoreError};

impl Store {
    /// Stores `t` as occurrence `key` of the site's schedule (entry id and start time); false,
    /// storing nothing, when that occurrence exists already (made by an earlier pass, before a
    /// restart, or by another node).
    pub async fn create_scheduled_tournament(
        &self,
        t: &TournamentRow,
        key: &str,
    ) -> Result<bool, StoreError> {
        self.insert_tournament(t, Some(key)).await
    }

    /// The finished tournaments `user` entered, the most recently ended first: `limit` of them
    /// after the first `skip`.
    pub async fn finished_tournaments_of(
        &self,
        user: &str,
        limit: i64,
        skip: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status = 'finished' AND id IN \
             (SELECT tournament_id FROM tournament_entries WHERE user_id = $1) \
             ORDER BY ends_at DESC, id ASC LIMIT $2 OFFSET $3"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(user)
                .bind(limit)
                .bind(skip)
                .fetch_all(pool)
                .await?;
            rows.iter().map(tournament_from).collect()
        })
    }
}
