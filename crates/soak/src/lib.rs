//! A crash soak for Stolik.
//!
//! It starts the real `stolik serve` binary on a loopback port with a fresh database, lets
//! pairs of guests play random legal games over the public WebSocket protocol (all four
//! two-player games, some with clocks), chat and rematch, and SIGKILLs the server at random
//! moments. Each time the server comes back on the same database and port, the clients
//! reconnect and catch up. At the end, after a graceful restart, every move and chat line
//! the server acknowledged, and every one it announced, is looked up in the game records
//! (`GET /api/records/{id}`) and in the database itself: nothing may be missing.

mod ledger;
mod play;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use store::testing::TestDatabase;
use testkit::{Http, Server};

use crate::ledger::Ledger;
use crate::play::{GameKind, Pair, Shared};

/// Where the soak's database lives.
#[derive(Debug, Clone)]
pub enum Backend {
    /// A new SQLite file in the temp dir.
    Sqlite,
    /// A new PostgreSQL database, created through this admin URL and dropped at the end.
    Postgres { admin_url: String },
}

#[derive(Debug, Clone)]
pub struct Config {
    /// The `stolik` binary.
    pub stolik: PathBuf,
    pub backend: Backend,
    /// SIGKILL restarts to do.
    pub cycles: u32,
    /// No new cycle starts after this long.
    pub max_time: Duration,
    /// Tables played at once (two guests each).
    pub tables: usize,
    /// How long the server lives between the clients' return and the next kill: uniform in
    /// this range.
    pub up: (Duration, Duration),
    /// The longest pause between a kill and the restart.
    pub max_down: Duration,
    /// Seeds the players' choices (the timing is the machine's).
    pub seed: u64,
    /// Keeps the database and the server log (their places are printed).
    pub keep: bool,
}

impl Config {
    pub fn new(stolik: impl Into<PathBuf>, backend: Backend) -> Config {
        Config {
            stolik: stolik.into(),
            backend,
            cycles: 10,
            max_time: Duration::from_secs(600),
            tables: 4,
            up: (Duration::from_millis(300), Duration::from_millis(2_000)),
            max_down: Duration::from_millis(300),
            seed: 1,
            keep: false,
        }
    }
}

/// The PostgreSQL admin URL (`STOLIK_TEST_POSTGRES`, by default the local server) when
/// PostgreSQL answers there, or why it does not.
pub fn postgres_admin() -> Result<String, String> {
    let admin_url = store::testing::postgres_admin_url();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(store::testing::postgres_answers(&admin_url))
        .map(|()| admin_url.clone())
        .map_err(|failure| format!("PostgreSQL is not reachable at {admin_url}: {failure}"))
}

/// A few numbers in milliseconds: how many, the median and the one farthest from zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    pub n: usize,
    pub median: i64,
    /// The 95th percentile of the magnitudes, with its sign.
    pub p95: i64,
    pub max: i64,
}

impl Spread {
    fn of(mut values: Vec<i64>) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let median = values[values.len() / 2];
        let mut by_size = values.clone();
        by_size.sort_unstable_by_key(|v| v.unsigned_abs());
        let p95 = by_size[(by_size.len() * 95 / 100).min(by_size.len() - 1)];
        let max = *by_size.last()?;
        Some(Spread {
            n: values.len(),
            median,
            p95,
            max,
        })
    }
}

impl fmt::Display for Spread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "median {} ms, 95 % within {} ms, max {} ms (n = {})",
            self.median, self.p95, self.max, self.n
        )
    }
}

fn show(spread: Option<Spread>) -> String {
    spread.map_or("no samples".to_string(), |s| s.to_string())
}

