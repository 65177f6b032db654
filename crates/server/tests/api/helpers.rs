//! A real server on a loopback port with a fresh database, and real HTTP and WebSocket
//! clients talking to it: the test kit's (`crates/testkit`), which these helpers hold to the
//! tests' terms (a failure panics, messages read early are kept for later).

use std::time::Duration;

use serde_json::{Value, json};
use server::{Application, Config, LimitsConfig, SecurityConfig, Stopper};
use store::testing::TestDatabase;
use testkit::{Conn, Ended};

/// The database a test server uses: removed when the test ends (unless it is another
/// server's, shared).
pub struct Db(Option<TestDatabase>, String);

impl Db {
    fn owned(database: TestDatabase) -> Db {
        let url = database.url.clone();
        Db(Some(database), url)
    }

    /// A fresh SQLite file in the temp dir.
    pub fn sqlite() -> Db {
        Db::owned(TestDatabase::sqlite())
    }

    /// The database of `other`, for another node of the same site (removed with `other`).
    pub fn shared(other: &Db) -> Db {
        Db(None, other.1.clone())
    }

    /// A fresh PostgreSQL database, for the ignored tests that `tests/run` runs when
    /// PostgreSQL answers (see `store::testing`); a failure when it does not.
    pub async fn postgres() -> Db {
        let admin = store::testing::postgres_admin().await;
        let database = TestDatabase::postgres(&admin)
            .await
            .expect("create a PostgreSQL test database");
        Db::owned(database)
    }

    pub fn url(&self) -> String {
        self.1.clone()
    }

    /// Takes the (PostgreSQL) database away from the server, or gives it back.
    pub async fn outage(&self, on: bool) {
        let database = self.0.as_ref().expect("the owner of the database");
        database.set_outage(on).await.expect("change the outage");
    }
}

/// A real day, for correspondence games.
const DAY: Duration = Duration::from_secs(24 * 60 * 60);

