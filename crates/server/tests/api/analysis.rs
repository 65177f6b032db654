//! The engine's review of a finished two-player game: asked for, queued with its place,
//! computed on the CPU pool, kept with the game and the same on every fetch and every node;
//! refused for a game still going and for White Rabbit; limited per player and per address.

use serde_json::{Value, json};

use crate::addresses::{behind_proxy, post_from};
use crate::games::{Seen, two_at_a_table};
use crate::helpers::{Db, Player, TestApp};

/// A Cephalopod 5×5 game of a few moves, finished by a resignation: its table id and the
/// player who resigned.
async fn finished_game(app: &TestApp) -> (String, Player) {
    let (mut a, mut b, mut seen) =
        two_at_a_table(app, json!({"game": "cephalopod", "variant": "5x5"})).await;
    play(&mut a, &mut b, &mut seen, 6).await;
    b.ok(json!({"type": "resign", "table": seen.table})).await;
    a.expect("end").await;
    (seen.table.clone(), a)
}

/// `plies` moves, each side in turn (a first) playing the first legal move, computed here
/// from the position.
async fn play(a: &mut Player, b: &mut Player, seen: &mut Seen, plies: usize) {
    for ply in 0..plies {
        let game = catalog::AnyGame::from_position(
            catalog::VariantId::parse(&seen.game, Some(&seen.variant)).unwrap(),
            &seen.position,
            0,
        )
        .unwrap();
        let mv = game.legal_texts()[0].clone();
        let (mover, other) = if ply % 2 == 0 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        mover
            .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
            .await;
        // The other side's echo of an earlier move may come first: wait for this one.
        let event = loop {
            let event = other.expect("move").await;
            if event["ply"].as_u64() == Some(seen.ply + 1) {
                break event;
            }
        };
        seen.update(&event);
        mover.forget();
        other.forget();
    }
}

