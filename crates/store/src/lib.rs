//! Persistence for Stolik: users, games with their seats and moves, chat, settings and the
//! daily-deal leaderboard, in SQLite (embedded, the default) or PostgreSQL.
//!
//! Both backends run the very same SQL text: it sticks to the common dialect (`$n`
//! placeholders, `ON CONFLICT`, `BIGINT` milliseconds), and [`Pool`] keeps a native pool per
//! backend so each gets its own connection options. The `on_pool!` macro expands a body once
//! per backend, which lets the compiler check the same code against both drivers.

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

/// Runs `$body` with `$pool` bound to whichever native pool the store holds. The body is
/// duplicated into both match arms, so row types and executors resolve per backend while the
/// source stays written once.
macro_rules! on_pool {
    (@pool $native:expr, $pool:ident => $body:expr) => {
        match $native {
            $crate::Pool::Sqlite($pool) => $body,
            $crate::Pool::Postgres($pool) => $body,
        }
    };
    ($store:expr, $pool:ident => $body:expr) => {
        on_pool!(@pool &$store.pool, $pool => $body)
    };
}

mod analysis;
mod api_tokens;
mod berserk;
mod challenges;
mod chat;
mod daily;
mod error;
mod games;
mod ids;
mod ladder;
mod leases;
mod notifications;
mod push;
mod ratings;
mod round_robins;
mod rows;
mod settings;
#[cfg(feature = "testing")]
pub mod testing;
mod tournament_chat;
mod tournament_records;
mod tournaments;
mod types;
mod users;
mod vacation;
mod wal;
mod writer;

pub use api_tokens::{ApiToken, NewApiToken, TokenOwner};
pub use berserk::ArenaGame;
pub use challenges::Challenge;
pub use daily::DailyFigures;
pub use error::StoreError;
pub use ids::{new_id, new_secret, new_token};
pub use ladder::{LadderEntrant, LadderGame, LadderPair, LadderResult};
pub use notifications::Notification;
pub use push::{PendingPush, PushSubscription, VapidKeys};
pub use ratings::{HistoryPoint, LeaderboardEntry, PlayerRating, RatedEnd, RatingChange, Results};
pub use tournament_chat::{NewTournamentChatLine, TournamentChatLine};
pub use tournaments::{TournamentEvent, TournamentGame, TournamentRow};
pub use types::{
    ChatLine, ChatRoom, DailyEntry, DailyResult, EndReason, GameRecord, GameStatus, GameSummary,
    MoveRow, NewChatLine, NewGame, NoteKind, Occupant, Outcome, SeatRow, User,
};
pub use users::{NewReport, Registration, Report};
pub use vacation::Vacation;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/postgres");

/// Which database a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The handle to the database. Cloning is cheap and shares the connection pool and the
/// move writer.
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
    /// Where moves go: the group-committing writer (see `writer.rs`).
    moves: writer::MoveQueue,
}

impl Store {
    /// Opens the database named by `url` and brings its schema up to date.
    ///
    /// Accepted forms: `sqlite://path/to/file.db` (relative to the working directory; the
    /// file and its directory are created when missing), `sqlite::memory:`, and
    /// `postgres://…` or `postgresql://…`.
    /// Must be called inside a Tokio runtime, which then runs the move writer.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        let store = if url.starts_with("sqlite:") {
            let (pool, writer, in_memory) = connect_sqlite(url).await?;
            // A memory database has no log to keep short.
            let catch_up = (!in_memory).then(wal::CatchUp::default);
            let moves = writer::MoveQueue::start(Pool::Sqlite(writer), catch_up.clone());
            if let Some(catch_up) = catch_up {
                tokio::spawn(wal::checkpoint_every(pool.clone(), catch_up, moves.alive()));
            }
            Store {
                pool: Pool::Sqlite(pool),
                moves,
            }
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            // The writer's own connections are opened by the writer itself, on the runtime
            // it runs on, and never wait behind requests for a pool slot.
            let writer = PgPoolOptions::new()
                .max_connections(2)
                .acquire_timeout(Duration::from_secs(10))
                .connect_lazy(url)?;
            Store {
                pool: Pool::Postgres(pool),
                moves: writer::MoveQueue::start(Pool::Postgres(writer), None),
            }
        } else {
            return Err(StoreError::Invalid(format!(
                "unsupported database URL {url:?}: expected sqlite:… or postgres://…"
            )));
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        // sqlx records applied versions in _sqlx_migrations (and takes an advisory lock on
        // PostgreSQL), so several nodes starting at once apply each migration only once.
        match &self.pool {
            Pool::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Pool::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        Ok(())
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// A round trip to the database, for health checks.
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// Stops handing out connections and waits until those in use come back and are closed.
    /// Every clone of this store shares the pool, so they are all closed too.
    pub async fn close(&self) {
        self.moves.close().await;
        on_pool!(self, pool => pool.close().await);
    }
}

/// The pool for everything, and the one connection the move writer writes through (the same
/// pool for a memory database, which cannot be shared between pools).
/// Also says whether the database lives in memory (it has no log to checkpoint).
async fn connect_sqlite(url: &str) -> Result<(SqlitePool, SqlitePool, bool), StoreError> {
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    let mut options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .foreign_keys(true)
        // Writers queue behind each other instead of failing at once with SQLITE_BUSY.
        .busy_timeout(Duration::from_secs(5));
    let mut pool = SqlitePoolOptions::new();
    if in_memory {
        // A memory database lives as long as its connection: keep exactly one, forever, so
        // the data neither splits across connections nor vanishes when the pool goes idle.
        pool = pool
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None);
    } else {
        // WAL lets readers run beside the single writer; with WAL, synchronous=NORMAL stays
        // consistent after a crash and only risks the last commits on power loss.
        options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal);
        if let Some(dir) = options.get_filename().parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Invalid(format!("cannot create directory {}: {e}", dir.display()))
            })?;
        }
        pool = pool.max_connections(8);
    }
    if in_memory {
        let pool = pool.connect_with(options).await?;
        return Ok((pool.clone(), pool, true));
    }
    // Checkpoints copy the log back into the database; left to SQLite they run inside
    // whichever commit crosses the threshold, a move's among them. `wal.rs` runs them instead.
    let options = options
        .pragma("wal_autocheckpoint", "0")
        .pragma("journal_size_limit", wal::LOG_SIZE_LIMIT_BYTES.to_string());
    let pool = pool.connect_with(options.clone()).await?;
    // One connection for the move writer: SQLite has one writer at a time anyway, and a
    // connection of its own never queues behind readers for a pool slot. Its page cache holds
    // the index pages the live games write to (64 MiB; SQLite's default is 2), so that a batch
    // neither reads them back from the file nor spills its dirty pages before the commit.
    let writer = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options.pragma("cache_size", "-65536"))
        .await?;
    Ok((pool, writer, false))
}
