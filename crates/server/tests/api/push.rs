//! Web Push end to end, at the test kit's stand-in push service (`testkit::PushService`):
//! it receives what the server sends, checks the VAPID signature against the server's public
//! key, and decrypts the message with the subscription's private key and authentication
//! secret (RFC 8291), as a browser's push service and the browser do.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use testkit::PushService;

use crate::games::Seen;
use crate::helpers::{Db, Player, TestApp};

/// The stand-in push service for `app`'s VAPID key and contact.
pub(crate) async fn push_service(app: &TestApp) -> PushService {
    let (_, key) = app.get("/api/push/key", None).await;
    PushService::start(key["key"].as_str().unwrap(), "mailto:tests@stolik.invalid")
        .await
        .expect("the stand-in push service starts")
}

/// Makes a device of `player`'s at `service` and subscribes it, its pushes written in `lang`.
pub(crate) async fn subscribe(
    app: &TestApp,
    service: &PushService,
    player: &Player,
    device: &str,
    lang: &str,
) {
    let body = service.device(device, lang);
    let (status, settings) = app.post("/api/me/push", Some(&player.token), body).await;
    assert_eq!(status, 201, "{settings}");
}

/// Two players at a correspondence Mill table; Alice, who moves first, has moved, and then
/// closed the table: both are away from it.
pub(crate) async fn correspondence(app: &TestApp) -> (Player, Player, Seen) {
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
pub(crate) async fn move_once(player: &mut Player, seen: &mut Seen) {
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
    let mut service = push_service(&app).await;
    let (mut alice, mut bob, mut seen) = correspondence(&app).await;
    subscribe(&app, &service, &bob, "bob-phone", "en").await;
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
    assert!(service.try_next().is_none(), "no push while at the table");
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
    assert!(service.try_next().is_none(), "one push only");
    assert!(metric(&app, "stolik_push_sent_total").await >= 1.0);
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_switched_off_kind_is_not_pushed_and_a_push_is_written_in_the_devices_language() {
    let app = TestApp::spawn().await;
    let mut service = push_service(&app).await;
    let (mut alice, bob, mut seen) = correspondence(&app).await;
    subscribe(&app, &service, &alice, "alice-phone", "ru").await;
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
    let mut service = push_service(&app).await;
    let (mut alice, mut bob, mut seen) = correspondence(&app).await;
    move_once(&mut alice, &mut seen).await;
    move_once(&mut bob, &mut seen).await;
    subscribe(&app, &service, &bob, "bob-phone", "uk").await;
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
    let mut service = push_service(&app).await;
    let (mut alice, bob, mut seen) = correspondence(&app).await;
    subscribe(&app, &service, &bob, "old-laptop", "en").await;
    subscribe(&app, &service, &bob, "phone", "en").await;
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
    let mut service = push_service(&first).await;
    // Alice's table runs on the first node, Bob's socket is on the second.
    let (mut alice, bob, mut seen) = correspondence(&first).await;
    subscribe(&second, &service, &bob, "bob-phone", "en").await;
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
    assert!(service.try_next().is_none(), "each push was sent once");
    service.stop().await;
    second.stop().await;
    first.stop().await;
}

/// A counter of the server's `/metrics`.
pub(crate) async fn metric(app: &TestApp, name: &str) -> f64 {
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
pub(crate) async fn outbox_len(app: &TestApp) -> i64 {
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