#[derive(Debug, Clone)]
pub struct Report {
    pub backend: &'static str,
    /// SIGKILL restarts done.
    pub cycles: u32,
    /// The time limit ended the soak before `cycles` were done.
    pub time_limited: bool,
    pub elapsed: Duration,
    pub tables: usize,
    pub tables_by_game: BTreeMap<String, usize>,
    pub clocked_tables: usize,
    pub games_ended: u64,
    pub rematches: u64,
    pub moves_acked: u64,
    /// Acknowledged moves in each server life that a kill ended.
    pub moves_per_cycle: Vec<u64>,
    pub chat_acked: u64,
    pub lost_moves: u64,
    pub lost_chat: u64,
    /// Moves and chat lines the server announced (events, catch-ups, snapshots) but the
    /// database does not have.
    pub lost_move_events: u64,
    pub lost_chat_events: u64,
    /// Announced clocks that differ from the stored ones.
    pub clock_mismatches: u64,
    /// Requests whose answer a kill swallowed, and how many of them were recorded anyway.
    pub unanswered_moves: usize,
    pub unanswered_moves_recorded: usize,
    pub unanswered_chat: usize,
    pub unanswered_chat_recorded: usize,
    /// Running clock after a restart, as reported minus as it should be (the clock of the
    /// last move less the time since the server answered again): negative = overcharged.
    pub clock_drift: Option<Spread>,
    /// The waiting side's clock after a restart minus its clock at the last move.
    pub waiting_clock_drift: Option<Spread>,
    /// Time the side to move had used since the last move when the server was killed: the
    /// restart gives it back (clocks resume from the last move).
    pub time_given_back: Option<Spread>,
    /// The same drift, counting the time since the server's "unfinished games resumed" log
    /// line instead (the resumed clocks started just before it).
    pub clock_drift_since_resume: Option<Spread>,
    /// From spawning the server to its first healthy answer.
    pub startup: Option<Spread>,
    /// Unfinished games in the database that no client heard of: created by a request whose
    /// answer a kill swallowed.
    pub unheard_games: usize,
    /// Of those, rematches of a game whose rematch the clients did get: made again after a
    /// restart because the finished table forgot its rematch.
    pub second_rematches: usize,
    /// The first few of them: the unheard game, the game it is a rematch of, and the
    /// rematch of that game the clients played.
    pub second_rematch_examples: Vec<(String, String, String)>,
    pub errors: BTreeMap<String, u64>,
    pub anomalies: Vec<String>,
    pub anomaly_count: u64,
    pub losses: Vec<String>,
    pub server_error_lines: u64,
    pub server_panics: u64,
    pub server_first_errors: Vec<String>,
    /// Both SIGTERM stops at the end exited with status 0.
    pub graceful_stops: bool,
    /// Where the server log and the database were kept, if they were.
    pub kept: Option<String>,
}

