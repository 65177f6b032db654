//! An arena under load: `--players` accounts in one Cephalopod 3×3 arena play every game it
//! pairs them in as fast as the server answers, while `--watchers` sockets follow its
//! standings (`tournament.subscribe`). Measured: how long after a game's end each watcher has
//! the line that counts it, the size of each update against the whole standings', and the
//! server's CPU.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
}

const PASSWORD: &str = "a load generator's password";
/// Requests sent at once while setting up (registrations are hashed: argon2).
const AT_ONCE: usize = 16;

pub fn run(args: &ArenaArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.players >= 2, "an arena needs two players at least");
    actix_rt::System::new().block_on(arena(args))
}

/// One standings update as a watcher got it.
struct Update {
    at: Instant,
    bytes: usize,
    /// The message's hash: the same update reaches every watcher, told apart by this.
    key: u64,
    /// The players whose game count it raised, with how many games they had then.
    raised: Vec<(String, usize)>,
}

/// What one watcher saw.
#[derive(Default)]
struct Seen {
    updates: Vec<Update>,
    /// Every line, as last sent: at the end, the whole standings.
    lines: HashMap<String, Value>,
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
    let mut watchers = Vec::with_capacity(args.watchers);
    for _ in 0..args.watchers {
        let token = http.guest().await?;
        let mut conn = http.connect(&token).await?;
        let answer = conn
            .request(json!({"type": "tournament.subscribe", "tournament": id}))
            .await?;
        anyhow::ensure!(answer["type"] == "tournament", "not followed: {answer}");
        watchers.push(conn);
    }

    let ends: Ends = Arc::default();
    let cpu_before = server.cpu_seconds();
    let started = Instant::now();
    let playing = players
        .iter()
        .zip(sockets)
        .map(|((_, user), conn)| play(conn, id.clone(), user.clone(), until, ends.clone()));
    let watching = watchers
        .into_iter()
        .map(|conn| watch(conn, id.clone(), until));
    let (played, seen) = futures_util::join!(join_all(playing), join_all(watching));
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    let elapsed = started.elapsed().as_secs_f64();
    let errors: u64 = played.iter().sum();

    let ends = ends.lock().expect("ends");
    let games = ends.values().map(Vec::len).sum::<usize>() / 2;
    let mut latencies = Vec::new();
    let mut sizes = Vec::new();
    for seen in &seen {
        latencies.extend(result_latencies(seen, &ends));
        sizes.extend(seen.updates.iter().map(|u| u.bytes));
    }
    let updates = seen.iter().map(|s| s.updates.len()).max().unwrap_or(0);
    let whole = seen
        .iter()
        .map(|s| {
            serde_json::to_string(&s.lines.values().collect::<Vec<_>>()).map_or(0, |t| t.len())
        })
        .max()
        .unwrap_or(0);
    // Each update's fan-out: from the first watcher's having it to the last's.
    let mut arrivals: HashMap<u64, (Instant, Instant)> = HashMap::new();
    for update in seen.iter().flat_map(|s| &s.updates) {
        let span = arrivals.entry(update.key).or_insert((update.at, update.at));
        span.0 = span.0.min(update.at);
        span.1 = span.1.max(update.at);
    }
    let mut spreads: Vec<Duration> = arrivals.values().map(|(a, b)| *b - *a).collect();
    spreads.sort();
    latencies.sort();
    sizes.sort();
    let at = |q: f64| crate::quantile_ms(&latencies, q).unwrap_or(f64::NAN);
    let size_at = |q: f64| {
        sizes
            .get(((sizes.len().saturating_sub(1)) as f64 * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load arena: {} players, {} watchers, {:.0} s: {games} games ended, {updates} standings updates, {errors} errors",
        args.players, args.watchers, elapsed
    );
    let _ = writeln!(
        out,
        "a result to each watcher: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} deliveries)",
        at(0.5),
        at(0.99),
        at(1.0),
        latencies.len()
    );
    let _ = writeln!(
        out,
        "an update from its first watcher to its last: p50 {:.1} ms, p99 {:.1} ms ({} updates)",
        crate::quantile_ms(&spreads, 0.5).unwrap_or(f64::NAN),
        crate::quantile_ms(&spreads, 0.99).unwrap_or(f64::NAN),
        spreads.len()
    );
    let _ = writeln!(
        out,
        "an update's size: p50 {} bytes, p99 {} bytes, max {} bytes; the whole standings: {whole} bytes",
        size_at(0.5),
        size_at(0.99),
        size_at(1.0)
    );
    let _ = writeln!(
        out,
        "server CPU: {} s of {:.0} s",
        cpu.map_or("—".into(), |c| format!("{c:.1}")),
        elapsed
    );
    Ok(out)
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

/// One watcher: every standings update until the arena is over (or `until`).
async fn watch(mut conn: Conn, tournament: String, until: Instant) -> Seen {
    let mut seen = Seen::default();
    while let Ok(Ok(message)) =
        tokio::time::timeout(until.saturating_duration_since(Instant::now()), conn.read()).await
    {
        if message["type"] != "tournament.changes" || message["tournament"] != tournament.as_str() {
            continue;
        }
        let at = Instant::now();
        let text = message.to_string();
        let bytes = text.len();
        let key = {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut hasher);
            hasher.finish()
        };
        let mut raised = Vec::new();
        for line in message["changed"].as_array().into_iter().flatten() {
            let player = line["player"].as_str().unwrap_or_default().to_string();
            let games = line["scores"].as_array().map_or(0, Vec::len);
            let before = seen
                .lines
                .get(&player)
                .and_then(|l| l["scores"].as_array())
                .map_or(0, Vec::len);
            if games > before {
                raised.push((player.clone(), games));
            }
            seen.lines.insert(player, line.clone());
        }
        seen.updates.push(Update {
            at,
            bytes,
            key,
            raised,
        });
        if message["status"] == "finished" {
            break;
        }
    }
    conn.close().await;
    seen
}

/// For each game a watcher saw counted: the time from its player's seeing it end to the
/// watcher's having the line that counts it (a line counts a player's n-th game when it
/// shows n scores).
fn result_latencies(seen: &Seen, ends: &HashMap<String, Vec<Instant>>) -> Vec<Duration> {
    let mut counted: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for Update { at, raised, .. } in &seen.updates {
        for (player, games) in raised {
            let Some(times) = ends.get(player) else {
                continue;
            };
            let from = counted.get(player.as_str()).copied().unwrap_or(0);
            for end in times.iter().take(*games).skip(from) {
                out.push(at.saturating_duration_since(*end));
            }
            counted.insert(player, (*games).max(from));
        }
    }
    out
}
