//! The open loop: `--games` pairs each move at a fixed rate whatever the server does (a late
//! answer does not delay the schedule's clock: every latency counts from when the move was
//! meant to be sent). Prints the mover's acknowledgement and the opponent's receipt at
//! p50/p99/p99.9, the share of moves acknowledged, server CPU per move, RSS, the server's own
//! commit batches (from `/metrics`) and the load average; then the bare echo server under the
//! same number of sockets and frames, in the same run.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::pair::{Game, Pair};
use crate::server::Server;
use testkit::Http;

#[derive(clap::Args, Debug, Clone)]
pub struct OpenArgs {
    /// The `stolik` binary to run (build it with `cargo build --release --bin stolik`).
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// The server's database: a fresh SQLite file when not given, or an (empty) PostgreSQL
    /// database's URL.
    #[arg(long)]
    pub database: Option<String>,
    /// The game every pair plays (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Games played at once (two sockets each).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Moves a second in each game.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Seconds measured, after two of warm-up.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Skip the echo baseline.
    #[arg(long)]
    pub no_echo: bool,
    /// Games against Hard bots kept thinking all through the measurement.
    #[arg(long, default_value_t = 0)]
    pub bots: usize,
    /// Players at the analysis board with the engine on, asking again as each answer ends, all
    /// through the measurement.
    #[arg(long, default_value_t = 0)]
    pub thinkers: usize,
    /// Bot ladder games the server keeps going (`stolik serve --ladder-games`, with a pause
    /// of a second between them): house bots playing each other at the pool's ladder
    /// priority all through the measurement. 0, the default, turns the ladder off.
    #[arg(long, default_value_t = 0)]
    pub ladder_games: usize,
    /// Players asking for the engine's review of finished games (made first, one a second
    /// measured and one a reviewer), each asking for the next as soon as its review is done,
    /// so the server's review queue never runs dry all through the measurement.
    #[arg(long, default_value_t = 0)]
    pub reviewers: usize,
}

/// Latencies of one side, in milliseconds, and what it cost the server.
pub struct Side {
    name: &'static str,
    pub(crate) sent: usize,
    pub(crate) ack: Vec<Duration>,
    receipt: Vec<Duration>,
    errors: u64,
    pub(crate) cpu_us_per_move: Option<f64>,
    rss_mib: Option<f64>,
    /// What ran beside the measured clients, in a sentence.
    pub(crate) beside: Option<String>,
}

impl OpenArgs {
    /// `games` pairs at one move a second on a fresh SQLite server, with no echo baseline and
    /// nothing beside them.
    pub fn plain(
        stolik: PathBuf,
        web_dir: PathBuf,
        game: Game,
        games: usize,
        seconds: u64,
    ) -> OpenArgs {
        OpenArgs {
            stolik,
            web_dir,
            database: None,
            game,
            games,
            rate: 1.0,
            seconds,
            no_echo: true,
            bots: 0,
            thinkers: 0,
            ladder_games: 0,
            reviewers: 0,
        }
    }
}

impl Side {
    /// Adds a sentence to what ran beside the measured clients.
    fn add_beside(&mut self, sentence: String) {
        self.beside = Some(match self.beside.take() {
            Some(other) => format!("{other}; {sentence}"),
            None => sentence,
        });
    }
}

pub fn run(args: &OpenArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(open(args))
}

async fn open(args: &OpenArgs) -> anyhow::Result<String> {
    let (stolik, commits) = stolik_side(args).await?;
    let period = Duration::from_secs_f64(1.0 / args.rate);
    let mut sides = vec![stolik];
    if !args.no_echo {
        let (echo, conns) = Server::echo_with(args.games * 2).await?;
        let frame = crate::echo::move_frame();
        // Two sockets a game, each sending half the game's moves: the same frames a second.
        let echoed = measure(
            "echo messages",
            &echo,
            args,
            period * 2,
            conns,
            move |mut conn, at| {
                let frame = frame.clone();
                async move {
                    let rtt = conn.request(frame).await.map(|_| (at.elapsed(), None));
                    (conn, rtt)
                }
            },
        )
        .await;
        sides.push(echoed);
    }
    Ok(report(args, &sides, commits.as_deref()))
}