pub struct TestApp {
    pub base: String,
    pub ws_url: String,
    /// The `/metrics` listener (`--metrics-bind`).
    pub metrics_base: String,
    pub db: Db,
    stopper: Stopper,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        TestApp::spawn_on(Db::sqlite()).await
    }

    pub async fn spawn_on(db: Db) -> TestApp {
        // The suite makes many guests and tables from one address: limits are tested on their
        // own servers (`spawn_limited`).
        TestApp::spawn_with(db, LimitsConfig::parse("off").unwrap()).await
    }

    /// A server with these limits, on a fresh SQLite database.
    pub async fn spawn_limited(spec: &str) -> TestApp {
        let limits = LimitsConfig::parse(spec).expect("a valid limits spec");
        TestApp::spawn_with(Db::sqlite(), limits).await
    }

    pub async fn spawn_with(db: Db, limits: LimitsConfig) -> TestApp {
        TestApp::spawn_full(db, limits, None, DAY).await
    }

    /// A node of a site whose nodes meet in the Redis at `redis_url` under `prefix`, with
    /// these limits, on a fresh SQLite database of its own.
    pub async fn spawn_node(redis_url: &str, prefix: &str, node: &str, limits: &str) -> TestApp {
        TestApp::spawn_node_on(Db::sqlite(), redis_url, prefix, node, limits).await
    }

    /// A node of a site (as [`TestApp::spawn_node`]) on `db`, which other nodes may share.
    pub async fn spawn_node_on(
        db: Db,
        redis_url: &str,
        prefix: &str,
        node: &str,
        limits: &str,
    ) -> TestApp {
        let limits = LimitsConfig::parse(limits).expect("a valid limits spec");
        let cluster = server::ClusterConfig {
            redis_url: redis_url.to_string(),
            node_id: node.to_string(),
            key_prefix: prefix.to_string(),
        };
        TestApp::spawn_tuned(db, |config| {
            config.limits = limits;
            config.cluster = Some(cluster);
        })
        .await
    }

    /// A server whose correspondence days last `day` (so that deadlines pass in a test).
    pub async fn spawn_with_day(db: Db, day: Duration) -> TestApp {
        TestApp::spawn_full(db, LimitsConfig::parse("off").unwrap(), None, day).await
    }

    /// A server with White Rabbit's exact tables from `tables`, on a fresh SQLite database.
    pub async fn spawn_with_tables(tables: server::TableSource) -> TestApp {
        let limits = LimitsConfig::parse("off").unwrap();
        TestApp::spawn_full(Db::sqlite(), limits, Some(tables), DAY).await
    }

    async fn spawn_full(
        db: Db,
        limits: LimitsConfig,
        rabbit_tables: Option<server::TableSource>,
        day: Duration,
    ) -> TestApp {
        TestApp::spawn_tuned(db, |config| {
            config.limits = limits;
            config.rabbit_tables = rabbit_tables;
            config.day = day;
        })
        .await
    }

    /// A server on `db` with the test defaults changed by `tune`, once every unfinished
    /// table of `db` is back.
    pub async fn spawn_tuned(db: Db, tune: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::start(db, tune, true).await
    }

    /// A server on `db` that may still be restoring its unfinished tables (answering 503
    /// `restoring`).
    pub async fn spawn_restoring(db: Db) -> TestApp {
        TestApp::start(db, |_| {}, false).await
    }

    async fn start(db: Db, tune: impl FnOnce(&mut Config), restored: bool) -> TestApp {
        let mut config = Config {
            bind: "127.0.0.1:0".to_string(),
            metrics_bind: Some("127.0.0.1:0".to_string()),
            database_url: db.url(),
            web_client: server::WebClient::Bundled,
            // Bots answer at once in tests: what is tested is the flow, not their strength.
            bot_time_cap: Some(Duration::from_millis(5)),
            limits: LimitsConfig::parse("off").unwrap(),
            security: SecurityConfig::default(),
            tables: None,
            day: DAY,
            tournament_minute: Duration::from_secs(60),
            // Tests that want the site's own tournaments give a schedule of their own.
            schedule: None,
            rabbit_tables: None,
            abandon_grace: Duration::from_secs(30),
            challenge_ttl: Duration::from_secs(600),
            // No ladder unless a test asks for one: its games would join every list.
            ladder: server::LadderConfig {
                games: 0,
                ..Default::default()
            },
            bot_threads: None,
            match_window: rating::Window::default(),
            cluster: None,
            // The stand-in push service of the push tests listens on loopback, over HTTP.
            push: server::PushConfig {
                contact: Some("mailto:tests@stolik.invalid".to_string()),
                allow_http: true,
                ..server::PushConfig::default()
            },
        };
        tune(&mut config);
        let app = Application::build(config).await.expect("the server builds");
        if restored {
            app.restored()
                .await
                .expect("the unfinished tables are restored");
        }
        let port = app.port();
        let metrics_base = format!(
            "http://127.0.0.1:{}",
            app.metrics_port().expect("a metrics listener")
        );
        let stopper = app.stopper();
        let task = actix_web::rt::spawn(app.run_until_stopped());
        TestApp {
            base: format!("http://127.0.0.1:{port}"),
            ws_url: format!("ws://127.0.0.1:{port}/ws"),
            metrics_base,
            db,
            stopper,
            task,
        }
    }

    /// Stops the server gracefully and waits until it has finished.
    pub async fn stop(self) -> Db {
        self.stopper.stop().await;
        self.task.await.unwrap().unwrap();
        self.db
    }

    /// Waits (at most `patience`) for the server to stop by itself, and gives what it ended
    /// with.
    pub async fn exited(self, patience: Duration) -> (std::io::Result<()>, Db) {
        let exit = tokio::time::timeout(patience, self.task)
            .await
            .expect("the server stops by itself")
            .unwrap();
        (exit, self.db)
    }

    pub fn http(&self) -> awc::Client {
        testkit::http_client(HTTP_PATIENCE)
    }

    /// The kit's client of this server.
    fn kit(&self) -> testkit::Http {
        testkit::Http::with_patience(&self.base, HTTP_PATIENCE, HTTP_PATIENCE)
    }

    /// A new guest: its token from `/api/me`.
    pub async fn guest(&self) -> Player {
        let mut response = self
            .http()
            .get(format!("{}/api/me", self.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        let token = body["token"]
            .as_str()
            .expect("a new guest gets a token")
            .to_string();
        Player::connect(self, token, body["user"].clone()).await
    }

    /// A new account named `name` (a guest who registers), connected.
    pub async fn account(&self, name: &str) -> Player {
        let (_, me) = self.get("/api/me", None).await;
        let guest = me["token"].as_str().expect("a guest token");
        let (status, registered) = self
            .post(
                "/api/register",
                Some(guest),
                json!({"username": name, "password": "a long enough password"}),
            )
            .await;
        assert_eq!(status, 200, "register {name}: {registered}");
        let token = registered["token"].as_str().unwrap().to_string();
        Player::connect(self, token, registered["user"].clone()).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.kit().get(path, token).await.unwrap()
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.kit()
            .exchange(awc::http::Method::POST, path, token, Some(&body))
            .await
            .unwrap()
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.kit()
            .exchange(awc::http::Method::DELETE, path, token, None)
            .await
            .unwrap()
    }
}

/// How long a test's HTTP request may take.
const HTTP_PATIENCE: Duration = Duration::from_secs(30);

/// One browser tab: an identity and its WebSocket.
pub struct Player {
    pub token: String,
    pub user: Value,
    /// The server's greeting.
    pub hello: Value,
    conn: Conn,
    /// Messages read while waiting for something else, in order.
    backlog: Vec<Value>,
}

impl Player {
    pub async fn connect(app: &TestApp, token: String, user: Value) -> Player {
        Player::connect_from(app, token, user, None).await
    }

    /// Connects as a client at `from`, named in `X-Forwarded-For` (for a server that trusts
    /// the test as its proxy).
    pub async fn connect_from(
        app: &TestApp,
        token: String,
        user: Value,
        from: Option<&str>,
    ) -> Player {
        let conn = Conn::open(&app.http(), &app.ws_url, &token, from)
            .await
            .expect("the WebSocket opens");
        let mut player = Player {
            token,
            user,
            hello: Value::Null,
            conn,
            backlog: Vec::new(),
        };
        let hello = player.expect("hello").await;
        assert_eq!(hello["user"]["id"], player.user["id"]);
        player.hello = hello;
        player
    }

    pub fn id(&self) -> &str {
        self.user["id"].as_str().unwrap()
    }

    pub async fn send_text(&mut self, text: String) {
        self.conn.send_text(text).await.unwrap();
    }

    /// The next message from the server (pings answered, nothing skipped).
    pub async fn next(&mut self) -> Value {
        if !self.backlog.is_empty() {
            return self.backlog.remove(0);
        }
        self.read().await
    }

    /// The next message; the server's close as a message of type `closed`.
    async fn read(&mut self) -> Value {
        let read = tokio::time::timeout(Duration::from_secs(20), self.conn.read())
            .await
            .expect("a message within 20 s");
        match read {
            Ok(message) => message,
            Err(Ended::Closed(reason)) => {
                json!({"type": "closed", "reason": format!("{reason:?}")})
            }
            Err(Ended::Failed(why)) => panic!("the socket is open: {why}"),
        }
    }

    /// Reads one message into the backlog, answering the server's pings meanwhile: what
    /// keeps a socket alive while the test waits on something else.
    pub async fn pump(&mut self) {
        match tokio::time::timeout(Duration::from_secs(1), self.conn.read()).await {
            Ok(Ok(message)) => self.backlog.push(message),
            Ok(Err(Ended::Closed(reason))) => self
                .backlog
                .push(json!({"type": "closed", "reason": format!("{reason:?}")})),
            Ok(Err(Ended::Failed(why))) => panic!("the socket is open: {why}"),
            Err(_) => {}
        }
    }

    /// Reads until a message of this type arrives; others are kept for later.
    pub async fn expect(&mut self, kind: &str) -> Value {
        if let Some(i) = self.backlog.iter().position(|m| m["type"] == kind) {
            return self.backlog.remove(i);
        }
        loop {
            let message = self.read().await;
            if message["type"] == kind {
                return message;
            }
            assert_ne!(message["type"], "closed", "closed while waiting for {kind}");
            self.backlog.push(message);
        }
    }

    /// Sends a request with a fresh id and returns the reply carrying that id. A request
    /// refused by the rate limit is sent again a moment later, as a real client would.
    pub async fn request(&mut self, body: Value) -> Value {
        loop {
            let reply = self.request_once(body.clone()).await;
            if reply["code"] != "rate_limited" {
                return reply;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn request_once(&mut self, body: Value) -> Value {
        let id = self.conn.send(body).await.unwrap();
        loop {
            let message = self.read().await;
            if message["id"] == json!(id) {
                return message;
            }
            assert_ne!(
                message["type"], "closed",
                "closed while waiting for reply {id}: {message}"
            );
            self.backlog.push(message);
        }
    }

    /// A request that must succeed; returns the reply.
    pub async fn ok(&mut self, body: Value) -> Value {
        let reply = self.request(body.clone()).await;
        assert_ne!(reply["type"], "error", "{body} failed: {reply}");
        reply
    }

    /// A request that must fail with `code`.
    pub async fn refused(&mut self, body: Value, code: &str) -> Value {
        let reply = self.request_once(body.clone()).await;
        assert_eq!(reply["type"], "error", "{body} was accepted: {reply}");
        assert_eq!(reply["code"], code, "{body}: {reply}");
        reply
    }

    /// Closes the socket as a browser tab closing would.
    pub async fn close(self) {
        self.conn.close_and_wait().await;
    }

    /// A message of this type read while waiting for something else, if any.
    pub fn backlog_has(&self, kind: &str) -> Option<&Value> {
        self.backlog.iter().find(|m| m["type"] == kind)
    }

    /// Drops messages read so far.
    pub fn forget(&mut self) {
        self.backlog.clear();
    }

    /// Creates a table over HTTP with this player seated.
    pub async fn create_table(&self, app: &TestApp, body: Value) -> Value {
        let (status, table) = app
            .post("/api/tables", Some(&self.token), body.clone())
            .await;
        assert_eq!(status, 201, "create {body}: {table}");
        table
    }
}

/// A page of the lobby as a client holds it: the `lobby.subscribe` reply, kept up to date by
/// applying each `lobby.changes` event as docs/protocol.md says.
pub struct LobbyPage(pub Value);

impl LobbyPage {
    /// Follows the page `subscribe` asks for (a `lobby.subscribe` request).
    pub async fn follow(watcher: &mut Player, subscribe: Value) -> LobbyPage {
        let page = watcher.ok(subscribe).await;
        assert_eq!(page["type"], "lobby", "{page}");
        LobbyPage(page)
    }

    /// Reads the next change and applies it; returns the change.
    pub async fn next(&mut self, watcher: &mut Player) -> Value {
        let change = watcher.expect("lobby.changes").await;
        for key in ["game", "offset", "limit"] {
            assert_eq!(
                change[key], self.0[key],
                "a change of another page: {change}"
            );
        }
        let removed = change["removed"].as_array().unwrap();
        let changed = change["tables"].as_array().unwrap();
        let mut tables: Vec<Value> = self.0["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| !removed.contains(&t["id"]))
            .filter(|t| !changed.iter().any(|c| c["id"] == t["id"]))
            .cloned()
            .collect();
        tables.extend(changed.iter().cloned());
        tables.sort_by(|a, b| {
            let key = |t: &Value| {
                (
                    std::cmp::Reverse(t["opened_at"].as_i64().unwrap()),
                    t["id"].as_str().unwrap().to_string(),
                )
            };
            key(a).cmp(&key(b))
        });
        self.0["tables"] = Value::Array(tables);
        self.0["total"] = change["total"].clone();
        if !change["queues"].is_null() {
            self.0["queues"] = change["queues"].clone();
        }
        change
    }

    /// Reads changes until the page satisfies `check` (within 15 s: other nodes' parts take
    /// seconds).
    pub async fn until(&mut self, watcher: &mut Player, check: impl Fn(&Value) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        while !check(&self.0) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the lobby never showed it: {}",
                self.0
            );
            self.next(watcher).await;
        }
    }

    pub fn ids(&self) -> Vec<String> {
        self.0["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    }
}
