//! White Rabbit at the server: hints from the solver at a live table, and the daily deal.

use serde_json::{Value, json};

use crate::games::{Seen, play_out};
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
    // Best first, up to the estimates' error: hint mode counts actions whose estimates are
    // within two standard errors as equal (docs/white-rabbit.md).
    let top = hints[0]["win"].as_f64().unwrap();
    let most = hints
        .iter()
        .map(|h| h["win"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert!(top >= most - 0.05, "best first: {top} against {most}");
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

/// The solver's best action for a position the server sent (hint mode, computed here).
fn solver_choice(seen: &Seen) -> String {
    let game = catalog::AnyGame::from_position(&seen.game, &seen.variant, &seen.position, 0)
        .expect("the server's position parses");
    let catalog::AnyGame::WhiteRabbit(game) = game else {
        panic!("not a White Rabbit position");
    };
    rabbit_solver::hints(&game)[0].action.clone()
}

#[actix_web::test]
async fn a_won_daily_deal_goes_on_the_leaderboard_by_score_and_actions() {
    let app = TestApp::spawn().await;
    let mut ann = app.guest().await;
    let today = {
        let (_, board) = app.get("/api/daily", None).await;
        board["today"].as_str().unwrap().to_string()
    };
    // The solver wins nearly every deal; a rare loss is tried again on an earlier day.
    for back in 1..=3 {
        let day = earlier_day(&today, back);
        let (status, table) = app
            .post("/api/daily", Some(&ann.token), json!({"day": day}))
            .await;
        assert_eq!(status, 201, "{table}");
        let id = table["id"].as_str().unwrap();
        let snapshot = ann
            .ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        let mut seen = Seen::from_snapshot(&snapshot["table"]);
        let result = if seen.to_move.is_none() {
            snapshot["table"]["result"].as_str().unwrap().to_string()
        } else {
            let end = play_out(&mut [&mut ann], &mut seen, |s, _| solver_choice(s), 20_000).await;
            end["result"].as_str().unwrap().to_string()
        };
        let (_, board) = app.get(&format!("/api/daily?day={day}"), None).await;
        let lines = board["leaderboard"].as_array().unwrap();
        let Some(score) = result.strip_prefix("won ") else {
            assert!(lines.is_empty(), "a lost deal is not ranked: {board}");
            continue;
        };
        assert_eq!(lines.len(), 1, "{board}");
        assert_eq!(lines[0]["rank"], 1);
        assert_eq!(lines[0]["user_id"], ann.id());
        assert_eq!(lines[0]["game_id"], id);
        assert_eq!(lines[0]["score"].to_string(), score);
        assert_eq!(lines[0]["actions"].as_u64(), Some(seen.ply), "{board}");
        // A past day's deal, once over, shows its seed: that day's competition is closed.
        let (_, record) = app
            .get(&format!("/api/records/{id}"), Some(&ann.token))
            .await;
        assert_ne!(
            record["seed"],
            Value::Null,
            "a past day's deal shows its seed once over"
        );
        app.stop().await;
        return;
    }
    panic!("the solver lost three daily deals in a row");
}
