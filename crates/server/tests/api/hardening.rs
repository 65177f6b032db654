//! Abuse and odd requests: limits answer `429` with `Retry-After` and let go after their
//! window, guests cost nothing until they act, ended sessions are refused over HTTP and on open
//! sockets, cross-site requests change nothing, names cannot impersonate, every response
//! carries the security headers, `/healthz` tells when the database refuses writes, and one
//! socket follows a bounded number of tables.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Player, TestApp};

async fn user_rows(app: &TestApp) -> i64 {
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    let n = store.user_count().await.unwrap();
    store.close().await;
    n
}

/// A cookieless `GET`, answered with its status, `Retry-After` and body.
pub async fn raw_get(app: &TestApp, path: &str) -> (u16, Option<String>, Value) {
    let mut response = app
        .http()
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.json::<Value>().await.unwrap_or(Value::Null);
    (response.status().as_u16(), retry, body)
}

#[actix_web::test]
async fn page_views_and_failed_handshakes_write_no_user_rows() {
    let app = TestApp::spawn().await;
    let before = user_rows(&app).await;
    for _ in 0..1000 {
        let (status, _, body) = raw_get(&app, "/api/me").await;
        assert_eq!(status, 200, "{body}");
        assert!(body["token"].is_string());
    }
    // A GET /ws that is no WebSocket handshake.
    let (status, _, _) = raw_get(&app, "/ws").await;
    assert_eq!(status, 400);
    assert_eq!(user_rows(&app).await, before, "no guest was written");
    // A guest that sits down is written, once.
    let ann = app.guest().await;
    let (status, created) = app
        .post("/api/tables", Some(&ann.token), json!({"game": "mill"}))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(user_rows(&app).await, before + 1);
    app.stop().await;
}

#[actix_web::test]
async fn too_many_new_guests_from_one_address_wait_and_then_may_again() {
    // One new guest every 3.3 s, in a burst of 3: slow enough that the burst cannot refill
    // while the test asks, on however busy a machine.
    let app = TestApp::spawn_limited("guests_per_address=3/10s").await;
    let known = app.guest().await;
    for _ in 0..2 {
        assert_eq!(raw_get(&app, "/api/me").await.0, 200);
    }
    let (status, retry, body) = raw_get(&app, "/api/me").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((1..=4).contains(&retry), "Retry-After {retry}");
    // An identity that already exists is not affected.
    let (status, body) = app.get("/api/me", Some(&known.token)).await;
    assert_eq!(status, 200, "{body}");
    tokio::time::sleep(Duration::from_secs(retry)).await;
    assert_eq!(
        raw_get(&app, "/api/me").await.0,
        200,
        "the window has passed"
    );
    app.stop().await;
}

pub async fn register(app: &TestApp, name: &str, password: &str) -> (u16, Value) {
    let (_, me) = app.get("/api/me", None).await;
    let token = me["token"].as_str().unwrap().to_string();
    app.post(
        "/api/register",
        Some(&token),
        json!({"username": name, "password": password}),
    )
    .await
}

pub async fn login(app: &TestApp, name: &str, password: &str) -> (u16, Value) {
    app.post(
        "/api/login",
        None,
        json!({"username": name, "password": password}),
    )
    .await
}

#[actix_web::test]
async fn password_guessing_is_slowed_per_account_and_per_address() {
    let app = TestApp::spawn_limited("login_per_account=5/min,login_failures_before_delay=3").await;
    assert_eq!(register(&app, "ann", "correct horse").await.0, 200);
    for _ in 0..3 {
        let (status, body) = login(&app, "ann", "wrong horse").await;
        assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    }
    let third_failure = std::time::Instant::now();
    // Three failures: the next attempt, even with the right password, must wait (1 s).
    let (status, body) = login(&app, "ANN", "correct horse").await;
    let waited = third_failure.elapsed();
    assert!(
        body["code"] == "rate_limited" || waited >= Duration::from_secs(1),
        "let in {waited:?} after the third failure: {status} {body}"
    );
    // Another account from the same address is not held up by ann's failures.
    assert_eq!(register(&app, "bob", "battery staple").await.0, 200);
    assert_eq!(login(&app, "bob", "battery staple").await.0, 200);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, body) = login(&app, "ann", "correct horse").await;
    assert_eq!(status, 200, "after the delay: {body}");
    // Five attempts a minute for one account, whatever their outcome.
    let (status, body) = login(&app, "ann", "correct horse").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    // An unknown name answers like a wrong password.
    let (status, body) = login(&app, "nobody-here", "whatever").await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    app.stop().await;
}

