//! Vacation days of correspondence games: an account that lets a deadline pass takes a day
//! (the deadline moves a day later) while it has days left and automatic use is on; kept
//! across a restart. The tests shorten the day.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

const DAY: Duration = Duration::from_millis(1500);

/// Accounts `a` and `b` at a one-day correspondence table; both move once, then it is a's
/// move. Returns them, the table and a's deadline.
async fn both_moved(app: &TestApp, a: &str, b: &str) -> (Player, Player, String, i64) {
    let mut a = app.account(a).await;
    let mut b = app.account(b).await;
    let table = a
        .create_table(
            app,
            json!({"game": "cephalopod", "variant": "5x5", "clock": {"days": 1}}),
        )
        .await;
    let table = table["id"].as_str().unwrap().to_string();
    a.ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    b.ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    b.ok(json!({"type": "sit", "table": table})).await;
    let started = a.expect("table").await;
    assert_eq!(started["table"]["status"], "playing");
    let legal = started["table"]["legal"][0].clone();
    a.ok(json!({"type": "move", "table": table, "move": legal, "ply": 0}))
        .await;
    a.expect("move").await;
    let event = b.expect("move").await;
    b.ok(json!({"type": "move", "table": table, "move": event["legal"][0], "ply": 1}))
        .await;
    b.expect("move").await;
    let event = a.expect("move").await;
    assert_eq!(event["ply"], 2);
    a.forget();
    b.forget();
    let (_, snapshot) = app
        .get(&format!("/api/tables/{table}"), Some(&a.token))
        .await;
    let deadline = snapshot["deadline"].as_i64().expect("a deadline");
    assert_eq!(snapshot["vacation"], Value::Null, "{snapshot}");
    (a, b, table, deadline)
}

