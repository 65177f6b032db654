//! The analysis board's positions: `POST /api/positions/check` reads a start with the engine,
//! replays a line from it and answers every position along it with the legal moves at its
//! end; an impossible position, an illegal move and a body of the wrong shape are refused
//! with a reason, and nothing is kept.

use serde_json::{Value, json};

use crate::helpers::TestApp;

async fn check(app: &TestApp, body: Value) -> (u16, Value) {
    app.post("/api/positions/check", None, body).await
}

#[actix_web::test]
async fn every_two_player_variant_starts_with_its_legal_moves() {
    let app = TestApp::spawn().await;
    let (_, games) = app.get("/api/games", None).await;
    let mut checked = 0;
    for game in games.as_array().unwrap() {
        if game["seats"].as_u64() == Some(1) {
            continue;
        }
        for variant in game["variants"].as_array().unwrap() {
            let (status, body) =
                check(&app, json!({"game": game["id"], "variant": variant["id"]})).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["game"], game["id"]);
            assert_eq!(body["variant"], variant["id"]);
            assert_eq!(body["positions"].as_array().unwrap().len(), 1);
            assert_eq!(body["to_move"], "a");
            // Either a list to choose from, or (Tumbleweed's setup) too many to send.
            let listed = !body["legal"].as_array().unwrap().is_empty();
            assert!(
                listed != body["legal_truncated"].as_bool().unwrap(),
                "{body}"
            );
            // The start read back is a position the check takes again, unchanged.
            let start = body["positions"][0].clone();
            let (status, again) = check(
                &app,
                json!({"game": game["id"], "variant": variant["id"], "position": start}),
            )
            .await;
            assert_eq!(status, 200, "{again}");
            assert_eq!(again["positions"][0], start);
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} variants checked");
}

