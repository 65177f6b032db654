//! Takebacks in casual games: asked, declined, accepted, granted by a bot at once, refused in
//! rated games, and kept across a restart.

use serde_json::json;

use crate::helpers::TestApp;
use crate::ratings::{blitz, first_legal, seated};

#[actix_web::test]
async fn a_takeback_is_asked_and_the_opponent_decides() {
    let app = TestApp::spawn().await;
    let mut ann = app.guest().await;
    let mut bob = app.guest().await;
    let (id, started) = seated(&app, &mut ann, &mut bob, blitz(false)).await;
    ann.refused(
        json!({"type": "takeback.offer", "table": id}),
        "wrong_state",
    )
    .await;
    ann.ok(json!({"type": "move", "table": id, "move": first_legal(&started), "ply": 0}))
        .await;
    let first = bob.expect("move").await;
    bob.ok(json!({"type": "move", "table": id, "move": first_legal(&first), "ply": 1}))
        .await;
    ann.expect("move").await;

    // Declined: nothing changes.
    ann.ok(json!({"type": "takeback.offer", "table": id})).await;
    let offer = bob.expect("offer").await;
    assert_eq!(
        (offer["kind"].as_str(), offer["by"].as_str()),
        (Some("takeback"), Some("a"))
    );
    ann.refused(
        json!({"type": "takeback.accept", "table": id}),
        "wrong_state",
    )
    .await;
    assert_eq!(ann.expect("offer").await["by"], "a", "everyone hears of it");
    bob.ok(json!({"type": "takeback.decline", "table": id}))
        .await;
    assert_eq!(ann.expect("offer").await["by"], json!(null));
    let (_, table) = app.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(table["ply"], 2);

    // Accepted: Ann's move and Bob's answer go; it is Ann's turn at ply 0 again.
    ann.ok(json!({"type": "takeback.offer", "table": id})).await;
    bob.expect("offer").await;
    bob.ok(json!({"type": "takeback.accept", "table": id}))
        .await;
    let back = ann.expect("takeback").await;
    assert_eq!(back["ply"], 0);
    let snapshot = ann.expect("table").await;
    assert_eq!(snapshot["table"]["ply"], 0);
    assert_eq!(snapshot["table"]["to_move"], "a");
    assert_eq!(snapshot["table"]["takeback_offer"], json!(null));
    let (_, record) = app.get(&format!("/api/records/{id}"), None).await;
    assert_eq!(record["moves"], json!([]), "{record}");

    // The game goes on from there, and a restart finds it there.
    ann.ok(json!({"type": "move", "table": id, "move": first_legal(&snapshot["table"]), "ply": 0}))
        .await;
    bob.expect("move").await;
    drop((ann, bob));
    let db = app.stop().await;
    let app = TestApp::spawn_on(db).await;
    let (_, table) = app.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(table["ply"], 1, "{table}");
    assert_eq!(table["status"], "playing");
}

#[actix_web::test]
async fn a_bot_grants_a_takeback_at_once_and_rated_games_have_none() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann_takes_back").await;
    let mut create = blitz(false);
    create["bot"] = json!("easy");
    let table = ann.create_table(&app, create).await;
    let id = table["id"].as_str().unwrap().to_string();
    ann.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    ann.ok(json!({"type": "move", "table": id, "move": first_legal(&table), "ply": 0}))
        .await;
    ann.expect("move").await;
    let answer = ann.expect("move").await;
    assert_eq!(answer["by"], "b");
    ann.ok(json!({"type": "takeback.offer", "table": id})).await;
    assert_eq!(ann.expect("takeback").await["ply"], 0);
    let (_, now) = app.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(now["ply"], 0);
    assert_eq!(now["to_move"], "a");

    let mut bob = app.account("bob_takes_back").await;
    let (rated, started) = seated(&app, &mut ann, &mut bob, blitz(true)).await;
    ann.ok(json!({"type": "move", "table": rated, "move": first_legal(&started), "ply": 0}))
        .await;
    let refused = ann
        .refused(
            json!({"type": "takeback.offer", "table": rated}),
            "wrong_state",
        )
        .await;
    assert!(refused["message"].as_str().unwrap().contains("rated"));
}