#[actix_web::test]
async fn a_password_change_ends_every_other_session_over_http_and_on_open_sockets() {
    let app = TestApp::spawn().await;
    let (_, me) = app.get("/api/me", None).await;
    let guest_token = me["token"].as_str().unwrap().to_string();
    let (status, account) = app
        .post(
            "/api/register",
            Some(&guest_token),
            json!({"username": "carol", "password": "first password"}),
        )
        .await;
    assert_eq!(status, 200, "{account}");
    // The guest token from before registering no longer works, not even to register again.
    let (status, body) = app.get("/api/me", Some(&guest_token)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("unauthorized")),
        "{body}"
    );
    let (status, _) = app
        .post(
            "/api/register",
            Some(&guest_token),
            json!({"username": "carol2", "password": "first password"}),
        )
        .await;
    assert_eq!(status, 401);

    let old_token = account["token"].as_str().unwrap().to_string();
    let mut old_socket = Player::connect(&app, old_token.clone(), account["user"].clone()).await;
    let (status, changed) = app
        .post(
            "/api/password",
            Some(&old_token),
            json!({"old": "first password", "new": "second password"}),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    let closed = old_socket.next().await;
    assert_eq!(
        closed["type"], "closed",
        "the old session's socket closes: {closed}"
    );
    let (status, _) = app.get("/api/me/games", Some(&old_token)).await;
    assert_eq!(status, 401, "the old token is refused");
    let new_token = changed["token"].as_str().unwrap().to_string();
    let (status, _) = app.get("/api/me/games", Some(&new_token)).await;
    assert_eq!(status, 200, "the caller's new token works");

    // Log out everywhere ends the new one too, and hands back a third.
    let (status, everywhere) = app
        .post("/api/logout/everywhere", Some(&new_token), json!({}))
        .await;
    assert_eq!(status, 200, "{everywhere}");
    assert_eq!(app.get("/api/me", Some(&new_token)).await.0, 401);
    let third = everywhere["token"].as_str().unwrap();
    assert_eq!(app.get("/api/me", Some(third)).await.0, 200);
    app.stop().await;
}

#[actix_web::test]
async fn lookalike_and_reserved_names_cannot_register() {
    let app = TestApp::spawn().await;
    assert_eq!(register(&app, "admin1", "a good password").await.0, 200);
    for (name, code) in [
        ("ＡＤＭＩＮ1", "name_taken"),
        ("ADMIN1", "name_taken"),
        ("аdmin1", "bad_request"), // Cyrillic а among Latin letters
        ("admin", "name_taken"),
        ("Stolik", "name_taken"),
    ] {
        let (status, body) = register(&app, name, "a good password").await;
        assert_eq!(body["code"], code, "{name}: {status} {body}");
    }
    // All-Cyrillic "асе" looks exactly like Latin "ace".
    assert_eq!(register(&app, "ace", "a good password").await.0, 200);
    let (_, body) = register(&app, "асе", "a good password").await;
    assert_eq!(body["code"], "name_taken", "{body}");
    // Logging in with the full-width form of the name finds the account.
    assert_eq!(login(&app, "ａｄｍｉｎ1", "a good password").await.0, 200);
    app.stop().await;
}

/// The client's main script (the largest the bundle's page names), under its hashed name.
fn bundled_script() -> String {
    use server::web_client::bundle;
    let page = std::str::from_utf8(bundle::index().body).unwrap();
    page.split('"')
        .filter(|part| part.starts_with("/assets/") && part.ends_with(".js"))
        .max_by_key(|url| bundle::file(url).map_or(0, |f| f.body.len()))
        .expect("index.html names its scripts")
        .to_string()
}

#[actix_web::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::spawn().await;
    let script = bundled_script();
    for path in [
        "/",
        script.as_str(),
        "/api/games",
        "/api/nothing",
        "/healthz",
        "/table/x",
    ] {
        let response = app
            .http()
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        let headers = response.headers();
        let csp = headers
            .get("content-security-policy")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(
            headers.get("x-content-type-options").unwrap(),
            "nosniff",
            "{path}"
        );
        assert!(headers.get("referrer-policy").is_some(), "{path}");
        let permissions = headers.get("permissions-policy").unwrap().to_str().unwrap();
        assert!(permissions.contains("microphone=(self)"), "{path}");
        assert!(permissions.contains("camera=()"), "{path}");
        // Served over plain HTTP: no HSTS, which would pin a host that has no TLS.
        assert!(headers.get("strict-transport-security").is_none(), "{path}");
    }
    app.stop().await;
}

#[actix_web::test]
async fn a_site_served_over_tls_asks_browsers_to_use_nothing_else() {
    let app = TestApp::spawn_tuned(crate::helpers::Db::sqlite(), |config| {
        config.security.public_url = Some("https://stolik.example".to_string());
    })
    .await;
    for path in ["/", "/api/games", "/api/nothing", "/healthz"] {
        let response = app
            .http()
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        let hsts = response.headers().get("strict-transport-security");
        assert_eq!(
            hsts.map(|v| v.to_str().unwrap()),
            Some(server::security::STRICT_TRANSPORT_SECURITY),
            "{path}"
        );
        assert!(hsts.unwrap().to_str().unwrap().starts_with("max-age="));
    }
    app.stop().await;
}

