//! Vacation days of correspondence games: an account's allowance as stored, and taking a day
//! for one game's passed deadline. The arithmetic (how many a year, when a year starts) is the
//! server's; the store keeps the counts and moves them only from the values the caller read.

use crate::rows::Get;
use crate::{Store, StoreError};

pub use record::Vacation;

impl Store {
    /// `user_id`'s vacation days, or `None` when there is no such user.
    pub async fn vacation(&self, user_id: &str) -> Result<Option<Vacation>, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT vacation_used, vacation_year, vacation_auto FROM users WHERE id = $1",
            )
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
            row.map(|row| {
                Ok(Vacation {
                    used: row.big("vacation_used")?,
                    year: row.big("vacation_year")?,
                    auto: row.flag("vacation_auto")?,
                })
            })
            .transpose()
        })
    }

    /// Turns the automatic use of `user_id`'s vacation days on or off. `NotFound` when there
    /// is no such user.
    pub async fn set_vacation_auto(&self, user_id: &str, auto: bool) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query("UPDATE users SET vacation_auto = $2 WHERE id = $1")
                .bind(user_id)
                .bind(auto)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Takes a vacation day of `user_id` for the move at ply `ply` of `game_id`, now due at
    /// `deadline` (unix ms): the allowance becomes `after`, in the same transaction as the
    /// game's deadline. `false`, writing nothing, when the allowance is no longer `before`
    /// (another table took a day, or the player turned automatic use off) or the game is not
    /// being played: the caller reads again and decides again.
    pub async fn take_vacation_day(
        &self,
        user_id: &str,
        before: &Vacation,
        after: &Vacation,
        game_id: &str,
        ply: u32,
        deadline: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The update comes first: it takes SQLite's write lock before anything is read.
            let taken = sqlx::query(
                "UPDATE users SET vacation_used = $2, vacation_year = $3 \
                 WHERE id = $1 AND vacation_used = $4 AND vacation_year = $5 \
                 AND vacation_auto = $6",
            )
            .bind(user_id)
            .bind(after.used)
            .bind(after.year)
            .bind(before.used)
            .bind(before.year)
            .bind(before.auto)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if taken == 0 {
                return Ok(false);
            }
            let moved = sqlx::query(
                "UPDATE games SET vacation_ply = $2, vacation_deadline = $3 \
                 WHERE id = $1 AND status = 'playing'",
            )
            .bind(game_id)
            .bind(i64::from(ply))
            .bind(deadline)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        })
    }
}
