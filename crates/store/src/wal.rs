//! Keeping SQLite's write-ahead log short while moves stream in.
//!
//! A checkpoint copies the log back into the database; only once all of it is copied can the
//! next write start the log again from its beginning. A passive checkpoint from another
//! connection never gets there while the writer commits without pause: by the time it has
//! copied what it saw, more has been written. The log then grows for as long as the load
//! lasts (a gigabyte in 20 s of the closed-loop benchmark), and every commit pays for new file
//! blocks. So the work is split: a background task does the long copy every
//! [`CHECKPOINT_INTERVAL`], off the move path, and tells the writer when it is done; the
//! writer then copies the little written since, between two batches, on its own connection,
//! and its next commit restarts the log.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::sqlite::SqlitePool;

/// How often the background checkpoint runs.
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(250);

/// The size the log file is cut back to when it restarts (SQLite's `journal_size_limit`):
/// well above what one interval of the closed-loop benchmark writes (20–35 MiB), so that the
/// log is rewritten in place instead of being cut and grown again.
pub(crate) const LOG_SIZE_LIMIT_BYTES: u64 = 128 * 1024 * 1024;

/// Set by the background checkpoint once it has copied the log as it found it; taken by the
/// writer, which then finishes the copy.
#[derive(Debug, Default, Clone)]
pub(crate) struct CatchUp(Arc<AtomicBool>);

impl CatchUp {
    /// Between two batches: copies what the background checkpoint left, if it asked to.
    /// A failure only means the log restarts later.
    pub(crate) async fn finish_on(&self, writer: &SqlitePool) {
        if self.0.swap(false, Ordering::AcqRel) {
            let _ = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(writer)
                .await;
        }
    }
}

/// Copies the log back without blocking the writer (a passive checkpoint), until the pool
/// closes or the store is gone (`alive` turns false).
pub(crate) async fn checkpoint_every(
    pool: SqlitePool,
    catch_up: CatchUp,
    alive: impl Fn() -> bool,
) {
    let mut ticks = tokio::time::interval(CHECKPOINT_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if pool.is_closed() || !alive() {
            return;
        }
        // One row: (busy, frames in the log, frames copied). A checkpoint that fails (the
        // database busy) is simply tried again at the next tick.
        let row: Result<(i64, i64, i64), _> = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pool)
            .await;
        if let Ok((_, logged, _)) = row
            && logged > 0
        {
            catch_up.0.store(true, Ordering::Release);
        }
    }
}
