//! An arena under load: `--players` accounts in one Cephalopod 3×3 arena play every game it
//! pairs them in as fast as the server answers, while `--watchers` sockets follow its
//! standings (`tournament.subscribe`). Measured: how long after a game's end each watcher has
//! the line that counts it; how long after the server made an update (its `at`) each watcher,
//! and the last of them, has it; the size of each update against the whole standings'; the
//! server's CPU and the generator's own.
//!
//! The watchers' sockets are read by `--reader-threads` threads, each with a runtime of its
//! own, and an update is parsed only once it is known to be one: reading a thousand sockets
//! on the players' thread made the generator what the run measured.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::server::Server;
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct ArenaArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    #[arg(long, default_value_t = 500)]
    pub players: usize,
    #[arg(long, default_value_t = 1000)]
    pub watchers: usize,
    /// How long the arena plays (its five minutes are shortened to this), after a fifth of it
    /// for the players to enter.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Threads reading the watchers' sockets, each with its share of them.
    #[arg(long, default_value_t = 4)]
    pub reader_threads: usize,
}

const PASSWORD: &str = "a load generator's password";
/// The lines of the standings' first page, which the watchers follow.
const PAGE_LINES: u64 = 20;
/// Requests sent at once while setting up (registrations are hashed: argon2).
const AT_ONCE: usize = 16;

pub fn run(args: &ArenaArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.players >= 2, "an arena needs two players at least");
    actix_rt::System::new().block_on(arena(args))
}

/// One standings update as a watcher got it.
struct Update {
    at: Instant,
    /// When the server made it (its `at`, unix ms), and when the watcher had it.
    made_ms: i64,
    got_ms: i64,
    bytes: usize,
    /// The players whose game count it raised, with how many games they had before and then.
    raised: Vec<(String, usize, usize)>,
}

/// What one watcher saw.
#[derive(Default)]
struct Seen {
    updates: Vec<Update>,
    /// Each player's games, as the lines sent count them.
    games: HashMap<String, usize>,
}

/// When each player saw each of their games end, in order.
type Ends = Arc<Mutex<HashMap<String, Vec<Instant>>>>;

