//! Web Push end to end: a stand-in push service on loopback (the real ones are third parties
//! these machines cannot reach) receives what the server sends, checks the VAPID signature
//! against the server's public key, and decrypts the message with the subscription's private
//! key and authentication secret (RFC 8291), as a browser's push service and the browser do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::games::Seen;
use crate::helpers::{Db, Player, TestApp};

/// What the stand-in service received at one subscription's endpoint, decrypted.
#[derive(Debug)]
pub(crate) struct Received {
    pub device: String,
    pub payload: Value,
}

/// The stand-in push service: answers each device's endpoint with the status set for it
/// (201 by default), and passes on every message it accepted, verified and decrypted.
pub(crate) struct PushService {
    base: String,
    devices: Arc<Mutex<HashMap<String, Device>>>,
    pub received: mpsc::UnboundedReceiver<Received>,
    server: actix_web::dev::ServerHandle,
}

#[derive(Clone)]
struct Device {
    keys: ece::EcKeyComponents,
    auth: Vec<u8>,
    status: u16,
}

struct Shared {
    devices: Arc<Mutex<HashMap<String, Device>>>,
    /// The server's VAPID public key, base64url.
    vapid: String,
    origin: String,
    sent: mpsc::UnboundedSender<Received>,
}

async fn deliver(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Bytes,
    shared: web::Data<Shared>,
) -> HttpResponse {
    let device = path.into_inner();
    let Some(found) = shared.devices.lock().unwrap().get(&device).cloned() else {
        return HttpResponse::NotFound().finish();
    };
    if found.status != 201 {
        return HttpResponse::build(actix_web::http::StatusCode::from_u16(found.status).unwrap())
            .finish();
    }
    // RFC 8292: `vapid t=JWT, k=KEY`, the key the server's, the JWT signed with it (ES256)
    // for this push service's origin.
    let auth = req
        .headers()
        .get("authorization")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let (t, k) = auth
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .unwrap_or_else(|| panic!("not a VAPID authorization: {auth}"));
    assert_eq!(k, shared.vapid, "the key is the server's");
    let point = URL_SAFE_NO_PAD.decode(&shared.vapid).unwrap();
    let key = jsonwebtoken::DecodingKey::from_ec_components(
        &URL_SAFE_NO_PAD.encode(&point[1..33]),
        &URL_SAFE_NO_PAD.encode(&point[33..65]),
    )
    .unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[shared.origin.as_str()]);
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<Value>(t, &key, &validation)
        .unwrap_or_else(|e| panic!("the VAPID signature does not verify: {e}"));
    assert_eq!(claims.claims["sub"], "mailto:tests@stolik.invalid");
    assert_eq!(req.headers().get("content-encoding").unwrap(), "aes128gcm");
    assert!(req.headers().contains_key("ttl"));
    let plain = ece::decrypt(&found.keys, &found.auth, &body).expect("the message decrypts");
    let payload: Value = serde_json::from_slice(&plain).expect("the message is JSON");
    let _ = shared.sent.send(Received { device, payload });
    HttpResponse::Created().finish()
}

