//! `/metrics`: the Prometheus page, on a listener of its own and never on the public port.

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
        .get(format!("{}/metrics", app.metrics_base))
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
async fn the_public_port_does_not_serve_metrics_whatever_the_headers() {
    let app = TestApp::spawn().await;
    for header in [
        None,
        Some(("X-Forwarded-For", "203.0.113.9")),
        Some(("X-Client-IP", "127.0.0.1")),
        Some(("True-Client-IP", "127.0.0.1")),
        Some(("CF-Connecting-IP", "127.0.0.1")),
        Some(("X-Forwarded-Host", "localhost")),
    ] {
        let mut request = app.http().get(format!("{}/metrics", app.base));
        if let Some(header) = header {
            request = request.insert_header(header);
        }
        let mut response = request.send().await.unwrap();
        assert_eq!(response.status(), 404, "{header:?}");
        let body = response.body().await.unwrap();
        let body = String::from_utf8_lossy(&body);
        assert!(!body.contains("stolik_"), "{header:?}: {body}");
    }
    // The metrics listener answers that path only.
    let (status, _) = {
        let response = app
            .http()
            .get(format!("{}/api/games", app.metrics_base))
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), ())
    };
    assert_eq!(status, 404);
}
