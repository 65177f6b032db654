//! `stolik-soak`: SIGKILLs a real `stolik serve` while clients play, then counts what was lost.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// Kill the Stolik server with SIGKILL at random moments while real clients play, chat and
/// rematch; restart it on the same database; check that nothing acknowledged was lost.
#[derive(Parser)]
#[command(name = "stolik-soak")]
struct Args {
    /// The `stolik` binary to run (`cargo build --bin stolik` puts it in target/debug).
    #[arg(long, default_value = "target/debug/stolik")]
    stolik: PathBuf,
    /// A fresh SQLite file, or a fresh PostgreSQL database (created through
    /// STOLIK_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432/postgres, and dropped).
    #[arg(long, value_enum, default_value = "sqlite")]
    database: Database,
    /// SIGKILL restarts to do.
    #[arg(long, default_value_t = 10)]
    cycles: u32,
    /// No new cycle starts after this many seconds.
    #[arg(long, default_value_t = 600)]
    max_seconds: u64,
    /// Tables played at once, two guests each.
    #[arg(long, default_value_t = 4)]
    tables: usize,
    /// The server lives between MIN and MAX milliseconds once the clients are back.
    #[arg(long, default_value_t = 300)]
    min_up_ms: u64,
    #[arg(long, default_value_t = 2_000)]
    max_up_ms: u64,
    /// The longest pause between a kill and the restart, in milliseconds.
    #[arg(long, default_value_t = 300)]
    max_down_ms: u64,
    /// Seeds the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fail when a cycle has fewer acknowledged moves than this.
    #[arg(long, default_value_t = 1)]
    min_moves_per_cycle: u64,
    /// Keep the database and the server log.
    #[arg(long)]
    keep: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Database {
    Sqlite,
    Postgres,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let backend = match args.database {
        Database::Sqlite => soak::Backend::Sqlite,
        Database::Postgres => match soak::postgres_admin() {
            Ok(admin_url) => soak::Backend::Postgres { admin_url },
            Err(failure) => {
                eprintln!("stolik-soak: {failure}: no soak on PostgreSQL");
                return ExitCode::from(2);
            }
        },
    };
    let config = soak::Config {
        cycles: args.cycles,
        max_time: Duration::from_secs(args.max_seconds),
        tables: args.tables,
        up: (
            Duration::from_millis(args.min_up_ms),
            Duration::from_millis(args.max_up_ms.max(args.min_up_ms)),
        ),
        max_down: Duration::from_millis(args.max_down_ms),
        seed: args.seed,
        keep: args.keep,
        ..soak::Config::new(args.stolik, backend)
    };
    match soak::run(&config) {
        Ok(report) => {
            print!("{report}");
            let failures = report.failures(args.min_moves_per_cycle);
            for failure in &failures {
                println!("FAILED: {failure}");
            }
            if failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("stolik-soak: {e:#}");
            ExitCode::from(2)
        }
    }
}
