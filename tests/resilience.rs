//! Tournaments and the Bot API's game streams against real `stolik serve` processes killed with
//! SIGKILL (docs/tournaments.md, docs/bot-api.md, docs/scaling.md): a correspondence round
//! robin on SQLite whose server is killed in the middle of play and started again loses no
//! result or move, and its final cross table equals a recomputation from the stored games; on
//! two nodes (PostgreSQL and Redis), an arena whose leader (the holder of the `tournaments`
//! role) is killed goes on at the other, which feeds in the game that just ended and pairs the
//! players again within seconds; and a bot's game stream on a killed node is opened again at
//! the other, the whole game first, then the moves that follow.
//!
//! The two-node tests need PostgreSQL, so, as every PostgreSQL test, they are ignored unless
//! asked for and have "postgres" in their names: `tests/run` runs them when PostgreSQL answers
//! (and always with `STOLIK_REQUIRE_POSTGRES=1`, failing without it). They use the machine's
//! Redis under a prefix of their own, and a fresh database each.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use store::testing::TestDatabase;
use testkit::{Conn, Http, Server, free_port};

/// How long anything may take on a slow, shared machine before the test gives up.
const PATIENCE: Duration = Duration::from_secs(60);

fn exe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_stolik"))
}
fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// A new account made through `http`: its session token and id.
async fn account(http: &Http, name: &str) -> (String, String) {
    let guest = http.guest().await.unwrap();
    let body = json!({"username": name, "password": "a long enough password"});
    let (status, made) = http.post("/api/register", &guest, &body).await.unwrap();
    assert_eq!(status, 200, "{made}");
    let token = made["token"].as_str().unwrap().to_string();
    (token, made["user"]["id"].as_str().unwrap().to_string())
}

/// `POST path` must answer `want`; its body.
async fn post(http: &Http, path: &str, token: &str, body: Value, want: u16) -> Value {
    let (status, answer) = http.post(path, token, &body).await.unwrap();
    assert_eq!(status, want, "{path}: {answer}");
    answer
}

