//! `/metrics`: the Prometheus page, served to this machine only.

use serde_json::json;

use crate::games::two_at_a_table;
use crate::helpers::TestApp;

/// The value of an unlabelled sample on the page.
fn sample(page: &str, name: &str) -> Option<f64> {
    page.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

async fn metrics_page(app: &TestApp) -> String {
    let mut response = app
        .http()
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body = response.body().await.unwrap();
    String::from_utf8(body.to_vec()).unwrap()
}

#[actix_web::test]
async fn metrics_count_moves_commits_and_sockets() {
    let app = TestApp::spawn().await;
    // The recorder is shared by every server of this test process: compare before and after.
    let before = metrics_page(&app).await;
    let moves_before = sample(&before, "stolik_moves_total").unwrap_or(0.0);
    let (mut a, _b, seen) =
        two_at_a_table(&app, json!({"game": "cephalopod", "variant": "5x5"})).await;
    let mv = seen.legal[0].clone();
    a.ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": 0}))
        .await;
    a.expect("move").await;
    let after = metrics_page(&app).await;
    assert!(sample(&after, "stolik_moves_total").unwrap() >= moves_before + 1.0);
    assert!(sample(&after, "stolik_sockets_open").unwrap() >= 2.0);
    assert!(sample(&after, "stolik_tables_live").unwrap() >= 1.0);
    assert!(sample(&after, "stolik_commit_batch_moves_count").unwrap() >= 1.0);
    assert!(
        after.contains("stolik_commit_seconds_bucket{le=\"0.001\"}"),
        "{after}"
    );
    assert!(after.contains("# HELP stolik_writer_queue"), "{after}");
}

#[actix_web::test]
async fn metrics_are_refused_to_what_a_proxy_forwards() {
    let app = TestApp::spawn().await;
    let response = app
        .http()
        .get(format!("{}/metrics", app.base))
        .insert_header(("X-Forwarded-For", "203.0.113.9"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}
