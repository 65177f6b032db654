//! Ratings, player profiles, leaderboards, rating-aware quick match, the live list,
//! spectators' chat and abandoned games, through the real API.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

/// A blitz cephalopod table (5 minutes: 300 s < the 10-minute blitz line).
pub fn blitz(rated: bool) -> Value {
    json!({"game": "cephalopod", "variant": "5x5", "rated": rated,
           "clock": {"initial": 300, "increment": 0}})
}

pub fn first_legal(snapshot_or_event: &Value) -> String {
    snapshot_or_event["legal"][0].as_str().unwrap().to_string()
}

/// `host` opens a table, `guest` sits; both are subscribed. Returns the table id and the
/// snapshot the game started with.
pub async fn seated(
    app: &TestApp,
    host: &mut Player,
    other: &mut Player,
    create: Value,
) -> (String, Value) {
    let table = host.create_table(app, create).await;
    let id = table["id"].as_str().unwrap().to_string();
    host.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    other
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    other.ok(json!({"type": "sit", "table": id})).await;
    let started = host.expect("table").await;
    assert_eq!(started["table"]["status"], "playing", "{started}");
    other.expect("table").await;
    host.forget();
    other.forget();
    (id, started["table"].clone())
}

/// Each side plays one move, then `loser` resigns. Returns the `end` message `winner` got.
pub async fn both_move_then_resign(
    host: &mut Player,
    other: &mut Player,
    id: &str,
    started: &Value,
    host_resigns: bool,
) -> Value {
    host.ok(json!({"type": "move", "table": id, "move": first_legal(started), "ply": 0}))
        .await;
    let event = other.expect("move").await;
    other
        .ok(json!({"type": "move", "table": id, "move": first_legal(&event), "ply": 1}))
        .await;
    host.expect("move").await;
    let (loser, winner) = if host_resigns {
        (host, other)
    } else {
        (other, host)
    };
    loser.ok(json!({"type": "resign", "table": id})).await;
    loser.expect("end").await;
    winner.expect("end").await
}