impl Report {
    /// Everything that makes the soak fail; empty when it passed.
    pub fn failures(&self, min_moves_per_cycle: u64) -> Vec<String> {
        let mut failures = Vec::new();
        let lost = [
            ("acknowledged moves", self.lost_moves),
            ("acknowledged chat lines", self.lost_chat),
            ("announced moves", self.lost_move_events),
            ("announced chat lines", self.lost_chat_events),
        ];
        for (what, n) in lost {
            if n > 0 {
                failures.push(format!("{n} {what} are not in the database"));
            }
        }
        if self.clock_mismatches > 0 {
            failures.push(format!(
                "{} moves are stored with other clocks than announced",
                self.clock_mismatches
            ));
        }
        if self.anomaly_count > 0 {
            failures.push(format!(
                "{} contradictions between answers",
                self.anomaly_count
            ));
        }
        if self.moves_acked == 0 {
            failures.push("no move was acknowledged".to_string());
        }
        if let Some(min) = self.moves_per_cycle.iter().min()
            && *min < min_moves_per_cycle
        {
            failures.push(format!(
                "a cycle had only {min} acknowledged moves (at least {min_moves_per_cycle} wanted)"
            ));
        }
        if self.server_panics > 0 {
            failures.push(format!("the server panicked {} times", self.server_panics));
        }
        if !self.graceful_stops {
            failures.push("a SIGTERM did not stop the server cleanly".to_string());
        }
        failures
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per_cycle = Spread::of(self.moves_per_cycle.iter().map(|&n| n as i64).collect());
        writeln!(
            f,
            "soak on {}: {} cycles (SIGKILL and restart) in {:.1} s{}",
            self.backend,
            self.cycles,
            self.elapsed.as_secs_f64(),
            if self.time_limited {
                ", stopped by the time limit"
            } else {
                ""
            }
        )?;
        let by_game: Vec<String> = self
            .tables_by_game
            .iter()
            .map(|(game, n)| format!("{game} {n}"))
            .collect();
        writeln!(
            f,
            "  tables: {} ({}), {} with a clock; games ended {}, rematches {}",
            self.tables,
            by_game.join(", "),
            self.clocked_tables,
            self.games_ended,
            self.rematches
        )?;
        writeln!(
            f,
            "  acknowledged: {} moves (per cycle: min {}, median {}), {} chat lines",
            self.moves_acked,
            self.moves_per_cycle.iter().min().copied().unwrap_or(0),
            per_cycle.map_or(0, |s| s.median),
            self.chat_acked
        )?;
        writeln!(
            f,
            "  unanswered when the server died: {} moves ({} recorded), {} chat lines ({} recorded)",
            self.unanswered_moves,
            self.unanswered_moves_recorded,
            self.unanswered_chat,
            self.unanswered_chat_recorded
        )?;
        writeln!(
            f,
            "  LOST: moves {}, chat lines {}; announced but missing: moves {}, chat lines {}; clock mismatches {}",
            self.lost_moves,
            self.lost_chat,
            self.lost_move_events,
            self.lost_chat_events,
            self.clock_mismatches
        )?;
        writeln!(
            f,
            "  clock drift after restart, running side (reported - expected): {}",
            show(self.clock_drift)
        )?;
        writeln!(
            f,
            "  the same, counting from the server's resume instead of its first answer: {}",
            show(self.clock_drift_since_resume)
        )?;
        writeln!(
            f,
            "  clock drift after restart, waiting side: {}",
            show(self.waiting_clock_drift)
        )?;
        writeln!(
            f,
            "  time the side to move had used since its opponent's move when killed (given back): {}",
            show(self.time_given_back)
        )?;
        writeln!(f, "  server start to healthy: {}", show(self.startup))?;
        writeln!(
            f,
            "  unfinished games no client heard of: {} ({} of them a second rematch of one game)",
            self.unheard_games, self.second_rematches
        )?;
        for (unheard, of, played) in &self.second_rematch_examples {
            writeln!(
                f,
                "    game {unheard} is a rematch of {of}, whose rematch {played} was played"
            )?;
        }
        let errors: Vec<String> = self
            .errors
            .iter()
            .map(|(code, n)| format!("{code} {n}"))
            .collect();
        writeln!(
            f,
            "  errors by code: {}",
            if errors.is_empty() {
                "none".to_string()
            } else {
                errors.join(", ")
            }
        )?;
        writeln!(
            f,
            "  server log: {} ERROR lines, {} panics; graceful stops at the end: {}",
            self.server_error_lines,
            self.server_panics,
            if self.graceful_stops { "ok" } else { "FAILED" }
        )?;
        for line in &self.server_first_errors {
            writeln!(f, "    {line}")?;
        }
        if self.anomaly_count > 0 {
            writeln!(f, "  contradictions: {}", self.anomaly_count)?;
            for line in &self.anomalies {
                writeln!(f, "    {line}")?;
            }
        }
        for line in &self.losses {
            writeln!(f, "    lost: {line}")?;
        }
        if let Some(kept) = &self.kept {
            writeln!(f, "  kept: {kept}")?;
        }
        Ok(())
    }
}

/// Runs the soak to its end (it builds its own runtime).
pub fn run(config: &Config) -> anyhow::Result<Report> {
    actix_rt::System::new().block_on(soak(config))
}

