//! White Rabbit for everyone: the tables a server builds by itself (and tells only the
//! operator about), the review written with the finished game and kept, hints and review in
//! one order, and the daily deal's loop (ranked for accounts, practice for guests).

use serde_json::{Value, json};

use crate::helpers::{Db, TestApp};
use crate::rabbit::{assert_ranked_by_the_one_order, live_table, play};

/// The review's bytes as the server sends them.
async fn review_bytes(app: &TestApp, id: &str, token: &str) -> (u16, Vec<u8>) {
    let mut response = app
        .http()
        .get(format!("{}/api/records/{id}/review", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.body().limit(1 << 24).await.unwrap();
    (status, body.to_vec())
}

/// A practice table on a past day's deal (a fixed deal, not won at setup), subscribed.
async fn practice(app: &TestApp, player: &mut crate::helpers::Player) -> Value {
    let (_, board) = app.get("/api/daily", None).await;
    let today = board["today"].as_str().unwrap().to_string();
    for back in 1..=20 {
        let day = crate::rabbit::earlier_day(&today, back);
        let (status, table) = app
            .post("/api/daily", Some(&player.token), json!({"day": day}))
            .await;
        assert_eq!(status, 201, "{table}");
        let id = table["id"].as_str().unwrap();
        let snapshot = player
            .ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        if snapshot["table"]["status"] == "playing" {
            return snapshot["table"].clone();
        }
    }
    panic!("twenty deals in a row won at setup");
}

/// Plays the server's first hint `plies` times (or to the end), checking at each ply that
/// the list is in the one order; returns each ply's hint list. Then resigns if still going.
async fn follow_hints(
    app: &TestApp,
    player: &mut crate::helpers::Player,
    table: &Value,
    plies: u32,
) -> Vec<Value> {
    let id = table["id"].as_str().unwrap();
    let mut lists = Vec::new();
    let mut ply = 0;
    while ply < plies {
        let (status, body) = app
            .get(&format!("/api/tables/{id}/hints"), Some(&player.token))
            .await;
        if status != 200 {
            break; // won: nothing to hint
        }
        assert_ranked_by_the_one_order(&body);
        let best = body["hints"][0]["action"].as_str().unwrap().to_string();
        lists.push(body);
        player
            .ok(json!({"type": "move", "table": id, "move": best, "ply": ply}))
            .await;
        let event = player.expect("move").await;
        ply += 1;
        if event["to_move"].is_null() {
            return lists;
        }
    }
    player.ok(json!({"type": "resign", "table": id})).await;
    lists
}

/// The review is computed once and kept: three views on one node and one on a second node
/// sharing the database get the very same bytes.
#[actix_web::test]
async fn the_review_is_the_same_bytes_on_every_view_and_every_node() {
    let db = Db::sqlite();
    let app = TestApp::spawn_on(Db::shared(&db)).await;
    let mut solo = app.guest().await;
    let table = practice(&app, &mut solo).await;
    let id = table["id"].as_str().unwrap().to_string();
    follow_hints(&app, &mut solo, &table, 8).await;
    let (status, first) = review_bytes(&app, &id, &solo.token).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&first));
    for _ in 0..2 {
        assert_eq!(
            review_bytes(&app, &id, &solo.token).await,
            (200, first.clone())
        );
    }
    let other = TestApp::spawn_on(Db::shared(&db)).await;
    assert_eq!(
        review_bytes(&other, &id, &solo.token).await,
        (200, first.clone()),
        "another node serves the kept review"
    );
    let review: Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(
        review["mode"], "estimates",
        "no tables: labelled as estimates"
    );
    assert_eq!(review["summary"]["exact"], 0);
    assert!(!review["decisions"].as_array().unwrap().is_empty());
    other.stop().await;
    app.stop().await;
}

/// The review row of `game` in the database of `db`, read straight from its SQLite file.
async fn stored_review(db: &Db, game: &str) -> Option<String> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::SqliteConnection::connect(&db.url()).await.unwrap();
    let row = sqlx::query("SELECT body FROM rabbit_reviews WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    row.map(|row| row.get("body"))
}