pub async fn profile(app: &TestApp, player: &Player) -> Value {
    let (status, body) = app.get(&format!("/api/users/{}", player.id()), None).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[actix_web::test]
async fn a_rated_game_moves_both_ratings_by_glicko2_and_casual_or_aborted_games_do_not() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann_rated").await;
    let mut bob = app.account("bob_rated").await;

    let (id, started) = seated(&app, &mut ann, &mut bob, blitz(true)).await;
    assert_eq!(started["rated"], true);
    assert_eq!(started["rating_class"], "blitz");
    assert_eq!(started["seats"][0]["rating"]["rating"], 1500);
    assert_eq!(started["seats"][0]["rating"]["provisional"], true);
    let end = both_move_then_resign(&mut ann, &mut bob, &id, &started, false).await;
    assert_eq!(end["result"], "a");
    assert_eq!(end["reason"], "resign");

    // What Glicko-2 gives two newcomers when the first wins, within the bound of one pair's
    // games.
    let start = rating::Rating::default();
    let (won, lost) = rating::after_game(&start, &start, rating::Score::Win);
    let first = rating::PairHistory::default();
    let (won, lost) = (first.damp(&start, &won), first.damp(&start, &lost));
    assert_eq!(end["ratings"]["a"]["before"], 1500);
    assert_eq!(end["ratings"]["a"]["after"], won.shown());
    assert_eq!(end["ratings"]["a"]["change"], won.shown() - 1500);
    assert_eq!(end["ratings"]["b"]["after"], lost.shown());
    assert_eq!(end["ratings"]["b"]["change"], lost.shown() - 1500);
    // The snapshot after the end carries the changes on the seats.
    let after = ann.expect("table").await;
    assert_eq!(
        after["table"]["seats"][0]["rating_change"],
        won.shown() - 1500
    );
    assert_eq!(after["table"]["seats"][1]["rating"]["rating"], lost.shown());

    let ann_profile = profile(&app, &ann).await;
    assert_eq!(ann_profile["guest"], false);
    let blitz_rating = &ann_profile["ratings"]["cephalopod"]["blitz"];
    assert_eq!(blitz_rating["rating"], won.shown());
    assert_eq!(blitz_rating["games"], 1);
    assert_eq!(blitz_rating["provisional"], true);
    assert_eq!(
        ann_profile["results"],
        json!({"wins": 1, "draws": 0, "losses": 0})
    );
    let bob_profile = profile(&app, &bob).await;
    assert_eq!(
        bob_profile["ratings"]["cephalopod"]["blitz"]["rating"],
        lost.shown()
    );
    assert_eq!(bob_profile["results"]["losses"], 1);

    let (_, history) = app
        .get(&format!("/api/users/{}/rating-history", ann.id()), None)
        .await;
    let points = history["points"].as_array().unwrap();
    assert_eq!(points.len(), 1);
    assert_eq!(points[0]["game_id"], json!(id));
    assert_eq!(points[0]["rating"], won.shown());
    assert_eq!(points[0]["opponent"]["name"], "bob_rated");

    // One game leaves both provisional: nobody is on the leaderboard yet.
    let (status, board) = app
        .get("/api/leaderboard/cephalopod?class=blitz", None)
        .await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["players"], json!([]));
    assert_eq!(
        app.get("/api/leaderboard/cephalopod?class=bullet", None)
            .await
            .0,
        400
    );
    assert_eq!(app.get("/api/leaderboard/chess", None).await.0, 404);
    assert_eq!(app.get("/api/users/nobody-here", None).await.0, 404);

    // A casual game and an aborted rated game change nothing.
    let (casual, started) = seated(&app, &mut ann, &mut bob, blitz(false)).await;
    assert_eq!(started["rated"], false);
    let end = both_move_then_resign(&mut ann, &mut bob, &casual, &started, false).await;
    assert!(end.get("ratings").is_none(), "{end}");
    let (aborted, _) = seated(&app, &mut ann, &mut bob, blitz(true)).await;
    ann.ok(json!({"type": "abort", "table": aborted})).await;
    assert_eq!(ann.expect("end").await["status"], "aborted");
    let ann_profile = profile(&app, &ann).await;
    assert_eq!(
        ann_profile["ratings"]["cephalopod"]["blitz"]["rating"],
        won.shown()
    );
    assert_eq!(ann_profile["ratings"]["cephalopod"]["blitz"]["games"], 1);
    assert_eq!(
        ann_profile["results"]["wins"], 2,
        "the casual win counts as a win"
    );

    // Guests play casual games only.
    let mut guest = app.guest().await;
    let (status, refused) = app
        .post("/api/tables", Some(&guest.token), blitz(true))
        .await;
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("accounts"),
        "{refused}"
    );
    let open = ann.create_table(&app, blitz(true)).await;
    let open = open["id"].as_str().unwrap();
    guest
        .refused(json!({"type": "sit", "table": open}), "forbidden")
        .await;
    guest
        .refused(
            json!({"type": "queue.join", "game": "cephalopod", "rated": true}),
            "forbidden",
        )
        .await;
    let (status, _) = app
        .post(
            "/api/tables",
            Some(&ann.token),
            json!({"game": "white-rabbit", "rated": true}),
        )
        .await;
    assert_eq!(status, 400, "a solo puzzle is not rated");
}

#[actix_web::test]
async fn bots_are_rated_by_their_games_and_the_picker_shows_it() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann_vs_bot").await;
    let mut create = blitz(true);
    create["bot"] = json!("easy");
    let table = ann.create_table(&app, create).await;
    let id = table["id"].as_str().unwrap().to_string();
    assert_eq!(table["seats"][1]["rating"]["rating"], 1500, "{table}");
    ann.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    ann.ok(json!({"type": "move", "table": id, "move": first_legal(&table), "ply": 0}))
        .await;
    ann.expect("move").await;
    ann.expect("move").await;
    ann.ok(json!({"type": "resign", "table": id})).await;
    let end = ann.expect("end").await;
    assert_eq!(end["result"], "b");
    assert!(end["ratings"]["b"]["change"].as_i64().unwrap() > 0, "{end}");

    let (status, bots) = app.get("/api/bots", None).await;
    assert_eq!(status, 200);
    let easy = bots
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["level"] == "easy")
        .unwrap();
    assert_eq!(easy["user_id"], "bot:easy");
    assert_eq!(easy["ratings"]["cephalopod"]["blitz"]["games"], 1);
    assert_eq!(
        easy["ratings"]["cephalopod"]["blitz"]["rating"],
        end["ratings"]["b"]["after"]
    );
    let (status, bot) = app.get("/api/users/bot:easy", None).await;
    assert_eq!(status, 200, "{bot}");
    assert_eq!(bot["bot"], "easy");
    assert_eq!(bot["results"]["wins"], 1);
}

