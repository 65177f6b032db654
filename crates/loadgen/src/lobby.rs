//! The lobby under many open tables: `--tables` public tables are opened, then `--new` more
//! one at a time, first with nobody watching the lobby and then with `--watchers` sockets
//! following its first page. For each new table: the time until the last watcher has it, the
//! size of the change each watcher is sent, and the server's CPU — against the size of the
//! whole lobby, which is what every watcher would otherwise be sent for every change.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::server::Server;
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct LobbyArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Open tables before the measurement.
    #[arg(long, default_value_t = 2300)]
    pub tables: usize,
    /// Sockets following the lobby's first page.
    #[arg(long, default_value_t = 200)]
    pub watchers: usize,
    /// Tables opened one at a time in each half of the measurement.
    #[arg(long, default_value_t = 40)]
    pub new: usize,
}

/// The lobby sends a page's changes at most every 250 ms; opening the next table later than
/// that times each delivery on its own rather than the wait for the next round.
const GAP: Duration = Duration::from_millis(300);

pub fn run(args: &LobbyArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(lobby(args))
}

/// The bytes of every open table's lobby entry, read page by page over HTTP.
async fn whole_lobby_bytes(http: &Http) -> anyhow::Result<(usize, usize)> {
    let (mut bytes, mut count) = (0, 0);
    loop {
        let path = format!("/api/tables?offset={count}&limit=100");
        let (status, page) = http.call("GET", &path, None, None).await;
        anyhow::ensure!(status == 200, "the lobby: {status} {page}");
        let tables = page["tables"].as_array().cloned().unwrap_or_default();
        if tables.is_empty() {
            return Ok((bytes, count));
        }
        count += tables.len();
        bytes += tables
            .iter()
            .map(|t| t.to_string().len() + 1)
            .sum::<usize>();
    }
}

/// Opens `count` tables one at a time, `GAP` apart; with watchers, waits for each to reach
/// them all. Returns the server CPU seconds, the last deliveries and the change sizes.
async fn open_one_at_a_time(
    http: &Http,
    server: &Server,
    watchers: &mut [Conn],
    count: usize,
) -> anyhow::Result<(Option<f64>, Vec<Duration>, Vec<usize>)> {
    let mut last = Vec::with_capacity(count);
    let mut sizes = Vec::new();
    let cpu_before = server.cpu_seconds();
    for i in 0..count {
        tokio::time::sleep(GAP).await;
        let game = if i % 2 == 0 { "mill" } else { "cephalopod" };
        let sent = Instant::now();
        let id = Value::from(http.open_public_table(game).await?);
        let arrivals = join_all(watchers.iter_mut().map(|conn| {
            let id = id.clone();
            async move {
                let change = conn
                    .until(|m| {
                        m["type"] == "lobby.changes"
                            && m["tables"]
                                .as_array()
                                .is_some_and(|t| t.iter().any(|e| e["id"] == id))
                    })
                    .await?;
                anyhow::Ok((sent.elapsed(), change.to_string().len()))
            }
        }))
        .await;
        let mut slowest = Duration::ZERO;
        for arrival in arrivals {
            let (took, size) = arrival?;
            slowest = slowest.max(took);
            sizes.push(size);
        }
        if !watchers.is_empty() {
            last.push(slowest);
        }
    }
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    Ok((cpu, last, sizes))
}

async fn lobby(args: &LobbyArgs) -> anyhow::Result<String> {
    let server = Server::start(&args.stolik, &args.web_dir, &["--limits", "off"]).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let games = ["mill", "cephalopod", "perekati", "tumbleweed"];
    let opened: Vec<anyhow::Result<String>> = futures_util::stream::iter(0..args.tables)
        .map(|i| http.open_public_table(games[i % games.len()]))
        .buffer_unordered(32)
        .collect()
        .await;
    opened
        .into_iter()
        .collect::<anyhow::Result<Vec<String>>>()?;

    let (alone_cpu, _, _) = open_one_at_a_time(&http, &server, &mut [], args.new).await?;

    let mut watchers = Vec::with_capacity(args.watchers);
    let mut first_page = 0;
    for _ in 0..args.watchers {
        let token = http.guest().await?;
        let mut conn = http.connect(&token).await?;
        let page = conn.request(json!({"type": "lobby.subscribe"})).await?;
        anyhow::ensure!(page["type"] == "lobby", "lobby.subscribe: {page}");
        first_page = page.to_string().len();
        watchers.push(conn);
    }
    let (watched_cpu, mut last, sizes) =
        open_one_at_a_time(&http, &server, &mut watchers, args.new).await?;
    let (whole, listed) = whole_lobby_bytes(&http).await?;

    last.sort();
    let at = |q: f64| crate::quantile_ms(&last, q).unwrap_or(f64::NAN);
    let per_table = |cpu: Option<f64>| {
        cpu.map_or("—".into(), |c| {
            format!("{:.2}", c * 1000.0 / args.new as f64)
        })
    };
    let mean_size = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load lobby: {listed} open tables at the end, {} watchers of the first page, {} new tables in each half",
        args.watchers, args.new
    );
    let _ = writeln!(
        out,
        "a new table reaches the last watcher: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    let _ = writeln!(
        out,
        "a watcher is sent {mean_size:.0} bytes a change (the first page: {first_page} bytes; the whole lobby: {whole} bytes)"
    );
    let _ = writeln!(
        out,
        "server CPU a new table: {} ms with nobody watching, {} ms with {} watchers",
        per_table(alone_cpu),
        per_table(watched_cpu),
        args.watchers
    );
    Ok(out)
}