/// The review is written when the game ends, not when someone first asks: its row is in the
/// database with no request to the review route, and the route then answers exactly those
/// bytes. A game aborted before its first action has no result, and no review.
#[actix_web::test]
async fn the_review_is_written_when_the_game_ends_before_anyone_asks() {
    let db = Db::sqlite();
    let app = TestApp::spawn_on(Db::shared(&db)).await;
    let mut solo = app.guest().await;
    let aborted = live_table(&app, &mut solo, "classic").await;
    let aborted = aborted["id"].as_str().unwrap().to_string();
    solo.ok(json!({"type": "abort", "table": aborted})).await;
    let table = live_table(&app, &mut solo, "classic").await;
    let id = table["id"].as_str().unwrap().to_string();
    // Ending every turn at once: six decisions, and the game is lost.
    for ply in 0..6 {
        play(&mut solo, &id, ply, "end").await;
    }
    // Six decisions of hint mode at the pool's low priority: well under a second on an idle
    // machine, much longer beside a CI run.
    let stored = written_review(&db, &id).await;
    let review: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(review["table"], id.as_str());
    assert_eq!(review["result"], "lost");
    assert_eq!(review["summary"]["decisions"], 6, "{review}");
    assert_eq!(
        review_bytes(&app, &id, &solo.token).await,
        (200, stored.clone().into_bytes()),
        "the route answers the stored review"
    );
    // The pool takes its jobs in order: an aborted game's review would be there by now.
    assert_eq!(stored_review(&db, &aborted).await, None);

    // A game finished without its review (before reviews were written at the end, or its
    // server stopped first) gets it on its first view, the same bytes, and kept.
    forget_review(&db, &id).await;
    assert_eq!(
        review_bytes(&app, &id, &solo.token).await,
        (200, stored.clone().into_bytes())
    );
    assert_eq!(stored_review(&db, &id).await, Some(stored));
    app.stop().await;
}

