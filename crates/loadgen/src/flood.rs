//! The flood benchmark: an honest pair plays cephalopod from one address while another address
//! floods one thing at a time — wrong-password logins, new guests, table creation, sockets — as
//! fast as `--concurrency` clients can. The honest mover's round trip (a `move` sent → its `ok`)
//! is measured with no flood and under each flood, in the same run, so each figure comes with its
//! ratio to idle; the flood's answers are counted by status.
//!
//! The phases are interleaved: each of `--rounds` rounds runs every phase (idle included) for
//! `--seconds`, starting one phase later than the round before. A burst of other work on the
//! machine then falls on idle and flood alike instead of on whichever phase it happened to hit.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::Spread;
use crate::pair::{Game, Pair};
use crate::server::Server;
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct FloodArgs {
    /// The `stolik` binary to run (build it with `cargo build --release --bin stolik`).
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    /// The web client's folder, for the server.
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Seconds each phase lasts in one round.
    #[arg(long, default_value_t = 5)]
    pub seconds: u64,
    /// Rounds, each running every phase (idle and each flood) once.
    #[arg(long, default_value_t = 6)]
    pub rounds: usize,
    /// Flooding clients at once.
    #[arg(long, default_value_t = 32)]
    pub concurrency: usize,
    /// Limits passed to the server (`--limits`); empty for its defaults.
    #[arg(long, default_value = "")]
    pub limits: String,
}

/// How often the honest pair moves (each player every 100 ms).
const MOVE_EVERY: Duration = Duration::from_millis(50);

/// The addresses the two sides pretend to be (documentation ranges; nothing is sent there).
const HONEST: &str = "203.0.113.5";
const FLOODER: &str = "198.51.100.7";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Flood {
    None,
    Logins,
    Guests,
    Tables,
    Sockets,
}

impl Flood {
    const ALL: [Flood; 5] = [
        Flood::None,
        Flood::Logins,
        Flood::Guests,
        Flood::Tables,
        Flood::Sockets,
    ];

    fn name(self) -> &'static str {
        match self {
            Flood::None => "no flood",
            Flood::Logins => "wrong-password logins",
            Flood::Guests => "new guests",
            Flood::Tables => "table creation",
            Flood::Sockets => "sockets",
        }
    }
}

/// What one kind of phase gathered over every round.
struct Phase {
    flood: Flood,
    /// The honest mover's round trips.
    samples: Vec<Duration>,
    honest_errors: u64,
    answers: BTreeMap<u16, u64>,
    server_cpu: Option<f64>,
    /// This generator's own CPU in the phase: it shares the machine with the server.
    own_cpu: Option<f64>,
}

impl Phase {
    fn new(flood: Flood) -> Phase {
        Phase {
            flood,
            samples: Vec::new(),
            honest_errors: 0,
            answers: BTreeMap::new(),
            server_cpu: Some(0.0),
            own_cpu: Some(0.0),
        }
    }
}

/// Adds a CPU figure of one round to the total (unknown once any round's is unknown).
fn add_cpu(total: &mut Option<f64>, before: Option<f64>, after: Option<f64>) {
    *total = total
        .zip(before.zip(after))
        .map(|(sum, (before, after))| sum + after - before);
}

pub fn run(args: &FloodArgs) -> anyhow::Result<String> {
    let runtime = actix_rt::System::new();
    runtime.block_on(flood(args))
}

