//! The one error type every store method returns.

/// What can go wrong in the store. Callers match on the first variants to pick a reply;
/// `Database` and `Migrate` are infrastructure failures they usually just log.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row the call refers to does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness rule refused the write: the id or ply is already taken, or the row is no
    /// longer in a state that allows the change (a game already started or finished, a user
    /// already registered).
    #[error("conflict with existing data")]
    Conflict,
    /// Someone already holds this username (compared case-insensitively).
    #[error("username already taken")]
    NameTaken,
    /// The arguments make no sense (an unknown URL scheme, a non-final status passed to
    /// `finish_game`), or a stored value cannot be read back.
    #[error("invalid: {0}")]
    Invalid(String),
    /// The database could not be reached (or the writer stopped): nothing was written.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}

impl StoreError {
    /// Turns a unique-key violation into `Conflict`, leaving every other error as it was.
    pub(crate) fn conflict_on_unique(err: sqlx::Error) -> StoreError {
        if is_unique_violation(&err) {
            StoreError::Conflict
        } else {
            StoreError::Database(err)
        }
    }

    /// A unique-key violation on a username column (its case-folded key or its confusable
    /// skeleton) is `NameTaken`.
    pub(crate) fn name_taken_on_unique(err: sqlx::Error) -> StoreError {
        if is_unique_violation(&err) {
            StoreError::NameTaken
        } else {
            StoreError::Database(err)
        }
    }

    /// A missing parent row (game or user) surfaces as a foreign-key violation; callers see
    /// it as `NotFound`, and duplicate keys as `Conflict`.
    pub(crate) fn from_write(err: sqlx::Error) -> StoreError {
        if is_foreign_key_violation(&err) {
            StoreError::NotFound
        } else {
            StoreError::conflict_on_unique(err)
        }
    }
}

pub(crate) fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}

fn is_foreign_key_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_foreign_key_violation())
}