/// The Stolik side alone: `args.stolik` started, its pairs (and bots) measured, its commit
/// metrics read, the server stopped.
pub(crate) async fn stolik_side(args: &OpenArgs) -> anyhow::Result<(Side, Option<String>)> {
    anyhow::ensure!(args.rate > 0.0, "--rate must be above 0");
    let ladder = args.ladder_games.to_string();
    let mut extra = vec!["--limits", "off"];
    // Off by default through the test kit's environment; the flag only when asked for, so
    // that `compare` can still start a build older than the ladder.
    if args.ladder_games > 0 {
        extra.extend(["--ladder-games", &ladder, "--ladder-pause-ms", "1000"]);
    }
    if let Some(url) = &args.database {
        extra.extend(["--database", url.as_str()]);
    }
    let server = Server::start(&args.stolik, &args.web_dir, &extra).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    // Before the pairs, whose sockets would wait unread meanwhile.
    let backlog = if args.reviewers > 0 {
        let count = args.reviewers + args.seconds as usize;
        Some(crate::reviewers::Backlog::make(&http, count, args.game).await?)
    } else {
        None
    };
    let pairs = Pair::many(&http, args.games, args.game).await?;
    let mut bot_games = Vec::with_capacity(args.bots);
    for _ in 0..args.bots {
        bot_games.push(crate::bots::BotGame::new(&http).await?);
    }
    let busy_until = Instant::now() + Duration::from_secs(args.seconds + 3);
    let thought = std::sync::Arc::new(crate::thinkers::Thought::default());
    for _ in 0..args.thinkers {
        let thinker = crate::thinkers::Thinker::new(&http).await?;
        actix_rt::spawn(thinker.keep_thinking(busy_until, thought.clone()));
    }
    let reviewed = std::sync::Arc::new(crate::reviewers::Reviewed::default());
    for backlog in std::iter::repeat_n(backlog, args.reviewers).flatten() {
        let reviewer = crate::reviewers::Reviewer::new(&http).await?;
        actix_rt::spawn(reviewer.keep_reviewing(backlog, busy_until, reviewed.clone()));
    }
    for game in bot_games {
        actix_rt::spawn(async move {
            if let Err(e) = game.keep_busy(busy_until).await {
                eprintln!("stolik-load: a bot game stopped: {e:#}");
            }
        });
    }
    let period = Duration::from_secs_f64(1.0 / args.rate);
    let mut stolik = measure(
        "stolik moves",
        &server,
        args,
        period,
        pairs,
        |mut pair, at| async move {
            let timed = pair.timed_move(at).await;
            (pair, timed.map(|(ack, receipt)| (ack, Some(receipt))))
        },
    )
    .await;
    reviewed
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    if args.thinkers > 0 {
        use std::sync::atomic::Ordering::Relaxed;
        stolik.beside = Some(format!(
            "{} analysis-board thinkers: {} streams ended, {} stages sent, {} refused or cut",
            args.thinkers,
            thought.streams.load(Relaxed),
            thought.stages.load(Relaxed),
            thought.refused.load(Relaxed),
        ));
    }
    if args.ladder_games > 0 {
        stolik.add_beside(format!("{} bot ladder games at a time", args.ladder_games));
    }
    if args.reviewers > 0 {
        stolik.add_beside(crate::reviewers::sentence(args.reviewers, &reviewed));
    }
    let commits = server.metrics().await;
    Ok((stolik, commits))
}

