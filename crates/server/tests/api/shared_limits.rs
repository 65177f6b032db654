//! Limits counted in Redis (`--redis`): the same for a client whichever node it reaches, and
//! counted by each node alone while Redis is away, with `/healthz` saying so. The machine's
//! Redis serves the first test (under a prefix of its own); the outage test starts and stops a
//! `redis-server` of its own on a free port.

use std::time::Duration;

use cluster::testing::OwnRedis;

use serde_json::Value;

use crate::hardening::{login, raw_get, register};
use crate::helpers::TestApp;

/// The machine's Redis, or `STOLIK_TEST_REDIS`.
pub fn machine_redis() -> String {
    std::env::var("STOLIK_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// A prefix no other test (or run) shares.
pub fn fresh_prefix() -> String {
    format!("stolik-test-{}:", store::new_id())
}

#[actix_web::test]
async fn two_nodes_count_one_clients_requests_together() {
    let redis = machine_redis();
    let prefix = fresh_prefix();
    let limits = "guests_per_address=3/min,login_failures_before_delay=2";
    let a = TestApp::spawn_node(&redis, &prefix, "node-a", limits).await;
    let b = TestApp::spawn_node(&redis, &prefix, "node-b", limits).await;
    // New guests from one address: two on one node and one on the other use up three.
    assert_eq!(raw_get(&a, "/api/me").await.0, 200);
    assert_eq!(raw_get(&b, "/api/me").await.0, 200);
    assert_eq!(raw_get(&a, "/api/me").await.0, 200);
    let (status, retry, body) = raw_get(&b, "/api/me").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "the fourth guest, on the other node: {body}"
    );
    assert!(retry.is_some(), "Retry-After");
    let (status, _, _) = raw_get(&a, "/api/me").await;
    assert_eq!(status, 429, "and on the first node too");

    // A run of failed logins on one node locks the account out on the other as well. (Each
    // node here has a database of its own, so the account is registered on both.)
    let prefix = fresh_prefix();
    let limits = "login_failures_before_delay=2";
    let a = TestApp::spawn_node(&redis, &prefix, "node-a", limits).await;
    let b = TestApp::spawn_node(&redis, &prefix, "node-b", limits).await;
    for node in [&a, &b] {
        assert_eq!(register(node, "ann", "correct horse").await.0, 200);
    }
    assert_eq!(login(&a, "ann", "wrong horse").await.0, 401);
    assert_eq!(login(&b, "ann", "wrong horse").await.0, 401);
    let (status, body) = login(&a, "ann", "correct horse").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "two failures over two nodes make the next attempt wait: {body}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(login(&b, "ann", "correct horse").await.0, 200);
    a.stop().await;
    b.stop().await;
}

#[actix_web::test]
async fn while_redis_is_away_health_says_so_and_limits_hold_per_node() {
    let mut redis = OwnRedis::start().await;
    let limits = "guests_per_address=2/min";
    let app = TestApp::spawn_node(&redis.url(), &fresh_prefix(), "node-a", limits).await;
    assert_eq!(health(&app).await, (200, Value::Null));
    assert_eq!(raw_get(&app, "/api/me").await.0, 200);

    redis.stop();
    let (status, failed) = wait_for_health(&app, 503).await;
    assert_eq!((status, failed.as_str()), (503, Some("redis")));
    // The limit is still kept, by this node alone: one more guest, then 429.
    assert_eq!(raw_get(&app, "/api/me").await.0, 200);
    let (status, _, body) = raw_get(&app, "/api/me").await;
    assert_eq!(status, 429, "{body}");

    redis.restart().await;
    let (status, _) = wait_for_health(&app, 200).await;
    assert_eq!(status, 200, "healthy again once redis is back");
    app.stop().await;
}

async fn health(app: &TestApp) -> (u16, Value) {
    let (status, body) = app.get("/healthz", None).await;
    (status, body["failed"].clone())
}

/// Polls `/healthz` (which probes at most every 2 s) until it answers `status`.
pub async fn wait_for_health(app: &TestApp, status: u16) -> (u16, Value) {
    let mut last = (0, Value::Null);
    for _ in 0..60 {
        last = health(app).await;
        if last.0 == status {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    last
}

/// Opens a WebSocket to `app` with `token`: the handshake's status (101 when it opened).
async fn socket_status(app: &TestApp, token: &str) -> (u16, Option<awc::BoxedSocket>) {
    let connected = app
        .http()
        .ws(&app.ws_url)
        .bearer_auth(token)
        .connect()
        .await;
    match connected {
        Ok((response, socket)) => (response.status().as_u16(), Some(socket.into_parts().io)),
        Err(awc::error::WsClientError::InvalidResponseStatus(status)) => (status.as_u16(), None),
        Err(e) => panic!("the handshake failed otherwise: {e}"),
    }
}

#[actix_web::test]
async fn two_nodes_count_one_addresses_sockets_together() {
    let (redis, prefix) = (machine_redis(), fresh_prefix());
    let limits = "sockets_per_address=2";
    let a = TestApp::spawn_node(&redis, &prefix, "node-a", limits).await;
    let b = TestApp::spawn_node(&redis, &prefix, "node-b", limits).await;
    // (Each node has a database of its own here: each guest's token is good on its node.)
    let first = a.guest().await;
    let second = b.guest().await;
    for (node, token) in [(&a, &first.token), (&b, &second.token)] {
        assert_eq!(
            socket_status(node, token).await.0,
            429,
            "a third socket from one address, on either node"
        );
    }
    // One closes: a socket may open again (on the other node).
    first.close().await;
    let mut status = 0;
    for _ in 0..40 {
        status = socket_status(&b, &second.token).await.0;
        if status == 101 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 101);
    drop(second);
    a.stop().await;
    b.stop().await;
}