async fn arena(args: &ArenaArgs) -> anyhow::Result<String> {
    // The shortest arena is five of the calendar's minutes: one lasts a fifth of the run.
    let minute_ms = (args.seconds * 1000 / 5).max(1000).to_string();
    let server = Server::start(
        &args.stolik,
        &args.web_dir,
        &["--limits", "off", "--tournament-minute-ms", &minute_ms],
    )
    .await?;
    let http = Http::from_address(server.port, "127.0.0.1");

    let mut players: Vec<(String, String)> = Vec::with_capacity(args.players);
    for chunk in (0..args.players).collect::<Vec<_>>().chunks(AT_ONCE) {
        let made = join_all(chunk.iter().map(|i| register(&http, *i))).await;
        for player in made {
            players.push(player?);
        }
    }
    let (status, created) = http
        .post(
            "/api/tournaments",
            &players[0].0,
            &json!({"game": "cephalopod", "variant": "3x3", "initial": 60, "increment": 0,
                   "minutes": 5, "starts_in": 1, "berserk": false}),
        )
        .await?;
    anyhow::ensure!(status == 201, "the arena was refused: {created}");
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let join_path = format!("/api/tournaments/{id}/join");
    let empty = json!({});
    for chunk in players.chunks(AT_ONCE) {
        let answers = join_all(
            chunk
                .iter()
                .map(|(token, _)| http.post(&join_path, token, &empty)),
        )
        .await;
        for answer in answers {
            let (status, body) = answer?;
            anyhow::ensure!(status == 204, "a join was refused: {body}");
        }
    }
    let (_, page) = http.get(&format!("/api/tournaments/{id}"), None).await?;
    let ends_at = page["tournament"]["ends_at"].as_i64().unwrap_or_default();
    let now = page["now"].as_i64().unwrap_or_default();
    // Until the arena is over and its last standings are out, with a margin.
    let until = Instant::now() + Duration::from_millis((ends_at - now).max(0) as u64 + 5000);

    let mut sockets = Vec::with_capacity(args.players);
    for (token, _) in &players {
        sockets.push(http.connect(token).await?);
    }
    // Every reader's watchers follow the standings before the play starts.
    let (handles, mut told) = read_on_threads(args, server.port, &id, until);
    let mut ready = 0;
    while ready < handles.len() {
        match told.recv().await {
            Some(Ok(())) => ready += 1,
            Some(Err(error)) => anyhow::bail!("a reader's watchers: {error}"),
            None => anyhow::bail!("a reader thread ended early"),
        }
    }

    let ends: Ends = Arc::default();
    let cpu_before = server.cpu_seconds();
    let own_before = crate::server::cpu_seconds("self");
    let started = Instant::now();
    let playing = players
        .iter()
        .zip(sockets)
        .map(|((_, user), conn)| play(conn, id.clone(), user.clone(), until, ends.clone()));
    let played = join_all(playing).await;
    let seen: Vec<Seen> = handles
        .into_iter()
        .flat_map(|handle| handle.join().unwrap_or_default())
        .collect();
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    let own = own_before
        .zip(crate::server::cpu_seconds("self"))
        .map(|(a, b)| b - a);
    let elapsed = started.elapsed().as_secs_f64();
    let errors: u64 = played.iter().sum();
    let (whole, lines) = whole_standings(&http, &id).await?;

    let ends = ends.lock().expect("ends");
    let games = ends.values().map(Vec::len).sum::<usize>() / 2;
    let mut latencies = Vec::new();
    let mut sizes = Vec::new();
    let mut made_to_each = Vec::new();
    // Each update, by when it was made: when its first and last watchers had it.
    let mut arrivals: HashMap<i64, (Instant, Instant, i64)> = HashMap::new();
    for seen in &seen {
        latencies.extend(result_latencies(seen, &ends));
        for update in &seen.updates {
            sizes.push(update.bytes);
            made_to_each.push(ms(update.got_ms - update.made_ms));
            let span =
                arrivals
                    .entry(update.made_ms)
                    .or_insert((update.at, update.at, update.got_ms));
            span.0 = span.0.min(update.at);
            span.1 = span.1.max(update.at);
            span.2 = span.2.max(update.got_ms);
        }
    }
    let updates = seen.iter().map(|s| s.updates.len()).max().unwrap_or(0);
    let mut spreads: Vec<Duration> = arrivals.values().map(|(a, b, _)| *b - *a).collect();
    let mut made_to_last: Vec<Duration> = arrivals
        .iter()
        .map(|(made, (_, _, last))| ms(last - made))
        .collect();
    spreads.sort();
    made_to_last.sort();
    made_to_each.sort();
    latencies.sort();
    sizes.sort();
    let q = |samples: &[Duration], q: f64| crate::quantile_ms(samples, q).unwrap_or(f64::NAN);
    let size_at = |q: f64| {
        sizes
            .get(((sizes.len().saturating_sub(1)) as f64 * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load arena: {} players, {} watchers on {} reader threads, {:.0} s: {games} games ended, {updates} standings updates, {errors} errors",
        args.players, args.watchers, args.reader_threads, elapsed
    );
    let _ = writeln!(
        out,
        "a result to each watcher (from its player's seeing the end): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} deliveries)",
        q(&latencies, 0.5),
        q(&latencies, 0.99),
        q(&latencies, 1.0),
        latencies.len()
    );
    let _ = writeln!(
        out,
        "an update from its making (the server's `at`) to each watcher: p50 {:.1} ms, p99 {:.1} ms; to its last watcher: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} updates)",
        q(&made_to_each, 0.5),
        q(&made_to_each, 0.99),
        q(&made_to_last, 0.5),
        q(&made_to_last, 0.99),
        q(&made_to_last, 1.0),
        made_to_last.len()
    );
    let _ = writeln!(
        out,
        "an update from its first watcher to its last: p50 {:.1} ms, p99 {:.1} ms",
        q(&spreads, 0.5),
        q(&spreads, 0.99),
    );
    let _ = writeln!(
        out,
        "an update's size: p50 {} bytes, p99 {} bytes, max {} bytes; the whole standings: {whole} bytes ({lines} lines)",
        size_at(0.5),
        size_at(0.99),
        size_at(1.0)
    );
    let _ = writeln!(
        out,
        "CPU: the server {} s, the generator {} s, of {:.0} s",
        cpu.map_or("—".into(), |c| format!("{c:.1}")),
        own.map_or("—".into(), |c| format!("{c:.1}")),
        elapsed
    );
    Ok(out)
}

fn ms(millis: i64) -> Duration {
    Duration::from_millis(millis.max(0) as u64)
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The whole standings as the tournament's pages give them over HTTP: their lines' size in
/// bytes (as JSON), and how many there are.
async fn whole_standings(http: &Http, id: &str) -> anyhow::Result<(usize, usize)> {
    let mut lines = Vec::new();
    let mut page = 1;
    loop {
        let (status, body) = http
            .get(&format!("/api/tournaments/{id}?page={page}"), None)
            .await?;
        anyhow::ensure!(status == 200, "the standings' page {page}: {body}");
        lines.extend(
            body["standings"]["items"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        );
        if page >= body["standings"]["pages"].as_u64().unwrap_or(1) as usize {
            break;
        }
        page += 1;
    }
    Ok((serde_json::to_string(&lines)?.len(), lines.len()))
}

/// Reader threads, `--reader-threads` of them, each with a runtime of its own: each opens its
/// share of the watchers, follows the standings with them, says so (or why not) on the
/// channel, and reads them until `until`.
#[allow(clippy::type_complexity)]
fn read_on_threads(
    args: &ArenaArgs,
    port: u16,
    id: &str,
    until: Instant,
) -> (
    Vec<std::thread::JoinHandle<Vec<Seen>>>,
    tokio::sync::mpsc::UnboundedReceiver<Result<(), String>>,
) {
    let (tell, told) = tokio::sync::mpsc::unbounded_channel();
    let threads = args.reader_threads.max(1);
    let handles = (0..threads)
        .map(|thread| {
            let count = args.watchers / threads + usize::from(thread < args.watchers % threads);
            let (id, tell) = (id.to_string(), tell.clone());
            std::thread::spawn(move || {
                actix_rt::System::new().block_on(async move {
                    let http = Http::from_address(port, "127.0.0.1");
                    let mut conns = Vec::with_capacity(count);
                    for _ in 0..count {
                        match follow(&http, &id).await {
                            Ok(conn) => conns.push(conn),
                            Err(error) => {
                                let _ = tell.send(Err(error.to_string()));
                                return Vec::new();
                            }
                        }
                    }
                    let _ = tell.send(Ok(()));
                    join_all(conns.into_iter().map(|conn| watch(conn, id.clone(), until))).await
                })
            })
        })
        .collect();
    (handles, told)
}

/// A guest's socket following tournament `id`'s standings.
async fn follow(http: &Http, id: &str) -> anyhow::Result<Conn> {
    let token = http.guest().await?;
    let mut conn = http.connect(&token).await?;
    let answer = conn
        .request(json!({"type": "tournament.subscribe", "tournament": id}))
        .await?;
    anyhow::ensure!(answer["type"] == "tournament", "not followed: {answer}");
    Ok(conn)
}

/// A new account, `load{i}`: its token and user id.
async fn register(http: &Http, i: usize) -> anyhow::Result<(String, String)> {
    let guest = http.guest().await?;
    let (status, body) = http
        .post(
            "/api/register",
            &guest,
            &json!({"username": format!("load{i}"), "password": PASSWORD}),
        )
        .await?;
    anyhow::ensure!(status == 200, "registration refused: {body}");
    let token = body["token"].as_str().unwrap_or_default().to_string();
    let user = body["user"]["id"].as_str().unwrap_or_default().to_string();
    Ok((token, user))
}

/// One player: plays each game the arena pairs them in, always the first legal move, until
/// `until`; the errors it met.
async fn play(mut conn: Conn, tournament: String, user: String, until: Instant, ends: Ends) -> u64 {
    let mut errors = 0;
    let mut table: Option<String> = None;
    let mut ply = 0;
    // The ply last moved at: a table's state comes again on other changes (a seat's
    // presence), and must not make the player move twice.
    let mut moved_at = None;
    while let Ok(read) =
        tokio::time::timeout(until.saturating_duration_since(Instant::now()), conn.read()).await
    {
        let Ok(message) = read else { break };
        let on_table = |m: &Value| table.as_deref().is_some_and(|t| m["table"] == t);
        let to_play = match message["type"].as_str() {
            // The pairing is told again while a player is not at its table: once is enough.
            Some("tournament.game")
                if message["tournament"] == tournament.as_str() && !on_table(&message) =>
            {
                let next = message["table"].as_str().unwrap_or_default().to_string();
                let subscribe = json!({"type": "table.subscribe", "table": next});
                table = Some(next);
                if conn.send(subscribe).await.is_err() {
                    break;
                }
                None
            }
            Some("table") if message["table"]["id"] == json!(table) => {
                let t = &message["table"];
                ply = t["ply"].as_u64().unwrap_or(0);
                (t["status"] == "playing" && t["to_move"] == t["you"]).then(|| t["legal"].clone())
            }
            Some("move") if on_table(&message) => {
                ply = message["ply"].as_u64().unwrap_or(0);
                Some(message["legal"].clone())
            }
            Some("end") if on_table(&message) => {
                ends.lock()
                    .expect("ends")
                    .entry(user.clone())
                    .or_default()
                    .push(Instant::now());
                let left = table.take().unwrap_or_default();
                if conn
                    .send(json!({"type": "table.unsubscribe", "table": left}))
                    .await
                    .is_err()
                {
                    break;
                }
                None
            }
            Some("error") => {
                if errors == 0 {
                    eprintln!("stolik-load arena: {message}");
                }
                errors += 1;
                None
            }
            _ => None,
        };
        // Legal moves come only to the player to move.
        if let (Some(Value::Array(legal)), Some(t)) = (to_play, table.as_deref())
            && let Some(first) = legal.first()
            && moved_at != Some((t.to_string(), ply))
        {
            moved_at = Some((t.to_string(), ply));
            let body = json!({"type": "move", "table": t, "move": first, "ply": ply});
            if conn.send(body).await.is_err() {
                break;
            }
        }
    }
    conn.close().await;
    errors
}

/// One watcher: every standings update until the arena is over (or `until`). Only an update
/// is parsed, and of it only what the measure needs is read.
async fn watch(mut conn: Conn, tournament: String, until: Instant) -> Seen {
    let mut seen = Seen::default();
    while let Ok(Ok(text)) = tokio::time::timeout(
        until.saturating_duration_since(Instant::now()),
        conn.read_text(),
    )
    .await
    {
        let (at, got_ms) = (Instant::now(), unix_ms());
        if !text.contains("\"tournament.changes\"") {
            continue;
        }
        let Ok(message) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if message["tournament"] != tournament.as_str() {
            continue;
        }
        let mut raised = Vec::new();
        for line in message["changed"].as_array().into_iter().flatten() {
            let player = line["player"].as_str().unwrap_or_default().to_string();
            // A line's change keeps `scores_from` of the marks and adds `scores`; a whole
            // line has them all.
            let kept = line["scores_from"].as_u64().unwrap_or(0) as usize;
            let games = kept + line["scores"].as_array().map_or(0, Vec::len);
            // A line new to the watcher (come onto its page) brings games it never followed:
            // only its later ones are timed.
            let before = seen.games.get(&player).copied();
            if let Some(before) = before.filter(|before| games > *before) {
                raised.push((player.clone(), before, games));
            }
            // A line that left the page is no longer followed: when it comes back, it brings
            // the games played meanwhile, which are not timed either.
            if line["rank"].as_u64().is_some_and(|rank| rank > PAGE_LINES) {
                seen.games.remove(&player);
            } else {
                seen.games.insert(player, games);
            }
        }
        seen.updates.push(Update {
            at,
            made_ms: message["at"].as_i64().unwrap_or_default(),
            got_ms,
            bytes: text.len(),
            raised,
        });
        if message["status"] == "finished" {
            break;
        }
    }
    conn.close().await;
    seen
}

/// For each game a watcher saw counted on a line it already had: the time from its player's seeing it end to the
/// watcher's having the line that counts it (a line counts a player's n-th game when it
/// shows n scores).
fn result_latencies(seen: &Seen, ends: &HashMap<String, Vec<Instant>>) -> Vec<Duration> {
    let mut out = Vec::new();
    for Update { at, raised, .. } in &seen.updates {
        for (player, before, games) in raised {
            let Some(times) = ends.get(player) else {
                continue;
            };
            for end in times.iter().take(*games).skip(*before) {
                out.push(at.saturating_duration_since(*end));
            }
        }
    }
    out
}
