//! `stolik bot` end to end: a real server (in this process, on a fresh SQLite file), a bot
//! account, and the bridge driving `stolik referee` processes as its engine. A person's client
//! (HTTP and a WebSocket) challenges the bot to each two-player game and plays it to its end;
//! the stored record is what the person saw and what the bridge saw. The bridge declines a
//! draw offer, turns down a challenge its policy does not take, and connects again when its
//! connections are cut.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use actix_codec::Framed;
use awc::ws;
use catalog::{AnyGame, VariantId};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use stolik::bridge::{Bridge, Finished, Policy, api::Api};
use tokio::sync::mpsc::UnboundedReceiver;

const PATIENCE: Duration = Duration::from_secs(30);

struct Server {
    base: String,
    _database: store::testing::TestDatabase,
}

async fn start_server() -> Server {
    let database = store::testing::TestDatabase::sqlite();
    let config = server::Config {
        bind: "127.0.0.1:0".to_string(),
        metrics_bind: None,
        database_url: database.url.clone(),
        web_client: server::WebClient::Bundled,
        bot_time_cap: Some(Duration::from_millis(5)),
        limits: server::LimitsConfig::parse("off").unwrap(),
        security: server::SecurityConfig::default(),
        tables: None,
        day: Duration::from_secs(24 * 60 * 60),
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
        push: server::PushConfig {
            contact: None,
            allow_http: true,
            ..server::PushConfig::default()
        },
    };
    let app = server::Application::build(config)
        .await
        .expect("the server builds");
    app.restored().await.expect("nothing to restore");
    let base = format!("http://127.0.0.1:{}", app.port());
    actix_web::rt::spawn(app.run_until_stopped());
    Server {
        base,
        _database: database,
    }
}

impl Server {
    async fn request(&self, method: &str, path: &str, token: &str, body: Value) -> (u16, Value) {
        let client = awc::Client::builder().timeout(PATIENCE).finish();
        let url = format!("{}{path}", self.base);
        let request = match method {
            "GET" => client.get(url),
            _ => client.post(url),
        };
        let request = if token.is_empty() {
            request
        } else {
            request.bearer_auth(token)
        };
        let mut response = if method == "GET" {
            request.send().await.unwrap()
        } else {
            request.send_json(&body).await.unwrap()
        };
        let status = response.status().as_u16();
        let body = response.json().limit(1 << 24).await.unwrap_or(Value::Null);
        (status, body)
    }

    /// A new account: its session token and user.
    async fn account(&self, name: &str) -> (String, Value) {
        let (_, me) = self.request("GET", "/api/me", "", Value::Null).await;
        let guest = me["token"].as_str().unwrap().to_string();
        let body = json!({"username": name, "password": "a long enough password"});
        let (status, made) = self.request("POST", "/api/register", &guest, body).await;
        assert_eq!(status, 200, "{made}");
        (
            made["token"].as_str().unwrap().to_string(),
            made["user"].clone(),
        )
    }
}

/// The person's WebSocket.
struct Socket {
    frames: Framed<awc::BoxedSocket, ws::Codec>,
    next_id: u64,
    /// Messages that were not the reply waited for, in order.
    told: Vec<Value>,
}

impl Socket {
    async fn open(server: &Server, token: &str) -> Socket {
        let url = format!("{}/ws", server.base.replacen("http", "ws", 1));
        let (_, frames) = awc::Client::new()
            .ws(url)
            .bearer_auth(token)
            .max_frame_size(1 << 24)
            .connect()
            .await
            .expect("the socket opens");
        Socket {
            frames,
            next_id: 1,
            told: Vec::new(),
        }
    }

    async fn read(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.frames.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a frame");
            match frame {
                ws::Frame::Text(bytes) => return serde_json::from_slice(&bytes).unwrap(),
                ws::Frame::Ping(bytes) => self.frames.send(ws::Message::Pong(bytes)).await.unwrap(),
                _ => {}
            }
        }
    }

    /// Sends `body` and waits for its reply, which must not be an error.
    async fn ok(&mut self, body: Value) -> Value {
        let (body, reply) = self.send(body).await;
        assert_ne!(reply["type"], "error", "{body}: {reply}");
        reply
    }

    /// Sends `body` and waits for its reply: the request as sent, and the reply.
    async fn send(&mut self, mut body: Value) -> (Value, Value) {
        let id = self.next_id;
        self.next_id += 1;
        body["id"] = json!(id);
        let text = body.to_string();
        self.frames
            .send(ws::Message::Text(text.into()))
            .await
            .unwrap();
        loop {
            let message = self.read().await;
            if message["id"] == json!(id) {
                return (body, message);
            }
            self.told.push(message);
        }
    }

    /// The first message (told already, or to come) that `wanted` picks.
    async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.told.iter().position(&wanted) {
            return self.told.remove(i);
        }
        loop {
            let message = self.read().await;
            if wanted(&message) {
                return message;
            }
            self.told.push(message);
        }
    }
}

