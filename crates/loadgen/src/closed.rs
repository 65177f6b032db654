//! The closed loop: `--games` pairs play as fast as the server answers (each side moves as
//! soon as it is its turn), then the echo baseline answers as many sockets sending frames of
//! the same kind, in the same run. Prints moves (messages) a second, the mover's
//! acknowledgement p50/p99/p99.9, server CPU per move and RSS, and the ratio to the echo.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::pair::{Game, Pair};
use crate::server::Server;
use testkit::Http;

#[derive(clap::Args, Debug, Clone)]
pub struct ClosedArgs {
    /// The `stolik` binary to run (build it with `cargo build --release --bin stolik`).
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Games played at once (two sockets each); the echo gets as many socket pairs.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// The game every pair plays (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Seconds each side is measured, after a second of warm-up.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
}

/// One move of a pair, timed.
pub(crate) async fn play_one(mut pair: Pair) -> (Pair, anyhow::Result<Duration>) {
    let rtt = pair.one_move().await;
    (pair, rtt)
}

/// The server processes a side's CPU and memory are read from.
pub(crate) struct Probe(Vec<String>);

impl Probe {
    pub(crate) fn of(server: &Server) -> Probe {
        Probe(vec![server.pid().to_string()])
    }

    pub(crate) fn pids(pids: impl IntoIterator<Item = u32>) -> Probe {
        Probe(pids.into_iter().map(|p| p.to_string()).collect())
    }

    fn cpu_seconds(&self) -> Option<f64> {
        self.0
            .iter()
            .map(|pid| crate::server::cpu_seconds(pid))
            .sum()
    }

    fn rss_bytes(&self) -> Option<u64> {
        self.0.iter().map(|pid| crate::server::rss_bytes(pid)).sum()
    }
}

/// What one side of the comparison measured.
pub(crate) struct Side {
    name: &'static str,
    answers: usize,
    pub(crate) per_second: f64,
    p50: f64,
    pub(crate) p99: f64,
    p999: f64,
    pub(crate) cpu_us_per_answer: Option<f64>,
    rss_mib: Option<f64>,
    errors: u64,
}

pub fn run(args: &ClosedArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(closed(args))
}

async fn closed(args: &ClosedArgs) -> anyhow::Result<String> {
    let stolik = stolik_side(args).await?;
    let (echo, conns) = Server::echo_with(args.games * 2).await?;
    let frame = crate::echo::move_frame();
    let echoed = measure(
        "echo messages",
        &Probe::of(&echo),
        args.seconds,
        conns,
        move |mut conn| {
            let frame = frame.clone();
            async move {
                let sent = Instant::now();
                let rtt = conn.request(frame).await.map(|_| sent.elapsed());
                (conn, rtt)
            }
        },
    )
    .await;
    Ok(report(args, &[stolik, echoed]))
}

/// The Stolik side alone: `args.stolik` started on a fresh database, its pairs measured, the
/// server stopped.
pub(crate) async fn stolik_side(args: &ClosedArgs) -> anyhow::Result<Side> {
    // Every guest and table comes from 127.0.0.1: the per-address limits are off here.
    let server = Server::start(&args.stolik, &args.web_dir, &["--limits", "off"]).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let pairs = Pair::many(&http, args.games, args.game).await?;
    Ok(measure(
        "stolik moves",
        &Probe::of(&server),
        args.seconds,
        pairs,
        play_one,
    )
    .await)
}

/// Runs `step` in a loop on every client at once for the measured window and gathers the
/// round trips.
pub(crate) async fn measure<C, F, Fut>(
    name: &'static str,
    server: &Probe,
    seconds: u64,
    clients: Vec<C>,
    step: F,
) -> Side
where
    C: 'static,
    F: Fn(C) -> Fut + Clone + 'static,
    Fut: std::future::Future<Output = (C, anyhow::Result<Duration>)> + 'static,
{
    let start = Instant::now() + Duration::from_secs(1);
    let end = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|client| {
            let step = step.clone();
            actix_rt::spawn(async move {
                let mut client = client;
                let mut samples = Vec::new();
                let mut errors = 0u64;
                while Instant::now() < end {
                    let (back, rtt) = step(client).await;
                    client = back;
                    match rtt {
                        Ok(rtt) if Instant::now() >= start => samples.push(rtt),
                        Ok(_) => {}
                        Err(e) => {
                            if crate::too_many_errors(&mut errors, name, &e) {
                                break;
                            }
                        }
                    }
                }
                (samples, errors)
            })
        })
        .collect();
    tokio::time::sleep_until(start.into()).await;
    let cpu_before = server.cpu_seconds();
    let mut samples = Vec::new();
    let mut errors = 0;
    for task in tasks {
        if let Ok((s, e)) = task.await {
            samples.extend(s);
            errors += e;
        }
    }
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    let rss_mib = server.rss_bytes().map(|b| b as f64 / (1 << 20) as f64);
    samples.sort();
    let at = |q: f64| crate::quantile_ms(&samples, q).unwrap_or(f64::NAN);
    let answers = samples.len();
    Side {
        name,
        answers,
        per_second: answers as f64 / seconds as f64,
        p50: at(0.5),
        p99: at(0.99),
        p999: at(0.999),
        cpu_us_per_answer: cpu
            .filter(|_| answers > 0)
            .map(|c| c * 1e6 / answers as f64),
        rss_mib,
        errors,
    }
}

fn report(args: &ClosedArgs, sides: &[Side]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load closed: {} {} games (two sockets each), {} s measured",
        args.games,
        args.game.id(),
        args.seconds
    );
    out.push_str(&table(sides));
    if let [stolik, echo] = sides {
        let _ = writeln!(
            out,
            "Stolik moves/s ÷ echo messages/s: {:.2}",
            stolik.per_second / echo.per_second
        );
    }
    out
}

/// The sides as a Markdown table.
pub(crate) fn table(sides: &[Side]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| side | answered | per second | p50 ms | p99 ms | p99.9 ms | server CPU µs each | server RSS MiB | errors |"
    );
    let _ = writeln!(
        out,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for side in sides {
        let cpu = side
            .cpu_us_per_answer
            .map_or("—".into(), |c| format!("{c:.0}"));
        let rss = side.rss_mib.map_or("—".into(), |r| format!("{r:.0}"));
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {cpu} | {rss} | {} |",
            side.name, side.answers, side.per_second, side.p50, side.p99, side.p999, side.errors
        );
    }
    out
}
