//! A server that starts again answers at once, but says it is restoring its unfinished tables
//! — and refuses everything but its probes — until every one of them is back.

use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::Connection;

use crate::helpers::{Db, TestApp};

/// A server on PostgreSQL with one open table, started again while the test holds a lock on
/// `games`: the lock stops the restore's first read and nothing else the start-up does
/// (migrations, settings, accounts), so the test decides when the restore may go on. Returns
/// the restarted server, the table's id and the open connection holding the lock.
async fn restarted_under_a_lock() -> (TestApp, String, sqlx::PgConnection) {
    let app = TestApp::spawn_on(Db::postgres().await).await;
    let host = app.guest().await;
    let table = host.create_table(&app, json!({"game": "mill"})).await;
    let id = table["id"].as_str().unwrap().to_string();
    drop(host);
    let db = app.stop().await;

    let mut holder = sqlx::PgConnection::connect(&db.url()).await.unwrap();
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
        .execute(&mut holder)
        .await
        .unwrap();
    (TestApp::spawn_restoring(db).await, id, holder)
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_server_answers_503_restoring_until_its_tables_are_back() {
    let (app, id, mut holder) = restarted_under_a_lock().await;

    let (status, health) = app.get("/healthz", None).await;
    assert_eq!(status, 503, "{health}");
    assert_eq!(health["status"], "restoring", "{health}");
    assert_eq!(health["failed"], "restoring", "{health}");
    assert!(
        health["error"].as_str().unwrap().contains("tables back"),
        "{health}"
    );
    // The pages come: they read no table, and the client waits for the API.
    for path in ["/", "/games/mill"] {
        let response = app
            .http()
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
    for path in ["/api/tables", "/api/me"] {
        let mut response = app
            .http()
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 503, "{path}");
        assert_eq!(
            response.headers().get("retry-after").unwrap(),
            "1",
            "{path}"
        );
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], "restoring", "{path}: {body}");
    }
    let refused = app.http().ws(&app.ws_url).connect().await;
    assert!(
        matches!(
            refused,
            Err(awc::error::WsClientError::InvalidResponseStatus(s)) if s == 503
        ),
        "the socket waits too: {:?}",
        refused.map(|(response, _)| response.status())
    );
    let status = app
        .http()
        .get(format!("{}/metrics", app.metrics_base))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 200, "the operator still sees the node's figures");

    sqlx::query("COMMIT").execute(&mut holder).await.unwrap();
    holder.close().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, health) = app.get("/healthz", None).await;
        if status == 200 {
            break;
        }
        assert_eq!(health["failed"], "restoring", "{health}");
        assert!(Instant::now() < deadline, "still restoring: {health}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, lobby) = app.get("/api/tables", None).await;
    assert_eq!(status, 200, "{lobby}");
    assert!(lobby["tables"].to_string().contains(&id), "{lobby}");
    app.stop().await;
}

// A node that cannot restore its tables must not serve 503 forever: it stops with an error
// (`stolik serve` then exits non-zero), as a start that failed before the port opened would.
#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_server_that_cannot_restore_its_tables_stops_with_an_error() {
    let (app, _, holder) = restarted_under_a_lock().await;
    let (status, health) = app.get("/healthz", None).await;
    assert_eq!((status, &health["status"]), (503, &json!("restoring")));
    // The database goes away under the restore's waiting read (and the lock with it).
    app.db.outage(true).await;
    let (exit, db) = app.exited(Duration::from_secs(30)).await;
    let error = exit.expect_err("the server stops with an error");
    assert!(
        error.to_string().contains("cannot resume unfinished games"),
        "{error}"
    );
    db.outage(false).await;
    drop(holder);
}
