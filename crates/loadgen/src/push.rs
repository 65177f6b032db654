//! The push outbox under load: `--games` correspondence games between guests, each with a
//! push subscription at the test kit's stand-in push service (which checks each push's VAPID
//! signature and decrypts it, as a browser's push service and the browser do). The players
//! are on the site (a socket open) but away from their tables: at its time, the player to
//! move opens the game (`table.subscribe`), moves, and leaves it, each game at `--rate`
//! moves a second, spread evenly; each move is a "your move" push to the opponent. Measured:
//! pushes received a second, the time from a move's acknowledgement to its push arriving,
//! the outbox's backlog when the moves stop (`/metrics`) and how long it then takes to empty,
//! the server's CPU; then the same run on a fresh server with no subscriptions, whose move
//! acknowledgement p99 the outbox's cost on play is the ratio to.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use futures_util::StreamExt;
use serde_json::json;
use testkit::{Conn, Http, PushService};

use crate::Spread;
use crate::pair::Game;
use crate::server::Server;

#[derive(clap::Args, Debug, Clone)]
pub struct PushArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Correspondence games, two guests and two subscriptions each.
    #[arg(long, default_value_t = 2500)]
    pub games: usize,
    /// Moves a second in each game.
    #[arg(long, default_value_t = 0.02)]
    pub rate: f64,
    /// Seconds measured, after two of warm-up.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// The game played (its default variant), with two days a move.
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Skip the run with no subscriptions.
    #[arg(long)]
    pub no_baseline: bool,
}

/// The contact the server names in its pushes, which the stand-in service checks.
const CONTACT: &str = "mailto:load@stolik.invalid";
const SETUP_AT_ONCE: usize = 64;
/// How long the outbox is given to empty once the moves stop.
const DRAIN_PATIENCE: Duration = Duration::from_secs(120);

pub fn run(args: &PushArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.rate > 0.0, "--rate must be above 0");
    actix_rt::System::new().block_on(async {
        let pushed = side(args, true).await?;
        let baseline = if args.no_baseline {
            None
        } else {
            Some(side(args, false).await?)
        };
        Ok(report(args, &pushed, baseline.as_ref()))
    })
}

/// When each player's opponent's moves were acknowledged, by the device the push goes to.
type Acks = Arc<Mutex<HashMap<String, Vec<Instant>>>>;

/// One run's figures.
struct Side {
    subscribed: bool,
    moves: usize,
    ack: Vec<Duration>,
    errors: u64,
    /// Pushes accepted by the service while measured, and their latencies from the ack.
    pushes: usize,
    push_latency: Vec<Duration>,
    /// Pushes the service refused (a signature or an encryption that did not check out).
    refused: usize,
    cpu: Option<f64>,
    /// The outbox's rows when the moves stopped, and how long it then took to empty.
    backlog: Option<f64>,
    drained: Option<Duration>,
    seconds: f64,
}

