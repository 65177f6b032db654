//! Two real `stolik serve` processes on one PostgreSQL database and the machine's Redis (under
//! a prefix of the test's own), with nginx in front of them in round robin, as a site runs.
//! A node is SIGKILLed while games go on: its tables are taken over by the other node, and
//! nothing acknowledged is lost (docs/scaling.md). The in-process tests of the same machinery
//! are in `crates/server/tests/api/cluster.rs`.
//!
//! The tests need PostgreSQL, so they are ignored unless asked for: `tests/run` runs them when
//! PostgreSQL answers (see `store::testing`). They need nginx too (`.ci/run` installs it) and
//! fail, saying so, without it. `STOLIK_TEST_TRACE=1` prints every message the clients read;
//! a failing test keeps the nodes' and nginx's logs and says where.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use store::testing::TestDatabase;
use testkit::{Conn, Http, Nginx, Server, free_port};

/// How long anything may take on a slow, shared machine before the test gives up.
const PATIENCE: Duration = Duration::from_secs(60);
/// How much of the outage may show on the clock of the player to move: the time between the
/// takeover and the move reaching the new owner is theirs, the outage is not.
const CLOCK_MARGIN_MS: i64 = 1_500;

/// Two nodes (`a`, `b`) on a fresh PostgreSQL database, and nginx in front of them.
struct Site {
    nodes: Vec<Server>,
    /// How many times each node was started.
    lives: Vec<usize>,
    nginx: Nginx,
    dir: std::path::PathBuf,
    // Dropped last: the nodes are killed before their database goes.
    database: TestDatabase,
}

