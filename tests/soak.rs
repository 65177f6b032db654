//! The crash soak at CI size: the real `stolik` binary is SIGKILLed five times while guests
//! play, chat and rematch, on SQLite and on PostgreSQL; nothing the server acknowledged or
//! announced may be missing afterwards. `stolik-soak` runs the long version
//! (docs/security.md, "Soak: SIGKILL restarts"). The PostgreSQL run is ignored unless asked
//! for: `tests/run` runs it when PostgreSQL answers (see `store::testing`).

use std::sync::Mutex;
use std::time::Duration;

const CYCLES: u32 = 5;
/// Every server life must see real play, or the soak would prove nothing.
const MIN_MOVES_PER_CYCLE: u64 = 5;

/// One soak at a time: they time things and share two cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn soak(backend: soak::Backend) -> soak::Report {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let config = soak::Config {
        cycles: CYCLES,
        max_time: Duration::from_secs(90),
        tables: 4,
        up: (Duration::from_millis(400), Duration::from_millis(1_000)),
        ..soak::Config::new(env!("CARGO_BIN_EXE_stolik"), backend)
    };
    let report = soak::run(&config).expect("the soak runs");
    println!("{report}");
    report
}

fn check(report: &soak::Report) {
    assert_eq!(report.cycles, CYCLES, "every kill was done:\n{report}");
    assert_eq!(report.lost_moves, 0, "{report}");
    assert_eq!(report.lost_chat, 0, "{report}");
    assert!(report.chat_acked > 0, "chat lines were sent:\n{report}");
    assert!(
        report.moves_per_cycle.len() == CYCLES as usize
            && report
                .moves_per_cycle
                .iter()
                .all(|&n| n >= MIN_MOVES_PER_CYCLE),
        "at least {MIN_MOVES_PER_CYCLE} acknowledged moves in every cycle:\n{report}"
    );
    let failures = report.failures(MIN_MOVES_PER_CYCLE);
    assert!(failures.is_empty(), "{failures:#?}\n{report}");
}

#[test]
fn sigkill_restarts_lose_nothing_on_sqlite() {
    check(&soak(soak::Backend::Sqlite));
}

#[test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
fn sigkill_restarts_lose_nothing_on_postgres() {
    let admin_url = soak::postgres_admin().unwrap_or_else(|failure| panic!("{failure}"));
    check(&soak(soak::Backend::Postgres { admin_url }));
}