impl PushService {
    pub(crate) async fn start(app: &TestApp) -> PushService {
        let (_, key) = app.get("/api/push/key", None).await;
        let vapid = key["key"].as_str().unwrap().to_string();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let devices = Arc::new(Mutex::new(HashMap::new()));
        let (sent, received) = mpsc::unbounded_channel();
        let shared = web::Data::new(Shared {
            devices: devices.clone(),
            vapid,
            origin: origin.clone(),
            sent,
        });
        let server = HttpServer::new(move || {
            App::new()
                .app_data(shared.clone())
                .route("/push/{device}", web::post().to(deliver))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .disable_signals()
        .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        PushService {
            base: origin,
            devices,
            received,
            server: handle,
        }
    }

    /// Makes a device (a browser's key pair and secret) and subscribes it for `player`.
    pub(crate) async fn subscribe(&self, app: &TestApp, player: &Player, device: &str, lang: &str) {
        let (pair, auth) = ece::generate_keypair_and_auth_secret().unwrap();
        let keys = pair.raw_components().unwrap();
        let body = json!({
            "endpoint": format!("{}/push/{device}", self.base),
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(pair.pub_as_raw().unwrap()),
                "auth": URL_SAFE_NO_PAD.encode(auth),
            },
            "lang": lang,
        });
        self.devices.lock().unwrap().insert(
            device.to_string(),
            Device {
                keys,
                auth: auth.to_vec(),
                status: 201,
            },
        );
        let (status, settings) = app.post("/api/me/push", Some(&player.token), body).await;
        assert_eq!(status, 201, "{settings}");
    }

    fn answer(&self, device: &str, status: u16) {
        self.devices.lock().unwrap().get_mut(device).unwrap().status = status;
    }

    /// The next message the service accepted (waiting for the server's sender).
    pub(crate) async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(20), self.received.recv())
            .await
            .expect("a push arrives")
            .expect("the service runs")
    }

    pub(crate) async fn stop(self) {
        self.server.stop(false).await;
    }
}

