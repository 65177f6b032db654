//! Server-wide key/value settings, such as the JWT signing secret.

use sqlx::Row;

use crate::{Store, StoreError};

impl Store {
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        let value = on_pool!(self, pool => {
            sqlx::query("SELECT value FROM settings WHERE name = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?
                .map(|row| row.try_get::<String, _>("value"))
                .transpose()?
        });
        Ok(value)
    }

    /// Returns the stored value of `key`, storing `make()` first when there is none.
    ///
    /// Several nodes may start at once and each make a different value: the insert ignores a
    /// clash and everyone reads back whichever value landed first, so they all agree.
    pub async fn setting_or_insert(
        &self,
        key: &str,
        make: impl FnOnce() -> String,
    ) -> Result<String, StoreError> {
        if let Some(value) = self.setting(key).await? {
            return Ok(value);
        }
        let fresh = make();
        on_pool!(self, pool => {
            sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .bind(key)
                .bind(&fresh)
                .execute(pool)
                .await?;
        });
        self.setting(key).await?.ok_or(StoreError::NotFound)
    }
}