#[actix_web::test]
async fn an_open_seek_shows_its_rating_and_admits_only_its_range() {
    let app = TestApp::spawn().await;
    let ann = app.account("ann_seeks").await;
    let mut bob = app.account("bob_seeks").await;
    let mut create = blitz(true);
    create["rating_range"] = json!([1600, 1800]);
    let table = ann.create_table(&app, create).await;
    let id = table["id"].as_str().unwrap();
    let (_, lobby) = app.get("/api/tables", None).await;
    let entry = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .expect("listed");
    assert_eq!(entry["rated"], true);
    assert_eq!(entry["host_rating"]["rating"], 1500);
    assert_eq!(entry["rating_range"], json!([1600, 1800]));
    let refused = bob
        .refused(json!({"type": "sit", "table": id}), "forbidden")
        .await;
    assert!(
        refused["message"].as_str().unwrap().contains("1600"),
        "{refused}"
    );
    let mut bad = blitz(true);
    bad["rating_range"] = json!([1800, 4001]);
    assert_eq!(app.post("/api/tables", Some(&ann.token), bad).await.0, 400);
    // The two ends in either order.
    let mut reversed = blitz(true);
    reversed["rating_range"] = json!([1800, 1600]);
    let (status, table) = app.post("/api/tables", Some(&ann.token), reversed).await;
    assert_eq!(status, 201, "{table}");
    assert_eq!(table["rating_range"], json!([1600, 1800]), "{table}");
}

/// Waits for a `match` on either socket, for at most `limit`.
async fn matched(a: &mut Player, limit: Duration) -> Option<Value> {
    tokio::time::timeout(limit, a.expect("match")).await.ok()
}

#[actix_web::test]
async fn quick_match_waits_for_the_window_to_widen_and_keeps_rated_and_casual_apart() {
    // ±100 at once, 50 more every second (instead of every five).
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.match_window = rating::Window {
            initial: 100.0,
            step: 50.0,
            every: Duration::from_secs(1),
        };
    })
    .await;
    let mut ann = app.account("ann_quick").await;
    let mut bob = app.account("bob_quick").await;
    // One rated game sets them ~320 apart (1662 and 1338).
    let (id, started) = seated(&app, &mut ann, &mut bob, blitz(true)).await;
    let end = both_move_then_resign(&mut ann, &mut bob, &id, &started, false).await;
    let gap = end["ratings"]["a"]["after"].as_i64().unwrap()
        - end["ratings"]["b"]["after"].as_i64().unwrap();
    assert!(gap > 250, "{end}");
    ann.forget();
    bob.forget();

    let join = json!({"type": "queue.join", "game": "cephalopod", "variant": "5x5",
                      "clock": {"initial": 300, "increment": 0}, "rated": true});
    ann.ok(join.clone()).await;
    bob.ok(join).await;
    // Not at once: the gap is wider than either window.
    assert!(
        matched(&mut ann, Duration::from_millis(1500))
            .await
            .is_none()
    );
    // The windows reach the gap after (gap − 100) / 50 seconds.
    let found = matched(&mut ann, Duration::from_secs(12))
        .await
        .expect("paired");
    let theirs = bob.expect("match").await;
    assert_eq!(found["table"], theirs["table"]);
    let (_, table) = app
        .get(
            &format!("/api/tables/{}", found["table"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(table["rated"], true);

    // A rated seeker and a casual one are never paired, however long they wait.
    let casual_join = json!({"type": "queue.join", "game": "cephalopod", "variant": "5x5",
                             "clock": {"initial": 300, "increment": 0}});
    let mut carol = app.account("carol_quick").await;
    let mut dan = app.guest().await;
    carol
        .ok(
            json!({"type": "queue.join", "game": "cephalopod", "variant": "5x5",
                   "clock": {"initial": 300, "increment": 0}, "rated": true}),
        )
        .await;
    dan.ok(casual_join.clone()).await;
    assert!(matched(&mut dan, Duration::from_secs(3)).await.is_none());
    // Another casual player is paired with the casual one at once.
    let mut eve = app.guest().await;
    eve.ok(casual_join).await;
    let found = matched(&mut dan, Duration::from_secs(3))
        .await
        .expect("casual pair");
    assert_eq!(eve.expect("match").await["table"], found["table"]);
    assert!(
        matched(&mut carol, Duration::from_millis(500))
            .await
            .is_none()
    );
}

#[actix_web::test]
async fn a_player_who_leaves_can_be_claimed_against_after_the_grace() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.abandon_grace = Duration::from_millis(1500);
    })
    .await;
    let mut ann = app.guest().await;
    let mut bob = app.guest().await;
    let mut watcher = app.guest().await;
    let (id, started) = seated(&app, &mut ann, &mut bob, blitz(false)).await;
    watcher
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    ann.ok(json!({"type": "move", "table": id, "move": first_legal(&started), "ply": 0}))
        .await;
    let event = bob.expect("move").await;
    bob.ok(json!({"type": "move", "table": id, "move": first_legal(&event), "ply": 1}))
        .await;
    ann.expect("move").await;
    ann.forget();
    watcher.forget();

    bob.close().await;
    let left = ann.expect("table").await;
    assert_eq!(left["table"]["away"]["seat"], "b", "{left}");
    assert_eq!(left["table"]["claim"], false);
    ann.refused(
        json!({"type": "claim", "table": id, "outcome": "win"}),
        "wrong_state",
    )
    .await;
    // After the grace the claim opens for the opponent only.
    let open = ann.expect("table").await;
    assert_eq!(open["table"]["claim"], true, "{open}");
    let seen = watcher.expect("table").await;
    assert_eq!(seen["table"]["claim"], false);
    watcher
        .refused(
            json!({"type": "claim", "table": id, "outcome": "win"}),
            "not_seated",
        )
        .await;
    ann.ok(json!({"type": "claim", "table": id, "outcome": "win"}))
        .await;
    let end = ann.expect("end").await;
    assert_eq!(end["result"], "a");
    assert_eq!(end["reason"], "abandoned");
    let (_, record) = app.get(&format!("/api/records/{id}"), None).await;
    assert_eq!(record["reason"], "abandoned", "{record}");

    // A game left before both sides have moved is called off by itself.
    let mut carl = app.guest().await;
    let mut dora = app.guest().await;
    let (early, _) = seated(&app, &mut carl, &mut dora, blitz(false)).await;
    dora.close().await;
    let mut end = carl.expect("end").await;
    while end["table"] != json!(early) {
        end = carl.expect("end").await;
    }
    assert_eq!(end["status"], "aborted");
    assert_eq!(end["reason"], "abandoned");
}

