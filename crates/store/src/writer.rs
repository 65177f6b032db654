//! Group commit of moves: one writer per store drains a bounded queue and writes everything
//! waiting in one statement, so a thousand tables moving at once cost a handful of commits
//! (and fsyncs) a second instead of a thousand.
//!
//! A lone move is written at once: the writer never waits for company, it only takes what
//! has queued up while the previous batch was being written. A full queue makes
//! [`MoveQueue::append`] wait (back-pressure); nothing is ever dropped. Each move hears its
//! own outcome: `Ok` once the batch holding it is committed, `Conflict` when its
//! `(game_id, ply)` was already recorded, and the batch's error when the batch failed, in
//! which case none of its moves was written.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{mpsc, oneshot};

use crate::rows::{Get, to_int};
use crate::wal::CatchUp;
use crate::{MoveRow, Pool, StoreError};

/// Moves waiting for the writer at most; senders wait beyond that.
const QUEUE_CAPACITY: usize = 4_096;
/// Moves in one statement at most (six bound values each, well inside both backends' limits).
const BATCH_MAX: usize = 512;

struct Job {
    game_id: String,
    ply: i32,
    mv: MoveRow,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The sending side of the writer; cloned with the store.
#[derive(Debug, Clone)]
pub(crate) struct MoveQueue {
    tx: mpsc::Sender<Job>,
    /// Moves queued and not yet answered (the `stolik_writer_queue` gauge).
    queued: Arc<AtomicUsize>,
    /// The writer's connections, closed with the store.
    pool: Pool,
}

impl MoveQueue {
    /// Starts the writer task on the current runtime; it ends when every sender is gone.
    /// `catch_up` is SQLite's log keeping (see `wal.rs`), which the writer finishes between
    /// batches.
    pub(crate) fn start(pool: Pool, catch_up: Option<CatchUp>) -> MoveQueue {
        let (tx, rx) = mpsc::channel(QUEUE_CAPACITY);
        let queued = Arc::new(AtomicUsize::new(0));
        tokio::spawn(run(pool.clone(), rx, queued.clone(), catch_up));
        MoveQueue { tx, queued, pool }
    }

    pub(crate) async fn append(&self, game_id: &str, mv: &MoveRow) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        let job = Job {
            game_id: game_id.to_string(),
            ply: to_int(mv.ply, "ply")?,
            mv: mv.clone(),
            done,
        };
        self.queued.fetch_add(1, Ordering::Relaxed);
        let gone = || StoreError::Unavailable("the move writer has stopped".to_string());
        if self.tx.send(job).await.is_err() {
            self.queued.fetch_sub(1, Ordering::Relaxed);
            return Err(gone());
        }
        answer.await.map_err(|_| gone())?
    }

    /// Whether any handle of the store still exists (background tasks end with it).
    pub(crate) fn alive(&self) -> impl Fn() -> bool + Send + 'static {
        let weak = self.tx.downgrade();
        move || weak.strong_count() > 0
    }

    /// Closes the writer's connections: moves sent from now on fail with `Unavailable`.
    pub(crate) async fn close(&self) {
        on_pool!(@pool &self.pool, pool => pool.close().await);
    }
}

async fn run(
    pool: Pool,
    mut rx: mpsc::Receiver<Job>,
    queued: Arc<AtomicUsize>,
    catch_up: Option<CatchUp>,
) {
    // A job that could not join the last batch (its key was already in it) starts the next.
    let mut carried: Option<Job> = None;
    loop {
        let first = match carried.take() {
            Some(job) => job,
            None => match rx.recv().await {
                Some(job) => job,
                None => return,
            },
        };
        let mut keys = HashSet::new();
        keys.insert((first.game_id.clone(), first.ply));
        let mut batch = vec![first];
        while batch.len() < BATCH_MAX {
            let Ok(job) = rx.try_recv() else { break };
            // Two writes of one key in one statement could not be told apart in its answer.
            if !keys.insert((job.game_id.clone(), job.ply)) {
                carried = Some(job);
                break;
            }
            batch.push(job);
        }
        let started = std::time::Instant::now();
        let size = batch.len();
        write(&pool, batch).await;
        let waiting = queued.fetch_sub(size, Ordering::Relaxed) - size;
        metrics::histogram!("stolik_commit_batch_moves").record(size as f64);
        metrics::histogram!("stolik_commit_seconds").record(started.elapsed().as_secs_f64());
        metrics::gauge!("stolik_writer_queue").set(waiting as f64);
        if let (Some(catch_up), Pool::Sqlite(writer)) = (&catch_up, &pool) {
            catch_up.finish_on(writer).await;
        }
    }
}

/// Writes one batch and answers each of its moves.
async fn write(pool: &Pool, mut batch: Vec<Job>) {
    match insert(pool, &batch).await {
        Ok(inserted) => {
            for job in batch {
                let key = (job.game_id, job.ply);
                let result = if inserted.contains(&key) {
                    Ok(())
                } else {
                    Err(StoreError::Conflict)
                };
                let _ = job.done.send(result);
            }
        }
        // One bad row (a game that does not exist, a ply below 1) fails the statement for all:
        // the others must not pay for it, so each is tried on its own.
        Err(sqlx::Error::Database(_)) if batch.len() > 1 => {
            for job in batch {
                let result = match insert(pool, std::slice::from_ref(&job)).await {
                    Ok(inserted) if inserted.is_empty() => Err(StoreError::Conflict),
                    Ok(_) => Ok(()),
                    Err(e) => Err(StoreError::from_write(e)),
                };
                let _ = job.done.send(result);
            }
        }
        Err(e @ sqlx::Error::Database(_)) => {
            if let Some(job) = batch.pop() {
                let _ = job.done.send(Err(StoreError::from_write(e)));
            }
        }
        // The database is unreachable: nothing of the batch was written.
        Err(e) => {
            let message = e.to_string();
            for job in batch {
                let _ = job.done.send(Err(StoreError::Unavailable(message.clone())));
            }
        }
    }
}

/// Inserts the batch in one statement; the answer holds the keys it wrote, so a key missing
/// from it was already taken.
async fn insert(pool: &Pool, batch: &[Job]) -> Result<HashSet<(String, i32)>, sqlx::Error> {
    on_pool!(@pool pool, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "INSERT INTO moves (game_id, ply, mv, played_at, clock_a_ms, clock_b_ms) ",
        );
        query.push_values(batch, |mut row, job| {
            row.push_bind(job.game_id.as_str())
                .push_bind(job.ply)
                .push_bind(job.mv.mv.as_str())
                .push_bind(job.mv.played_at)
                .push_bind(job.mv.clock_a_ms)
                .push_bind(job.mv.clock_b_ms);
        });
        query.push(" ON CONFLICT (game_id, ply) DO NOTHING RETURNING game_id, ply");
        let rows = query.build().fetch_all(pool).await?;
        rows.iter()
            .map(|row| Ok((row.text("game_id")?, row.int("ply")?)))
            .collect()
    })
}
