//! Personal API tokens as stored: who owns each, what it may do, and when it was last used.
//! Only a hash of the secret is kept (the server hashes; the store never sees a secret).

use crate::rows::Get;
use crate::{Store, StoreError};

/// One token as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    pub id: String,
    pub user_id: String,
    /// The owner's name for it ("my engine on the laptop").
    pub name: String,
    /// The scopes it grants, comma-separated (the server parses them).
    pub scopes: String,
    /// The owner's token version when it was made: a later version ends it.
    pub version: i64,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// A token found by its secret, with what the server needs of its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenOwner {
    pub token: ApiToken,
    pub display_name: String,
    /// The owner's token version now: the token works only while it equals the token's.
    pub current_version: i64,
    /// The owner is a bot account.
    pub bot: bool,
}

/// A token to store, with the hash of its secret.
#[derive(Debug, Clone)]
pub struct NewApiToken<'a> {
    pub token: &'a ApiToken,
    pub hash: &'a str,
}

const COLUMNS: &str = "id, user_id, name, scopes, version, created_at, last_used_at";

fn token_from<R: Get>(row: &R) -> Result<ApiToken, StoreError> {
    Ok(ApiToken {
        id: row.text("id")?,
        user_id: row.text("user_id")?,
        name: row.text("name")?,
        scopes: row.text("scopes")?,
        version: row.big("version")?,
        created_at: row.big("created_at")?,
        last_used_at: row.opt_big("last_used_at")?,
    })
}

impl Store {
    /// Stores a new token. `NotFound` when its owner does not exist.
    pub async fn add_api_token(&self, new: &NewApiToken<'_>) -> Result<(), StoreError> {
        let t = new.token;
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO api_tokens (id, user_id, name, scopes, hash, version, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&t.id)
            .bind(&t.user_id)
            .bind(&t.name)
            .bind(&t.scopes)
            .bind(new.hash)
            .bind(t.version)
            .bind(t.created_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// `user_id`'s tokens that are still good (made under `version`, the owner's current
    /// token version), newest first.
    pub async fn api_tokens_of(
        &self,
        user_id: &str,
        version: i64,
    ) -> Result<Vec<ApiToken>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM api_tokens WHERE user_id = $1 AND version = $2 \
                 ORDER BY created_at DESC, id"
            ))
            .bind(user_id)
            .bind(version)
            .fetch_all(pool)
            .await?;
            rows.iter().map(token_from).collect()
        })
    }

    /// The token whose secret hashes to `hash`, with its owner's name and current token
    /// version, if there is one.
    pub async fn api_token_by_hash(&self, hash: &str) -> Result<Option<TokenOwner>, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT t.id, t.user_id, t.name, t.scopes, t.version, t.created_at, \
                 t.last_used_at, u.display_name, u.token_version, u.bot \
                 FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = $1",
            )
            .bind(hash)
            .fetch_optional(pool)
            .await?;
            row.as_ref()
                .map(|row| {
                    Ok(TokenOwner {
                        token: token_from(row)?,
                        display_name: row.text("display_name")?,
                        current_version: row.big("token_version")?,
                        bot: row.flag("bot")?,
                    })
                })
                .transpose()
        })
    }

    /// Deletes `user_id`'s token `id`. `NotFound` when the user has no such token.
    pub async fn revoke_api_token(&self, user_id: &str, id: &str) -> Result<(), StoreError> {
        let deleted = on_pool!(self, pool => {
            sqlx::query("DELETE FROM api_tokens WHERE user_id = $1 AND id = $2")
                .bind(user_id)
                .bind(id)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if deleted == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Deletes `user_id`'s tokens made before `version` (they no longer work: "log out
    /// everywhere" ended them).
    pub async fn drop_ended_api_tokens(
        &self,
        user_id: &str,
        version: i64,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM api_tokens WHERE user_id = $1 AND version < $2")
                .bind(user_id)
                .bind(version)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Records that token `id` was used at `at_ms`.
    pub async fn touch_api_token(&self, id: &str, at_ms: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1")
                .bind(id)
                .bind(at_ms)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
