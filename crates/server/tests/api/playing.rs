//! "My games": the games a player is in that have not ended, and the live count of those
//! waiting for their move.

use serde_json::{Value, json};

use crate::games::two_at_a_table;
use crate::helpers::{Player, TestApp};

/// Reads `turns` messages until one says `count`; a counter that never gets there fails
/// the test after ten seconds.
async fn turns_reach(player: &mut Player, count: u64) {
    let reached = async {
        loop {
            let message = player.expect("turns").await;
            if message["count"] == json!(count) {
                return;
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), reached)
        .await
        .unwrap_or_else(|_| panic!("the count never reached {count}"));
}

async fn playing(app: &TestApp, player: &Player) -> Vec<Value> {
    let (status, body) = app.get("/api/me/playing", Some(&player.token)).await;
    assert_eq!(status, 200, "{body}");
    body["games"].as_array().unwrap().clone()
}

fn first_legal(event: &Value) -> String {
    event["legal"][0].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn my_games_lists_the_games_in_progress_those_waiting_for_me_first() {
    let app = TestApp::spawn().await;
    let cephalopod = json!({"game": "cephalopod", "variant": "5x5", "private": true});

    // Not my turn: I moved first, the opponent has not answered.
    let (mut me, mut other, seen) = two_at_a_table(&app, cephalopod.clone()).await;
    let waiting_for_them = seen.table.clone();
    me.ok(json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0}))
        .await;
    other.expect("move").await;

    // My turn: a second table, where I (the host, seat a) move first.
    let mut friend = app.guest().await;
    let table = me.create_table(&app, cephalopod.clone()).await;
    let my_turn = table["id"].as_str().unwrap().to_string();
    friend
        .ok(json!({"type": "sit", "table": my_turn, "token": table["invite"]}))
        .await;

    // Finished: resigned at once, so absent.
    let mut third = app.guest().await;
    let table = me.create_table(&app, cephalopod.clone()).await;
    let finished = table["id"].as_str().unwrap().to_string();
    third
        .ok(json!({"type": "sit", "table": finished, "token": table["invite"]}))
        .await;
    me.ok(json!({"type": "resign", "table": finished})).await;

    // Open, waiting for an opponent.
    let table = me.create_table(&app, cephalopod).await;
    let open = table["id"].as_str().unwrap().to_string();

    let games = playing(&app, &me).await;
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3, "{games:?}");
    assert_eq!(ids[0], my_turn, "my turn comes first: {games:?}");
    assert!(ids.contains(&waiting_for_them.as_str()) && ids.contains(&open.as_str()));
    assert!(!ids.contains(&finished.as_str()));
    let entry = |id: &str| games.iter().find(|g| g["id"] == id).unwrap().clone();
    assert_eq!(entry(&my_turn)["your_turn"], true);
    assert_eq!(entry(&my_turn)["opponent"]["user"]["id"], friend.id());
    assert_eq!(entry(&waiting_for_them)["your_turn"], false);
    assert_eq!(entry(&waiting_for_them)["to_move"], "b");
    assert_eq!(entry(&open)["status"], "open");
    assert_eq!(entry(&open)["opponent"]["user"], Value::Null);

    // Nobody else sees my games: the friend's list holds only our game, on their side.
    let theirs = playing(&app, &friend).await;
    assert_eq!(theirs.len(), 1, "{theirs:?}");
    assert_eq!(theirs[0]["id"], my_turn.as_str());
    assert_eq!(theirs[0]["your_turn"], false);
}

#[actix_web::test]
async fn the_your_turn_count_follows_the_moves_on_every_socket() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) =
        two_at_a_table(&app, json!({"game": "cephalopod", "variant": "5x5"})).await;
    // Fresh tabs of both players: the count comes with `hello`, then with each change.
    let mut a_tab = Player::connect(&app, a.token.clone(), a.user.clone()).await;
    let mut b_tab = Player::connect(&app, b.token.clone(), b.user.clone()).await;
    assert_eq!(a_tab.hello["turns"], 1);
    assert_eq!(b_tab.hello["turns"], 0);

    a.ok(json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0}))
        .await;
    turns_reach(&mut a_tab, 0).await;
    turns_reach(&mut b_tab, 1).await;

    let event = b.expect("move").await;
    b.ok(json!({"type": "move", "table": seen.table, "move": first_legal(&event), "ply": 1}))
        .await;
    turns_reach(&mut b_tab, 0).await;
    turns_reach(&mut a_tab, 1).await;

    // The game ends: nobody is waited for.
    a.ok(json!({"type": "resign", "table": seen.table})).await;
    turns_reach(&mut a_tab, 0).await;
}