/// `(auto, days_left)` of the caller's vacation days.
async fn vacation(app: &TestApp, token: &str) -> (bool, i64) {
    let (status, body) = app.get("/api/me/vacation", Some(token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["days_a_year"], 20);
    (
        body["auto"].as_bool().unwrap(),
        body["days_left"].as_i64().unwrap(),
    )
}

/// Waits until the table's snapshot shows its deadline moved past `after`; returns it.
async fn deadline_moved(app: &TestApp, table: &str, token: &str, after: i64) -> Value {
    for _ in 0..100 {
        let (_, snapshot) = app.get(&format!("/api/tables/{table}"), Some(token)).await;
        assert_eq!(snapshot["status"], "playing", "{snapshot}");
        if snapshot["deadline"].as_i64().is_some_and(|d| d > after) {
            return snapshot;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the deadline of {table} did not move");
}

/// Waits until the table's record has ended, and returns it.
async fn ended(app: &TestApp, table: &str, token: &str) -> Value {
    for _ in 0..100 {
        let (_, record) = app.get(&format!("/api/records/{table}"), Some(token)).await;
        if record["status"] != "playing" {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("table {table} did not end");
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

/// The kinds of a player's notifications, newest first.
async fn kinds(app: &TestApp, token: &str) -> Vec<String> {
    let (status, body) = app.get("/api/notifications", Some(token)).await;
    assert_eq!(status, 200, "{body}");
    body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn a_passed_deadline_takes_a_vacation_day_while_days_are_left() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (mut a, b, table, deadline) = both_moved(&app, "resting", "waiting").await;
    assert_eq!(vacation(&app, &a.token).await, (true, 20));
    let day = DAY.as_millis() as i64;

    // The deadline passes: a day is taken, and the game goes on a day longer.
    let snapshot = deadline_moved(&app, &table, &b.token, deadline).await;
    assert_eq!(snapshot["deadline"], deadline + day, "{snapshot}");
    assert_eq!(
        snapshot["vacation"],
        json!({"seat": "a", "days_left": 19}),
        "{snapshot}"
    );
    assert_eq!(vacation(&app, &a.token).await, (true, 19));
    let note = notified(&mut a, "vacation").await;
    assert_eq!(note["notification"]["game_id"], table.as_str());
    assert!(kinds(&app, &a.token).await.contains(&"vacation".into()));
    assert!(!kinds(&app, &b.token).await.contains(&"vacation".into()));

    // And again the next day.
    let snapshot = deadline_moved(&app, &table, &b.token, deadline + day).await;
    assert_eq!(snapshot["deadline"], deadline + 2 * day, "{snapshot}");
    assert_eq!(snapshot["vacation"]["days_left"], 18, "{snapshot}");
    assert_eq!(vacation(&app, &a.token).await, (true, 18));

    // A move ends the vacation: the opponent's deadline runs from it.
    let (_, mine) = app
        .get(&format!("/api/tables/{table}"), Some(&a.token))
        .await;
    a.ok(json!({"type": "move", "table": table, "move": mine["legal"][0], "ply": 2}))
        .await;
    let (_, after) = app
        .get(&format!("/api/tables/{table}"), Some(&a.token))
        .await;
    assert_eq!(after["to_move"], "b", "{after}");
    assert_eq!(after["vacation"], Value::Null, "{after}");
    app.stop().await;
}

#[actix_web::test]
async fn a_vacation_deadline_is_kept_across_a_restart() {
    kept_across_a_restart(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_vacation_deadline_is_kept_across_a_restart() {
    kept_across_a_restart(Db::postgres().await).await;
}

async fn kept_across_a_restart(db: Db) {
    // Long enough a day for the server to restart within it.
    let day = Duration::from_secs(4);
    let app = TestApp::spawn_with_day(db, day).await;
    let (a, b, table, deadline) = both_moved(&app, "restful", "patient").await;
    let snapshot = deadline_moved(&app, &table, &b.token, deadline).await;
    assert_eq!(snapshot["vacation"]["days_left"], 19, "{snapshot}");
    let token = a.token.clone();
    drop(a);
    drop(b);
    let db = app.stop().await;
    let app = TestApp::spawn_with_day(db, day).await;
    // Rebuilt from the moves alone, the deadline would have passed again and taken a second
    // day: it is the one stored with the day taken.
    let (_, restored) = app.get(&format!("/api/tables/{table}"), Some(&token)).await;
    assert_eq!(restored["status"], "playing", "{restored}");
    assert_eq!(
        restored["deadline"],
        deadline + day.as_millis() as i64,
        "{restored}"
    );
    assert_eq!(
        restored["vacation"],
        json!({"seat": "a", "days_left": 19}),
        "{restored}"
    );
    assert_eq!(vacation(&app, &token).await, (true, 19));
    app.stop().await;
}

#[actix_web::test]
async fn with_automatic_vacation_off_a_passed_deadline_loses_on_time() {
    let app = TestApp::spawn_with_day(Db::sqlite(), DAY).await;
    let (a, b, table, _) = both_moved(&app, "diligent", "opponent").await;
    let mut response = app
        .http()
        .put(format!("{}/api/me/vacation", app.base))
        .bearer_auth(&a.token)
        .send_json(&json!({"auto": false}))
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        (body["auto"].clone(), body["days_left"].clone()),
        (json!(false), json!(20))
    );
    let record = ended(&app, &table, &b.token).await;
    assert_eq!(record["status"], "finished", "{record}");
    assert_eq!(record["result"], "b", "{record}");
    assert_eq!(record["reason"], "time", "{record}");
    // No day was taken.
    assert_eq!(vacation(&app, &a.token).await, (false, 20));
    assert!(!kinds(&app, &a.token).await.contains(&"vacation".into()));
    app.stop().await;
}

#[actix_web::test]
async fn guests_have_no_vacation_days() {
    let app = TestApp::spawn().await;
    let guest = app.guest().await;
    let (status, body) = app.get("/api/me/vacation", Some(&guest.token)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("wrong_state")),
        "{body}"
    );
    let (status, _) = app.get("/api/me/vacation", None).await;
    assert_eq!(status, 401);
    app.stop().await;
}
