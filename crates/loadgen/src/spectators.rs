//! One game watched by `--spectators` sockets: how long until the last of them has each move.
//! The moves are played one at a time, each once every spectator has the one before.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::json;

use crate::pair::{Game, Pair};
use crate::server::Server;
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct SpectatorsArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    #[arg(long, default_value_t = 1000)]
    pub spectators: usize,
    /// The game every pair plays (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Moves measured (a finished game goes on as a rematch, which the spectators follow).
    #[arg(long, default_value_t = 200)]
    pub moves: usize,
}

/// The least time between two moves of the game: each player moves at most every 60 ms,
/// under their socket's request limit.
const MOVE_GAP: Duration = Duration::from_millis(30);

pub fn run(args: &SpectatorsArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(spectate(args))
}

/// Every spectator follows the pair's table, leaving the one it followed before (`left`).
async fn watch(conns: &mut [Conn], pair: &Pair, left: Option<&str>) -> anyhow::Result<()> {
    let body = json!({"type": "table.subscribe", "table": pair.table(), "token": pair.invite});
    for conn in conns.iter_mut() {
        if let Some(left) = left {
            conn.request(json!({"type": "table.unsubscribe", "table": left}))
                .await?;
        }
        conn.request(body.clone()).await?;
    }
    Ok(())
}

async fn spectate(args: &SpectatorsArgs) -> anyhow::Result<String> {
    let server = Server::start(&args.stolik, &args.web_dir, &["--limits", "off"]).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let mut pair = Pair::new(&http, args.game).await?;
    let mut watchers = Vec::with_capacity(args.spectators);
    for _ in 0..args.spectators {
        let token = http.guest().await?;
        watchers.push(http.connect(&token).await?);
    }
    watch(&mut watchers, &pair, None).await?;
    let mut last = Vec::with_capacity(args.moves);
    let mut errors = 0u64;
    let cpu_before = server.cpu_seconds();
    // The generator's own CPU too: it shares the cores, and reading the crowd's copies of a
    // move takes it about as long as the server takes to send them.
    let generator_before = crate::server::cpu_seconds("self");
    // A player's socket may send 20 requests a second (a burst of 40); moving faster than
    // that would time the generator's own back-off after `rate_limited`, not the delivery.
    let mut pace = tokio::time::interval(MOVE_GAP);
    pace.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while last.len() < args.moves {
        pace.tick().await;
        let table = pair.table().to_string();
        let sent = Instant::now();
        if let Err(e) = pair.one_move().await {
            eprintln!("stolik-load spectators: {e:#}");
            errors += 1;
            anyhow::ensure!(errors <= 10, "too many errors");
            continue;
        }
        if pair.table() != table {
            // The game ended and its rematch began: this move was the rematch's first, and
            // the spectators were not there to see it. Follow the new table.
            watch(&mut watchers, &pair, Some(&table)).await?;
            continue;
        }
        let ply = pair.ply();
        let arrivals = join_all(watchers.iter_mut().map(|conn| async move {
            conn.until(|m| {
                (m["type"] == "move" && m["ply"].as_u64() == Some(ply)) || m["type"] == "end"
            })
            .await
            .map(|_| sent.elapsed())
        }))
        .await;
        let mut slowest = Duration::ZERO;
        for arrival in arrivals {
            slowest = slowest.max(arrival?);
        }
        last.push(slowest);
    }
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    let generator = generator_before
        .zip(crate::server::cpu_seconds("self"))
        .map(|(a, b)| b - a);
    let moves = last.len() as f64;
    let per_move =
        |cpu: Option<f64>| cpu.map_or("—".into(), |c| format!("{:.2}", c * 1000.0 / moves));
    last.sort();
    let at = |q: f64| crate::quantile_ms(&last, q).unwrap_or(f64::NAN);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load spectators: {} spectators of a {} game, {} moves",
        args.spectators,
        args.game.id(),
        last.len()
    );
    let _ = writeln!(
        out,
        "last delivery p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; CPU per move: server {} ms, generator {} ms; moves sent again after `rate_limited` {}; errors {errors}",
        at(0.5),
        at(0.99),
        at(1.0),
        per_move(cpu),
        per_move(generator),
        pair.throttled,
    );
    Ok(out)
}