/// Waits (at most 30 s) for the review of `game` to be written, and gives it. Hint mode at
/// the pool's low priority: well under a second on an idle machine, longer beside a CI run.
async fn written_review(db: &Db, game: &str) -> String {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    loop {
        if let Some(body) = stored_review(db, game).await {
            return body;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no review written for {game}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Deletes the review row of `game`, as a game finished before reviews were written has none.
async fn forget_review(db: &Db, game: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(&db.url()).await.unwrap();
    let gone = sqlx::query("DELETE FROM rabbit_reviews WHERE game_id = $1")
        .bind(game)
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(gone.rows_affected(), 1);
    conn.close().await.unwrap();
}

/// Today's deal has its review written when it ends like any game, but the route keeps it,
/// like the deal's seed, until the day is over.
#[actix_web::test]
async fn a_daily_deals_written_review_waits_for_the_end_of_its_day() {
    let db = Db::sqlite();
    let app = TestApp::spawn_on(Db::shared(&db)).await;
    let mut solo = app.guest().await;
    let (status, table) = app.post("/api/daily", Some(&solo.token), json!({})).await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    if table["status"] == "playing" {
        solo.ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        solo.ok(json!({"type": "resign", "table": id})).await;
    }
    written_review(&db, &id).await;
    let (status, body) = review_bytes(&app, &id, &solo.token).await;
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (status, &body["code"]),
        (403, &json!("forbidden")),
        "{body}"
    );
    app.stop().await;
}

/// On the same positions the hint list and the review name the same best action with the
/// same values, and the review's taken action has the values the hint list gave it.
#[actix_web::test]
async fn hints_and_review_rank_the_same_actions_the_same_way() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = practice(&app, &mut solo).await;
    let id = table["id"].as_str().unwrap().to_string();
    let lists = follow_hints(&app, &mut solo, &table, 12).await;
    let (status, review) = app
        .get(&format!("/api/records/{id}/review"), Some(&solo.token))
        .await;
    assert_eq!(status, 200, "{review}");
    let decisions = review["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), lists.len(), "{review}");
    let values = |h: &Value| json!([h["win"], h["score"], h["actions"]]);
    let grid = |h: &Value, k: &str| (h[k].as_f64().unwrap() / 1e-9).round();
    let key = |h: &Value| [-grid(h, "win"), -grid(h, "score"), grid(h, "actions")];
    for (d, list) in decisions.iter().zip(&lists) {
        let hints = list["hints"].as_array().unwrap();
        // Lines marked `repeats` were moved down by the turn's history, which a review of
        // one position does not see: the best of the whole list is the review's best.
        let best = hints
            .iter()
            .min_by(|a, b| key(a).partial_cmp(&key(b)).unwrap())
            .unwrap();
        assert_eq!(values(&d["best"]), values(best), "ply {}", d["ply"]);
        if hints.iter().all(|h| h["repeats"] == false) {
            assert_eq!(d["best"]["action"], hints[0]["action"], "ply {}", d["ply"]);
        }
        let taken = hints
            .iter()
            .find(|h| h["action"] == d["taken"]["action"])
            .unwrap();
        assert_eq!(values(&d["taken"]), values(taken), "ply {}", d["ply"]);
        assert_eq!(d["exact"], list["exact"]);
    }
    app.stop().await;
}

/// A guest's attempt at today's deal is practice: shown as such, never on the leaderboard,
/// not in the day's figures. An account's attempt is ranked, and a lost one is counted and
/// shown to its player.
#[actix_web::test]
async fn a_guests_daily_attempt_is_practice_and_an_accounts_loss_is_counted() {
    let app = TestApp::spawn().await;
    let mut guest = app.guest().await;
    let (_, before) = app.get("/api/daily", Some(&guest.token)).await;
    assert_eq!(
        before["ranked"], false,
        "a guest's attempt would be practice"
    );
    let (status, table) = app.post("/api/daily", Some(&guest.token), json!({})).await;
    assert_eq!(status, 201, "{table}");
    assert_eq!(table["daily"], before["today"], "today's deal");
    assert_eq!(table["rated"], false, "practice, and the table says so");
    let id = table["id"].as_str().unwrap().to_string();
    let (result, _) = crate::rabbit::solve_out(&mut guest, &id).await;
    let (_, board) = app.get("/api/daily", Some(&guest.token)).await;
    assert_eq!(
        board["leaderboard"],
        json!([]),
        "{result}: never ranked: {board}"
    );
    assert_eq!(
        board["figures"],
        json!({"attempts": 0, "finished": 0, "solved": 0})
    );
    let mine = &board["mine"];
    assert_eq!(mine["table"], id.as_str());
    assert_eq!(
        (&mine["ranked"], &mine["rank"]),
        (&json!(false), &Value::Null)
    );
    assert_eq!(mine["result"], result.as_str());
    assert_eq!(mine["status"], "finished");

    // An account's attempt is ranked; lost, it is counted in the day's figures and shown.
    let mut bob = app.account("bob").await;
    let (_, before) = app.get("/api/daily", Some(&bob.token)).await;
    assert_eq!(before["ranked"], true);
    assert_eq!(before["mine"], Value::Null);
    let (_, table) = app.post("/api/daily", Some(&bob.token), json!({})).await;
    assert_eq!(table["rated"], true, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    bob.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let (_, during) = app.get("/api/daily", Some(&bob.token)).await;
    assert_eq!(
        during["figures"],
        json!({"attempts": 1, "finished": 0, "solved": 0})
    );
    assert_eq!(during["mine"]["status"], "playing");
    bob.ok(json!({"type": "resign", "table": id})).await;
    let (_, after) = app.get("/api/daily", Some(&bob.token)).await;
    assert_eq!(
        after["figures"],
        json!({"attempts": 1, "finished": 1, "solved": 0})
    );
    let mine = &after["mine"];
    assert_eq!(mine["result"], "lost", "{after}");
    assert_eq!(
        (&mine["ranked"], &mine["rank"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(after["leaderboard"], json!([]));
    app.stop().await;
}

/// A server with an empty table directory builds every level by itself in the background
/// (a small reduced model here; the full game's are the same code, in minutes), and says so
/// in `/healthz` and `/metrics` only.
#[actix_web::test]
async fn a_server_builds_its_tables_by_itself_and_tells_the_operator() {
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("stolik-own-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = rabbit_solver::Model {
        blacks: 2,
        reds: 2,
        table: 3,
        faces: 4,
        wrap: true,
    };
    let app = TestApp::spawn_with_tables(server::TableSource {
        poll: Duration::from_millis(100),
        models: vec![model],
        ..server::TableSource::building(dir.clone())
    })
    .await;
    let started = Instant::now();
    let status = loop {
        let (code, health) = app.get("/healthz", None).await;
        assert_eq!(code, 200, "{health}");
        let tables = health["rabbit_tables"].clone();
        assert_eq!(tables["levels"], 6, "{health}");
        if tables["ready"].as_array().unwrap().len() == 6 {
            break tables;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "{health}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(status["build"], true);
    assert_eq!(status["building"], Value::Null);
    assert_eq!(status["ready"][5], "b2r2t3f4-classic/6");
    assert!(status["bytes"].as_u64().unwrap() > 0, "{status}");
    assert!(dir.join("b2r2t3f4-classic-green6.bin").exists());
    let metrics = app
        .http()
        .get(format!("{}/metrics", app.metrics_base))
        .send()
        .await;
    let text = metrics.unwrap().body().await.unwrap();
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.contains("stolik_rabbit_levels_ready{variant=\"b2r2t3f4-classic\"} 6"),
        "{text}"
    );
    app.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