async fn soak(config: &Config) -> anyhow::Result<Report> {
    if config.tables == 0 {
        bail!("at least one table is needed");
    }
    let database = match &config.backend {
        Backend::Sqlite => TestDatabase::sqlite(),
        Backend::Postgres { admin_url } => TestDatabase::postgres(admin_url)
            .await
            .context("cannot create a PostgreSQL database for the soak")?,
    };
    let work = std::env::temp_dir().join(format!("stolik-soak-{}", store::new_id()));
    std::fs::create_dir_all(work.join("web"))?;
    let log_path = work.join("server.log");
    let mut server = Server::new(
        &config.stolik,
        testkit::free_port()?,
        &database.url,
        &work.join("web"),
        &log_path,
    )?;
    let mut ready = vec![server.start(0).await?];
    let http = Http::new(&server.base());
    let games = catalogue(&http).await?;
    let shared = Rc::new(RefCell::new(Shared {
        ledger: Ledger::default(),
        life: 0,
        stopping: false,
        back: vec![None; config.tables],
        games,
    }));
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut pairs = Vec::new();
    for index in 0..config.tables {
        let (http, shared, seed) = (http.clone(), shared.clone(), rng.random());
        pairs.push(actix_rt::spawn(async move {
            if let Some(pair) = Pair::new(index, http, seed, shared).await {
                pair.run().await;
            }
        }));
    }

    let started = Instant::now();
    let deadline = started + config.max_time;
    let mut kills = Vec::new();
    let mut time_limited = false;
    while (kills.len() as u32) < config.cycles {
        wait_back(&shared, deadline).await;
        if Instant::now() >= deadline {
            time_limited = true;
            break;
        }
        let (low, high) = config.up;
        let up =
            rng.random_range(low.as_millis() as u64..=high.as_millis().max(low.as_millis()) as u64);
        tokio::time::sleep(Duration::from_millis(up)).await;
        kills.push(Instant::now());
        server.kill();
        let down = rng.random_range(0..=config.max_down.as_millis() as u64);
        tokio::time::sleep(Duration::from_millis(down)).await;
        let life = {
            let mut shared = shared.borrow_mut();
            shared.life += 1;
            shared.life
        };
        ready.push(server.start(life).await?);
    }
    // The last restart is checked too: the clients come back and play a little more.
    wait_back(&shared, Instant::now() + Duration::from_secs(30)).await;
    tokio::time::sleep(config.up.0).await;
    shared.borrow_mut().stopping = true;
    for pair in pairs {
        if tokio::time::timeout(Duration::from_secs(30), pair)
            .await
            .is_err()
        {
            shared.borrow_mut().ledger.error("pair_did_not_stop");
        }
    }
    let elapsed = started.elapsed();

    // A graceful restart, then the records through the public API, then the database.
    let mut graceful = server
        .terminate(Duration::from_secs(30))
        .await
        .is_some_and(|s| s.success());
    let life = shared.borrow().life + 1;
    server.start(life).await?;
    let tables: Vec<String> = shared.borrow().ledger.tables.keys().cloned().collect();
    let records = records(&http, &tables).await?;
    graceful &= server
        .terminate(Duration::from_secs(30))
        .await
        .is_some_and(|s| s.success());
    let stored = stored(&database.url, &tables).await?;

    // A pair that did not stop in time still holds the ledger: read it in place.
    let shared = shared.borrow();
    let resumed = server.watch.lock().expect("watch lock").resumed.clone();
    let mut report = report(
        config,
        &shared.ledger,
        &records,
        &stored,
        &kills,
        &ready,
        &resumed,
    );
    report.elapsed = elapsed;
    report.time_limited = time_limited;
    report.graceful_stops = graceful;
    {
        let watch = server.watch.lock().expect("watch lock");
        report.server_error_lines = watch.error_lines;
        report.server_panics = watch.panics;
        report.server_first_errors = watch.first_errors.clone();
    }
    report.startup = Spread::of(server.startups.iter().map(|&d| millis(d)).collect());
    drop(server);
    if config.keep || !report.failures(0).is_empty() {
        report.kept = Some(format!(
            "server log {}, database {}",
            log_path.display(),
            database.url
        ));
        // Left in place for a look at the evidence.
        std::mem::forget(database);
    } else {
        let _ = std::fs::remove_dir_all(&work);
    }
    Ok(report)
}

