//! Guests and registered players, their sessions' version, and their mute lists.

use crate::rows::Get;
use crate::{Store, StoreError, User};

const USER_COLUMNS: &str =
    "id, display_name, username, password_hash, created_at, token_version, flagged_at, bot";

fn user_from<R: Get>(row: &R) -> Result<User, StoreError> {
    Ok(User {
        id: row.text("id")?,
        display_name: row.text("display_name")?,
        username: row.opt_text("username")?,
        password_hash: row.opt_text("password_hash")?,
        created_at: row.big("created_at")?,
        token_version: row.big("token_version")?,
        flagged_at: row.opt_big("flagged_at")?,
        bot: row.flag("bot")?,
    })
}

/// The form in which usernames are compared. Rust folds the case rather than SQL because
/// SQLite's `lower()` only knows ASCII and the two backends must agree.
fn username_key(username: &str) -> String {
    username.to_lowercase()
}

/// What registering writes besides the id.
#[derive(Debug, Clone)]
pub struct Registration<'a> {
    pub username: &'a str,
    /// The confusable skeleton of the username: no two accounts may share one.
    pub skeleton: &'a str,
    pub password_hash: &'a str,
}

impl Store {
    /// Creates a guest. `Conflict` if the id is taken.
    pub async fn create_user(
        &self,
        id: &str,
        display_name: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("INSERT INTO users (id, display_name, created_at) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(display_name)
                .bind(now_ms)
                .execute(pool)
                .await
                .map_err(StoreError::conflict_on_unique)?;
        });
        Ok(())
    }

    /// Writes a guest's row unless it exists: guests are stored only once they do something
    /// that needs a row (sit, chat, create a table), not when they are first seen.
    pub async fn ensure_user(
        &self,
        id: &str,
        display_name: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO users (id, display_name, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(id)
            .bind(display_name)
            .bind(now_ms)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    pub async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        on_pool!(self, pool => {
            sqlx::query(&sql)
                .bind(id)
                .fetch_optional(pool)
                .await?
                .map(|row| user_from(&row))
                .transpose()
        })
    }

    /// How many user rows exist, guests included.
    pub async fn user_count(&self) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query("SELECT COUNT(*) AS n FROM users").fetch_one(pool).await?;
            Ok(row.big("n")?)
        })
    }

    /// Accounts whose username starts with `prefix` (letter case aside), in username order:
    /// `(id, display name)`, at most `limit`. Guests have no username and are never found.
    pub async fn search_users(
        &self,
        prefix: &str,
        limit: u32,
    ) -> Result<Vec<(String, String)>, StoreError> {
        // LIKE's wildcards in the prefix are matched as themselves.
        let pattern = format!(
            "{}%",
            username_key(prefix)
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT id, display_name FROM users WHERE username_key LIKE $1 ESCAPE '\\' \
                 ORDER BY username_key LIMIT $2",
            )
            .bind(&pattern)
            .bind(crate::rows::sql_limit(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| Ok((row.text("id")?, row.text("display_name")?)))
                .collect()
        })
    }

    /// Finds a registered user by username, ignoring case.
    pub async fn user_by_username(&self, username: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE username_key = $1");
        let key = username_key(username);
        on_pool!(self, pool => {
            sqlx::query(&sql)
                .bind(&key)
                .fetch_optional(pool)
                .await?
                .map(|row| user_from(&row))
                .transpose()
        })
    }

    /// Turns the guest `id` into a registered user, keeping its id and so its games, and
    /// bumps its token version so that the guest's token no longer works. Returns the new
    /// version.
    ///
    /// `NameTaken` when another user holds the username in any letter case or a confusable
    /// spelling, `NotFound` when there is no such user, `Conflict` when it is registered
    /// already.
    pub async fn register(&self, id: &str, account: &Registration<'_>) -> Result<i64, StoreError> {
        let key = username_key(account.username);
        let version = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE users SET username = $2, username_key = $3, username_skeleton = $4, \
                 password_hash = $5, token_version = token_version + 1 \
                 WHERE id = $1 AND username IS NULL RETURNING token_version",
            )
            .bind(id)
            .bind(account.username)
            .bind(&key)
            .bind(account.skeleton)
            .bind(account.password_hash)
            .fetch_optional(pool)
            .await
            .map_err(StoreError::name_taken_on_unique)?
            .map(|row| row.big("token_version"))
            .transpose()?
        });
        if let Some(version) = version {
            return Ok(version);
        }
        // Nothing matched: tell a missing user from one that already has a name.
        match self.user(id).await? {
            Some(_) => Err(StoreError::Conflict),
            None => Err(StoreError::NotFound),
        }
    }

    /// Replaces the password hash and bumps the token version (every older session ends).
    /// Returns the new version; `NotFound` when there is no such user.
    pub async fn set_password(&self, id: &str, password_hash: &str) -> Result<i64, StoreError> {
        let version = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE users SET password_hash = $2, token_version = token_version + 1 \
                 WHERE id = $1 RETURNING token_version",
            )
            .bind(id)
            .bind(password_hash)
            .fetch_optional(pool)
            .await?
            .map(|row| row.big("token_version"))
            .transpose()?
        });
        version.ok_or(StoreError::NotFound)
    }

    /// Ends every session of a user ("log out everywhere"): returns the new token version.
    pub async fn bump_token_version(&self, id: &str) -> Result<i64, StoreError> {
        let version = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE users SET token_version = token_version + 1 WHERE id = $1 \
                 RETURNING token_version",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
            .map(|row| row.big("token_version"))
            .transpose()?
        });
        version.ok_or(StoreError::NotFound)
    }

    /// Makes an account a bot, for good. Only an account (not a guest) that has never sat
    /// at a table may become one: `NotFound` without such a user, `Conflict` for a guest, one
    /// with games, or one that is a bot already. One statement, so a game joined meanwhile
    /// cannot slip in between the check and the change.
    pub async fn make_bot(&self, id: &str) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE users SET bot = TRUE WHERE id = $1 AND bot = FALSE \
                 AND username IS NOT NULL \
                 AND NOT EXISTS (SELECT 1 FROM game_seats s WHERE s.user_id = $1)",
            )
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
        });
        if updated == 0 {
            return match self.user(id).await? {
                Some(_) => Err(StoreError::Conflict),
                None => Err(StoreError::NotFound),
            };
        }
        Ok(())
    }

    /// Flags (or, with `None`, unflags) an account. `NotFound` when there is no such user.
    pub async fn set_flagged(&self, id: &str, at_ms: Option<i64>) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query("UPDATE users SET flagged_at = $2 WHERE id = $1")
                .bind(id)
                .bind(at_ms)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Registered users whose confusable skeleton is not stored yet (accounts made before
    /// skeletons existed), as `(id, username)`.
    pub async fn users_without_skeleton(&self) -> Result<Vec<(String, String)>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT id, username FROM users \
                 WHERE username IS NOT NULL AND username_skeleton IS NULL",
            )
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| Ok((row.text("id")?, row.text("username")?)))
                .collect()
        })
    }

    /// Stores a username's skeleton. `NameTaken` when another account already has it.
    pub async fn set_skeleton(&self, id: &str, skeleton: &str) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("UPDATE users SET username_skeleton = $2 WHERE id = $1")
                .bind(id)
                .bind(skeleton)
                .execute(pool)
                .await
                .map_err(StoreError::name_taken_on_unique)?;
        });
        Ok(())
    }

    /// Changes the name shown for a user. `NotFound` when there is no such user.
    pub async fn set_display_name(&self, id: &str, display_name: &str) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query("UPDATE users SET display_name = $2 WHERE id = $1")
                .bind(id)
                .bind(display_name)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// `user_id` no longer sees `muted_id`'s chat. Muting twice is no error.
    pub async fn mute(&self, user_id: &str, muted_id: &str, now_ms: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO mutes (user_id, muted_id, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id, muted_id) DO NOTHING",
            )
            .bind(user_id)
            .bind(muted_id)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    pub async fn unmute(&self, user_id: &str, muted_id: &str) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM mutes WHERE user_id = $1 AND muted_id = $2")
                .bind(user_id)
                .bind(muted_id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The ids `user_id` has muted.
    pub async fn mutes_of(&self, user_id: &str) -> Result<Vec<String>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query("SELECT muted_id FROM mutes WHERE user_id = $1 ORDER BY muted_id")
                .bind(user_id)
                .fetch_all(pool)
                .await?;
            rows.iter().map(|row| Ok(row.text("muted_id")?)).collect()
        })
    }

    /// Stores a report of a player (and optionally one of their chat lines); returns its id.
    /// `NotFound` when either user or the chat line does not exist.
    pub async fn add_report(&self, report: &NewReport) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "INSERT INTO reports (reporter_id, reported_id, chat_id, reason, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(&report.reporter_id)
            .bind(&report.reported_id)
            .bind(report.chat_id)
            .bind(&report.reason)
            .bind(report.created_at)
            .fetch_one(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(row.big("id")?)
        })
    }

    /// The reports about a user, newest first.
    pub async fn reports_about(&self, user_id: &str) -> Result<Vec<Report>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT id, reporter_id, reported_id, chat_id, reason, created_at FROM reports \
                 WHERE reported_id = $1 ORDER BY id DESC",
            )
            .bind(user_id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(Report {
                        id: row.big("id")?,
                        reporter_id: row.text("reporter_id")?,
                        reported_id: row.text("reported_id")?,
                        chat_id: row.opt_big("chat_id")?,
                        reason: row.text("reason")?,
                        created_at: row.big("created_at")?,
                    })
                })
                .collect()
        })
    }

    /// A write that touches nothing that matters, for health checks: proves the database
    /// accepts writes, not only reads.
    pub async fn probe_write(&self, now_ms: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO settings (name, value) VALUES ('health_probe', $1) \
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )
            .bind(now_ms.to_string())
            .execute(pool)
            .await?;
        });
        Ok(())
    }
}

/// A report as written.
#[derive(Debug, Clone)]
pub struct NewReport {
    pub reporter_id: String,
    pub reported_id: String,
    pub chat_id: Option<i64>,
    pub reason: String,
    pub created_at: i64,
}

/// A stored report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub id: i64,
    pub reporter_id: String,
    pub reported_id: String,
    pub chat_id: Option<i64>,
    pub reason: String,
    pub created_at: i64,
}
