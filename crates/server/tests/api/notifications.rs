//! Notifications cannot be used to spam, say what they concern, are read when their game is
//! opened and go when it ends.

use std::time::Duration;

use serde_json::{Value, json};

use crate::games::{one_move_each, two_at_a_table};
use crate::helpers::{Player, TestApp};

fn correspondence() -> Value {
    json!({"game": "cephalopod", "variant": "5x5", "clock": {"days": 1}})
}

/// The player's notifications as `/api/notifications` lists them.
async fn listed(app: &TestApp, player: &Player) -> Value {
    let (status, body) = app.get("/api/notifications", Some(&player.token)).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Waits until the player's list satisfies `check` (the notifications are written in the
/// background, after the action that caused them was answered).
async fn until(app: &TestApp, player: &Player, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..100 {
        let body = listed(app, player).await;
        if check(&body) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the notifications never came to {}",
        listed(app, player).await
    );
}

fn kinds(body: &Value) -> Vec<String> {
    body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn sixty_draw_offers_leave_one_notification_which_names_the_game_and_the_offerer() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, correspondence()).await;
    let table = seen.table.as_str();
    for _ in 0..60 {
        a.ok(json!({"type": "draw.offer", "table": table})).await;
        b.ok(json!({"type": "draw.decline", "table": table})).await;
    }
    a.ok(json!({"type": "draw.offer", "table": table})).await;
    // b's socket heard every one, each time as the same notification, the one unread.
    let mut ids = Vec::new();
    for _ in 0..61 {
        let live = b.expect("notification").await;
        assert_eq!(live["unread"], 1, "{live}");
        ids.push(live["notification"]["id"].clone());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "{ids:?}");
    let body = listed(&app, &b).await;
    assert_eq!(body["unread"], 1);
    let list = body["notifications"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{body}");
    assert_eq!(list[0]["kind"], "draw_offer");
    assert_eq!(list[0]["game"], "cephalopod");
    assert_eq!(list[0]["opponent"], a.user["name"], "{body}");
    assert_eq!(list[0]["game_id"], table);
    assert_eq!(list[0]["id"], ids[0]);
}

#[actix_web::test]
async fn opening_a_game_reads_its_notifications_and_its_end_drops_them() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, mut seen) = two_at_a_table(&app, correspondence()).await;
    let table = seen.table.clone();
    let table = table.as_str();
    // a hosts: b sitting down was a "joined"; b offers a draw too.
    b.ok(json!({"type": "draw.offer", "table": table})).await;
    // The list and the count are read one after the other: wait for both to show the two.
    let unread_listed = |body: &Value| {
        body["notifications"]
            .as_array()
            .is_some_and(|list| list.iter().filter(|n| n["read"] == false).count() == 2)
    };
    let body = until(&app, &a, |body| body["unread"] == 2 && unread_listed(body)).await;
    // Newest first, but the two may share a millisecond: their order is then either.
    let mut both: Vec<String> = body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["read"] == false)
        .map(|n| n["kind"].as_str().unwrap().to_string())
        .collect();
    both.sort();
    assert_eq!(both, ["draw_offer", "joined"], "{body}");
    // a opens the game (in another tab): both are read, and a's sockets hear the count.
    let mut tab = Player::connect(&app, a.token.clone(), a.user.clone()).await;
    tab.ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    until(&app, &a, |body| body["unread"] == 0).await;
    let counted = loop {
        let message = a.expect("notifications").await;
        if message["unread"] == 0 {
            break message;
        }
    };
    assert_eq!(counted["unread"], 0);

    // b offers again: a new unread one beside the read one.
    a.ok(json!({"type": "draw.decline", "table": table})).await;
    b.ok(json!({"type": "draw.offer", "table": table})).await;
    until(&app, &a, |body| body["unread"] == 1).await;
    // The game ends (after a move each: before, it would be an abort): what was said of it
    // goes, and only its end stays.
    one_move_each(&mut a, &mut b, &mut seen).await;
    a.ok(json!({"type": "resign", "table": table})).await;
    let body = until(&app, &a, |body| kinds(body) == ["game_over"]).await;
    assert_eq!(body["unread"], 1);
    let body = until(&app, &b, |body| kinds(body) == ["game_over"]).await;
    assert_eq!(body["notifications"][0]["opponent"], a.user["name"]);
}

#[actix_web::test]
async fn a_live_game_that_ends_drops_the_hosts_joined_notification() {
    let app = TestApp::spawn().await;
    let (mut a, _b, seen) =
        two_at_a_table(&app, json!({"game": "cephalopod", "variant": "5x5"})).await;
    until(&app, &a, |body| kinds(body) == ["joined"]).await;
    a.ok(json!({"type": "resign", "table": seen.table})).await;
    until(&app, &a, |body| body["notifications"] == json!([])).await;
}