impl Site {
    async fn start() -> Site {
        let admin = store::testing::postgres_admin().await;
        let database = TestDatabase::postgres(&admin)
            .await
            .expect("create a PostgreSQL test database");
        let redis =
            std::env::var("STOLIK_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
        let prefix = format!("stolik-test-{}:", store::new_id());
        let dir = std::env::temp_dir().join(format!("stolik-cluster-{}", store::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut nodes = Vec::new();
        for name in ["a", "b"] {
            let server = Server::new(
                std::path::Path::new(env!("CARGO_BIN_EXE_stolik")),
                free_port().unwrap(),
                &database.url,
                &web,
                &dir.join(format!("{name}.log")),
            )
            .unwrap()
            .with_args([
                "--redis",
                &redis,
                "--redis-prefix",
                &prefix,
                "--node-id",
                name,
                // Bots answer at once: what is tested is the failover, not their strength.
                "--bot-time-cap-ms",
                "20",
            ]);
            nodes.push(server);
        }
        for node in &mut nodes {
            node.start(0).await.expect("a node starts");
        }
        let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
        let nginx = Nginx::start(&ports)
            .await
            .unwrap_or_else(|e| panic!("nginx in front of the nodes: {e:#}"));
        Site {
            nodes,
            lives: vec![1, 1],
            nginx,
            dir,
            database,
        }
    }

    fn node(&self, i: usize) -> Http {
        Http::new(&self.nodes[i].base())
    }

    fn proxy(&self) -> Http {
        Http::new(&self.nginx.base())
    }

    /// SIGKILL: the node gets no chance to hand anything over.
    fn kill(&mut self, i: usize) {
        self.nodes[i].kill();
    }

    async fn restart(&mut self, i: usize) {
        let life = self.lives[i];
        self.lives[i] += 1;
        self.nodes[i]
            .start(life)
            .await
            .expect("a node starts again");
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

/// A new guest's token, made through `http`.
async fn guest(http: &Http) -> String {
    let (status, me) = http.get("/api/me", None).await.expect("GET /api/me");
    assert_eq!(status, 200, "{me}");
    me["token"].as_str().expect("a guest token").to_string()
}

/// One browser tab: a socket, the messages read while waiting for others, and every move event
/// of its table it has seen (from events and catch-ups), by ply.
struct Tab {
    label: &'static str,
    token: String,
    conn: Option<Conn>,
    backlog: VecDeque<Value>,
    table: String,
    moves: BTreeMap<u64, String>,
    /// Plies this tab learned of from a snapshot only, never as an event: the moves made
    /// while its node was making its subscription again after a takeover.
    from_snapshot: Vec<u64>,
    /// The moves this tab played that the server acknowledged, by ply.
    acknowledged: BTreeMap<u64, String>,
    /// The clocks' remaining milliseconds (seats a, b) as last told.
    clock: Option<[i64; 2]>,
    /// The seat this tab plays (`a` or `b`).
    seat: String,
    /// The last state seen: ply, side to move, legal moves.
    ply: u64,
    to_move: Option<String>,
    legal: Vec<String>,
}

impl Tab {
    async fn open(label: &'static str, http: &Http, token: &str, table: &str) -> Tab {
        let conn = http.connect(token).await.expect("the socket opens");
        Tab {
            label,
            token: token.to_string(),
            conn: Some(conn),
            backlog: VecDeque::new(),
            table: table.to_string(),
            moves: BTreeMap::new(),
            from_snapshot: Vec::new(),
            acknowledged: BTreeMap::new(),
            clock: None,
            seat: String::new(),
            ply: 0,
            to_move: None,
            legal: Vec::new(),
        }
    }

    /// The next message from the socket; `None` once it is closed (the node died).
    async fn read(&mut self) -> Option<Value> {
        let conn = self.conn.as_mut()?;
        let message = tokio::time::timeout(PATIENCE, conn.recv())
            .await
            .unwrap_or_else(|_| panic!("{}: nothing from the server in {PATIENCE:?}", self.label));
        match message {
            Some(message) => {
                if std::env::var_os("STOLIK_TEST_TRACE").is_some() {
                    eprintln!("{} < {message}", self.label);
                }
                self.note(&message);
                Some(message)
            }
            None => {
                self.conn = None;
                None
            }
        }
    }

    /// Keeps what a message tells of the game.
    fn note(&mut self, message: &Value) {
        // A snapshot's `table` is the table itself; the events name it by id.
        let ours = message["table"] == self.table.as_str();
        match message["type"].as_str() {
            Some("table") => self.snapshot(&message["table"]),
            Some("move") if ours => {
                let ply = message["ply"].as_u64().expect("a move's ply");
                let mv = message["move"].as_str().expect("a move's notation");
                self.moves.insert(ply, mv.to_string());
                if ply >= self.ply {
                    self.ply = ply;
                    self.clock = clocks(&message["clock"]);
                    self.to_move = message["to_move"].as_str().map(str::to_string);
                    self.legal = strings(&message["legal"]);
                }
            }
            Some("catchup") if ours => {
                for event in message["moves"].as_array().expect("catch-up moves") {
                    let ply = event["ply"].as_u64().expect("a move's ply");
                    let mv = event["move"].as_str().expect("a move's notation");
                    self.moves.insert(ply, mv.to_string());
                }
                self.snapshot(&message["state"]);
            }
            Some("end") if ours => {
                self.to_move = None;
                self.legal.clear();
            }
            _ => {}
        }
    }

    fn snapshot(&mut self, table: &Value) {
        if table["id"] != self.table.as_str() {
            return;
        }
        let ply = table["ply"].as_u64().expect("a snapshot's ply");
        let missed = (self.ply + 1..=ply).filter(|p| !self.moves.contains_key(p));
        self.from_snapshot.extend(missed);
        self.ply = ply;
        self.clock = clocks(&table["clock"]["remaining_ms"]);
        self.to_move = table["to_move"].as_str().map(str::to_string);
        self.legal = strings(&table["legal"]);
        assert_ne!(table["legal_truncated"], true, "{}: {table}", self.label);
        if let Some(you) = table["you"].as_str() {
            self.seat = you.to_string();
        }
    }

    /// Sends a request and waits for its reply; `None` when the socket closed first.
    async fn request(&mut self, body: Value) -> Option<Value> {
        let id = self.conn.as_mut()?.send(body).await.ok()?;
        loop {
            let message = self.read().await?;
            if message["id"] == json!(id) {
                return Some(message);
            }
            self.backlog.push_back(message);
        }
    }

    /// A request that must be accepted, sent again while the table is between owners
    /// (`busy`), as a client does.
    async fn ok(&mut self, body: Value) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let reply = self
                .request(body.clone())
                .await
                .unwrap_or_else(|| panic!("{}: the socket closed: {body}", self.label));
            if reply["code"] == "busy" && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
            assert_ne!(
                reply["type"], "error",
                "{}: {body} failed: {reply}",
                self.label
            );
            return reply;
        }
    }

    /// Reads until a message matches (one read before is taken first); panics if the socket
    /// closes.
    async fn until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&want) {
            return self.backlog.remove(i).expect("found above");
        }
        loop {
            let message = self
                .read()
                .await
                .unwrap_or_else(|| panic!("{}: the socket closed while waiting", self.label));
            if want(&message) {
                return message;
            }
            self.backlog.push_back(message);
        }
    }

    /// Waits until this tab knows of the move of `ply`: its event, a snapshot at or past it,
    /// or the game's end. True when it came as an event.
    async fn sees_ply(&mut self, ply: u64) -> bool {
        let table = self.table.clone();
        if self.ply < ply {
            self.until(|m| {
                let event = m["table"] == table.as_str()
                    && ((m["type"] == "move" && m["ply"].as_u64() >= Some(ply))
                        || m["type"] == "end");
                let snapshot = m["type"] == "table"
                    && m["table"]["id"] == table.as_str()
                    && m["table"]["ply"].as_u64() >= Some(ply);
                event || snapshot
            })
            .await;
        }
        self.moves.contains_key(&ply)
    }

    /// Waits until the socket is closed (its node was killed): what it held is read first.
    async fn closed(&mut self) {
        while self.conn.is_some() {
            if let Some(message) = self.read().await {
                self.backlog.push_back(message);
            }
        }
    }

    fn my_turn(&self) -> bool {
        self.to_move.as_deref() == Some(self.seat.as_str())
    }

    /// Plays the first legal move; returns its ply once this tab knows of it (its event, or
    /// a snapshot after a takeover).
    async fn play_first(&mut self) -> u64 {
        assert!(self.my_turn(), "{}: not my turn", self.label);
        let (ply, mv) = (self.ply, self.legal[0].clone());
        let table = self.table.clone();
        self.ok(json!({"type": "move", "table": table, "move": mv, "ply": ply}))
            .await;
        self.acknowledged.insert(ply + 1, mv.clone());
        self.sees_ply(ply + 1).await;
        if let Some(seen) = self.moves.get(&(ply + 1)) {
            assert_eq!(seen, &mv, "{}: ply {}", self.label, ply + 1);
        }
        ply + 1
    }

    /// Waits for the bot's answer to the move of `ply`.
    async fn bot_answers(&mut self, ply: u64) {
        self.sees_ply(ply + 1).await;
        assert!(self.my_turn(), "{}: the bot answered ply {ply}", self.label);
    }

    /// Reconnects through `http` (retrying while it refuses) and subscribes with `since` = the
    /// last ply seen; returns the reply, which must be a catch-up.
    async fn reconnect(&mut self, http: &Http) -> Value {
        let deadline = Instant::now() + PATIENCE;
        let conn = loop {
            match http.connect(&self.token).await {
                Ok(conn) => break conn,
                Err(e) if Instant::now() < deadline => {
                    eprintln!("{}: reconnecting: {e:#}", self.label);
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Err(e) => panic!("{}: cannot reconnect: {e:#}", self.label),
            }
        };
        self.conn = Some(conn);
        self.backlog.clear();
        let since = self.ply;
        let table = self.table.clone();
        let reply = self
            .ok(json!({"type": "table.subscribe", "table": table, "since": since}))
            .await;
        assert_eq!(reply["type"], "catchup", "{}: {reply}", self.label);
        reply
    }
}

fn clocks(value: &Value) -> Option<[i64; 2]> {
    Some([value[0].as_i64()?, value[1].as_i64()?])
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The game's moves as the record has them, asked through the proxy.
async fn recorded_moves(site: &Site, table: &str) -> Vec<String> {
    let (status, record) = site
        .proxy()
        .get(&format!("/api/records/{table}"), None)
        .await
        .expect("GET the record");
    assert_eq!(status, 200, "{record}");
    strings(&record["moves"])
}

/// Checks what `tab` knows of the game against the record: every move it played and the
/// server acknowledged is there; it saw every ply, as an event or a catch-up, except plies
/// made while its node was making its subscription again after a takeover (within a few plies
/// of `kills`, the plies at which a node was killed), which came in a fresh snapshot.
fn check_seen(tab: &Tab, recorded: &[String], kills: &[u64]) {
    for (ply, mv) in &tab.acknowledged {
        assert_eq!(
            recorded.get(*ply as usize - 1),
            Some(mv),
            "{}: the acknowledged move of ply {ply} is in the record {recorded:?}",
            tab.label
        );
    }
    for ply in 1..=recorded.len() as u64 {
        match tab.moves.get(&ply) {
            Some(mv) => assert_eq!(mv, &recorded[ply as usize - 1], "{}: ply {ply}", tab.label),
            None => assert!(
                tab.from_snapshot.contains(&ply)
                    && kills.iter().any(|k| (k + 1..=k + 2).contains(&ply)),
                "{}: ply {ply} was never seen (from snapshots only: {:?}; kills at {kills:?})",
                tab.label,
                tab.from_snapshot
            ),
        }
    }
    if !tab.from_snapshot.is_empty() {
        println!(
            "{}: plies {:?} came in a snapshot, not as events (kills at plies {kills:?})",
            tab.label, tab.from_snapshot
        );
    }
}

/// Alice plays a bot at a table node `a` runs, through node `b` (every call forwarded). Node
/// `a` is SIGKILLed: her next move waits for `b` to take the table over, then is accepted; the
/// bot answers there, every acknowledged move is in the record, and her clock was not charged
/// the outage.
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_sigkill_of_the_owner_loses_no_move_and_the_bot_resumes() {
    let mut site = Site::start().await;
    let (a, b) = (site.node(0), site.node(1));
    let token = guest(&site.proxy()).await;
    // Made through node a, so that node a runs it.
    let (status, table) = a
        .post(
            "/api/tables",
            &token,
            &json!({"game": "mill", "bot": "easy", "clock": {"initial": 300, "increment": 0}}),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let mut alice = Tab::open("alice", &b, &token, &id).await;
    alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    assert!(alice.my_turn(), "the guest plays first: {table}");

    // Several moves, each acknowledged and answered by the bot, all through node b.
    for _ in 0..4 {
        let ply = alice.play_first().await;
        alice.bot_answers(ply).await;
    }
    let kill_ply = alice.ply;
    let before_ms = alice.clock.expect("Alice's clock")[0];

    site.kill(0);
    let killed = Instant::now();
    // Alice's next move goes to node b, which waits for the lease to run out and takes over.
    let ply = alice.play_first().await;
    let waited = killed.elapsed();
    let after_ms = alice.clock.expect("Alice's clock")[0];
    assert!(
        after_ms >= before_ms - CLOCK_MARGIN_MS,
        "the outage ({waited:?}) was charged to Alice: {before_ms} ms before the kill, \
         {after_ms} ms after her move on the new owner"
    );
    // The bot thinks again on its new node, and the game goes on.
    alice.bot_answers(ply).await;
    for _ in 0..2 {
        let ply = alice.play_first().await;
        alice.bot_answers(ply).await;
    }

    // Every acknowledged move is in the table and in its record, where it was played.
    let final_ply = alice.ply;
    let (status, view) = site
        .proxy()
        .get(&format!("/api/tables/{id}"), Some(&token))
        .await
        .unwrap();
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["ply"], json!(final_ply), "{view}");
    let recorded = recorded_moves(&site, &id).await;
    assert_eq!(recorded.len() as u64, final_ply, "{recorded:?}");
    assert_eq!(alice.acknowledged.len(), 7);
    check_seen(&alice, &recorded, &[kill_ply]);
    println!(
        "the move after the kill was accepted {waited:?} after it; Alice's clock: {before_ms} ms \
         before, {after_ms} ms after"
    );
}

/// Alice on node a, Bob on node b, playing each other at a table node a runs. Node a is
/// SIGKILLed: Bob's move waits for node b to take the table over; Alice reconnects through
/// nginx (which skips the dead node) and catches up by ply. Node a comes back and node b,
/// where both now are, is killed: both reconnect through nginx to node a and catch up. Both
/// see every move, and it is the record.
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_clients_of_a_killed_node_reconnect_through_the_proxy_and_catch_up() {
    let mut site = Site::start().await;
    let (a, b, proxy) = (site.node(0), site.node(1), site.proxy());
    let alice_token = guest(&proxy).await;
    let bob_token = guest(&proxy).await;
    let (status, table) = a
        .post("/api/tables", &alice_token, &json!({"game": "mill"}))
        .await
        .unwrap();
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let mut alice = Tab::open("alice", &a, &alice_token, &id).await;
    let mut bob = Tab::open("bob", &b, &bob_token, &id).await;
    alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    bob.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    bob.ok(json!({"type": "sit", "table": id})).await;
    for tab in [&mut alice, &mut bob] {
        tab.until(|m| m["type"] == "table" && m["table"]["status"] == "playing")
            .await;
        assert!(["a", "b"].contains(&tab.seat.as_str()), "{}", tab.label);
    }

    // A few moves, each seen by both.
    play(&mut alice, &mut bob, 6).await;
    // Bob is to move when Alice's node (the table's) dies.
    if !bob.my_turn() {
        play(&mut alice, &mut bob, 1).await;
    }
    let mut kills = vec![bob.ply];
    site.kill(0);
    alice.closed().await;
    // Bob's move waits for node b to take the table over.
    let ply = bob.play_first().await;
    // Alice comes back through nginx, which can only take her to node b, and catches up.
    let catchup = alice.reconnect(&proxy).await;
    assert_eq!(
        plies(&catchup),
        vec![ply],
        "Alice missed Bob's move: {catchup}"
    );
    play(&mut alice, &mut bob, 6).await;

    // Node a is back; node b, the table's node now and both players', dies.
    site.restart(0).await;
    if !alice.my_turn() {
        play(&mut alice, &mut bob, 1).await;
    }
    kills.push(alice.ply);
    site.kill(1);
    alice.closed().await;
    bob.closed().await;
    alice.reconnect(&proxy).await;
    let ply = alice.play_first().await;
    let catchup = bob.reconnect(&proxy).await;
    assert_eq!(
        plies(&catchup),
        vec![ply],
        "Bob missed Alice's move: {catchup}"
    );
    play(&mut alice, &mut bob, 8).await;

    let recorded = recorded_moves(&site, &id).await;
    assert_eq!(recorded.len() as u64, alice.ply.max(bob.ply));
    check_seen(&alice, &recorded, &kills);
    check_seen(&bob, &recorded, &kills);
}

/// `n` moves (fewer if the game ends), each by whoever is to move and seen by both.
async fn play(alice: &mut Tab, bob: &mut Tab, n: usize) {
    for _ in 0..n {
        let (mover, other) = if alice.my_turn() {
            (&mut *alice, &mut *bob)
        } else if bob.my_turn() {
            (&mut *bob, &mut *alice)
        } else {
            return;
        };
        let ply = mover.play_first().await;
        other.sees_ply(ply).await;
    }
}

/// A PostgreSQL outage longer than a lease stops every table on every node (their leases
/// cannot be renewed); when PostgreSQL is back, a sweeper takes each over again. A client
/// connected straight to the node that ran the table hears the game again: its node
/// subscribes it wherever the table runs next (a snapshot, then the events).
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_after_a_database_outage_the_owners_own_clients_hear_the_game_again() {
    let site = Site::start().await;
    let a = site.node(0);
    let token = guest(&a).await;
    let (status, table) = a
        .post(
            "/api/tables",
            &token,
            &json!({"game": "mill", "bot": "easy"}),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    // Alice is connected to the node that runs the table.
    let mut alice = Tab::open("alice", &a, &token, &id).await;
    alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    for _ in 0..2 {
        let ply = alice.play_first().await;
        alice.bot_answers(ply).await;
    }
    // Longer than a lease (3 s): every table stops.
    site.database.set_outage(true).await.unwrap();
    tokio::time::sleep(Duration::from_secs(6)).await;
    site.database.set_outage(false).await.unwrap();
    // Time for a sweeper to take the table over again.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let ply = alice.play_first().await;
    alice.bot_answers(ply).await;
}

/// The plies of a `catchup`'s moves.
fn plies(catchup: &Value) -> Vec<u64> {
    catchup["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ply"].as_u64().unwrap())
        .collect()
}
