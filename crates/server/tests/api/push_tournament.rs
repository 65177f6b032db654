//! "A tournament about to start" end to end, at the stand-in push service of `push.rs`: five
//! minutes (of a shortened calendar) before an arena and a round robin start, a player who
//! joined them gets one push each, naming the tournament and opening its page; a player who
//! switched the kind off, one who left, and one who never joined get none; a restart in the
//! window before the start sends nothing again.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, TestApp};
use crate::push::{push_service, send, subscribe, until_outbox_empty};

/// A minute of the tournaments' calendar here: the pushes are due 10 s before the start.
const MINUTE: Duration = Duration::from_secs(2);

async fn server(db: Db) -> TestApp {
    TestApp::spawn_tuned(db, |config| config.tournament_minute = MINUTE).await
}

async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> Value {
    let (status, answer) = app.post(path, Some(token), body).await;
    assert!(status == 201 || status == 204, "{path}: {status} {answer}");
    answer
}

async fn status(app: &TestApp, id: &str) -> String {
    let (_, body) = app.get(&format!("/api/tournaments/{id}"), None).await;
    body["tournament"]["status"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn the_players_of_a_tournament_about_to_start_are_pushed_once() {
    let app = server(Db::sqlite()).await;
    let mut service = push_service(&app).await;
    let ann = app.account("ts_ann").await;
    let bob = app.account("ts_bob").await;
    let cyd = app.account("ts_cyd").await;
    let dee = app.account("ts_dee").await;
    for (player, device) in [(&ann, "ann"), (&bob, "bob"), (&cyd, "cyd"), (&dee, "dee")] {
        subscribe(&app, &service, player, device, "en").await;
    }
    let (code, body) = send(&app, "PUT", &bob, json!({"off": ["tournament_start"]})).await;
    assert_eq!(code, 200, "{body}");

    let arena = post(
        &app,
        "/api/tournaments",
        &ann.token,
        json!({"game": "cephalopod", "variant": "3x3", "initial": 60, "increment": 0,
               "minutes": 5, "starts_in": 8}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let round_robin = post(
        &app,
        "/api/tournaments",
        &ann.token,
        json!({"kind": "round_robin", "game": "mill", "days": 1, "max_players": 4,
               "starts_in": 8}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for id in [&arena, &round_robin] {
        for player in [&ann, &bob, &dee] {
            post(
                &app,
                &format!("/api/tournaments/{id}/join"),
                &player.token,
                json!({}),
            )
            .await;
        }
        post(
            &app,
            &format!("/api/tournaments/{id}/withdraw"),
            &dee.token,
            json!({}),
        )
        .await;
    }
    assert_eq!(status(&app, &arena).await, "upcoming");

    // Ann's two pushes, and no one else's.
    let mut got: Vec<Value> = Vec::new();
    for _ in 0..2 {
        let push = service.next().await;
        assert_eq!(push.device, "ann", "{:?}", push.payload);
        got.push(push.payload);
    }
    got.sort_by_key(|p| p["body"].as_str().unwrap().to_string());
    assert_eq!(
        got,
        [
            json!({"title": "Stolik", "body": "The Cephalopod arena you joined is about to start",
                   "url": format!("/#/tournament/{arena}"), "tag": format!("stolik-{arena}"),
                   "kind": "tournament_start", "game_id": null, "tournament_id": arena}),
            json!({"title": "Stolik",
                   "body": "The Mill (Troika) round robin you joined is about to start",
                   "url": format!("/#/tournament/{round_robin}"),
                   "tag": format!("stolik-{round_robin}"),
                   "kind": "tournament_start", "game_id": null, "tournament_id": round_robin}),
        ]
    );
    until_outbox_empty(&app).await;

    // A restart before the start: the new runner sees the pushes were queued, and queues none.
    let db = app.stop().await;
    let app = server(db).await;
    assert_eq!(
        status(&app, &arena).await,
        "upcoming",
        "restarted in the window"
    );
    for _ in 0..200 {
        if status(&app, &arena).await != "upcoming"
            && status(&app, &round_robin).await != "upcoming"
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status(&app, &arena).await, "running");
    until_outbox_empty(&app).await;
    assert!(
        service.try_next().is_none(),
        "one push a player and tournament"
    );
    service.stop().await;
    app.stop().await;
}