/// Waits until every pair is back at its table in the current server life, at most 30 s
/// (counted as `slow_return`) and not past `deadline`.
async fn wait_back(shared: &Rc<RefCell<Shared>>, deadline: Instant) {
    let limit = Instant::now() + Duration::from_secs(30);
    loop {
        {
            let shared = shared.borrow();
            if shared.back.iter().all(|b| *b == Some(shared.life)) {
                return;
            }
        }
        let now = Instant::now();
        if now >= limit {
            shared.borrow_mut().ledger.error("slow_return");
            return;
        }
        if now >= deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The two-player games and their variants, from `GET /api/games`.
async fn catalogue(http: &Http) -> anyhow::Result<Vec<GameKind>> {
    let (status, body) = http.get("/api/games", None).await?;
    if status != 200 {
        bail!("GET /api/games answered {status}");
    }
    let games: Vec<GameKind> = body
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| g["seats"] == 2)
        .map(|g| GameKind {
            id: g["id"].as_str().unwrap_or_default().to_string(),
            variants: g["variants"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v["id"].as_str().map(str::to_string))
                .collect(),
        })
        .collect();
    if games.is_empty() {
        bail!("the catalogue has no two-player game");
    }
    Ok(games)
}

/// Each table's moves from its public record; a table without a record has none.
async fn records(http: &Http, tables: &[String]) -> anyhow::Result<BTreeMap<String, Vec<String>>> {
    let mut records = BTreeMap::new();
    for table in tables {
        let mut attempt = 0;
        let moves = loop {
            attempt += 1;
            match http.get(&format!("/api/records/{table}"), None).await {
                Ok((200, body)) => {
                    break body["moves"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|m| m.as_str().map(str::to_string))
                        .collect();
                }
                Ok((404, _)) => break Vec::new(),
                Ok((status, body)) if attempt >= 5 => {
                    bail!("GET /api/records/{table} answered {status}: {body}")
                }
                Err(e) if attempt >= 5 => return Err(e),
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        records.insert(table.clone(), moves);
    }
    Ok(records)
}

/// What the database holds for each table.
struct Stored {
    /// (table, ply) → both clocks after that move.
    clocks: BTreeMap<(String, u32), (Option<i64>, Option<i64>)>,
    /// (table, user, text) of every chat line.
    chat: HashSet<(String, String, String)>,
    /// The game each known table is a rematch of.
    rematch_of: HashMap<String, String>,
    /// Unfinished games no client ever heard of, with the game each is a rematch of.
    unheard: Vec<(String, Option<String>)>,
}

async fn stored(url: &str, tables: &[String]) -> anyhow::Result<Stored> {
    let store = store::Store::connect(url)
        .await
        .context("cannot open the soak's database")?;
    let mut clocks = BTreeMap::new();
    let mut chat = HashSet::new();
    let mut rematch_of = HashMap::new();
    for table in tables {
        if let Some(record) = store.game(table).await? {
            if let Some(of) = record.rematch_of {
                rematch_of.insert(table.clone(), of);
            }
            for row in record.moves {
                clocks.insert((table.clone(), row.ply), (row.clock_a_ms, row.clock_b_ms));
            }
        }
        for line in store.chat_tail(table, u32::MAX).await? {
            chat.insert((table.clone(), line.user_id.unwrap_or_default(), line.body));
        }
    }
    let known: HashSet<&String> = tables.iter().collect();
    let unheard = store
        .unfinished_games()
        .await?
        .into_iter()
        .filter(|g| !known.contains(&g.id))
        .map(|g| (g.id, g.rematch_of))
        .collect();
    store.close().await;
    Ok(Stored {
        clocks,
        chat,
        rematch_of,
        unheard,
    })
}

fn millis(d: Duration) -> i64 {
    d.as_millis().try_into().unwrap_or(i64::MAX)
}

/// `a - b` in signed milliseconds.
fn signed_ms(a: Instant, b: Instant) -> i64 {
    if a >= b {
        millis(a - b)
    } else {
        -millis(b - a)
    }
}

fn report(
    config: &Config,
    ledger: &Ledger,
    records: &BTreeMap<String, Vec<String>>,
    stored: &Stored,
    kills: &[Instant],
    ready: &[Instant],
    resumed: &[Option<Instant>],
) -> Report {
    let recorded = |table: &str, ply: u32| -> Option<&String> {
        records.get(table)?.get(ply.checked_sub(1)? as usize)
    };
    let mut losses = Vec::new();
    let lost = |what: String, losses: &mut Vec<String>| {
        if losses.len() < 20 {
            losses.push(what);
        }
    };
    let mut lost_moves = 0;
    for ((table, ply), mv, life) in &ledger.acked_moves {
        if recorded(table, *ply) != Some(mv) {
            lost_moves += 1;
            lost(
                format!(
                    "acknowledged move {mv:?} at table {table} ply {ply} (server life {life}); the record has {:?}",
                    recorded(table, *ply)
                ),
                &mut losses,
            );
        }
    }
    let mut lost_move_events = 0;
    let mut clock_mismatches = 0;
    for ((table, ply), (mv, clock)) in &ledger.seen_moves {
        if recorded(table, *ply) != Some(mv) {
            lost_move_events += 1;
            lost(
                format!("announced move {mv:?} at table {table} ply {ply}"),
                &mut losses,
            );
        }
        if let Some([a, b]) = clock
            && stored.clocks.get(&(table.clone(), *ply)) != Some(&(Some(*a), Some(*b)))
        {
            clock_mismatches += 1;
            lost(
                format!(
                    "table {table} ply {ply}: clocks announced {:?}, stored {:?}",
                    [a, b],
                    stored.clocks.get(&(table.clone(), *ply))
                ),
                &mut losses,
            );
        }
    }
    let mut lost_chat = 0;
    for line in &ledger.acked_chat {
        if !stored.chat.contains(line) {
            lost_chat += 1;
            lost(format!("acknowledged chat line {line:?}"), &mut losses);
        }
    }
    let mut lost_chat_events = 0;
    for line in &ledger.seen_chat {
        if !stored.chat.contains(line) {
            lost_chat_events += 1;
            lost(format!("announced chat line {line:?}"), &mut losses);
        }
    }
    let unanswered_moves_recorded = ledger
        .unanswered_moves
        .iter()
        .filter(|(table, ply, mv)| recorded(table, *ply) == Some(mv))
        .count();
    let unanswered_chat_recorded = ledger
        .unanswered_chat
        .iter()
        .filter(|line| stored.chat.contains(line))
        .count();

    let mut drift = Vec::new();
    let mut since_resume = Vec::new();
    let mut waiting = Vec::new();
    let mut given_back = Vec::new();
    for sample in &ledger.clock_samples {
        let Some(&up) = ready.get(sample.life) else {
            continue;
        };
        let run = sample.running;
        // Legitimately elapsed: only the time since the server answered again.
        let expected = sample.at_last_move[run] - signed_ms(sample.received, up);
        drift.push(sample.reported[run] - expected);
        if let Some(Some(resumed)) = resumed.get(sample.life) {
            let expected = sample.at_last_move[run] - signed_ms(sample.received, *resumed);
            since_resume.push(sample.reported[run] - expected);
        }
        waiting.push(sample.reported[1 - run] - sample.at_last_move[1 - run]);
        if let (Some(heard), Some(&kill)) = (
            sample.last_move_heard,
            sample.life.checked_sub(1).and_then(|k| kills.get(k)),
        ) {
            // A move read after the kill was sent before it, but when is unknown.
            if heard <= kill {
                given_back.push(signed_ms(kill, heard));
            }
        }
    }

    let played_rematch: HashMap<&String, &String> = stored
        .rematch_of
        .iter()
        .map(|(next, of)| (of, next))
        .collect();
    let second: Vec<(String, String, String)> = stored
        .unheard
        .iter()
        .filter_map(|(id, of)| {
            let of = of.as_ref()?;
            let played = played_rematch.get(of)?;
            Some((id.clone(), of.clone(), (*played).clone()))
        })
        .collect();

    let mut tables_by_game = BTreeMap::new();
    for info in ledger.tables.values() {
        *tables_by_game.entry(info.game.clone()).or_default() += 1;
    }
    let cycles = kills.len() as u32;
    Report {
        backend: match config.backend {
            Backend::Sqlite => "sqlite",
            Backend::Postgres { .. } => "postgres",
        },
        cycles,
        time_limited: false,
        elapsed: Duration::ZERO,
        tables: ledger.tables.len(),
        tables_by_game,
        clocked_tables: ledger.tables.values().filter(|t| t.clocked).count(),
        games_ended: ledger.games_ended,
        rematches: ledger.rematches,
        moves_acked: ledger.acked_moves.len() as u64,
        moves_per_cycle: (0..cycles as usize)
            .map(|life| ledger.moves_per_life.get(&life).copied().unwrap_or(0))
            .collect(),
        chat_acked: ledger.acked_chat.len() as u64,
        lost_moves,
        lost_chat,
        lost_move_events,
        lost_chat_events,
        clock_mismatches,
        unanswered_moves: ledger.unanswered_moves.len(),
        unanswered_moves_recorded,
        unanswered_chat: ledger.unanswered_chat.len(),
        unanswered_chat_recorded,
        clock_drift: Spread::of(drift),
        clock_drift_since_resume: Spread::of(since_resume),
        waiting_clock_drift: Spread::of(waiting),
        time_given_back: Spread::of(given_back),
        startup: None,
        unheard_games: stored.unheard.len(),
        second_rematches: second.len(),
        second_rematch_examples: second.into_iter().take(5).collect(),
        errors: ledger.errors.clone(),
        anomalies: ledger.anomalies.clone(),
        anomaly_count: ledger.anomaly_count,
        losses,
        server_error_lines: 0,
        server_panics: 0,
        server_first_errors: Vec::new(),
        graceful_stops: false,
        kept: None,
    }
}
