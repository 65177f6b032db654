//! A tournament's chat room over real sockets: a line said reaches the room's watchers (on
//! another node too), the tail is kept for those who come later, guests read but do not write,
//! a muted author's lines are left out, and bad lines get clear errors.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Player, TestApp};
use crate::shared_limits::{fresh_prefix, machine_redis};

/// An upcoming arena, created by `creator`.
async fn create_arena(app: &TestApp, creator: &Player) -> String {
    let (status, body) = app
        .post(
            "/api/tournaments",
            Some(&creator.token),
            json!({"game": "mill", "initial": 180, "increment": 2, "minutes": 30, "starts_in": 60}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

fn texts(message: &Value) -> Vec<String> {
    message["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["text"].as_str().unwrap().to_string())
        .collect()
}

/// The next `tournament.chat` event of `tournament` that `player` gets.
async fn next_lines(player: &mut Player, tournament: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let message = player.expect("tournament.chat").await;
            if message["tournament"] == tournament {
                return message;
            }
        }
    })
    .await
    .expect("a tournament.chat event within 10 s")
}

#[actix_web::test]
async fn a_line_reaches_the_room_and_stays_in_its_tail() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("chat_ann").await;
    let mut bob = app.account("chat_bob").await;
    let id = create_arena(&app, &ann).await;

    let tail = ann
        .ok(json!({"type": "tournament.chat.subscribe", "tournament": id}))
        .await;
    assert_eq!(tail["type"], "tournament.chat", "{tail}");
    assert!(texts(&tail).is_empty(), "{tail}");

    // The speaker's answer is the line as stored; the watcher gets it within the next read.
    let said = bob
        .ok(json!({"type": "tournament.chat", "tournament": id, "text": "  good luck all  "}))
        .await;
    assert_eq!(texts(&said), ["good luck all"], "{said}");
    assert_eq!(said["lines"][0]["author"], "chat_bob");
    assert_eq!(said["lines"][0]["user"], bob.id());
    let heard = next_lines(&mut ann, &id).await;
    assert_eq!(texts(&heard), ["good luck all"], "{heard}");
    assert_eq!(heard["lines"][0]["id"], said["lines"][0]["id"]);

    // Someone who comes later reads the tail, a guest too, but a guest cannot write.
    let mut guest = app.guest().await;
    let tail = guest
        .ok(json!({"type": "tournament.chat.subscribe", "tournament": id}))
        .await;
    assert_eq!(texts(&tail), ["good luck all"], "{tail}");
    guest
        .refused(
            json!({"type": "tournament.chat", "tournament": id, "text": "hi"}),
            "unauthorized",
        )
        .await;

    // Bad lines, and rooms that do not exist.
    bob.refused(
        json!({"type": "tournament.chat", "tournament": id, "text": "   "}),
        "bad_request",
    )
    .await;
    bob.refused(
        json!({"type": "tournament.chat", "tournament": id, "text": "x".repeat(501)}),
        "too_long",
    )
    .await;
    bob.refused(
        json!({"type": "tournament.chat", "tournament": "nope", "text": "hello"}),
        "not_found",
    )
    .await;
    bob.refused(
        json!({"type": "tournament.chat.subscribe", "tournament": "nope"}),
        "not_found",
    )
    .await;
    bob.refused(
        json!({"type": "tournament.chat", "tournament": id}),
        "bad_request",
    )
    .await;

    // A flagged account says nothing.
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    store.set_flagged(bob.id(), Some(1)).await.unwrap();
    bob.refused(
        json!({"type": "tournament.chat", "tournament": id, "text": "spam"}),
        "forbidden",
    )
    .await;
    store.set_flagged(bob.id(), None).await.unwrap();
    store.close().await;

    // After an unsubscribe nothing more comes; a muted author's lines are left out of the tail.
    guest
        .ok(json!({"type": "tournament.chat.unsubscribe", "tournament": id}))
        .await;
    let status = app
        .http()
        .put(format!("{}/api/mutes/{}", app.base, bob.id()))
        .bearer_auth(&ann.token)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 200);
    ann.ok(json!({"type": "tournament.chat", "tournament": id, "text": "thanks"}))
        .await;
    let tail = ann
        .ok(json!({"type": "tournament.chat.subscribe", "tournament": id}))
        .await;
    assert_eq!(texts(&tail), ["thanks"], "{tail}");
    // Two reads of the room pass: the guest, unsubscribed, hears nothing of "thanks".
    let quiet = tokio::time::timeout(Duration::from_millis(2500), async {
        loop {
            let message = guest.next().await;
            assert_ne!(message["type"], "tournament.chat", "{message}");
        }
    })
    .await;
    assert!(quiet.is_err());
    app.stop().await;
}

#[actix_web::test]
async fn a_line_said_on_one_node_reaches_a_watcher_on_another() {
    let redis = machine_redis();
    let prefix = fresh_prefix();
    let first = TestApp::spawn_node(&redis, &prefix, "node-0", "off").await;
    let second = TestApp::spawn_node_on(
        crate::helpers::Db::shared(&first.db),
        &redis,
        &prefix,
        "node-1",
        "off",
    )
    .await;
    let ann = first.account("chat_node_ann").await;
    let id = create_arena(&first, &ann).await;
    let mut watcher = Player::connect(&second, ann.token.clone(), json!({"id": ann.id()})).await;
    watcher
        .ok(json!({"type": "tournament.chat.subscribe", "tournament": id}))
        .await;
    let mut speaker = first.account("chat_node_bob").await;
    speaker
        .ok(json!({"type": "tournament.chat", "tournament": id, "text": "from the first node"}))
        .await;
    let heard = next_lines(&mut watcher, &id).await;
    assert_eq!(texts(&heard), ["from the first node"], "{heard}");
    second.stop().await;
    first.stop().await;
}
