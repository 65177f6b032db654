//! Correspondence games: days for each move, a deadline the server keeps even when nobody is
//! connected and across a restart. The tests shorten the day.

use std::time::Duration;

use serde_json::{Value, json};

use crate::games::two_at_a_table;
use crate::helpers::{Db, Player, TestApp};

/// Long enough for a test client to answer, short enough to wait for.
const DAY: Duration = Duration::from_millis(1500);

fn correspondence() -> Value {
    json!({"game": "cephalopod", "variant": "5x5", "clock": {"days": 1}})
}

/// Waits until the table's record has ended, and returns it.
async fn ended(app: &TestApp, table: &str, token: &str) -> Value {
    for _ in 0..100 {
        let (status, record) = app.get(&format!("/api/records/{table}"), Some(token)).await;
        assert_eq!(status, 200, "{record}");
        if record["status"] != "playing" {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("table {table} did not end");
}

/// Both sides move once; then it is seat a's move, due one (short) day later.
async fn both_moved(app: &TestApp) -> (Player, Player, String) {
    let (mut a, mut b, seen) = two_at_a_table(app, correspondence()).await;
    assert_eq!(seen.to_move.as_deref(), Some("a"));
    a.ok(json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0}))
        .await;
    a.expect("move").await;
    let event = b.expect("move").await;
    b.ok(json!({"type": "move", "table": seen.table, "move": event["legal"][0], "ply": 1}))
        .await;
    b.expect("move").await;
    let event = a.expect("move").await;
    assert_eq!(event["ply"], 2);
    (a, b, seen.table)
}

#[actix_web::test]
async fn a_missed_deadline_loses_on_time_with_nobody_connected() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (a, b, table) = both_moved(&app).await;
    let (_, snapshot) = app
        .get(&format!("/api/tables/{table}"), Some(&a.token))
        .await;
    assert_eq!(snapshot["days"], 1);
    assert_eq!(snapshot["clock"], Value::Null);
    let deadline = snapshot["deadline"].as_i64().expect("a deadline");
    let (_, mine) = app.get("/api/me/playing", Some(&a.token)).await;
    let left = mine["games"][0]["time_left_ms"].as_i64().unwrap();
    assert!(left > 0 && left <= DAY.as_millis() as i64, "{mine}");
    assert_eq!(mine["games"][0]["deadline"], deadline);
    let token = b.token.clone();
    // Every socket closes: only the server keeps the time.
    drop(a);
    drop(b);
    let record = ended(&app, &table, &token).await;
    assert_eq!(record["status"], "finished", "{record}");
    assert_eq!(record["result"], "b", "{record}");
    assert_eq!(record["reason"], "time", "{record}");
    told_game_over(&app, &token).await;
}

#[actix_web::test]
async fn a_deadline_that_passed_while_the_server_was_down_ends_the_game_on_restart() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (a, _b, table) = both_moved(&app).await;
    let token = a.token.clone();
    drop(a);
    let db = app.stop().await;
    tokio::time::sleep(DAY + Duration::from_millis(300)).await;
    let app = TestApp::spawn_with_day(db, DAY).await;
    let record = ended(&app, &table, &token).await;
    assert_eq!(record["status"], "finished", "{record}");
    assert_eq!(record["result"], "b", "{record}");
    assert_eq!(record["reason"], "time", "{record}");
    told_game_over(&app, &token).await;
}

#[actix_web::test]
async fn a_game_whose_first_moves_never_come_is_called_off() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (a, _b, seen) = two_at_a_table(&app, correspondence()).await;
    let record = ended(&app, &seen.table, &a.token).await;
    assert_eq!(record["status"], "aborted", "{record}");
    assert_eq!(record["reason"], "expired", "{record}");
}

#[actix_web::test]
async fn correspondence_clocks_are_checked() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    for (clock, why) in [
        (json!({"days": 4}), "4 days is not offered"),
        (
            json!({"days": 1, "initial": 60, "increment": 0}),
            "days and a live clock",
        ),
        (json!({"initial": 60}), "no increment"),
    ] {
        let (status, body) = app
            .post(
                "/api/tables",
                Some(&player.token),
                json!({"game": "mill", "clock": clock}),
            )
            .await;
        assert_eq!(status, 400, "{why}: {body}");
    }
    let (status, body) = app
        .post(
            "/api/tables",
            Some(&player.token),
            json!({"game": "white-rabbit", "clock": {"days": 3}}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, table) = app
        .post(
            "/api/tables",
            Some(&player.token),
            json!({"game": "mill", "clock": {"days": 14}}),
        )
        .await;
    assert_eq!(status, 201, "{table}");
    assert_eq!(table["days"], 14);
    // Open, nobody to move yet: no deadline.
    assert_eq!(table["deadline"], Value::Null);
}