#[actix_web::test]
async fn a_line_is_replayed_position_by_position() {
    let app = TestApp::spawn().await;
    let (status, body) = check(
        &app,
        json!({"game": "cephalopod", "variant": "3x3", "moves": ["b2", "a1"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["positions"],
        json!([".../.../... a", ".../.a1./... b", ".../.a1./b1.. a"])
    );
    assert_eq!(body["moves"], json!(["b2", "a1"]));
    assert_eq!(body["turn"], "a");
    assert_eq!(body["result"], Value::Null);
    let legal = body["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 7, "seven empty cells: {legal:?}");
    assert!(!legal.contains(&json!("b2")));
}

#[actix_web::test]
async fn a_pasted_position_is_played_on_and_a_finished_one_has_its_result() {
    let app = TestApp::spawn().await;
    // Two cells left on the 3x3 board: side a fills one, side b the other, and the board is full.
    let (status, body) = check(
        &app,
        json!({"game": "cephalopod", "variant": "3x3", "position": "a6b6a6/b6.a6/b6a6. a", "moves": ["b2"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["positions"][0], "a6b6a6/b6.a6/b6a6. a");
    let (status, end) = check(
        &app,
        json!({"game": "cephalopod", "variant": "3x3", "position": body["positions"][1], "moves": [body["legal"][0]]}),
    )
    .await;
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["to_move"], Value::Null);
    assert!(
        ["a", "b"].contains(&end["result"].as_str().unwrap()),
        "{end}"
    );
    assert_eq!(end["legal"], json!([]));
}

#[actix_web::test]
async fn an_impossible_position_is_refused_with_the_engines_reason() {
    let app = TestApp::spawn().await;
    for (game, variant, position, why) in [
        (
            "cephalopod",
            "3x3",
            ".../.../... b",
            "an empty board is the start",
        ),
        (
            "mill",
            "troika",
            "aaa/aaa/aaa/aaaaaa/.../.../... b 0 9 0000 0000 0",
            "more than",
        ),
        ("cephalopod", "5x5", "nonsense", "expected the board"),
    ] {
        let (status, body) = check(
            &app,
            json!({"game": game, "variant": variant, "position": position}),
        )
        .await;
        assert_eq!(status, 409, "{position}: {body}");
        assert_eq!(body["code"], "impossible_position");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(why), "{position}: {message}");
    }
}

#[actix_web::test]
async fn an_illegal_move_in_the_line_is_named_by_its_number() {
    let app = TestApp::spawn().await;
    let (status, body) = check(
        &app,
        json!({"game": "cephalopod", "variant": "3x3", "moves": ["b2", "b2"]}),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "illegal_move");
    assert!(
        body["message"].as_str().unwrap().starts_with("move 2: "),
        "{body}"
    );
}

#[actix_web::test]
async fn a_body_of_the_wrong_shape_is_refused_with_what_is_wrong() {
    let app = TestApp::spawn().await;
    let too_long = vec!["b2"; 401];
    for (body, why) in [
        (json!({"game": "chess"}), "no game"),
        (json!({"game": "white-rabbit"}), "two-player"),
        (json!({"game": "mill", "variant": "3x3"}), "variant"),
        (
            json!({"game": "mill", "position": "a\u{0431}"}),
            "a position is",
        ),
        (json!({"game": "mill", "position": ""}), "a position is"),
        (
            json!({"game": "mill", "position": "a".repeat(1025)}),
            "a position is",
        ),
        (json!({"game": "cephalopod", "moves": ["B2"]}), "a move is"),
        (json!({"game": "cephalopod", "moves": [""]}), "a move is"),
        (
            json!({"game": "cephalopod", "moves": ["a".repeat(25)]}),
            "a move is",
        ),
        (
            json!({"game": "cephalopod", "moves": too_long}),
            "at most 400",
        ),
        (json!({"variant": "3x3"}), ""),
        (json!({"game": "cephalopod", "moves": "b2"}), ""),
    ] {
        let (status, answer) = check(&app, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], "bad_request", "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(why),
            "{body}: {answer}"
        );
    }
    let response = app
        .http()
        .post(format!("{}/api/positions/check", app.base))
        .insert_header(("Content-Type", "application/json"))
        .send_body("{not json")
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
}

#[actix_web::test]
async fn the_engine_values_a_position_on_demand_with_its_line() {
    let app = TestApp::spawn().await;
    let player = app.guest().await;
    // Cephalopod 3x3 with two cells left is solved exactly: the value and the line are proved.
    let body = json!({"game": "cephalopod", "variant": "3x3", "position": "a6b6a6/b6.a6/b6a6. a"});
    let (status, answer) = app
        .post("/api/positions/evaluate", Some(&player.token), body.clone())
        .await;
    assert_eq!(status, 200, "{answer}");
    let evaluation = &answer["evaluation"];
    assert!(evaluation["exact"].is_object(), "{answer}");
    let value = evaluation["value"].as_f64().unwrap();
    assert!([0.0, 0.5, 1.0].contains(&value), "{answer}");
    let line = answer["line"].as_array().unwrap();
    assert_eq!(line.len(), 2, "two moves fill the board: {answer}");
    assert_eq!(line[0], evaluation["best"]);
    // The line is legal from the position, and the same question gets the same answer.
    let (status, replayed) = check(
        &app,
        json!({"game": "cephalopod", "variant": "3x3", "position": body["position"], "moves": line}),
    )
    .await;
    assert_eq!(status, 200, "{replayed}");
    assert_eq!(replayed["to_move"], Value::Null);
    let (_, again) = app
        .post("/api/positions/evaluate", Some(&player.token), body)
        .await;
    assert_eq!(again, answer);
}

#[actix_web::test]
async fn evaluations_need_an_identity_and_are_limited_per_player() {
    let app = TestApp::spawn_limited("evaluations_per_identity=2/h").await;
    let body = json!({"game": "cephalopod", "variant": "3x3", "position": "a6b6a6/b6.a6/b6a6. a"});
    let (status, answer) = app
        .post("/api/positions/evaluate", None, body.clone())
        .await;
    assert_eq!(status, 401, "{answer}");
    let player = app.guest().await;
    for _ in 0..2 {
        let (status, answer) = app
            .post("/api/positions/evaluate", Some(&player.token), body.clone())
            .await;
        assert_eq!(status, 200, "{answer}");
    }
    let (status, answer) = app
        .post("/api/positions/evaluate", Some(&player.token), body.clone())
        .await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["code"], "rate_limited");
    // A refused position is refused before it counts, with the engine's reason.
    let other = app.guest().await;
    let (status, answer) = app
        .post(
            "/api/positions/evaluate",
            Some(&other.token),
            json!({"game": "cephalopod", "variant": "3x3", "position": ".../.../... b"}),
        )
        .await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["code"], "impossible_position");
}