async fn analysis(app: &TestApp, id: &str, token: &str) -> (u16, Vec<u8>) {
    let mut response = app
        .http()
        .get(format!("{}/api/records/{id}/analysis", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.body().limit(1 << 24).await.unwrap();
    (status, body.to_vec())
}

/// Waits for the review to be done, checking every answer on the way is a known status.
async fn done(app: &TestApp, id: &str, token: &str) -> Vec<u8> {
    loop {
        let (status, body) = analysis(app, id, token).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let v: Value = serde_json::from_slice(&body).unwrap();
        match v["status"].as_str().unwrap() {
            "done" => return body,
            "queued" => assert!(v["place"].as_u64().unwrap() >= 1, "{v}"),
            "running" => assert!(v["done"].as_u64() <= v["total"].as_u64(), "{v}"),
            other => panic!("unexpected status {other}: {v}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn a_finished_game_is_reviewed_once_and_the_same_on_every_fetch_and_node() {
    reviewed_once_on_every_node(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_a_finished_game_is_reviewed_once_and_the_same_on_every_node() {
    reviewed_once_on_every_node(Db::postgres().await).await;
}

async fn reviewed_once_on_every_node(db: Db) {
    let app = TestApp::spawn_on(Db::shared(&db)).await;
    let (id, a) = finished_game(&app).await;
    let (status, before) = analysis(&app, &id, &a.token).await;
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_slice::<Value>(&before).unwrap()["status"],
        "none"
    );
    let (status, asked) = app
        .post(
            &format!("/api/records/{id}/analysis"),
            Some(&a.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 202, "{asked}");
    assert!(
        ["queued", "running"].contains(&asked["status"].as_str().unwrap()),
        "{asked}"
    );
    let first = done(&app, &id, &a.token).await;
    let review: Value = serde_json::from_slice(&first).unwrap();
    let review = &review["review"];
    assert_eq!(review["value_of"], "a");
    assert_eq!(review["moves"].as_array().unwrap().len(), 6);
    assert_eq!(review["positions"].as_array().unwrap().len(), 7);
    for m in review["moves"].as_array().unwrap() {
        let label = m["label"].as_str().unwrap();
        assert!(["best", "good", "inaccuracy", "mistake", "blunder"].contains(&label));
    }
    for p in &review["positions"].as_array().unwrap()[..6] {
        let value = p["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value));
        assert!(p["best"].is_string(), "{p}");
    }
    assert_eq!(analysis(&app, &id, &a.token).await, (200, first.clone()));
    // Asked again: answered with the kept review.
    let (status, again) = app
        .post(
            &format!("/api/records/{id}/analysis"),
            Some(&a.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(again, serde_json::from_slice::<Value>(&first).unwrap());
    let other = TestApp::spawn_on(Db::shared(&db)).await;
    assert_eq!(
        analysis(&other, &id, &a.token).await,
        (200, first),
        "a second node reads the kept review"
    );
    other.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn reviews_queue_behind_each_other_and_report_their_place() {
    let app = TestApp::spawn().await;
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(finished_game(&app).await);
    }
    let mut answers = Vec::new();
    for (id, player) in &games {
        let (status, body) = app
            .post(
                &format!("/api/records/{id}/analysis"),
                Some(&player.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 202, "{body}");
        answers.push(body);
    }
    // One review runs at a time: the later ones wait, each told its place.
    let queued: Vec<&Value> = answers.iter().filter(|a| a["status"] == "queued").collect();
    assert!(!queued.is_empty(), "{answers:?}");
    let last = &answers[3];
    assert_eq!(last["status"], "queued", "{answers:?}");
    let place = last["place"].as_u64().unwrap();
    assert!((1..=3).contains(&place), "{last}");
    let (id, player) = &games[3];
    let (_, seen) = app
        .get(&format!("/api/records/{id}/analysis"), Some(&player.token))
        .await;
    assert!(["queued", "running", "done"].contains(&seen["status"].as_str().unwrap()));
    for (id, player) in &games {
        done(&app, id, &player.token).await;
    }
    app.stop().await;
}

#[actix_web::test]
async fn the_per_player_limit_answers_429_and_unfinished_and_solo_games_are_refused() {
    let app = TestApp::spawn_limited("reviews_per_identity=1/h").await;
    let (first, a) = finished_game(&app).await;
    let (status, _) = app
        .post(
            &format!("/api/records/{first}/analysis"),
            Some(&a.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 202);
    let (second, _) = finished_game(&app).await;
    let (status, refused) = app
        .post(
            &format!("/api/records/{second}/analysis"),
            Some(&a.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["code"], "rate_limited", "{refused}");
    // Asking again for the first is not a new review: no refusal.
    let (status, _) = app
        .post(
            &format!("/api/records/{first}/analysis"),
            Some(&a.token),
            json!({}),
        )
        .await;
    assert!(status == 200 || status == 202, "{status}");

    let (mut c, mut d, mut seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    play(&mut c, &mut d, &mut seen, 2).await;
    let (status, going) = app
        .post(
            &format!("/api/records/{}/analysis", seen.table),
            Some(&c.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 409, "{going}");
    assert!(
        going["message"]
            .as_str()
            .unwrap()
            .contains("finished games only")
    );
    done(&app, &first, &a.token).await;
    app.stop().await;
}

#[actix_web::test]
async fn the_per_address_limit_holds_back_a_second_player_from_the_same_address() {
    // Each player may ask for two reviews an hour; their address for one.
    let app = behind_proxy("reviews_per_identity=2/h,reviews_per_address=1/h").await;
    let (busy, clean) = ("203.0.113.9", "198.51.100.30");
    let (first, a) = finished_game(&app).await;
    let (second, c) = finished_game(&app).await;
    let ask = |id: &str| format!("/api/records/{id}/analysis");
    let (status, body) = post_from(&app, busy, &ask(&first), Some(&a.token), json!({})).await;
    assert_eq!(status, 202, "{body}");
    // Another player from the same address: their own first review, but the address's second.
    let (status, refused) = post_from(&app, busy, &ask(&second), Some(&c.token), json!({})).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["code"], "rate_limited", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("try again in"), "{message}");
    // The same player from another address is not held back: it was the address's limit.
    let (status, body) = post_from(&app, clean, &ask(&second), Some(&c.token), json!({})).await;
    assert_eq!(status, 202, "{body}");
    done(&app, &first, &a.token).await;
    done(&app, &second, &c.token).await;
    app.stop().await;
}