#[actix_web::test]
async fn the_live_list_shows_public_games_and_spectators_talk_in_their_own_room() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann_live").await;
    let mut bob = app.account("bob_live").await;
    let mut carol = app.guest().await;
    let (id, _) = seated(&app, &mut ann, &mut bob, blitz(true)).await;

    let live = carol.ok(json!({"type": "live.subscribe"})).await;
    assert_eq!(live["type"], "live");
    let entry = live["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == json!(id))
        .expect("the game is live")
        .clone();
    assert_eq!(entry["rated"], true);
    assert_eq!(entry["watchers"], 0);
    assert_eq!(entry["players"][0]["name"], "ann_live");
    assert_eq!(entry["players"][0]["rating"]["rating"], 1500);

    carol
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    // The list follows: one watcher now.
    loop {
        let update = carol.expect("live").await;
        let game = update["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == json!(id))
            .cloned();
        if game.is_some_and(|g| g["watchers"] == 1) {
            break;
        }
    }
    let (status, listed) = app.get("/api/live?game=cephalopod", None).await;
    assert_eq!(status, 200);
    assert_eq!(listed["games"][0]["id"], json!(id));
    let (_, other) = app.get("/api/live?game=mill", None).await;
    assert_eq!(other["games"], json!([]));
    assert_eq!(app.get("/api/live?game=chess", None).await.0, 404);

    carol
        .ok(json!({"type": "chat", "table": id, "text": "nice game"}))
        .await;
    ann.ok(json!({"type": "chat", "table": id, "text": "thanks"}))
        .await;
    let from_carol = bob.expect("chat").await;
    assert_eq!(from_carol["line"]["room"], "spectators");
    let from_ann = bob.expect("chat").await;
    assert_eq!(from_ann["line"]["room"], "players");

    // A finished game leaves the list.
    ann.ok(json!({"type": "resign", "table": id})).await;
    loop {
        let update = carol.expect("live").await;
        if !update["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == json!(id))
        {
            break;
        }
    }
}
