//! Players' notifications: written by the tables, at most one unread per player, table and
//! kind (a new one replaces the old), listed newest first with the game and the opponent they
//! concern, read when their player opens the game, dropped when the game ends.

use crate::rows::{Get, sql_limit};
use crate::types::decode_note_kind;
use crate::{NoteKind, Store, StoreError};

/// One notification as its player sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: i64,
    pub kind: NoteKind,
    pub game_id: String,
    /// The catalogue id of the table's game (`mill`, `tumbleweed`, …).
    pub game: String,
    /// The other player at the table: a person's name, or `bot:LEVEL`; `None` when the other
    /// seat is empty.
    pub opponent: Option<String>,
    pub created_at: i64,
    pub read: bool,
}

/// The columns of a [`Notification`], from `notifications n` joined with `games g`. The
/// opponent is the first other seat that is taken.
const COLUMNS: &str = "n.id, n.kind, n.game_id, g.game, n.created_at, n.read_at, \
     (SELECT COALESCE(u.display_name, 'bot:' || s.bot) FROM game_seats s \
      LEFT JOIN users u ON u.id = s.user_id \
      WHERE s.game_id = n.game_id AND (s.bot IS NOT NULL OR (s.user_id IS NOT NULL AND s.user_id <> n.user_id)) \
      ORDER BY s.seat LIMIT 1) AS opponent";

fn notification_from<R: Get>(row: &R) -> Result<Notification, StoreError> {
    Ok(Notification {
        id: row.big("id")?,
        kind: decode_note_kind(&row.text("kind")?)?,
        game_id: row.text("game_id")?,
        game: row.text("game")?,
        opponent: row.opt_text("opponent")?,
        created_at: row.big("created_at")?,
        read: row.opt_big("read_at")?.is_some(),
    })
}

impl Store {
    /// Records a notification for `user_id` and returns it: the player's unread one of the
    /// same kind at this table, if any, is replaced (it keeps its id and takes the new time).
    pub async fn notify(
        &self,
        user_id: &str,
        kind: NoteKind,
        game_id: &str,
        now_ms: i64,
    ) -> Result<Notification, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "INSERT INTO notifications (user_id, kind, game_id, created_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (user_id, game_id, kind) WHERE read_at IS NULL \
                 DO UPDATE SET created_at = excluded.created_at RETURNING id",
            )
            .bind(user_id)
            .bind(kind.as_str())
            .bind(game_id)
            .bind(now_ms)
            .fetch_one(pool)
            .await
            .map_err(StoreError::from_write)?;
            let id = row.big("id")?;
            let row = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM notifications n JOIN games g ON g.id = n.game_id WHERE n.id = $1"
            ))
            .bind(id)
            .fetch_one(pool)
            .await?;
            notification_from(&row)
        })
    }

    /// `user_id`'s latest notifications, newest first, and how many of all are unread.
    pub async fn notifications_of(
        &self,
        user_id: &str,
        limit: u32,
    ) -> Result<(Vec<Notification>, i64), StoreError> {
        // The count is read in the same statement as the list, so that the two agree even
        // while a notification is being written.
        let (list, unread) = on_pool!(self, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {COLUMNS}, \
                 (SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL) AS unread \
                 FROM notifications n JOIN games g ON g.id = n.game_id \
                 WHERE n.user_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2"
            ))
            .bind(user_id)
            .bind(sql_limit(limit))
            .fetch_all(pool)
            .await?;
            let unread = rows.first().map(|row| row.big("unread")).transpose()?;
            let list = rows.iter().map(notification_from).collect::<Result<Vec<_>, _>>()?;
            Ok::<_, StoreError>((list, unread))
        })?;
        let unread = match unread {
            Some(unread) => unread,
            // Nothing listed: nothing unread either, unless the list was cut to nothing.
            None if limit > 0 => 0,
            None => self.unread_notifications(user_id).await?,
        };
        Ok((list, unread))
    }

    /// How many of `user_id`'s notifications are unread.
    pub async fn unread_notifications(&self, user_id: &str) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL",
            )
            .bind(user_id)
            .fetch_one(pool)
            .await?;
            Ok(row.big("n")?)
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

    /// Marks `user_id`'s notifications of the table `game_id` read (they opened the game);
    /// returns how many were unread.
    pub async fn mark_game_read(
        &self,
        user_id: &str,
        game_id: &str,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE notifications SET read_at = $3 \
                 WHERE user_id = $1 AND game_id = $2 AND read_at IS NULL",
            )
            .bind(user_id)
            .bind(game_id)
            .bind(now_ms)
            .execute(pool)
            .await?;
            Ok(done.rows_affected())
        })
    }

    /// Deletes `user_id`'s unread notification of `kind` at `game_id` (what it said is no
    /// longer true); returns whether there was one.
    pub async fn withdraw_notification(
        &self,
        user_id: &str,
        kind: NoteKind,
        game_id: &str,
    ) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query(
                "DELETE FROM notifications \
                 WHERE user_id = $1 AND kind = $2 AND game_id = $3 AND read_at IS NULL",
            )
            .bind(user_id)
            .bind(kind.as_str())
            .bind(game_id)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// The table `game_id` has ended: deletes its notifications but those of the kinds in
    /// `keep`, and returns the players who had any unread among them.
    pub async fn drop_game_notifications(
        &self,
        game_id: &str,
        keep: &[NoteKind],
    ) -> Result<Vec<String>, StoreError> {
        on_pool!(self, pool => {
            let mut query = sqlx::QueryBuilder::new("DELETE FROM notifications WHERE game_id = ");
            query.push_bind(game_id);
            for kind in keep {
                query.push(" AND kind <> ");
                query.push_bind(kind.as_str());
            }
            query.push(" RETURNING user_id, read_at");
            let rows = query.build().fetch_all(pool).await?;
            let mut users = Vec::new();
            for row in &rows {
                if row.opt_big("read_at")?.is_none() {
                    let user = row.text("user_id")?;
                    if !users.contains(&user) {
                        users.push(user);
                    }
                }
            }
            Ok(users)
        })
    }
}