/// A small deterministic generator for the person's choices.
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn policy(flags: &[&str]) -> Policy {
    #[derive(clap::Parser)]
    struct Flags {
        #[command(flatten)]
        policy: Policy,
    }
    let mut all = vec!["stolik bot"];
    all.extend_from_slice(flags);
    <Flags as clap::Parser>::try_parse_from(all).unwrap().policy
}

/// A new bot account: its id and a token of the bridge's scopes.
async fn bot_account(server: &Server) -> (String, String) {
    let (session, bot) = server.account("engine").await;
    let scopes = json!({"name": "bridge", "scopes": ["bot", "challenge", "read"]});
    let (status, made) = server
        .request("POST", "/api/me/tokens", &session, scopes)
        .await;
    assert_eq!(status, 201, "{made}");
    let secret = made["secret"].as_str().unwrap().to_string();
    let (status, _) = server
        .request("POST", "/api/bot/account/upgrade", &secret, json!({}))
        .await;
    assert_eq!(status, 200);
    (bot["id"].as_str().unwrap().to_string(), secret)
}

/// Runs the bridge against `base` with `stolik referee` as its engine: the games it finishes.
fn start_bridge(base: &str, secret: &str, flags: &[&str]) -> UnboundedReceiver<Finished> {
    let bridge = Bridge {
        api: Api::new(base, secret),
        policy: policy(flags),
        engine: format!("{} referee", env!("CARGO_BIN_EXE_stolik")),
        movetime_cap: Duration::from_millis(20),
    };
    let (finished, told) = tokio::sync::mpsc::unbounded_channel();
    actix_web::rt::spawn(async move { bridge.run(finished).await.unwrap() });
    told
}

/// The person challenges the bot: the challenge as it is told once answered.
async fn challenge(
    server: &Server,
    person: &str,
    socket: &mut Socket,
    bot: &str,
    body: Value,
) -> Value {
    let path = format!("/api/challenge/{bot}");
    let (status, challenge) = server.request("POST", &path, person, body).await;
    assert_eq!(status, 201, "{challenge}");
    let id = challenge["id"].clone();
    socket
        .until(|m| {
            m["type"] == "challenge" && m["challenge"]["id"] == id && m["event"] != "created"
        })
        .await
}

/// Checks that the stored record of `table` is what the person saw (`seen`, the last view)
/// and what the bridge saw; the bridge's account of it.
async fn same_record(
    server: &Server,
    table: &str,
    seen: &Value,
    told: &mut UnboundedReceiver<Finished>,
) -> Finished {
    let by_bridge = tokio::time::timeout(PATIENCE, told.recv())
        .await
        .expect("the bridge tells the game's end")
        .unwrap();
    assert_eq!(by_bridge.id, table);
    assert_eq!(by_bridge.status, "finished");
    assert_ne!(
        Some(by_bridge.you.as_str()),
        seen["you"].as_str(),
        "the bot has the other side"
    );
    let (status, record) = server
        .request("GET", &format!("/api/records/{table}"), "", Value::Null)
        .await;
    assert_eq!(status, 200, "{record}");
    let recorded: Vec<String> = serde_json::from_value(record["moves"].clone()).unwrap();
    let seen_moves: Vec<String> = serde_json::from_value(seen["moves"].clone()).unwrap();
    assert_eq!(recorded, seen_moves);
    assert_eq!(recorded, by_bridge.moves);
    assert_eq!(record["result"], by_bridge.result, "{record}");
    assert_eq!(record["result"], seen["result"], "{record}");
    assert!(recorded.len() >= 4, "{recorded:?}");
    // The game replays to the end its record says.
    let variant = VariantId::parse(&by_bridge.game, Some(&by_bridge.variant)).unwrap();
    let replayed = AnyGame::replay(variant, 0, recorded.iter().map(String::as_str));
    let replayed = replayed.unwrap_or_else(|(i, e)| panic!("{table}: move {i}: {e}"));
    if record["reason"] == "rules" {
        assert!(replayed.is_over(), "{record}");
    }
    by_bridge
}

#[actix_web::test]
async fn a_person_plays_every_two_player_game_against_an_engine_through_the_bridge() {
    let server = start_server().await;
    let (person, _) = server.account("alice").await;
    let (bot, secret) = bot_account(&server).await;
    let mut told = start_bridge(
        &server.base,
        &secret,
        &[
            "--variants",
            "mill:troika,cephalopod:5x5,tumbleweed:hex6,perekati:malysh",
            "--max-games",
            "1",
        ],
    );
    let mut socket = Socket::open(&server, &person).await;

    // A variant the policy does not name is declined, with the reason.
    let body = json!({"game": "mill", "variant": "troika-long"});
    let declined = challenge(&server, &person, &mut socket, &bot, body).await;
    assert_eq!(declined["event"], "declined", "{declined}");
    assert_eq!(
        declined["challenge"]["decline_reason"], "variant",
        "{declined}"
    );

    let games = [
        ("mill", "troika", "a"),
        ("cephalopod", "5x5", "b"),
        ("tumbleweed", "hex6", "a"),
        ("perekati", "malysh", "b"),
    ];
    for (n, (game, variant, side)) in games.into_iter().enumerate() {
        let body = json!({"game": game, "variant": variant, "side": side,
                          "clock": {"initial": 600, "increment": 5}});
        let accepted = challenge(&server, &person, &mut socket, &bot, body).await;
        assert_eq!(accepted["event"], "accepted", "{accepted}");
        let table = accepted["challenge"]["game_id"].as_str().unwrap();
        let turns = Turns {
            offer_draw: n == 0,
            cut: None,
            seed: n as u64,
        };
        let seen = play_out(&server, &person, &mut socket, table, turns).await;
        let by_bridge = same_record(&server, table, &seen, &mut told).await;
        assert_eq!(
            (by_bridge.game.as_str(), by_bridge.variant.as_str()),
            (game, variant)
        );
    }
}

