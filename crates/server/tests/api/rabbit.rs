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

    // A past day is another deal, the same for both players too, played for practice: an
    // unranked table, as many times as one likes.
    let yesterday = earlier_day(&today, 1);
    let (status, ay) = app
        .post("/api/daily", Some(&ann.token), json!({"day": yesterday}))
        .await;
    assert_eq!(status, 201, "{ay}");
    let (_, by) = app
        .post("/api/daily", Some(&bob.token), json!({"day": yesterday}))
        .await;
    assert_eq!(ay["daily"], Value::Null, "practice is not a ranked attempt");
    assert_eq!(ay["position"], by["position"]);
    assert_ne!(ay["position"], a["position"], "a new day, a new deal");
    let (status, again) = app
        .post("/api/daily", Some(&ann.token), json!({"day": yesterday}))
        .await;
    assert_eq!(status, 201, "{again}");
    assert_ne!(again["id"], ay["id"], "practice starts afresh");
    assert_eq!(again["position"], ay["position"]);

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
    for day in [
        "2999-01-01",
        "2026-13-01",
        "yesterday",
        "",
        "-9999-01-01",
        "2024-12-31",
    ] {
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

/// Plays a White Rabbit table to its end with the solver's choices; returns the result and
/// the number of actions.
async fn solve_out(player: &mut crate::helpers::Player, table: &str) -> (String, u64) {
    let snapshot = player
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    if seen.to_move.is_none() {
        let result = snapshot["table"]["result"].as_str().unwrap().to_string();
        return (result, seen.ply);
    }
    let end = play_out(&mut [player], &mut seen, |s, _| solver_choice(s), 20_000).await;
    (end["result"].as_str().unwrap().to_string(), seen.ply)
}

#[actix_web::test]
async fn todays_won_deal_is_ranked_and_practice_on_a_past_day_is_not() {
    let app = TestApp::spawn().await;
    let mut ann = app.guest().await;
    let (status, table) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 201, "{table}");
    let today = table["daily"].as_str().unwrap().to_string();
    let id = table["id"].as_str().unwrap().to_string();
    let (result, actions) = solve_out(&mut ann, &id).await;
    let (_, board) = app.get("/api/daily", None).await;
    let lines = board["leaderboard"].as_array().unwrap();
    match result.strip_prefix("won ") {
        Some(score) => {
            assert_eq!(lines.len(), 1, "{board}");
            assert_eq!(lines[0]["rank"], 1);
            assert_eq!(lines[0]["user_id"], ann.id());
            assert_eq!(lines[0]["game_id"], id.as_str());
            assert_eq!(lines[0]["score"].to_string(), score);
            assert_eq!(lines[0]["actions"].as_u64(), Some(actions), "{board}");
        }
        // The solver wins nearly every deal; a lost one must not be ranked.
        None => assert!(lines.is_empty(), "a lost deal is not ranked: {board}"),
    }
    // Today's deal keeps its seed hidden even once the player is done: others still play it.
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");

    // A past day's deal, played for practice and won or lost, stays off that day's board.
    let day = earlier_day(&today, 2);
    let (status, practice) = app
        .post("/api/daily", Some(&ann.token), json!({"day": day}))
        .await;
    assert_eq!(status, 201, "{practice}");
    let practice_id = practice["id"].as_str().unwrap().to_string();
    solve_out(&mut ann, &practice_id).await;
    let (_, board) = app.get(&format!("/api/daily?day={day}"), None).await;
    assert_eq!(board["leaderboard"], json!([]), "{board}");
    assert_eq!(board["table"], Value::Null, "{board}");
    // That day's competition is closed, so its seed is shown once the game is over.
    let (_, record) = app
        .get(&format!("/api/records/{practice_id}"), Some(&ann.token))
        .await;
    assert_ne!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}

/// The seed of the daily deal as it once was: a public hash of the day, XORed with a mask.
fn unkeyed_day_hash(day: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in "stolik/white-rabbit/daily/".bytes().chain(day.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    rabbit_solver::hint::mix(h)
}

#[actix_web::test]
async fn the_seeds_of_past_deals_predict_no_other_days_dice() {
    let app = TestApp::spawn().await;
    let mut ann = app.guest().await;
    let (_, board) = app.get("/api/daily", None).await;
    let today = board["today"].as_str().unwrap().to_string();
    // Play and resign three past days, and read their seeds from the records.
    let mut seeds = Vec::new();
    for back in 1..=3 {
        let day = earlier_day(&today, back);
        let (status, table) = app
            .post("/api/daily", Some(&ann.token), json!({"day": day}))
            .await;
        assert_eq!(status, 201, "{table}");
        let id = table["id"].as_str().unwrap().to_string();
        ann.ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        ann.ok(json!({"type": "resign", "table": id})).await;
        let (_, record) = app
            .get(&format!("/api/records/{id}"), Some(&ann.token))
            .await;
        let seed = record["seed"]
            .as_u64()
            .expect("a past deal's seed once over");
        seeds.push((day, seed));
    }
    // Under the old scheme every day shared one XOR mask, so one past day gave away all.
    let masks: Vec<u64> = seeds
        .iter()
        .map(|(day, seed)| seed ^ unkeyed_day_hash(day))
        .collect();
    assert_ne!(masks[0], masks[1], "no shared mask");
    assert_ne!(masks[1], masks[2], "no shared mask");
    // Nor does the difference of two days' seeds carry over to another pair of days.
    assert_ne!(seeds[0].1 ^ seeds[1].1, seeds[1].1 ^ seeds[2].1);
    // And today's table, once finished, still hides today's seed.
    let (_, table) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    let id = table["id"].as_str().unwrap().to_string();
    ann.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    ann.ok(json!({"type": "resign", "table": id})).await;
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}
