//! The analysis board's engine, streamed (`POST /api/positions/think`): stages of growing
//! budget, the review's own value among them, an exact answer at once, and thinking that stops
//! when the player asks about another position or goes away.

use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::metrics::{metrics_page, sample};
use crate::ndjson::Lines;

const THINK: &str = "/api/positions/think";

/// Mill from its start after two placements: estimated (never proved), searched by nodes.
fn mill_opening() -> Value {
    json!({"game": "mill", "moves": ["a1", "d2"]})
}

/// Every line of a stream, to its end.
async fn all(mut lines: Lines) -> Vec<Value> {
    let mut seen = Vec::new();
    while let Some(line) = lines.next().await {
        seen.push(line);
    }
    seen
}

#[actix_web::test]
async fn the_engine_thinks_in_growing_stages_and_one_is_the_reviews_value() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    let lines = Lines::post(&app, THINK, &player.token, &mill_opening())
        .await
        .unwrap();
    let seen = all(lines).await;
    let (last, stages) = seen.split_last().unwrap();
    assert_eq!(last, &json!({"type": "done"}), "{seen:?}");
    assert_eq!(stages.len(), 5, "{seen:?}");
    for (i, stage) in stages.iter().enumerate() {
        assert_eq!(stage["type"], "stage");
        assert_eq!(stage["stage"], i + 1);
        assert_eq!(stage["stages"], 5);
        assert_eq!(stage["unit"], "nodes");
        assert_eq!(stage["evaluation"]["ply"], 2);
        assert!(stage["evaluation"]["exact"].is_null(), "{stage}");
        let line = stage["line"].as_array().unwrap();
        assert_eq!(line.len(), 3, "{stage}");
        assert_eq!(line[0], stage["evaluation"]["best"]);
    }
    let amounts: Vec<u64> = stages
        .iter()
        .map(|s| s["amount"].as_u64().unwrap())
        .collect();
    assert!(amounts.windows(2).all(|w| w[0] < w[1]), "{amounts:?}");
    // The third stage searches at the review's budget: the same value as the evaluation the
    // review and the exercises use.
    let (status, evaluated) = app
        .post(
            "/api/positions/evaluate",
            Some(&player.token),
            mill_opening(),
        )
        .await;
    assert_eq!(status, 200, "{evaluated}");
    assert_eq!(stages[2]["evaluation"], evaluated["evaluation"]);
    // The line is legal from the position.
    let mut moves = mill_opening()["moves"].as_array().unwrap().clone();
    moves.extend(stages[4]["line"].as_array().unwrap().iter().cloned());
    let (status, checked) = app
        .post(
            "/api/positions/check",
            Some(&player.token),
            json!({"game": "mill", "moves": moves}),
        )
        .await;
    assert_eq!(status, 200, "{checked}");
}

#[actix_web::test]
async fn a_proved_value_or_an_unsearched_one_is_given_once() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    // Cephalopod 3x3 with two cells left: solved, so more search would change nothing.
    let body = json!({"game": "cephalopod", "variant": "3x3", "position": "a6b6a6/b6.a6/b6a6. a"});
    let seen = all(Lines::post(&app, THINK, &player.token, &body)
        .await
        .unwrap())
    .await;
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen[0]["evaluation"]["exact"].is_object(), "{seen:?}");
    assert_eq!(seen[1], json!({"type": "done"}));
    // Tumbleweed's setup is not searched (the pie rule makes it even): one answer too.
    let seen = all(
        Lines::post(&app, THINK, &player.token, &json!({"game": "tumbleweed"}))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0]["evaluation"]["best"], Value::Null, "{seen:?}");
    assert_eq!(seen[1], json!({"type": "done"}));
}

#[actix_web::test]
async fn asking_about_another_position_stops_the_first() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    let mut first = Lines::post(&app, THINK, &player.token, &mill_opening())
        .await
        .unwrap();
    assert_eq!(first.next().await.unwrap()["stage"], 1);
    let other = json!({"game": "mill", "moves": ["a1"]});
    let mut second = Lines::post(&app, THINK, &player.token, &other)
        .await
        .unwrap();
    let rest = all(first).await;
    assert_eq!(
        rest.last().unwrap(),
        &json!({"type": "stopped", "reason": "superseded"}),
        "{rest:?}"
    );
    assert!(rest.len() < 5, "the first stream stopped early: {rest:?}");
    // The newer question is answered.
    let answer = second.next().await.unwrap();
    assert_eq!(answer["stage"], 1, "{answer}");
    assert_eq!(answer["evaluation"]["ply"], 1);
    // Another player's thinking is not touched by this one's.
    let stranger = app.guest().await;
    let theirs = Lines::post(&app, THINK, &stranger.token, &other)
        .await
        .unwrap();
    let _ = Lines::post(&app, THINK, &player.token, &mill_opening())
        .await
        .unwrap();
    let theirs = all(theirs).await;
    assert_eq!(
        theirs.last().unwrap(),
        &json!({"type": "done"}),
        "{theirs:?}"
    );
}

#[actix_web::test]
async fn a_client_that_goes_away_stops_the_thinking() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    let gone = "stolik_thinking_stopped_total{reason=\"gone\"}";
    let before = sample(&metrics_page(&app).await, gone).unwrap_or(0.0);
    let mut lines = Lines::post(&app, THINK, &player.token, &mill_opening())
        .await
        .unwrap();
    assert_eq!(lines.next().await.unwrap()["stage"], 1);
    drop(lines);
    // The server notices between stages (a stage is well under a few seconds).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let now = sample(&metrics_page(&app).await, gone).unwrap_or(0.0);
        if now > before {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the thinking went on");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn thinking_is_refused_with_a_reason_and_limited() {
    let app = TestApp::spawn_limited("thinking_per_identity=1/h").await;
    let refused = Lines::post(&app, THINK, "not a token", &mill_opening()).await;
    assert_eq!(refused.err().unwrap().0, 401);
    let player = app.guest().await;
    // Two cells left on the 3x3 board: b2, then the last one, and the game is over.
    let two_left = "a6b6a6/b6.a6/b6a6. a";
    let (status, after) = app
        .post(
            "/api/positions/check",
            Some(&player.token),
            json!({"game": "cephalopod", "variant": "3x3", "position": two_left, "moves": ["b2"]}),
        )
        .await;
    assert_eq!(status, 200, "{after}");
    let last = after["legal"][0].clone();
    for (body, code) in [
        (
            json!({"game": "cephalopod", "variant": "3x3", "position": two_left, "moves": ["b2", last]}),
            "wrong_state",
        ),
        (json!({"game": "mill", "moves": ["z9"]}), "illegal_move"),
        (
            json!({"game": "cephalopod", "variant": "3x3", "position": ".../.../... b"}),
            "impossible_position",
        ),
    ] {
        let (status, answer) = Lines::post(&app, THINK, &player.token, &body)
            .await
            .err()
            .unwrap_or_else(|| panic!("{body} was thought about"));
        assert_eq!(status, 409, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
    }
    let (status, answer) = app
        .post(
            "/api/positions/think",
            Some(&player.token),
            json!({"game": "white-rabbit"}),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    // Refusals did not count; the first stream does, the second is over the limit.
    let first = Lines::post(&app, THINK, &player.token, &mill_opening()).await;
    assert!(first.is_ok());
    let (status, answer) = Lines::post(&app, THINK, &player.token, &mill_opening())
        .await
        .err()
        .unwrap();
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["code"], "rate_limited");
}