#[actix_web::test]
async fn quick_match_pairs_correspondence_players_with_each_other_only() {
    let app = TestApp::spawn().await;
    let mut live = app.guest().await;
    let mut a = app.guest().await;
    let mut b = app.guest().await;
    let by_days = json!({"type": "queue.join", "game": "mill", "clock": {"days": 3}});
    live.ok(
        json!({"type": "queue.join", "game": "mill", "clock": {"initial": 300, "increment": 3}}),
    )
    .await;
    a.ok(by_days.clone()).await;
    b.ok(by_days).await;
    let table = a.expect("match").await["table"].clone();
    assert_eq!(b.expect("match").await["table"], table);
    let snapshot = a
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    assert_eq!(snapshot["table"]["days"], 3);
    assert_eq!(snapshot["table"]["clock"], Value::Null);
    assert!(snapshot["table"]["deadline"].as_i64().is_some());
    // The live player still waits in a queue of their own.
    let (_, lobby) = app.get("/api/tables", None).await;
    assert_eq!(lobby["queues"].as_array().unwrap().len(), 1, "{lobby}");
    assert_eq!(lobby["queues"][0]["initial_ms"], 300_000);
}

/// Waits until the player has a `game_over` notification (written just after the end).
async fn told_game_over(app: &TestApp, token: &str) {
    for _ in 0..50 {
        if notifications(app, token)
            .await
            .1
            .iter()
            .any(|k| k == "game_over")
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no game_over notification");
}

/// A player's notifications: `(unread, kinds newest first, ids)`.
async fn notifications(app: &TestApp, token: &str) -> (i64, Vec<String>, Vec<i64>) {
    let (status, body) = app.get("/api/notifications", Some(token)).await;
    assert_eq!(status, 200, "{body}");
    let list = body["notifications"].as_array().unwrap();
    (
        body["unread"].as_i64().unwrap(),
        list.iter()
            .map(|n| n["kind"].as_str().unwrap().to_string())
            .collect(),
        list.iter().map(|n| n["id"].as_i64().unwrap()).collect(),
    )
}

/// Reads `notification` messages until one of `kind` arrives.
async fn notified(player: &mut Player, kind: &str) -> Value {
    let wait = async {
        loop {
            let message = player.expect("notification").await;
            if message["notification"]["kind"] == kind {
                return message;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .unwrap_or_else(|_| panic!("no {kind} notification"))
}

#[actix_web::test]
async fn notifications_follow_a_correspondence_game_and_belong_to_their_player() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (mut a, b, table) = both_moved(&app).await;
    // b sat at a's table; each heard their turn come; a heard it live too.
    let live = notified(&mut a, "your_turn").await;
    assert_eq!(live["notification"]["game_id"], table.as_str());
    let (_, kinds_a, ids_a) = notifications(&app, &a.token).await;
    assert_eq!(kinds_a, ["your_turn", "joined"]);
    let (unread_b, kinds_b, ids_b) = notifications(&app, &b.token).await;
    assert_eq!(
        (unread_b, kinds_b.as_slice()),
        (1, &["your_turn".to_string()][..])
    );

    // Nobody marks another player's notifications.
    let (status, marked) = app
        .post(
            "/api/notifications/read",
            Some(&a.token),
            json!({"ids": ids_b}),
        )
        .await;
    assert_eq!((status, marked["marked"].as_i64()), (200, Some(0)));
    assert_eq!(notifications(&app, &b.token).await.0, 1);
    let (_, marked) = app
        .post(
            "/api/notifications/read",
            Some(&a.token),
            json!({"ids": [ids_a[0]]}),
        )
        .await;
    assert_eq!(marked["marked"], 1);
    assert_eq!(notifications(&app, &a.token).await.0, 1);

    // a lets the deadline pass: both hear that the game is over.
    let record = ended(&app, &table, &a.token).await;
    assert_eq!(record["reason"], "time");
    notified(&mut a, "game_over").await;
    let (_, kinds_b, _) = notifications(&app, &b.token).await;
    assert_eq!(kinds_b[0], "game_over", "{kinds_b:?}");
    let (status, _) = app
        .post("/api/notifications/read", Some(&b.token), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(notifications(&app, &b.token).await.0, 0);
}

#[actix_web::test]
async fn a_day_before_the_deadline_the_side_to_move_is_told() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (mut a, mut b, seen) = two_at_a_table(
        &app,
        json!({"game": "cephalopod", "variant": "5x5", "clock": {"days": 2}}),
    )
    .await;
    a.ok(json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0}))
        .await;
    // b has two (short) days; after one, b is told.
    let warning = notified(&mut b, "deadline").await;
    assert_eq!(warning["notification"]["game_id"], seen.table.as_str());
    assert!(
        !notifications(&app, &a.token)
            .await
            .1
            .contains(&"deadline".to_string())
    );
}

#[actix_web::test]
async fn a_draw_offer_in_a_correspondence_game_is_a_notification_for_the_opponent_only() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, correspondence()).await;
    a.ok(json!({"type": "draw.offer", "table": seen.table}))
        .await;
    let offer = notified(&mut b, "draw_offer").await;
    assert_eq!(offer["notification"]["game_id"], seen.table.as_str());
    let (_, kinds_a, _) = notifications(&app, &a.token).await;
    assert!(!kinds_a.contains(&"draw_offer".to_string()), "{kinds_a:?}");
}