#[actix_web::test]
async fn small_answers_go_out_uncompressed_and_large_ones_gzipped() {
    let app = TestApp::spawn().await;
    let script = bundled_script();
    // An error (a refusal's kind of answer), a small JSON answer and a large script.
    for (path, gzipped) in [
        ("/api/nothing", false),
        ("/healthz", false),
        (script.as_str(), true),
    ] {
        let mut response = app
            .http()
            .get(format!("{}{path}", app.base))
            .insert_header(("accept-encoding", "gzip"))
            .no_decompress()
            .send()
            .await
            .unwrap();
        let encoding = response
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_string());
        let body = response.body().limit(1 << 22).await.unwrap();
        if gzipped {
            assert_eq!(encoding.as_deref(), Some("gzip"), "{path}");
        } else {
            // Not even the `identity` mark that keeps the compressor off.
            assert_eq!(encoding, None, "{path}");
            assert!(
                (body.len() as u64) < server::compression::WORTH_COMPRESSING,
                "{path}: {} bytes",
                body.len()
            );
            assert!(body.starts_with(b"{"), "{path}: plain JSON");
        }
    }
    app.stop().await;
}

#[actix_web::test]
async fn a_cross_site_request_with_the_cookie_changes_nothing() {
    let app = TestApp::spawn().await;
    let mut me = app
        .http()
        .get(format!("{}/api/me", app.base))
        .send()
        .await
        .unwrap();
    let cookie = me.cookie("stolik").expect("a guest cookie").into_owned();
    let _: Value = me.json().await.unwrap();
    let host = app.base.trim_start_matches("http://").to_string();
    for (origin, expected) in [("https://evil.example", 403), (app.base.as_str(), 201)] {
        let response = app
            .http()
            .post(format!("{}/api/daily", app.base))
            .cookie(cookie.clone())
            .insert_header(("origin", origin))
            .insert_header(("host", host.as_str()))
            .insert_header(("content-type", "text/plain"))
            .send_body("")
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), expected, "from {origin}");
    }
    // A logout form posted from another site is refused too.
    let response = app
        .http()
        .post(format!("{}/api/logout", app.base))
        .cookie(cookie.clone())
        .insert_header(("sec-fetch-site", "cross-site"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
    // And a WebSocket opened by another site's page gets no session.
    let refused = app
        .http()
        .ws(&app.ws_url)
        .cookie(cookie)
        .origin("https://evil.example")
        .connect()
        .await;
    assert!(refused.is_err(), "a foreign origin must not open a socket");
    app.stop().await;
}

#[actix_web::test]
async fn odd_requests_get_json_errors() {
    let app = TestApp::spawn().await;
    let ann = app.guest().await;
    let (status, body) = app
        .get("/api/daily?day=2025-06-01&day=2025-06-02", None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_request")),
        "{body}"
    );
    // A token for an account that is not in the database (another deployment's secret
    // would be refused by its signature; this one is signed right but names nobody).
    let (status, body) = app.get("/api/me", Some(&ann.token)).await;
    assert_eq!(status, 200, "a guest with no row yet is fine: {body}");
    app.stop().await;
}

#[actix_web::test]
async fn health_turns_unavailable_while_the_database_refuses_writes() {
    let app = TestApp::spawn().await;
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    // Another connection takes SQLite's write lock and holds it.
    let url = app.db.url();
    let path = url.trim_start_matches("sqlite://").to_string();
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            use sqlx::Connection;
            let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
                .await
                .unwrap();
            sqlx::query("BEGIN EXCLUSIVE")
                .execute(&mut conn)
                .await
                .unwrap();
            locked_tx.send(()).unwrap();
            release_rx.recv().unwrap();
            sqlx::query("ROLLBACK").execute(&mut conn).await.unwrap();
        });
    });
    locked_rx.recv().unwrap();
    // The last good probe is trusted for two seconds; after that the probe write waits for
    // the lock and times out.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (status, body) = app.get("/healthz", None).await;
    assert_eq!(
        (status, body["failed"].as_str()),
        (503, Some("database")),
        "{body}"
    );
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (status, body) = app.get("/healthz", None).await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[actix_web::test]
async fn one_socket_follows_at_most_thirty_two_tables_at_once() {
    // Every table someone follows stays in memory: one socket must not hold thousands.
    let app = TestApp::spawn_limited("off").await;
    let host = app.guest().await;
    let mut ids = Vec::new();
    for _ in 0..33 {
        let table = host.create_table(&app, json!({"game": "mill"})).await;
        ids.push(table["id"].clone());
    }
    let mut watcher = app.guest().await;
    for id in &ids[..32] {
        watcher
            .ok(json!({"type": "table.subscribe", "table": id}))
            .await;
    }
    let refused = watcher
        .refused(
            json!({"type": "table.subscribe", "table": ids[32]}),
            "wrong_state",
        )
        .await;
    assert!(
        refused["message"].as_str().unwrap().contains("at most 32"),
        "{refused}"
    );
    // Following one of them again is no new table; leaving one makes room.
    watcher
        .ok(json!({"type": "table.subscribe", "table": ids[0]}))
        .await;
    watcher
        .ok(json!({"type": "table.unsubscribe", "table": ids[0]}))
        .await;
    let snapshot = watcher
        .ok(json!({"type": "table.subscribe", "table": ids[32]}))
        .await;
    assert_eq!(snapshot["table"]["id"], ids[32]);
    app.stop().await;
}
