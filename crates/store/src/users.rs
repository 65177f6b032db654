//! Guests and registered players.

use crate::rows::Get;
use crate::{Store, StoreError, User};

const USER_COLUMNS: &str = "id, display_name, username, password_hash, created_at";

fn user_from<R: Get>(row: &R) -> Result<User, StoreError> {
    Ok(User {
        id: row.text("id")?,
        display_name: row.text("display_name")?,
        username: row.opt_text("username")?,
        password_hash: row.opt_text("password_hash")?,
        created_at: row.big("created_at")?,
    })
}

/// The form in which usernames are compared. Rust folds the case rather than SQL because
/// SQLite's `lower()` only knows ASCII and the two backends must agree.
fn username_key(username: &str) -> String {
    username.to_lowercase()
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

    /// Turns the guest `id` into a registered user, keeping its id and so its games.
    ///
    /// `NameTaken` when another user holds the username in any letter case, `NotFound` when
    /// there is no such user, `Conflict` when it is registered already.
    pub async fn register(
        &self,
        id: &str,
        username: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        let key = username_key(username);
        let updated = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE users SET username = $2, username_key = $3, password_hash = $4 \
                 WHERE id = $1 AND username IS NULL",
            )
            .bind(id)
            .bind(username)
            .bind(&key)
            .bind(password_hash)
            .execute(pool)
            .await
            .map_err(|e| {
                if crate::error::is_unique_violation(&e) {
                    StoreError::NameTaken
                } else {
                    StoreError::Database(e)
                }
            })?
            .rows_affected()
        });
        if updated == 1 {
            return Ok(());
        }
        // Nothing matched: tell a missing user from one that already has a name.
        match self.user(id).await? {
            Some(_) => Err(StoreError::Conflict),
            None => Err(StoreError::NotFound),
        }
    }

    /// Replaces the password hash. `NotFound` when there is no such user.
    pub async fn set_password(&self, id: &str, password_hash: &str) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
                .bind(id)
                .bind(password_hash)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
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
}
