//! Cross-node delivery: two nodes on PostgreSQL and Redis; `--games` private games run by node
//! `a`, both players connected to `a`, and one spectator of each game connected to node `b`
//! (its subscription forwarded to `a`, the events carried back over Redis). Each game moves
//! every `--pause-ms`; for each move, from its sending: the mover's acknowledgement, the
//! opponent's receipt (on the owner) and the spectator's (on the other node).

use std::cell::{Cell, RefCell};
use std::fmt::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::pair::{Game, Pair};
use crate::site::{Site, SiteArgs, load_average};
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct CrossNodeArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Games, each with its two players on node a and a spectator on node b.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Moves measured per game, once every game is set up (until then they play unmeasured).
    #[arg(long, default_value_t = 5)]
    pub moves: usize,
    /// Each game's pause between two moves: the load is games / pause moves a second.
    #[arg(long, default_value_t = 2000)]
    pub pause_ms: u64,
}

pub fn run(args: &CrossNodeArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(cross_node(args))
}

/// Games set up at once.
const SETUP_AT_ONCE: usize = 32;

#[derive(Default)]
struct Samples {
    ack: Vec<Duration>,
    opponent: Vec<Duration>,
    spectator: Vec<Duration>,
    errors: u64,
    /// Games whose move did not reach everyone in [`MOVE_PATIENCE`]: given up.
    stranded: u64,
}

/// How long one move may take to reach its mover, opponent and spectator. Each socket read
/// has its own timeout, but the server's pings every 10 s keep a socket that hears nothing
/// else from ever timing out.
const MOVE_PATIENCE: Duration = Duration::from_secs(30);

/// One spectator on the other node.
struct Spectator {
    conn: Conn,
}

impl Spectator {
    async fn watch(&mut self, pair: &Pair) -> anyhow::Result<()> {
        let body = json!({"type": "table.subscribe", "table": pair.table(), "token": pair.invite});
        let reply = self.conn.request(body).await?;
        anyhow::ensure!(reply["type"] == "table", "the spectator: {reply}");
        Ok(())
    }

    /// Waits for the move of `ply` at `table`; the time since `sent`.
    async fn sees(&mut self, table: &str, ply: u64, sent: Instant) -> anyhow::Result<Duration> {
        self.conn
            .until(|m| m["type"] == "move" && m["table"] == table && m["ply"] == ply)
            .await?;
        Ok(sent.elapsed())
    }
}

struct Shared {
    ready: Cell<usize>,
    /// Set when a game failed: the others stop too (they would wait for it for ever).
    stop: Cell<bool>,
    samples: RefCell<Samples>,
    setup: tokio::sync::Semaphore,
}

/// One game: set up, then a move every pause (measured once every game is set up).
async fn game(
    args: CrossNodeArgs,
    owner: Http,
    other: Http,
    shared: Rc<Shared>,
) -> anyhow::Result<()> {
    let result = play(&args, &owner, &other, &shared).await;
    if result.is_err() {
        shared.stop.set(true);
    }
    result
}