async fn side(args: &PushArgs, subscribed: bool) -> anyhow::Result<Side> {
    let server = Server::start(
        &args.stolik,
        &args.web_dir,
        &[
            "--limits",
            "off",
            "--push-contact",
            CONTACT,
            "--push-allow-http",
        ],
    )
    .await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let (_, key) = http.get("/api/push/key", None).await?;
    let vapid = key["key"].as_str().context("no VAPID key")?;
    let mut service = PushService::start(vapid, CONTACT).await?;
    let setup: Vec<anyhow::Result<Away>> = futures_util::stream::iter(0..args.games)
        .map(|i| Away::new(&http, args.game, i, subscribed.then_some(&service)))
        .buffer_unordered(SETUP_AT_ONCE)
        .collect()
        .await;
    let games = setup.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let acks: Acks = Arc::default();
    let period = Duration::from_secs_f64(1.0 / args.rate);
    let start = Instant::now() + Duration::from_secs(2);
    let end = start + Duration::from_secs(args.seconds);
    let count = games.len().max(1);
    let tasks: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(i, game)| {
            let phase = period.mul_f64(i as f64 / count as f64);
            actix_rt::spawn(game.play(Instant::now() + phase, period, start, end, acks.clone()))
        })
        .collect();
    let mut received = Vec::new();
    let mut refused = 0;
    tokio::time::sleep_until(start.into()).await;
    let cpu_before = server.cpu_seconds();
    // The service's messages are taken as they come, so each keeps its own time.
    while Instant::now() < end {
        match service.next_within(end - Instant::now()).await {
            Some(Ok(push)) => received.push(push),
            Some(Err(why)) => {
                refused += 1;
                if refused == 1 {
                    eprintln!("stolik-load push: a push was refused: {why}");
                }
            }
            None => {}
        }
    }
    let mut side = Side {
        subscribed,
        moves: 0,
        ack: Vec::new(),
        errors: 0,
        pushes: 0,
        push_latency: Vec::new(),
        refused,
        cpu: None,
        backlog: None,
        drained: None,
        seconds: args.seconds as f64,
    };
    for task in tasks {
        let (ack, errors) = task.await?;
        side.moves += ack.len();
        side.ack.extend(ack);
        side.errors += errors;
    }
    side.cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    side.backlog = waiting(&server).await;
    let stopped = Instant::now();
    while subscribed && stopped.elapsed() < DRAIN_PATIENCE {
        if waiting(&server).await == Some(0.0) {
            side.drained = Some(stopped.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Those that arrived while the outbox emptied kept their times.
    while let Some(next) = service.try_next() {
        received.extend(next.ok());
    }
    service.stop().await;
    let acks = acks.lock().expect("acks");
    for push in &received {
        if push.at >= start && push.at < end {
            side.pushes += 1;
        }
        // The push answers the opponent's last move before it arrived; timed when that move
        // was made while measured.
        let last = acks
            .get(&push.device)
            .and_then(|at| at.iter().rev().find(|a| **a <= push.at));
        if let Some(acked) = last.filter(|a| **a >= start && **a < end) {
            side.push_latency.push(push.at - *acked);
        }
    }
    Ok(side)
}

/// The outbox's rows, from the server's `/metrics`.
async fn waiting(server: &Server) -> Option<f64> {
    let page = server.metrics().await?;
    page.lines()
        .find_map(|l| l.strip_prefix("stolik_push_waiting ")?.trim().parse().ok())
}

/// One correspondence game between two guests, both away from its table.
struct Away {
    http: Http,
    game: Game,
    /// Its number, which names its players' devices (`g{index}p{seat}`).
    index: usize,
    players: [String; 2],
    conns: [Conn; 2],
    table: String,
    /// Which player (index into `players`) is to move.
    to_move: usize,
}

impl Away {
    async fn new(
        http: &Http,
        game: Game,
        index: usize,
        service: Option<&PushService>,
    ) -> anyhow::Result<Away> {
        let players = [http.guest().await?, http.guest().await?];
        let conns = [
            http.connect(&players[0]).await?,
            http.connect(&players[1]).await?,
        ];
        if let Some(service) = service {
            for (seat, player) in players.iter().enumerate() {
                let device = service.device(&format!("g{index}p{seat}"), "en");
                let (status, body) = http.post("/api/me/push", player, &device).await?;
                anyhow::ensure!(status == 201, "the subscription was refused: {body}");
            }
        }
        let mut away = Away {
            http: http.clone(),
            game,
            index,
            players,
            conns,
            table: String::new(),
            to_move: 0,
        };
        away.new_table().await?;
        Ok(away)
    }

    /// A new correspondence table: the first player opens it, the second sits, both leave it.
    async fn new_table(&mut self) -> anyhow::Result<()> {
        let body = json!({"game": self.game.id(), "private": true, "clock": {"days": 2}});
        let (status, table) = self
            .http
            .post("/api/tables", &self.players[0], &body)
            .await?;
        anyhow::ensure!(status == 201, "cannot create a table: {table}");
        let id = table["id"].as_str().unwrap_or_default().to_string();
        let invite = table["invite"].clone();
        let [first, second] = &mut self.conns;
        first
            .request(json!({"type": "table.subscribe", "table": id}))
            .await?;
        second
            .request(json!({"type": "sit", "table": id, "token": invite}))
            .await?;
        first
            .until(|m| m["type"] == "table" && m["table"]["status"] == "playing")
            .await?;
        first
            .request(json!({"type": "table.unsubscribe", "table": id}))
            .await?;
        self.table = id;
        self.to_move = 0;
        Ok(())
    }

    /// Moves once a `period` from `first` until `end`, reading both sockets in between (as
    /// a page does); the acknowledgements timed from `start` on, and the errors.
    async fn play(
        mut self,
        first: Instant,
        period: Duration,
        start: Instant,
        end: Instant,
        acks: Acks,
    ) -> (Vec<Duration>, u64) {
        let (mut timed, mut errors) = (Vec::new(), 0);
        let mut next = first;
        while next < end {
            if let Err(e) = self.idle_until(next).await {
                if crate::too_many_errors(&mut errors, "push", &e) {
                    break;
                }
                tokio::time::sleep_until(next.into()).await;
            }
            match self.one_move().await {
                Ok(Some((ack, acked))) => {
                    let device = format!("g{}p{}", self.index, self.to_move);
                    acks.lock()
                        .expect("acks")
                        .entry(device)
                        .or_default()
                        .push(acked);
                    if next >= start {
                        timed.push(ack);
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    if crate::too_many_errors(&mut errors, "push", &e) {
                        break;
                    }
                }
            }
            next += period;
        }
        (timed, errors)
    }

    /// Reads both sockets (answering pings, dropping notifications) until `until`.
    async fn idle_until(&mut self, until: Instant) -> anyhow::Result<()> {
        let [a, b] = &mut self.conns;
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(until.into()) => return Ok(()),
                read = a.read() => { read?; }
                read = b.read() => { read?; }
            }
        }
    }

    /// The player to move opens the game, moves and leaves it: the move's acknowledgement
    /// time and instant. `None` when the game had ended (a new one begins) or it was the
    /// other player's turn.
    async fn one_move(&mut self) -> anyhow::Result<Option<(Duration, Instant)>> {
        let table = self.table.clone();
        let mover = &mut self.conns[self.to_move];
        let snapshot = mover
            .request(json!({"type": "table.subscribe", "table": table}))
            .await?;
        let view = &snapshot["table"];
        let legal = view["legal"].as_array().and_then(|l| l.first()).cloned();
        let Some(mv) = legal.filter(|_| view["status"] == "playing") else {
            mover
                .request(json!({"type": "table.unsubscribe", "table": table}))
                .await?;
            if view["status"] == "playing" && view["to_move"] != view["you"] {
                // The other player moves first at this table.
                self.to_move = 1 - self.to_move;
            } else {
                self.new_table().await?;
            }
            return Ok(None);
        };
        let ply = view["ply"].clone();
        let sent = Instant::now();
        let reply = mover
            .request(json!({"type": "move", "table": table, "move": mv, "ply": ply}))
            .await?;
        let acked = Instant::now();
        anyhow::ensure!(reply["type"] == "ok", "move refused: {reply}");
        mover
            .request(json!({"type": "table.unsubscribe", "table": table}))
            .await?;
        self.to_move = 1 - self.to_move;
        Ok(Some((acked - sent, acked)))
    }
}

fn report(args: &PushArgs, pushed: &Side, baseline: Option<&Side>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load push: {} {} correspondence games, {} moves/s each ({:.0} a second in all), players away from their tables, {} s measured",
        args.games,
        args.game.id(),
        args.rate,
        args.games as f64 * args.rate,
        args.seconds
    );
    let _ = writeln!(
        out,
        "| run | moves | move ack p50 / p99 ms | pushes | pushes/s | move ack → push p50 / p99 ms | outbox at the end | emptied after | server CPU | errors |"
    );
    let _ = writeln!(
        out,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    let spread = |s: &[Duration]| {
        let mut s = s.to_vec();
        Spread::of(&mut s).map_or("—".to_string(), |s| {
            format!("{:.2} / {:.2}", s.p50, s.p99)
        })
    };
    for side in std::iter::once(pushed).chain(baseline) {
        let cpu = side.cpu.map_or("—".to_string(), |c| {
            format!("{:.0} %", c * 100.0 / side.seconds)
        });
        let (pushes, rate, latency, backlog, drained) = if side.subscribed {
            (
                side.pushes.to_string(),
                format!("{:.1}", side.pushes as f64 / side.seconds),
                spread(&side.push_latency),
                side.backlog.map_or("—".to_string(), |b| format!("{b:.0}")),
                side.drained.map_or("not within 120 s".to_string(), |d| {
                    format!("{:.1} s", d.as_secs_f64())
                }),
            )
        } else {
            Default::default()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {pushes} | {rate} | {latency} | {backlog} | {drained} | {cpu} | {} |",
            if side.subscribed {
                "every player subscribed"
            } else {
                "no subscriptions"
            },
            side.moves,
            spread(&side.ack),
            side.errors,
        );
    }
    if pushed.refused > 0 {
        let _ = writeln!(
            out,
            "{} pushes refused by the stand-in service (see the first above)",
            pushed.refused
        );
    }
    if let Some(base) = baseline {
        let p99 = |s: &Side| {
            let mut s = s.ack.clone();
            Spread::of(&mut s).map(|s| s.p99)
        };
        if let (Some(with), Some(without)) = (p99(pushed), p99(base)) {
            let _ = writeln!(
                out,
                "move ack p99 with subscriptions ÷ without: {:.2}",
                with / without
            );
        }
    }
    let _ = writeln!(
        out,
        "load average at the end: {}",
        crate::site::load_average()
    );
    out
}
