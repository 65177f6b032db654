//! What a player sees when the database fails under a move: a refusal, never a move that was
//! announced and then lost.

use serde_json::json;

use crate::games::two_at_a_table;
use crate::helpers::{Db, TestApp};

// PostgreSQL, because it can be taken away mid-game.
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_move_the_database_cannot_take_is_refused_and_the_table_stays_put() {
    let app = TestApp::spawn_on(Db::postgres().await).await;
    let (mut a, mut b, seen) =
        two_at_a_table(&app, json!({"game": "cephalopod", "variant": "5x5"})).await;
    let first = seen.legal[0].clone();
    a.ok(json!({"type": "move", "table": seen.table, "move": first, "ply": 0}))
        .await;
    a.expect("move").await;
    let event = b.expect("move").await;
    let legal: Vec<String> = serde_json::from_value(event["legal"].clone()).unwrap();
    let second = legal[0].clone();

    app.db.outage(true).await;
    b.refused(
        json!({"type": "move", "table": seen.table, "move": second, "ply": 1}),
        "internal",
    )
    .await;
    app.db.outage(false).await;

    // The refused move was not played: the same ply is still open, and nobody heard of it.
    b.ok(json!({"type": "move", "table": seen.table, "move": second, "ply": 1}))
        .await;
    let heard = a.expect("move").await;
    assert_eq!(heard["ply"], 2);
    assert_eq!(heard["move"], second);
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    let record = store.game(&seen.table).await.unwrap().unwrap();
    let moves: Vec<&str> = record.moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(moves, [first.as_str(), second.as_str()]);
    store.close().await;
}