async fn play(
    args: &CrossNodeArgs,
    owner: &Http,
    other: &Http,
    shared: &Shared,
) -> anyhow::Result<()> {
    let (mut pair, mut spectator) = {
        let _turn = shared.setup.acquire().await?;
        if shared.stop.get() {
            return Ok(());
        }
        let pair = Pair::new(owner, Game::default())
            .await
            .map_err(|e| e.context("a game's setup"))?;
        let token = other.guest().await?;
        let mut spectator = Spectator {
            conn: other.connect(&token).await?,
        };
        spectator
            .watch(&pair)
            .await
            .map_err(|e| e.context("a spectator's setup"))?;
        (pair, spectator)
    };
    shared.ready.set(shared.ready.get() + 1);
    if shared.ready.get() == args.games || shared.ready.get().is_multiple_of(100) {
        eprintln!(
            "stolik-load cross-node: {} of {} games set up",
            shared.ready.get(),
            args.games
        );
    }
    let pause = Duration::from_millis(args.pause_ms);
    // Spread over the pause, so that the games do not move in step.
    let offset = pause.mul_f64(shared.ready.get() as f64 / args.games as f64);
    tokio::time::sleep(offset).await;
    let mut measured = 0;
    let mut errors = 0;
    while measured < args.moves && !shared.stop.get() {
        let next = Instant::now() + pause;
        if pair.finished() {
            pair.rematch().await?;
            spectator.watch(&pair).await?;
        }
        let (table, ply) = (pair.table().to_string(), pair.ply() + 1);
        let sent = Instant::now();
        let both = async { tokio::join!(pair.timed_move(sent), spectator.sees(&table, ply, sent)) };
        let Ok((moved, seen)) = tokio::time::timeout(MOVE_PATIENCE, both).await else {
            eprintln!(
                "stolik-load cross-node: table {table}: ply {ply} did not reach everyone in \
                 {MOVE_PATIENCE:?}; this game stops"
            );
            shared.samples.borrow_mut().stranded += 1;
            return Ok(());
        };
        match moved.and_then(|m| seen.map(|s| (m, s))) {
            Ok(((ack, opponent), seen)) => {
                if shared.ready.get() == args.games {
                    let mut samples = shared.samples.borrow_mut();
                    samples.ack.push(ack);
                    samples.opponent.push(opponent);
                    samples.spectator.push(seen);
                    measured += 1;
                }
            }
            Err(e) => {
                shared.samples.borrow_mut().errors += 1;
                if crate::too_many_errors(&mut errors, "cross-node", &e) {
                    return Err(e);
                }
            }
        }
        tokio::time::sleep_until(next.into()).await;
    }
    Ok(())
}

async fn cross_node(args: &CrossNodeArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.games > 0, "at least one game");
    let load_before = load_average();
    let mut site = Site::start(&args.site, &["a", "b"], &["--limits", "off"]).await?;
    let (owner, other) = (
        Http::from_address(site.port(0), "127.0.0.1"),
        Http::from_address(site.port(1), "127.0.0.1"),
    );
    let shared = Rc::new(Shared {
        ready: Cell::new(0),
        stop: Cell::new(false),
        samples: RefCell::new(Samples::default()),
        setup: tokio::sync::Semaphore::new(SETUP_AT_ONCE),
    });
    let started = Instant::now();
    let games: Vec<_> = (0..args.games)
        .map(|_| {
            actix_rt::spawn(game(
                args.clone(),
                owner.clone(),
                other.clone(),
                shared.clone(),
            ))
        })
        .collect();
    let mut failed = None;
    for game in games {
        if let Err(e) = game.await? {
            failed.get_or_insert(e);
        }
    }
    if let Some(e) = failed {
        site.keep_logs = true;
        return Err(e);
    }
    let elapsed = started.elapsed();
    let mut samples = shared.samples.take();
    // A stranded game is a fault to look into: its nodes' logs stay.
    site.keep_logs = samples.stranded > 0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load cross-node: {} games run by node a (players there), a spectator of each on node b; a move every {} ms per game; {:.0} s",
        args.games,
        args.pause_ms,
        elapsed.as_secs_f64()
    );
    for (name, sample) in [
        ("mover's acknowledgement", &mut samples.ack),
        ("opponent on the owner", &mut samples.opponent),
        ("spectator on the other node", &mut samples.spectator),
    ] {
        let spread = crate::Spread::of(sample);
        let _ = writeln!(
            out,
            "{name}: {}",
            spread.map_or("no samples".into(), |s| format!(
                "{} moves, p50 {:.2} ms, p99 {:.2} ms",
                s.n, s.p50, s.p99
            ))
        );
    }
    let _ = writeln!(
        out,
        "errors {}, games stranded {}; load average before {load_before}, after {}",
        samples.errors,
        samples.stranded,
        load_average()
    );
    Ok(out)
}