/// A TCP proxy in front of the server whose connections the test cuts at will, as a network
/// or a restarted load balancer would.
struct Proxy {
    base: String,
    connections: Rc<RefCell<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(to: &str) -> Proxy {
        let target = to.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let connections: Rc<RefCell<Vec<tokio::task::JoinHandle<()>>>> = Rc::default();
        let open = connections.clone();
        actix_web::rt::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let target = target.clone();
                open.borrow_mut().push(actix_web::rt::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                }));
            }
        });
        Proxy { base, connections }
    }

    /// Drops every connection open through the proxy: how many there were.
    fn cut(&self) -> usize {
        let open: Vec<_> = self.connections.borrow_mut().drain(..).collect();
        let live = open.iter().filter(|c| !c.is_finished()).count();
        open.into_iter().for_each(|c| c.abort());
        live
    }
}

#[actix_web::test]
async fn the_bridge_connects_again_when_its_streams_drop_and_finishes_the_game() {
    let server = start_server().await;
    let (person, _) = server.account("bob").await;
    let (bot, secret) = bot_account(&server).await;
    let proxy = Proxy::start(&server.base).await;
    let mut told = start_bridge(&proxy.base, &secret, &[]);
    let mut socket = Socket::open(&server, &person).await;
    for seed in 0..2 {
        // The second challenge reaches the bridge only through an event stream opened again.
        let body = json!({"game": "mill", "variant": "troika", "side": "a"});
        let accepted = challenge(&server, &person, &mut socket, &bot, body).await;
        assert_eq!(accepted["event"], "accepted", "{accepted}");
        let table = accepted["challenge"]["game_id"].as_str().unwrap();
        let turns = Turns {
            offer_draw: false,
            cut: Some(&proxy),
            seed,
        };
        let seen = play_out(&server, &person, &mut socket, table, turns).await;
        same_record(&server, table, &seen, &mut told).await;
    }
}

/// How the person plays a game: `offer_draw` offers a draw at its first turn (which the
/// bridge declines); `cut` drops the bridge's connections at its first three turns.
struct Turns<'a> {
    offer_draw: bool,
    cut: Option<&'a Proxy>,
    seed: u64,
}

/// The person plays table `id` to its end from the table's view, choosing among the legal
/// moves it computes itself (Tumbleweed's setup moves are too many to be sent); with
/// `turns` says what else it does. The final view.
async fn play_out(
    server: &Server,
    person: &str,
    socket: &mut Socket,
    id: &str,
    turns: Turns<'_>,
) -> Value {
    socket
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut choices = Choices(turns.seed);
    let mut offered = !turns.offer_draw;
    let mut cuts = 0;
    let started = std::time::Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the game {id} does not end"
        );
        let (status, view) = server
            .request("GET", &format!("/api/tables/{id}"), person, Value::Null)
            .await;
        assert_eq!(status, 200, "{view}");
        if view["status"] != "playing" {
            assert_eq!(view["status"], "finished", "{view}");
            return view;
        }
        if view["to_move"] != view["you"] {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        }
        if !offered {
            offered = true;
            socket.ok(json!({"type": "draw.offer", "table": id})).await;
            // Declined by the bridge: the offer is withdrawn.
            let answer = socket
                .until(|m| m["type"] == "offer" && m["kind"] == "draw" && m["by"].is_null())
                .await;
            assert_eq!(answer["table"], id);
        }
        if let Some(proxy) = turns.cut
            && cuts < 3
        {
            cuts += 1;
            // The bridge's event stream and game stream at least.
            let cut = proxy.cut();
            assert!(cut >= 2, "{cut} connections cut");
        }
        let variant =
            VariantId::parse(view["game"].as_str().unwrap(), view["variant"].as_str()).unwrap();
        let moves: Vec<&str> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let game = AnyGame::replay(variant, 0, moves).expect("the moves replay");
        assert_eq!(game.position(), view["position"], "the person's replay");
        let legal = game.legal_texts();
        let mv = &legal[choices.below(legal.len())];
        let (sent, reply) = socket
            .send(json!({"type": "move", "table": id, "move": mv, "ply": view["ply"]}))
            .await;
        if reply["type"] == "error" {
            let (_, now) = server
                .request("GET", &format!("/api/tables/{id}"), person, Value::Null)
                .await;
            panic!(
                "{sent}: {reply}\nthe view it was sent from: {view}\nthe view now: {now}\ntold meanwhile: {:?}",
                socket.told
            );
        }
    }
}