/// Runs `step` on every client at its own phase of `period` for the measured window.
async fn measure<C, F, Fut>(
    name: &'static str,
    server: &Server,
    args: &OpenArgs,
    period: Duration,
    clients: Vec<C>,
    step: F,
) -> Side
where
    C: 'static,
    F: Fn(C, Instant) -> Fut + Clone + 'static,
    Fut: std::future::Future<Output = (C, anyhow::Result<(Duration, Option<Duration>)>)> + 'static,
{
    let count = clients.len().max(1);
    let start = Instant::now() + Duration::from_secs(2);
    let end = start + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, client)| {
            let step = step.clone();
            // Spread evenly over the period, so the load is steady rather than in bursts.
            let phase = period.mul_f64(i as f64 / count as f64);
            actix_rt::spawn(async move {
                let mut client = client;
                let mut next = Instant::now() + phase;
                let (mut ack, mut receipt, mut sent, mut errors) =
                    (Vec::new(), Vec::new(), 0, 0u64);
                while next < end {
                    tokio::time::sleep_until(next.into()).await;
                    let measured = next >= start;
                    let (back, timed) = step(client, next).await;
                    client = back;
                    sent += usize::from(measured);
                    match timed {
                        Ok((a, r)) if measured => {
                            ack.push(a);
                            receipt.extend(r);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            if crate::too_many_errors(&mut errors, name, &e) {
                                break;
                            }
                        }
                    }
                    next += period;
                }
                (ack, receipt, sent, errors)
            })
        })
        .collect();
    tokio::time::sleep_until(start.into()).await;
    let cpu_before = server.cpu_seconds();
    let mut side = Side {
        name,
        sent: 0,
        ack: Vec::new(),
        receipt: Vec::new(),
        errors: 0,
        cpu_us_per_move: None,
        rss_mib: None,
        beside: None,
    };
    for task in tasks {
        if let Ok((ack, receipt, sent, errors)) = task.await {
            side.ack.extend(ack);
            side.receipt.extend(receipt);
            side.sent += sent;
            side.errors += errors;
        }
    }
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    side.cpu_us_per_move = cpu
        .filter(|_| !side.ack.is_empty())
        .map(|c| c * 1e6 / side.ack.len() as f64);
    side.rss_mib = server.rss_bytes().map(|b| b as f64 / (1 << 20) as f64);
    side.ack.sort();
    side.receipt.sort();
    side
}

/// The sample at quantile `q`, in milliseconds (`—` when there is none).
fn quantile(sorted: &[Duration], q: f64) -> String {
    crate::quantile_ms(sorted, q).map_or("—".to_string(), |ms| format!("{ms:.2}"))
}

fn report(args: &OpenArgs, sides: &[Side], metrics: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load open: {} {} games × {} moves/s each, {} Hard bot games thinking, {} s measured, database {}",
        args.games,
        args.game.id(),
        args.rate,
        args.bots,
        args.seconds,
        if args.database.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );
    let _ = writeln!(
        out,
        "| side | sent | acknowledged | ack p50 / p99 / p99.9 ms | receipt p50 / p99 / p99.9 ms | server CPU µs each | server RSS MiB | errors |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- | --- | --- |");
    for side in sides {
        let q = |s: &[Duration]| {
            format!(
                "{} / {} / {}",
                quantile(s, 0.5),
                quantile(s, 0.99),
                quantile(s, 0.999)
            )
        };
        let receipt = if side.receipt.is_empty() {
            "—".to_string()
        } else {
            q(&side.receipt)
        };
        let cpu = side
            .cpu_us_per_move
            .map_or("—".into(), |c| format!("{c:.0}"));
        let rss = side.rss_mib.map_or("—".into(), |r| format!("{r:.0}"));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {receipt} | {cpu} | {rss} | {} |",
            side.name,
            side.sent,
            side.ack.len(),
            q(&side.ack),
            side.errors
        );
    }
    for beside in sides.iter().filter_map(|s| s.beside.as_deref()) {
        let _ = writeln!(out, "Beside them: {beside}.");
    }
    if let Some(page) = metrics {
        let value = |name: &str| {
            page.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse::<f64>().ok())
        };
        if let (Some(sum), Some(count)) = (
            value("stolik_commit_batch_moves_sum"),
            value("stolik_commit_batch_moves_count"),
        ) && count > 0.0
        {
            let seconds = value("stolik_commit_seconds_sum").unwrap_or(0.0);
            let _ = writeln!(
                out,
                "server commits: {count:.0} batches, {:.1} moves each on average, {:.2} ms each",
                sum / count,
                seconds * 1000.0 / count
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
