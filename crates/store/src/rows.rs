//! Reading columns out of either backend's rows with one piece of code.
//!
//! The row mappers are generic over [`Get`], which both `SqliteRow` and `PgRow` implement, so
//! each mapper is written once. Integer widths follow the schema: `BIGINT` columns (times,
//! seeds, counts) are read as `i64`, `INTEGER` columns (seat, ply, score) as `i32`, because
//! PostgreSQL refuses to decode an `INT4` into an `i64` and vice versa.

use sqlx::Row;

use crate::StoreError;

pub(crate) trait Get {
    fn text(&self, col: &str) -> Result<String, sqlx::Error>;
    fn opt_text(&self, col: &str) -> Result<Option<String>, sqlx::Error>;
    fn big(&self, col: &str) -> Result<i64, sqlx::Error>;
    fn opt_big(&self, col: &str) -> Result<Option<i64>, sqlx::Error>;
    fn int(&self, col: &str) -> Result<i32, sqlx::Error>;
    fn flag(&self, col: &str) -> Result<bool, sqlx::Error>;
    fn float(&self, col: &str) -> Result<f64, sqlx::Error>;
    fn opt_float(&self, col: &str) -> Result<Option<f64>, sqlx::Error>;
}

macro_rules! impl_get {
    ($row:ty) => {
        impl Get for $row {
            fn text(&self, col: &str) -> Result<String, sqlx::Error> {
                self.try_get(col)
            }
            fn opt_text(&self, col: &str) -> Result<Option<String>, sqlx::Error> {
                self.try_get(col)
            }
            fn big(&self, col: &str) -> Result<i64, sqlx::Error> {
                self.try_get(col)
            }
            fn opt_big(&self, col: &str) -> Result<Option<i64>, sqlx::Error> {
                self.try_get(col)
            }
            fn int(&self, col: &str) -> Result<i32, sqlx::Error> {
                self.try_get(col)
            }
            fn flag(&self, col: &str) -> Result<bool, sqlx::Error> {
                self.try_get(col)
            }
            fn float(&self, col: &str) -> Result<f64, sqlx::Error> {
                self.try_get(col)
            }
            fn opt_float(&self, col: &str) -> Result<Option<f64>, sqlx::Error> {
                self.try_get(col)
            }
        }
    };
}

impl_get!(sqlx::sqlite::SqliteRow);
impl_get!(sqlx::postgres::PgRow);

/// Narrows a stored integer to the Rust type the API uses, refusing values that do not fit
/// rather than wrapping them.
pub(crate) fn narrow<T: TryFrom<i64>>(value: i64, what: &str) -> Result<T, StoreError> {
    T::try_from(value)
        .map_err(|_| StoreError::Invalid(format!("stored {what} {value} out of range")))
}

/// Widens an API integer for binding to an `INTEGER` column, refusing values PostgreSQL's
/// `INT4` cannot hold.
pub(crate) fn to_int<T: TryInto<i32>>(value: T, what: &str) -> Result<i32, StoreError> {
    value
        .try_into()
        .map_err(|_| StoreError::Invalid(format!("{what} too large")))
}

/// `LIMIT` takes a BIGINT on both backends.
pub(crate) fn sql_limit(n: u32) -> i64 {
    i64::from(n)
}