async fn get(http: &Http, path: &str, token: Option<&str>) -> Value {
    let (status, body) = http.get(path, token).await.unwrap();
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// Polls `GET path` (as `token`) until `done` holds; the body that satisfied it.
async fn until(
    http: &Http,
    path: &str,
    token: Option<&str>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (status, body) = http.get(path, token).await.unwrap_or((0, Value::Null));
        if status == 200 && done(&body) {
            return body;
        }
        assert!(Instant::now() < deadline, "{path} never got there: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A socket request that must not be refused; its reply.
async fn ok(conn: &mut Conn, body: Value) -> Value {
    let reply = conn.request(body.clone()).await.unwrap();
    assert_ne!(reply["type"], "error", "{body} -> {reply}");
    reply
}

/// The table's snapshot as `conn`'s player sees it.
async fn snapshot(conn: &mut Conn, table: &str) -> Value {
    ok(conn, json!({"type": "table.subscribe", "table": table})).await["table"].clone()
}

/// Plays the first legal move at `table` until the game is over (`end`: none) or `plies`
/// moves have been made; `conns` are its two players' sockets.
async fn play(conns: &mut [&mut Conn; 2], table: &str, plies: Option<u64>) {
    loop {
        let mut moved = false;
        for conn in conns.iter_mut() {
            let view = snapshot(conn, table).await;
            let ply = view["ply"].as_u64().unwrap();
            if view["status"] != "playing" || plies.is_some_and(|n| ply >= n) {
                return;
            }
            if view["to_move"] == view["you"] {
                let mv = view["legal"][0].clone();
                ok(
                    conn,
                    json!({"type": "move", "table": table, "move": mv, "ply": ply}),
                )
                .await;
                moved = true;
            }
        }
        assert!(moved, "nobody could move at {table}");
    }
}

/// The user ids of `table`'s seats, from its record.
async fn seated(http: &Http, table: &str) -> [String; 2] {
    let record = get(http, &format!("/api/records/{table}"), None).await;
    [0, 1].map(|i| record["players"][i]["user"].as_str().unwrap().to_string())
}

/// One move a side at `table`, then an ending (0: a resigns, 1: b resigns, 2: a draw).
async fn settle(http: &Http, conns: &mut HashMap<String, Conn>, table: &str, end: usize) {
    let [a, b] = seated(http, table).await;
    {
        let [ca, cb] = conns.get_disjoint_mut([&a, &b]);
        play(&mut [ca.unwrap(), cb.unwrap()], table, Some(2)).await;
    }
    let (first, second) = if end == 1 { (&b, &a) } else { (&a, &b) };
    match end {
        2 => {
            ok(
                conns.get_mut(first).unwrap(),
                json!({"type": "draw.offer", "table": table}),
            )
            .await;
            ok(
                conns.get_mut(second).unwrap(),
                json!({"type": "draw.accept", "table": table}),
            )
            .await;
        }
        _ => {
            ok(
                conns.get_mut(first).unwrap(),
                json!({"type": "resign", "table": table}),
            )
            .await;
        }
    }
}

/// Every line of the round robin's cross table equals what its stored games make: 1 a win, ½
/// a draw, and Sonneborn–Berger (the points of each opponent beaten, half of each drawn).
async fn check_cross_table(http: &Http, body: &Value) {
    let mut results = Vec::new();
    for game in body["games"].as_array().unwrap() {
        let table = game["table"].as_str().unwrap();
        let record = get(http, &format!("/api/records/{table}"), None).await;
        assert_eq!(record["status"], "finished", "{record}");
        let scored = match record["result"].as_str().unwrap() {
            "draw" => [0.5, 0.5],
            "a" => [1.0, 0.0],
            _ => [0.0, 1.0],
        };
        results.push((seated(http, table).await, scored));
    }
    let mut points: HashMap<String, f64> = HashMap::new();
    for (ids, scored) in &results {
        for i in 0..2 {
            *points.entry(ids[i].clone()).or_default() += scored[i];
        }
    }
    let mut sb: HashMap<String, f64> = HashMap::new();
    for (ids, scored) in &results {
        for i in 0..2 {
            *sb.entry(ids[i].clone()).or_default() += scored[i] * points[&ids[1 - i]];
        }
    }
    for line in body["cross_table"].as_array().unwrap() {
        let player = line["player"].as_str().unwrap();
        assert_eq!(line["points"].as_f64().unwrap(), points[player], "{line}");
        assert_eq!(
            line["sonneborn_berger"].as_f64().unwrap(),
            sb[player],
            "{line}"
        );
    }
}

#[actix_web::test]
async fn a_round_robin_whose_server_is_killed_in_the_middle_loses_nothing_and_finishes() {
    // A tournament minute of 3 s: the round robin starts 3 s after it is set up.
    let mut server = Server::fresh(exe(), &web(), &["--tournament-minute-ms", "3000"]).unwrap();
    server.start(0).await.unwrap();
    let http = Http::new(&server.base());
    let mut players = Vec::new();
    for name in ["kill_ann", "kill_bob", "kill_cyd", "kill_dee"] {
        players.push(account(&http, name).await);
    }
    let body = json!({"kind": "round_robin", "game": "cephalopod", "variant": "3x3", "days": 1,
                      "max_players": 4, "starts_in": 1});
    let id = post(&http, "/api/tournaments", &players[0].0, body, 201).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/tournaments/{id}");
    for (token, _) in &players {
        post(&http, &format!("{path}/join"), token, json!({}), 204).await;
    }
    let all_playing = |b: &Value| {
        let games = b["games"].as_array().unwrap();
        games.len() == 12 && games.iter().all(|g| g["status"] == "playing")
    };
    let body = until(&http, &path, None, all_playing).await;
    let tables: Vec<String> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["table"].as_str().unwrap().to_string())
        .collect();
    let mut conns = HashMap::new();
    for (token, user) in &players {
        conns.insert(user.clone(), http.connect(token).await.unwrap());
    }
    // Half the games end; a seventh has its first move; the server is killed at once, before
    // its runner need have seen any of it.
    for (index, table) in tables.iter().enumerate().take(6) {
        settle(&http, &mut conns, table, index % 3).await;
    }
    let [a, b] = seated(&http, &tables[6]).await;
    {
        let [ca, cb] = conns.get_disjoint_mut([&a, &b]);
        play(&mut [ca.unwrap(), cb.unwrap()], &tables[6], Some(1)).await;
    }
    server.kill();
    server.start(1).await.unwrap();

    let http = Http::new(&server.base());
    let mut conns = HashMap::new();
    for (token, user) in &players {
        conns.insert(user.clone(), http.connect(token).await.unwrap());
    }
    let table = get(&http, &format!("/api/tables/{}", tables[6]), None).await;
    assert_eq!(
        table["ply"], 1,
        "the move made before the kill is kept: {table}"
    );
    for (index, table) in tables.iter().enumerate() {
        let record = get(&http, &format!("/api/records/{table}"), None).await;
        let over = record["status"] == "finished";
        assert_eq!(
            over,
            index < 6,
            "the results before the kill are kept: {record}"
        );
    }
    for (index, table) in tables.iter().enumerate().skip(6) {
        settle(&http, &mut conns, table, index % 3).await;
    }
    let body = until(&http, &path, None, |b| {
        b["tournament"]["status"] == "finished"
    })
    .await;
    assert!(
        body["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "finished"),
        "{body}"
    );
    check_cross_table(&http, &body).await;
    server.kill();
}

/// Two nodes, `a` and `b`, on a fresh PostgreSQL database and the machine's Redis under a
/// prefix of their own; `a` started first, so that it holds the roles.
struct Site {
    nodes: Vec<Server>,
    redis: String,
    prefix: String,
    dir: PathBuf,
    // Dropped last: the nodes are killed before their database goes.
    _database: TestDatabase,
}

impl Site {
    async fn start(args: &[&str]) -> Site {
        let admin = store::testing::postgres_admin().await;
        let database = TestDatabase::postgres(&admin)
            .await
            .expect("create a PostgreSQL test database");
        let redis =
            std::env::var("STOLIK_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
        let prefix = format!("stolik-test-{}:", store::new_id());
        let dir = std::env::temp_dir().join(format!("stolik-resilience-{}", store::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut site = Site {
            nodes: Vec::new(),
            redis,
            prefix,
            dir,
            _database: database,
        };
        for name in ["a", "b"] {
            let log = site.dir.join(format!("{name}.log"));
            let node = Server::new(
                exe(),
                free_port().unwrap(),
                &site._database.url,
                &web(),
                &log,
            )
            .unwrap()
            .with_args(["--redis", &site.redis, "--redis-prefix", &site.prefix])
            .with_args(["--node-id", name, "--bot-time-cap-ms", "20"])
            .with_args(args.iter().copied());
            site.nodes.push(node);
            site.nodes
                .last_mut()
                .unwrap()
                .start(0)
                .await
                .expect("a node starts");
            if name == "a" {
                site.until_leader("a").await;
            }
        }
        site
    }

    fn node(&self, i: usize) -> Http {
        Http::new(&self.nodes[i].base())
    }

    /// Waits until `node` holds the `tournaments` role, as Redis has it.
    async fn until_leader(&self, node: &str) {
        let key = format!("{}leader:tournaments", self.prefix);
        let deadline = Instant::now() + PATIENCE;
        loop {
            let out = std::process::Command::new("redis-cli")
                .args(["-u", &self.redis, "GET", &key])
                .output()
                .expect("redis-cli runs");
            if String::from_utf8_lossy(&out.stdout).trim() == node {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{node} never held the tournaments role"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            node.kill();
        }
        if std::thread::panicking() {
            eprintln!("the nodes' logs are kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The arena's standings: each player's points and games counted.
fn standings(page: &Value) -> HashMap<String, (u64, usize)> {
    let items = page["standings"]["items"].as_array().unwrap();
    let line = |l: &Value| {
        (
            l["points"].as_u64().unwrap(),
            l["scores"].as_array().unwrap().len(),
        )
    };
    items
        .iter()
        .map(|l| (l["player"].as_str().unwrap().to_string(), line(l)))
        .collect()
}

/// Each player's arena points recomputed from the finished `tables`: Cephalopod 3×3 has no
/// draw, and two games make no streak, so a win is 2 points and a loss none.
async fn arena_points(http: &Http, tables: &[String]) -> HashMap<String, (u64, usize)> {
    let mut points: HashMap<String, (u64, usize)> = HashMap::new();
    for table in tables {
        let record = get(http, &format!("/api/records/{table}"), None).await;
        let winner = match record["result"].as_str() {
            Some("a") => 0,
            Some("b") => 1,
            other => panic!("a decisive result expected: {other:?} {record}"),
        };
        for (i, user) in seated(http, table).await.into_iter().enumerate() {
            let line = points.entry(user).or_default();
            line.0 += if i == winner { 2 } else { 0 };
            line.1 += 1;
        }
    }
    points
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_an_arena_whose_leader_is_killed_goes_on_at_the_other_node() {
    // A minute of 1 s: the arena lasts 60 s, plenty for two games and a takeover.
    let mut site = Site::start(&["--tournament-minute-ms", "1000"]).await;
    let b = site.node(1);
    let ann = account(&b, "leader_ann").await;
    let bob = account(&b, "leader_bob").await;
    let body = json!({"game": "cephalopod", "variant": "3x3", "initial": 60, "increment": 0,
                      "minutes": 60, "starts_in": 0});
    let id = post(&b, "/api/tournaments", &ann.0, body, 201).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/tournaments/{id}");
    for (token, _) in [&ann, &bob] {
        post(&b, &format!("{path}/join"), token, json!({}), 204).await;
    }
    let (mut ca, mut cb) = (
        b.connect(&ann.0).await.unwrap(),
        b.connect(&bob.0).await.unwrap(),
    );
    // Node a, the leader, pairs them; they play through node b.
    let paired = |p: &Value| p["me"]["playing"].is_string();
    let first = until(&b, &path, Some(&ann.0), paired).await["me"]["playing"]
        .as_str()
        .unwrap()
        .to_string();
    play(&mut [&mut ca, &mut cb], &first, None).await;

    // The game is over in the database; the leader is killed before or after its runner saw it.
    site.nodes[0].kill();
    let killed = Instant::now();
    let next = |p: &Value| p["me"]["playing"].as_str().is_some_and(|t| t != first);
    let page = until(&b, &path, Some(&ann.0), next).await;
    let waited = killed.elapsed();
    site.until_leader("b").await;
    let second = page["me"]["playing"].as_str().unwrap().to_string();
    assert_eq!(
        standings(&page),
        arena_points(&b, std::slice::from_ref(&first)).await,
        "{page}"
    );
    println!("paired again {waited:?} after the leader was killed");

    // The game the new leader opened plays to its end, and counts.
    let (mut ca, mut cb) = (
        b.connect(&ann.0).await.unwrap(),
        b.connect(&bob.0).await.unwrap(),
    );
    play(&mut [&mut ca, &mut cb], &second, None).await;
    let both = [first, second];
    let expected = arena_points(&b, &both).await;
    let page = until(&b, &path, Some(&ann.0), |p| standings(p) == expected).await;
    assert_eq!(page["tournament"]["status"], "running", "{page}");
}

/// A bot account made through `http`: its id and a token of the Bot API's scopes.
async fn bot(http: &Http, name: &str) -> (String, String) {
    let (session, id) = account(http, name).await;
    let scopes = json!({"name": "engine", "scopes": ["bot", "challenge", "read"]});
    let made = post(http, "/api/me/tokens", &session, scopes, 201).await;
    let token = made["secret"].as_str().unwrap().to_string();
    post(http, "/api/bot/account/upgrade", &token, json!({}), 200).await;
    (id, token)
}

type Body =
    dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>;

/// A bot's game stream, read line by line (keep-alive lines skipped).
struct Stream {
    body: std::pin::Pin<Box<Body>>,
    buffer: Vec<u8>,
}

impl Stream {
    /// Opens `GET /api/bot/game/stream/{game}` at `http`, asking again until it answers 200.
    async fn open(http: &Http, token: &str, game: &str) -> Stream {
        let client = awc::Client::builder().disable_timeout().finish();
        let url = format!("{}/api/bot/game/stream/{game}", http.base);
        let deadline = Instant::now() + PATIENCE;
        loop {
            let sent = client.get(&url).bearer_auth(token).send();
            match tokio::time::timeout(Duration::from_secs(10), sent).await {
                Ok(Ok(response)) if response.status() == 200 => {
                    return Stream {
                        body: Box::pin(response),
                        buffer: Vec::new(),
                    };
                }
                other => {
                    let said = format!("{:?}", other.map(|r| r.map(|r| r.status())));
                    assert!(Instant::now() < deadline, "the stream never opened: {said}");
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The next line, or `None` once the stream has ended (or broke).
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.len() > 1 {
                    return Some(serde_json::from_slice(&line).expect("a line of JSON"));
                }
                continue;
            }
            let chunk = tokio::time::timeout(PATIENCE, self.body.next())
                .await
                .expect("a line");
            match chunk {
                Some(Ok(bytes)) => self.buffer.extend_from_slice(&bytes),
                _ => return None,
            }
        }
    }

    /// Reads until a `gameState` of `ply` moves.
    async fn until_ply(&mut self, ply: u64) -> Value {
        loop {
            let line = self.next().await.expect("the stream goes on");
            if line["type"] == "gameState" && line["ply"] == ply {
                return line;
            }
        }
    }
}

/// The moves `token`'s bot may make at `game` now, from a stream's `gameFull` at `http`.
async fn legal(http: &Http, token: &str, game: &str) -> Vec<String> {
    let full = Stream::open(http, token, game).await.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    serde_json::from_value(full["state"]["legal"].clone()).unwrap()
}

async fn bot_move(http: &Http, token: &str, game: &str) -> String {
    let mv = legal(http, token, game).await[0].clone();
    post(
        http,
        &format!("/api/bot/game/{game}/move/{mv}"),
        token,
        json!({}),
        200,
    )
    .await;
    mv
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_a_bots_game_stream_on_a_killed_node_resumes_at_the_other_with_the_whole_game() {
    let mut site = Site::start(&[]).await;
    let (a, b) = (site.node(0), site.node(1));
    let (_, first) = bot(&a, "stream_one").await;
    let (second_id, second) = bot(&a, "stream_two").await;
    // Accepted through node a: the table runs there.
    let body = json!({"game": "mill", "clock": {"days": 2}, "side": "a"});
    let challenge = post(
        &a,
        &format!("/api/challenge/{second_id}"),
        &first,
        body,
        201,
    )
    .await;
    let accept = format!(
        "/api/challenge/{}/accept",
        challenge["id"].as_str().unwrap()
    );
    let accepted = post(&a, &accept, &second, json!({}), 200).await;
    let game = accepted["game_id"].as_str().unwrap().to_string();

    let mut stream = Stream::open(&a, &first, &game).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    let mut moves = vec![bot_move(&a, &first, &game).await];
    stream.until_ply(1).await;
    moves.push(bot_move(&a, &second, &game).await);
    assert_eq!(stream.until_ply(2).await["moves"], json!(moves));

    site.nodes[0].kill();
    let killed = Instant::now();
    while stream.next().await.is_some() {}
    // The bot connects again, to the other node: the whole game first, then what follows.
    let mut stream = Stream::open(&b, &first, &game).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["state"]["moves"], json!(moves), "{full}");
    println!("the stream was back {:?} after the kill", killed.elapsed());
    moves.push(bot_move(&b, &first, &game).await);
    assert_eq!(stream.until_ply(3).await["moves"], json!(moves));
    moves.push(bot_move(&b, &second, &game).await);
    assert_eq!(stream.until_ply(4).await["moves"], json!(moves));
}
