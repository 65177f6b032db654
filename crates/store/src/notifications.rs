//! Players' notifications: appended by the tables, listed newest first, marked read.

use serde::Serialize;

use crate::rows::{Get, sql_limit};
use crate::{Store, StoreError};

/// One notification as its player sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notification {
    pub id: i64,
    /// `your_turn`, `game_over`, `draw_offer`, `joined` or `deadline`.
    pub kind: String,
    pub game_id: String,
    pub created_at: i64,
    pub read: bool,
}

fn notification_from<R: Get>(row: &R) -> Result<Notification, StoreError> {
    Ok(Notification {
        id: row.big("id")?,
        kind: row.text("kind")?,
        game_id: row.text("game_id")?,
        created_at: row.big("created_at")?,
        read: row.opt_big("read_at")?.is_some(),
    })
}

impl Store {
    /// Records a notification for `user_id` and returns it.
    pub async fn notify(
        &self,
        user_id: &str,
        kind: &str,
        game_id: &str,
        now_ms: i64,
    ) -> Result<Notification, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "INSERT INTO notifications (user_id, kind, game_id, created_at) \
                 VALUES ($1, $2, $3, $4) RETURNING id, kind, game_id, created_at, read_at",
            )
            .bind(user_id)
            .bind(kind)
            .bind(game_id)
            .bind(now_ms)
            .fetch_one(pool)
            .await
            .map_err(StoreError::from_write)?;
            notification_from(&row)
        })
    }

    /// `user_id`'s latest notifications, newest first, and how many of all are unread.
    pub async fn notifications_of(
        &self,
        user_id: &str,
        limit: u32,
    ) -> Result<(Vec<Notification>, i64), StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT id, kind, game_id, created_at, read_at FROM notifications \
                 WHERE user_id = $1 ORDER BY id DESC LIMIT $2",
            )
            .bind(user_id)
            .bind(sql_limit(limit))
            .fetch_all(pool)
            .await?;
            let unread = sqlx::query(
                "SELECT COUNT(*) AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL",
            )
            .bind(user_id)
            .fetch_one(pool)
            .await?;
            let list = rows.iter().map(notification_from).collect::<Result<Vec<_>, _>>()?;
            Ok((list, unread.big("n")?))
        })
    }

    /// Marks `user_id`'s notifications read: those with these ids, or all of them (`None`).
    /// Another player's ids are left alone.
    pub async fn mark_read(
        &self,
        user_id: &str,
        ids: Option<&[i64]>,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        on_pool!(self, pool => {
            let done = match ids {
                None => sqlx::query(
                    "UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL",
                )
                .bind(user_id)
                .bind(now_ms)
                .execute(pool)
                .await?,
                Some([]) => return Ok(0),
                Some(ids) => {
                    let mut query = sqlx::QueryBuilder::new("UPDATE notifications SET read_at = ");
                    query.push_bind(now_ms);
                    query.push(" WHERE read_at IS NULL AND user_id = ");
                    query.push_bind(user_id);
                    query.push(" AND id IN (");
                    let mut list = query.separated(", ");
                    for id in ids {
                        list.push_bind(*id);
                    }
                    query.push(")");
                    query.build().execute(pool).await?
                }
            };
            Ok(done.rows_affected())
        })
    }
}