/// Two players at a correspondence Mill table; Alice, who moves first, has moved, and then
/// closed the table: both are away from it.
async fn correspondence(app: &TestApp) -> (Player, Player, Seen) {
    let mut alice = app.account("alice").await;
    let mut bob = app.account("bob").await;
    let table = alice
        .create_table(app, json!({"game": "mill", "clock": {"days": 2}}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    bob.ok(json!({"type": "sit", "table": id})).await;
    let snapshot = alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let seen = Seen::from_snapshot(&snapshot["table"]);
    alice.forget();
    bob.forget();
    (alice, bob, seen)
}

/// `player` makes the first legal move at the table (subscribing to see it, then leaving it).
async fn move_once(player: &mut Player, seen: &mut Seen) {
    let snapshot = player
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    *seen = Seen::from_snapshot(&snapshot["table"]);
    let mv = seen.legal[0].clone();
    player
        .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    player
        .ok(json!({"type": "table.unsubscribe", "table": seen.table}))
        .await;
    player.forget();
}

#[actix_web::test]
async fn a_correspondence_move_pushes_once_to_the_player_away_and_not_to_one_at_the_table() {
    let app = TestApp::spawn().await;
    let mut service = PushService::start(&app).await;
    let (mut alice, mut bob, mut seen) = correspondence(&app).await;
    service.subscribe(&app, &bob, "bob-phone", "en").await;
    // Bob has the table open: Alice's move is no push (he sees it).
    bob.ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    let mv = seen.legal[0].clone();
    alice
        .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    alice.expect("move").await;
    seen.update(&bob.expect("move").await);
    // Bob answers and leaves the table. Notifications are carried out in order: once Alice's
    // "your move" is stored, whatever Bob's was to queue is queued.
    let mv = seen.legal[0].clone();
    bob.ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    bob.ok(json!({"type": "table.unsubscribe", "table": seen.table}))
        .await;
    seen.update(&alice.expect("move").await);
    until_notified(&app, &alice, "your_turn").await;
    // Nothing was queued for Bob, and nothing was sent (a row leaves the outbox only once
    // the service has answered, and the service passes a message on before it answers).
    assert_eq!(outbox_len(&app).await, 0);
    assert!(
        service.received.try_recv().is_err(),
        "no push while at the table"
    );
    // Alice moves again, Bob away: that one is pushed, once.
    let mv = seen.legal[0].clone();
    alice
        .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    let got = service.next().await;
    assert_eq!(got.device, "bob-phone");
    assert_eq!(
        got.payload,
        json!({
            "title": "Stolik",
            "body": "Your move against alice in Mill (Troika)",
            "url": format!("/#/table/{}", seen.table),
            "tag": format!("stolik-{}", seen.table),
            "kind": "your_turn",
            "game_id": seen.table,
        })
    );
    until_outbox_empty(&app).await;
    assert!(service.received.try_recv().is_err(), "one push only");
    assert!(metric(&app, "stolik_push_sent_total").await >= 1.0);
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_switched_off_kind_is_not_pushed_and_a_push_is_written_in_the_devices_language() {
    let app = TestApp::spawn().await;
    let mut service = PushService::start(&app).await;
    let (mut alice, bob, mut seen) = correspondence(&app).await;
    service.subscribe(&app, &alice, "alice-phone", "ru").await;
    let (status, body) = send(&app, "PUT", &alice, json!({"off": ["your_turn"]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["off"], json!(["your_turn"]));
    let (status, body) = send(&app, "PUT", &alice, json!({"off": ["nonsense"]})).await;
    assert_eq!(status, 400, "{body}");
    move_once(&mut alice, &mut seen).await;
    let mut bob = bob;
    // Bob's move is Alice's turn (switched off); his draw offer is pushed, in Russian.
    move_once(&mut bob, &mut seen).await;
    bob.ok(json!({"type": "draw.offer", "table": seen.table}))
        .await;
    let got = service.next().await;
    assert_eq!(got.payload["kind"], "draw_offer", "{:?}", got.payload);
    assert_eq!(
        got.payload["body"],
        "bob предлагает ничью: Мельница (Тройка)"
    );
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_rematch_offer_is_pushed_to_the_player_who_left_the_finished_game() {
    let app = TestApp::spawn().await;
    let mut service = PushService::start(&app).await;
    let (mut alice, mut bob, mut seen) = correspondence(&app).await;
    move_once(&mut alice, &mut seen).await;
    move_once(&mut bob, &mut seen).await;
    service.subscribe(&app, &bob, "bob-phone", "uk").await;
    alice
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    alice
        .ok(json!({"type": "resign", "table": seen.table}))
        .await;
    assert_eq!(service.next().await.payload["kind"], "game_over");
    alice
        .ok(json!({"type": "rematch.offer", "table": seen.table}))
        .await;
    let got = service.next().await;
    assert_eq!(got.payload["kind"], "rematch_offer", "{:?}", got.payload);
    assert_eq!(got.payload["body"], "alice пропонує реванш: Млин (Трійка)");
    assert_eq!(got.payload["url"], format!("/#/table/{}", seen.table));
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_subscription_its_service_answers_410_is_removed() {
    let app = TestApp::spawn().await;
    let mut service = PushService::start(&app).await;
    let (mut alice, bob, mut seen) = correspondence(&app).await;
    service.subscribe(&app, &bob, "old-laptop", "en").await;
    service.subscribe(&app, &bob, "phone", "en").await;
    service.answer("old-laptop", 410);
    assert_eq!(
        app.get("/api/me/push", Some(&bob.token)).await.1["devices"],
        2
    );
    move_once(&mut alice, &mut seen).await;
    assert_eq!(service.next().await.device, "phone");
    // The other device's answer removed it (the sender settles each push before the next
    // round, and both were claimed in one).
    for _ in 0..200 {
        if app.get("/api/me/push", Some(&bob.token)).await.1["devices"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        app.get("/api/me/push", Some(&bob.token)).await.1["devices"],
        1
    );
    assert!(metric(&app, "stolik_push_removed_total").await >= 1.0);
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn bad_subscriptions_are_refused_clearly() {
    let app = TestApp::spawn().await;
    let alice = app.account("alice").await;
    let good_key = URL_SAFE_NO_PAD.encode([4u8; 65]);
    let cases = [
        (
            json!({"endpoint": "ftp://x/1", "keys": {"p256dh": good_key, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}),
            "endpoint",
        ),
        (
            json!({"endpoint": "https://x/1", "keys": {"p256dh": "short", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}),
            "p256dh",
        ),
        (
            json!({"endpoint": "https://x/1", "keys": {"p256dh": good_key, "auth": "AAAA"}}),
            "auth",
        ),
        (
            json!({"endpoint": "https://x/1", "keys": {"p256dh": good_key, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}, "lang": "fr"}),
            "lang",
        ),
    ];
    for (body, word) in cases {
        let (status, answer) = app.post("/api/me/push", Some(&alice.token), body).await;
        assert_eq!(status, 400, "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(word),
            "{answer}"
        );
    }
    let anonymous = json!({"endpoint": "https://x/1", "keys": {"p256dh": good_key, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}});
    let (status, _) = app.post("/api/me/push", None, anonymous).await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL and Redis (tests/run runs it when they answer)"]
async fn postgres_two_nodes_send_one_push() {
    use crate::shared_limits::{fresh_prefix, machine_redis};
    let redis = machine_redis();
    let prefix = fresh_prefix();
    let first =
        TestApp::spawn_node_on(Db::postgres().await, &redis, &prefix, "node-0", "off").await;
    let second =
        TestApp::spawn_node_on(Db::shared(&first.db), &redis, &prefix, "node-1", "off").await;
    let mut service = PushService::start(&first).await;
    // Alice's table runs on the first node, Bob's socket is on the second.
    let (mut alice, bob, mut seen) = correspondence(&first).await;
    service.subscribe(&second, &bob, "bob-phone", "en").await;
    let bob_there = Player::connect(&second, bob.token.clone(), bob.user.clone()).await;
    // Several moves, each one push, each sent by one of the two senders that both poll the
    // outbox: exactly one arrives per move.
    let mut bob = bob_there;
    for round in 0..3 {
        move_once(&mut alice, &mut seen).await;
        let got = service.next().await;
        assert_eq!(got.payload["kind"], "your_turn", "round {round}");
        move_once(&mut bob, &mut seen).await;
    }
    // Every push has been answered: had two senders sent one, both copies would be here.
    until_outbox_empty(&first).await;
    assert!(
        service.received.try_recv().is_err(),
        "each push was sent once"
    );
    service.stop().await;
    second.stop().await;
    first.stop().await;
}

/// A counter of the server's `/metrics`.
async fn metric(app: &TestApp, name: &str) -> f64 {
    let text = app
        .http()
        .get(format!("{}/metrics", app.metrics_base))
        .send()
        .await
        .unwrap()
        .body()
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&text).to_string();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(0.0)
}

/// `method` on `/api/me/push` as `player`.
pub(crate) async fn send(
    app: &TestApp,
    method: &str,
    player: &Player,
    body: Value,
) -> (u16, Value) {
    let method = actix_web::http::Method::from_bytes(method.as_bytes()).unwrap();
    let mut response = app
        .http()
        .request(method, format!("{}/api/me/push", app.base))
        .bearer_auth(&player.token)
        .send_json(&body)
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// How many pushes wait in the server's outbox, read from its database.
async fn outbox_len(app: &TestApp) -> i64 {
    use sqlx::Row;
    let url = app.db.url();
    let query = "SELECT COUNT(*) AS n FROM push_outbox";
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let n: i64 = sqlx::query(query).fetch_one(&pool).await.unwrap().get("n");
        pool.close().await;
        n
    } else {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let n: i64 = sqlx::query(query).fetch_one(&pool).await.unwrap().get("n");
        pool.close().await;
        n
    }
}

pub(crate) async fn until_outbox_empty(app: &TestApp) {
    for _ in 0..400 {
        if outbox_len(app).await == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the outbox never emptied");
}

/// Waits until `player` has an unread notification of `kind`.
async fn until_notified(app: &TestApp, player: &Player, kind: &str) {
    for _ in 0..200 {
        let (_, body) = app.get("/api/notifications", Some(&player.token)).await;
        if body["notifications"]
            .as_array()
            .is_some_and(|l| l.iter().any(|n| n["kind"] == kind && n["read"] == false))
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no {kind} notification came");
}
