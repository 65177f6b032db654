//! A correspondence game lost on time, pushed, end to end at the stand-in push service of
//! `push.rs`: when the deadline passes with nobody at the table (and no vacation day to take),
//! the game ends and each of its two players, the one who ran out of time and the winner, gets
//! one `game_over` push that names the opponent and the game and opens the table. The tests
//! shorten the correspondence day.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, TestApp};
use crate::push::{push_service, subscribe, until_outbox_empty};

/// Long enough for a test client to move, short enough to wait for.
const DAY: Duration = Duration::from_millis(1500);

#[actix_web::test]
async fn both_players_of_a_correspondence_game_lost_on_time_are_pushed_its_end_once() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let mut service = push_service(&app).await;
    let mut alice = app.account("alice").await;
    let mut bob = app.account("bob").await;
    // Alice will let her time run out: no vacation day is taken for her.
    let mut response = app
        .http()
        .put(format!("{}/api/me/vacation", app.base))
        .bearer_auth(&alice.token)
        .send_json(&json!({"auto": false}))
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["auto"], false, "{body}");
    subscribe(&app, &service, &alice, "alice-phone", "en").await;
    subscribe(&app, &service, &bob, "bob-phone", "en").await;

    // One move each while both have the table open (no push for those), then both leave it.
    let table = alice
        .create_table(&app, json!({"game": "mill", "clock": {"days": 1}}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    alice
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    bob.ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    bob.ok(json!({"type": "sit", "table": table})).await;
    let started = alice.expect("table").await;
    assert_eq!(started["table"]["status"], "playing");
    let legal = started["table"]["legal"][0].clone();
    alice
        .ok(json!({"type": "move", "table": table, "move": legal, "ply": 0}))
        .await;
    alice.expect("move").await;
    let event = bob.expect("move").await;
    bob.ok(json!({"type": "move", "table": table, "move": event["legal"][0], "ply": 1}))
        .await;
    bob.expect("move").await;
    assert_eq!(alice.expect("move").await["ply"], 2);
    for player in [&mut alice, &mut bob] {
        player
            .ok(json!({"type": "table.unsubscribe", "table": table}))
            .await;
    }

    // Alice's deadline passes: she loses on time, and each of them hears it once.
    let mut got: Vec<(String, Value)> = Vec::new();
    for _ in 0..2 {
        let push = service.next().await;
        got.push((push.device, push.payload));
    }
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let end = |opponent: &str| {
        json!({
            "title": "Stolik",
            "body": format!("Your Mill (Troika) game against {opponent} has ended"),
            "url": format!("/#/table/{table}"),
            "tag": format!("stolik-{table}"),
            "kind": "game_over",
            "game_id": table,
        })
    };
    assert_eq!(
        got,
        [
            ("alice-phone".to_string(), end("bob")),
            ("bob-phone".to_string(), end("alice")),
        ]
    );
    let (_, record) = app
        .get(&format!("/api/records/{table}"), Some(&bob.token))
        .await;
    assert_eq!(
        (&record["status"], &record["result"], &record["reason"]),
        (&json!("finished"), &json!("b"), &json!("time")),
        "{record}"
    );
    until_outbox_empty(&app).await;
    let extra = service.try_next();
    assert!(extra.is_none(), "{extra:?}");
    service.stop().await;
    app.stop().await;
}
