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

// Many tables moving at once while the database is gone: the writer's batches fail, and no
// table acknowledges, announces or keeps any of its moves.
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_moves_of_many_tables_the_database_cannot_take_are_all_refused_and_every_table_stays_put()
 {
    const TABLES: usize = 6;
    let app = TestApp::spawn_on(Db::postgres().await).await;
    let mut tables = Vec::new();
    for _ in 0..TABLES {
        tables.push(two_at_a_table(&app, json!({"game": "cephalopod", "variant": "5x5"})).await);
    }

    app.db.outage(true).await;
    // Every first move is sent before any answer is read, so the writer takes them together.
    for (a, _, seen) in &mut tables {
        let body = json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0, "id": "m"});
        a.send_text(body.to_string()).await;
    }
    for (a, _, seen) in &mut tables {
        let reply = loop {
            let message = a.next().await;
            assert_ne!(
                message["type"], "move",
                "{}: a move was announced",
                seen.table
            );
            if message["id"] == "m" {
                break message;
            }
        };
        assert_eq!(reply["code"], "internal", "{}: {reply}", seen.table);
    }
    app.db.outage(false).await;

    // Nothing was announced or kept: each table is still at ply 0, and the same move goes
    // through now, as the first and only one recorded.
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    for (a, b, seen) in &mut tables {
        a.ok(json!({"type": "move", "table": seen.table, "move": seen.legal[0], "ply": 0}))
            .await;
        let heard = b.expect("move").await;
        assert_eq!(
            heard["ply"], 1,
            "the opponent hears the first move once: {heard}"
        );
        assert!(b.backlog_has("move").is_none(), "a second move event");
        let record = store.game(&seen.table).await.unwrap().unwrap();
        let moves: Vec<&str> = record.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, [seen.legal[0].as_str()], "{}", seen.table);
    }
    store.close().await;
}
