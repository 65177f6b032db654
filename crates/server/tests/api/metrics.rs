//! `/metrics`: the Prometheus page, on a listener of its own and never on the public port.

use serde_json::json;

use crate::games::two_at_a_table;
use crate::helpers::TestApp;

/// The value of an unlabelled sample on the page.
pub(crate) fn sample(page: &str, name: &str) -> Option<f64> {
    page.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

pub(crate) async fn metrics_page(app: &TestApp) -> String {
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

/// The CPU pool shows its size, and its jobs waiting and running per priority: a hint from
/// hint mode (a server without the exact tables) is a job of the hints' priority.
#[actix_web::test]
async fn metrics_show_the_cpu_pool_per_priority() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = crate::rabbit::live_table(&app, &mut solo, "classic").await;
    let id = table["id"].as_str().unwrap();
    let (status, body) = app
        .get(&format!("/api/tables/{id}/hints"), Some(&solo.token))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["exact"], false, "hint mode ran on the pool");
    let page = metrics_page(&app).await;
    assert!(sample(&page, "stolik_cpu_pool_threads").unwrap() >= 1.0);
    for line in [
        // Other servers of this test process share the recorder: no figure is exact.
        "stolik_cpu_pool_queued{priority=\"hint\"}",
        "stolik_cpu_pool_busy{priority=\"hint\"}",
        "# HELP stolik_cpu_pool_queued",
    ] {
        assert!(page.contains(line), "{line} in {page}");
    }
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
