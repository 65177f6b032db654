//! House bots in an arena end to end: a lone player of an arena that allows them is paired
//! with the site's bot nearest their rating once they have waited the organiser's time, plays
//! it over a real socket, and the game's result is in the standings; an arena without them
//! leaves the lone player waiting.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};
use crate::tournaments::join;

/// A minute of the tournaments' calendar in these tests: a 5-minute arena lasts 30 s.
const MINUTE: Duration = Duration::from_secs(6);

/// A Cephalopod 3×3 arena starting now, with house bots after `bots_after` seconds (none
/// when `None`).
async fn create_arena(app: &TestApp, creator: &Player, bots_after: Option<u64>) -> String {
    let mut body = json!({"game": "cephalopod", "variant": "3x3", "initial": 60,
                          "increment": 0, "minutes": 5, "starts_in": 0});
    if let Some(after) = bots_after {
        body["house_bots_after"] = json!(after);
    }
    let (status, made) = app
        .post("/api/tournaments", Some(&creator.token), body)
        .await;
    assert_eq!(status, 201, "{made}");
    made["id"].as_str().unwrap().to_string()
}

/// Plays `player`'s side at `table` to the end, always the first legal move; the `end`.
async fn play_to_the_end(player: &mut Player, table: &str) -> Value {
    // Events read before are older than the snapshot.
    player.forget();
    let snapshot = player
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    let seat = snapshot["table"]["you"].as_str().unwrap().to_string();
    let mut to_move = snapshot["table"]["to_move"].as_str().map(str::to_string);
    let mut ply = snapshot["table"]["ply"].as_u64().unwrap();
    let mut legal = snapshot["table"]["legal"].clone();
    loop {
        if to_move.as_deref() == Some(seat.as_str()) {
            let mv = legal[0].as_str().unwrap().to_string();
            player
                .ok(json!({"type": "move", "table": table, "move": mv, "ply": ply}))
                .await;
        }
        let message = loop {
            let message = player.next().await;
            let fresh = message["type"] == "end"
                || (message["type"] == "move" && message["ply"].as_u64() > Some(ply));
            if message["table"] == table && fresh {
                break message;
            }
        };
        if message["type"] == "end" {
            return message;
        }
        ply = message["ply"].as_u64().unwrap();
        to_move = message["to_move"].as_str().map(str::to_string);
        legal = message["legal"].clone();
    }
}

#[actix_web::test]
async fn a_lone_player_plays_a_house_bot_after_the_wait_and_the_game_counts() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut ann = app.account("housebot_ann").await;
    let id = create_arena(&app, &ann, Some(5)).await;
    let joined = Instant::now();
    join(&app, &id, &ann).await;
    let paired = ann.expect("tournament.game").await;
    let waited = joined.elapsed();
    assert!(
        waited >= Duration::from_secs(5),
        "paired after {waited:?}, before the wait"
    );
    let table = paired["table"].as_str().unwrap().to_string();
    let snapshot = ann
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    let seats = snapshot["table"]["seats"].as_array().unwrap().clone();
    // Every bot starts at the same rating as a newcomer: the first level is the nearest.
    assert!(
        seats.iter().any(|seat| seat["bot"] == "easy"),
        "a house bot sits at the table: {snapshot}"
    );
    let (_, page) = app.get(&format!("/api/tournaments/{id}"), None).await;
    let playing = page["games"].as_array().unwrap();
    assert!(
        playing.iter().any(|game| game["table"] == table
            && game["players"]
                .as_array()
                .unwrap()
                .contains(&json!("bot:easy"))),
        "{page}"
    );
    ann.ok(json!({"type": "table.unsubscribe", "table": table}))
        .await;
    let end = play_to_the_end(&mut ann, &table).await;
    assert_eq!(end["status"], "finished", "{end}");
    let you = snapshot["table"]["you"].as_str().unwrap();
    let won = end["result"] == you;
    let mut line = Value::Null;
    for _ in 0..50 {
        let (_, page) = app.get(&format!("/api/tournaments/{id}"), None).await;
        let lines = page["standings"]["items"].as_array().unwrap().clone();
        // The bot is not in the standings: the one line is the player's.
        assert_eq!(lines.len(), 1, "{page}");
        line = lines[0].clone();
        if !line["scores"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let scores = line["scores"].as_array().unwrap();
    assert!(
        !scores.is_empty(),
        "the game against the bot counts: {line}"
    );
    let expected = if won { ("win", 2) } else { ("loss", 0) };
    assert_eq!(scores[0]["result"], expected.0, "{line} after {end}");
    assert_eq!(scores[0]["points"], expected.1, "{line}");
}

#[actix_web::test]
async fn without_house_bots_a_lone_player_waits() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut bea = app.account("housebot_bea").await;
    let id = create_arena(&app, &bea, None).await;
    join(&app, &id, &bea).await;
    let paired = tokio::time::timeout(Duration::from_secs(8), bea.expect("tournament.game")).await;
    assert!(paired.is_err(), "paired with nobody to play: {paired:?}");
    let (status, error) = app
        .post(
            "/api/tournaments",
            Some(&bea.token),
            json!({"game": "mill", "initial": 180, "increment": 2, "minutes": 60,
                   "starts_in": 10, "house_bots_after": 4}),
        )
        .await;
    assert_eq!(status, 400, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("house bot"),
        "{error}"
    );
}
