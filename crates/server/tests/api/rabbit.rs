//! White Rabbit at the server: hints from the solver at a live table, and the daily deal.

use serde_json::{Value, json};

use crate::helpers::TestApp;

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn hints_rank_every_legal_action_of_a_live_table() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = solo
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    if table["status"] != "playing" {
        return; // a deal won before any action: nothing to hint
    }
    let id = table["id"].as_str().unwrap();
    let path = format!("/api/tables/{id}/hints");

    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], id);
    assert_eq!(body["ply"], 0);
    let hints = body["hints"].as_array().unwrap();
    let mut hinted: Vec<String> = hints
        .iter()
        .map(|h| h["action"].as_str().unwrap().to_string())
        .collect();
    let mut legal = strings(&table["legal"]);
    hinted.sort();
    legal.sort();
    assert_eq!(hinted, legal, "one hint per legal action");
    for pair in hints.windows(2) {
        assert!(
            pair[0]["win"].as_f64() >= pair[1]["win"].as_f64(),
            "best first: {pair:?}"
        );
    }
    for h in hints {
        let win = h["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "{h}");
        assert!(h["score"].as_f64().unwrap() >= 0.0, "{h}");
        assert!(h["actions"].as_f64().unwrap() >= 1.0, "{h}");
    }

    // The best action is a move the table accepts; the next hints are for the next ply.
    let best = hints[0]["action"].as_str().unwrap();
    solo.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    solo.ok(json!({"type": "move", "table": id, "move": best, "ply": 0}))
        .await;
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    if status == 200 {
        assert_eq!(body["ply"], 1, "{body}");
    } else {
        assert_eq!(
            body["code"], "wrong_state",
            "only a won game has no hints: {body}"
        );
    }
    app.stop().await;
}

#[actix_web::test]
async fn hints_are_only_for_the_player_of_a_white_rabbit_game() {
    let app = TestApp::spawn().await;
    let solo = app.guest().await;
    let stranger = app.guest().await;
    let table = solo
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    let path = format!("/api/tables/{}/hints", table["id"].as_str().unwrap());

    let (status, body) = app.get(&path, None).await;
    assert_eq!(
        (status, &body["code"]),
        (401, &json!("unauthorized")),
        "{body}"
    );
    let (status, body) = app.get(&path, Some(&stranger.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (403, &json!("not_seated")),
        "{body}"
    );

    let mill = solo
        .create_table(&app, json!({"game": "mill", "bot": "easy"}))
        .await;
    let path = format!("/api/tables/{}/hints", mill["id"].as_str().unwrap());
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (400, &json!("bad_request")),
        "{body}"
    );

    let (status, body) = app
        .get("/api/tables/nosuchtable/hints", Some(&solo.token))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (404, &json!("not_found")),
        "{body}"
    );
    app.stop().await;
}

/// The day before `day` (`YYYY-MM-DD`), good enough for tests: days 2..=28 of a month.
fn earlier_day(today: &str, back: u32) -> String {
    let (month, day) = today.rsplit_once('-').unwrap();
    let day: u32 = day.parse().unwrap();
    if day > back {
        format!("{month}-{:02}", day - back)
    } else {
        // Early in a month: use the middle of the year before, which is always in the past.
        let year: i32 = today[..4].parse().unwrap();
        format!("{}-06-{:02}", year - 1, 10 + back)
    }
}

#[actix_web::test]
async fn the_daily_deal_is_the_same_for_everyone_and_one_attempt_a_day() {
    let app = TestApp::spawn().await;
    let ann = app.guest().await;
    let bob = app.guest().await;

    let (status, a) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 201, "{a}");
    let (status, b) = app.post("/api/daily", Some(&bob.token), json!({})).await;
    assert_eq!(status, 201, "{b}");
    let today = a["daily"].as_str().unwrap().to_string();
    assert_eq!(b["daily"], today.as_str());
    assert_eq!(a["game"], "white-rabbit");
    assert_ne!(a["id"], b["id"], "each player has a table of their own");
    assert_eq!(a["position"], b["position"], "the same deal for everyone");
    assert_eq!(
        a["private"], true,
        "nobody watches someone else's daily deal"
    );
    assert_eq!(a["invite"], Value::Null, "and there is no link to share");

    // Asking again returns the same table: no second attempt.
    let (status, again) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], a["id"]);
    let (status, board) = app.get("/api/daily", Some(&ann.token)).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["day"], today.as_str());
    assert_eq!(board["table"], a["id"]);
    assert_eq!(board["leaderboard"], json!([]));

    // Another day is another deal, the same for both players too.
    let yesterday = earlier_day(&today, 1);
    let (status, ay) = app
        .post("/api/daily", Some(&ann.token), json!({"day": yesterday}))
        .await;
    assert_eq!(status, 201, "{ay}");
    let (_, by) = app
        .post("/api/daily", Some(&bob.token), json!({"day": yesterday}))
        .await;
    assert_eq!(ay["daily"], yesterday.as_str());
    assert_eq!(ay["position"], by["position"]);
    assert_ne!(ay["position"], a["position"], "a new day, a new deal");

    // No hints on the daily deal, and no seed in its record while the day lasts.
    let id = a["id"].as_str().unwrap();
    let (status, body) = app
        .get(&format!("/api/tables/{id}/hints"), Some(&ann.token))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (403, &json!("forbidden")),
        "{body}"
    );
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}

#[actix_web::test]
async fn a_day_to_come_or_a_malformed_day_is_refused() {
    let app = TestApp::spawn().await;
    let ann = app.guest().await;
    for day in ["2999-01-01", "2026-13-01", "yesterday", ""] {
        let (status, body) = app
            .post("/api/daily", Some(&ann.token), json!({"day": day}))
            .await;
        assert_eq!(
            (status, &body["code"]),
            (400, &json!("bad_request")),
            "{day}: {body}"
        );
        let (status, body) = app
            .get(&format!("/api/daily?day={day}"), Some(&ann.token))
            .await;
        assert_eq!(status, 400, "{day}: {body}");
    }
    let (status, body) = app.post("/api/daily", None, json!({})).await;
    assert_eq!(status, 401, "{body}");
    app.stop().await;
}