async fn flood(args: &FloodArgs) -> anyhow::Result<String> {
    let mut extra = vec!["--trusted-proxy", "127.0.0.1"];
    if !args.limits.is_empty() {
        extra.extend(["--limits", args.limits.as_str()]);
    }
    let server = Server::start(&args.stolik, &args.web_dir, &extra).await?;
    let honest = Http::from_address(server.port, HONEST);
    let flooder = Http::from_address(server.port, FLOODER);
    // The account whose password the flood guesses.
    let victim = honest.guest().await?;
    let (status, body) = honest
        .call(
            "POST",
            "/api/register",
            Some(&victim),
            Some(&json!({"username": "victim", "password": "a real password"})),
        )
        .await;
    anyhow::ensure!(status == 200, "cannot register the victim: {status} {body}");

    // The flooding side's one identity (one guest making many tables or sockets), made before
    // the guest flood can use up its address's quota.
    let flood_token = flooder.guest().await?;
    let mut pair = Pair::new(&honest, Game::default()).await?;
    let mut phases: Vec<Phase> = Flood::ALL.into_iter().map(Phase::new).collect();
    let kinds = phases.len();
    for round in 0..args.rounds {
        for i in 0..kinds {
            let phase = &mut phases[(round + i) % kinds];
            run_phase(args, &server, &honest, &flood_token, &mut pair, phase).await?;
            // Let the limits' windows pass so each flood starts from the same state.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
    Ok(report(args, &mut phases))
}

/// Runs one phase of one round: the flood (if any) on a thread of its own while the honest pair
/// moves, adding what was measured to `phase`.
async fn run_phase(
    args: &FloodArgs,
    server: &Server,
    honest: &Http,
    flood_token: &str,
    pair: &mut Pair,
    phase: &mut Phase,
) -> anyhow::Result<()> {
    let flood = phase.flood;
    let stop = Arc::new(AtomicBool::new(false));
    let answers = Arc::new(Mutex::new(BTreeMap::new()));
    // The flood runs on a thread (and runtime) of its own, so that its clients' work does not
    // delay the honest pair's reading of its replies in this one.
    let flooding = (flood != Flood::None).then(|| {
        let (stop, answers) = (stop.clone(), answers.clone());
        let (port, token, concurrency) = (server.port, flood_token.to_string(), args.concurrency);
        std::thread::spawn(move || {
            yield_to_the_honest_client();
            actix_rt::System::new().block_on(async move {
                let flooder = Http::from_address(port, FLOODER);
                let workers: Vec<_> = (0..concurrency)
                    .map(|_| {
                        actix_rt::spawn(flood_worker(
                            flood,
                            flooder.clone(),
                            token.clone(),
                            stop.clone(),
                            answers.clone(),
                        ))
                    })
                    .collect();
                for worker in workers {
                    let _ = worker.await;
                }
            })
        })
    });
    let cpu_before = server.cpu_seconds();
    let own_before = crate::server::cpu_seconds("self");
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut next_move = Instant::now();
    while Instant::now() < deadline {
        // A brisk human pace, well under the per-socket request limit.
        tokio::time::sleep_until(next_move.into()).await;
        next_move = Instant::now() + MOVE_EVERY;
        match pair.one_move().await {
            Ok(rtt) => phase.samples.push(rtt),
            Err(e) => {
                if phase.honest_errors < 3 {
                    eprintln!(
                        "stolik-load: the honest pair failed ({}): {e:#}",
                        flood.name()
                    );
                }
                phase.honest_errors += 1;
                *pair = Pair::new(honest, Game::default()).await?;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    if let Some(thread) = flooding {
        let _ = thread.join();
    }
    add_cpu(&mut phase.server_cpu, cpu_before, server.cpu_seconds());
    add_cpu(
        &mut phase.own_cpu,
        own_before,
        crate::server::cpu_seconds("self"),
    );
    for (status, n) in answers.lock().expect("answers").iter() {
        *phase.answers.entry(*status).or_insert(0) += n;
    }
    Ok(())
}

/// An attacker floods from a machine of its own; here its clients share two cores with the
/// honest one, whose replies would wait for a core behind the flood's own work. The flooding
/// thread therefore runs at a lower priority (nice 10, this thread only on Linux): it still
/// floods whenever the honest client is not working, which is nearly always (one move every
/// 50 ms), and the report's answer counts show that the server got as many requests.
fn yield_to_the_honest_client() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 10) {
        eprintln!("stolik-load: cannot lower the flood's priority: {e}");
    }
}

/// One flooding client: the same request again and again until told to stop.
async fn flood_worker(
    flood: Flood,
    http: Http,
    token: String,
    stop: Arc<AtomicBool>,
    answers: Arc<Mutex<BTreeMap<u16, u64>>>,
) {
    let count = |status: u16| *answers.lock().expect("answers").entry(status).or_insert(0) += 1;
    let mut sockets: Vec<Conn> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let status = match flood {
            Flood::None => return,
            Flood::Logins => {
                let body = json!({"username": "victim", "password": "a wrong guess"});
                http.call("POST", "/api/login", None, Some(&body)).await.0
            }
            Flood::Guests => http.call("GET", "/api/me", None, None).await.0,
            Flood::Tables => {
                let body = json!({"game": "mill"});
                http.call("POST", "/api/tables", Some(&token), Some(&body))
                    .await
                    .0
            }
            Flood::Sockets => match http.connect(&token).await {
                Ok(conn) => {
                    sockets.push(conn);
                    101
                }
                // The upgrade refused (429 past the address's sockets).
                Err(_) => 429,
            },
        };
        count(status);
        // A refused client backs off a little, as the `Retry-After` asks, but keeps trying.
        if status == 429 || status == 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for conn in sockets {
        drop(conn);
    }
}

fn report(args: &FloodArgs, phases: &mut [Phase]) -> String {
    let mut out = String::new();
    let spreads: Vec<Option<Spread>> = phases
        .iter_mut()
        .map(|p| Spread::of(&mut p.samples))
        .collect();
    let idle = spreads[0];
    let _ = writeln!(
        out,
        "stolik-load flood: {} rounds of {} s a phase, {} flooding clients, limits {:?}",
        args.rounds,
        args.seconds,
        args.concurrency,
        if args.limits.is_empty() {
            "default"
        } else {
            &args.limits
        },
    );
    let _ = writeln!(
        out,
        "| flood | honest moves | move p50 ms | move p99 ms | p99 ÷ idle | honest errors | flood answers | server CPU s | generator CPU s |"
    );
    let _ = writeln!(
        out,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for (phase, honest) in phases.iter().zip(spreads) {
        let (n, p50, p99, ratio) = match (honest, idle) {
            (Some(h), Some(i)) => (
                h.n.to_string(),
                format!("{:.2}", h.p50),
                format!("{:.2}", h.p99),
                format!("{:.2}", h.p99 / i.p99),
            ),
            _ => ("0".into(), "—".into(), "—".into(), "—".into()),
        };
        let answers = if phase.answers.is_empty() {
            "—".to_string()
        } else {
            phase
                .answers
                .iter()
                .map(|(status, n)| format!("{status}: {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let cpu = |c: Option<f64>| c.map_or("—".to_string(), |c| format!("{c:.1}"));
        let (cpu, own) = (cpu(phase.server_cpu), cpu(phase.own_cpu));
        let _ = writeln!(
            out,
            "| {} | {n} | {p50} | {p99} | {ratio} | {} | {answers} | {cpu} | {own} |",
            phase.flood.name(),
            phase.honest_errors,
        );
    }
    out
}
