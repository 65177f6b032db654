//! Personal API tokens: made, listed, used within their scopes on the HTTP API and the
//! socket, revoked (its socket closes at once), and ended by "log out everywhere".

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

async fn delete(app: &TestApp, path: &str, token: &str) -> u16 {
    let response = app
        .http()
        .delete(format!("{}{path}", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    response.status().as_u16()
}

/// Makes a token named `name` with `scopes` for `owner`; returns its view and its secret.
async fn make(app: &TestApp, owner: &Player, name: &str, scopes: &[&str]) -> (Value, String) {
    let (status, made) = app
        .post(
            "/api/me/tokens",
            Some(&owner.token),
            json!({"name": name, "scopes": scopes}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let secret = made["secret"]
        .as_str()
        .expect("the secret, once")
        .to_string();
    (made["token"].clone(), secret)
}

#[actix_web::test]
async fn a_token_works_like_its_owners_session_within_its_scopes() {
    within_scopes(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_token_works_like_its_owners_session_within_its_scopes() {
    within_scopes(Db::postgres().await).await;
}

async fn within_scopes(db: Db) {
    let app = TestApp::spawn_on(db).await;
    let owner = app.account("tokenowner").await;
    let (token, secret) = make(&app, &owner, "  my engine ", &["read", "play"]).await;
    assert_eq!(token["name"], "my engine", "the name is trimmed");
    assert_eq!(token["scopes"], json!(["read", "play"]));
    assert_eq!(token["last_used_at"], Value::Null);
    assert!(secret.starts_with("stk_"), "{secret}");

    // Read: the caller is the owner.
    let (status, me) = app.get("/api/me", Some(&secret)).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["user"]["id"], owner.user["id"]);
    assert_eq!(me["user"]["name"], "tokenowner");

    // The list shows it, with its use, and never the secret.
    let (status, list) = app.get("/api/me/tokens", Some(&owner.token)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["tokens"][0]["id"], token["id"]);
    assert!(list["tokens"][0]["last_used_at"].is_i64(), "{list}");
    assert!(!list.to_string().contains(&secret), "{list}");

    // Play: the socket opens as the owner, but starting a game needs the challenge scope.
    let mut socket = Player::connect(&app, secret.clone(), owner.user.clone()).await;
    let refused = socket
        .refused(
            json!({"type": "queue.join", "game": "mill", "clock": {"initial": 300, "increment": 2}}),
            "forbidden",
        )
        .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("challenge scope"),
        "{refused}"
    );
    let (status, body) = app
        .post("/api/tables", Some(&secret), json!({"game": "mill"}))
        .await;
    assert_eq!(status, 403, "{body}");

    // A token never manages the account: not its tokens, not its password.
    let (status, body) = app.get("/api/me/tokens", Some(&secret)).await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = app
        .post(
            "/api/password",
            Some(&secret),
            json!({"old": "a long enough password", "new": "another long password"}),
        )
        .await;
    assert_eq!(status, 403);

    // With the challenge scope it creates a table, seated as its owner.
    let (_, challenger) = make(&app, &owner, "challenger", &["challenge"]).await;
    let (status, table) = app
        .post("/api/tables", Some(&challenger), json!({"game": "mill"}))
        .await;
    assert_eq!(status, 201, "{table}");

    // A read-only token cannot open the socket.
    let (_, reader) = make(&app, &owner, "reader", &["read"]).await;
    let handshake = app
        .http()
        .ws(&app.ws_url)
        .bearer_auth(&reader)
        .connect()
        .await;
    assert!(handshake.is_err(), "a read-only token opened the socket");

    // Revoked: refused at once, and its open socket closes.
    assert_eq!(
        delete(
            &app,
            &format!("/api/me/tokens/{}", token["id"].as_str().unwrap()),
            &owner.token
        )
        .await,
        204
    );
    let closed = socket.next().await;
    assert_eq!(closed["type"], "closed", "{closed}");
    let (status, body) = app.get("/api/me", Some(&secret)).await;
    assert_eq!(status, 401, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("revoked"),
        "{body}"
    );
    // Revoking it again, or another account's token, finds nothing.
    let other = app.account("someoneelse").await;
    let again = format!("/api/me/tokens/{}", token["id"].as_str().unwrap());
    assert_eq!(delete(&app, &again, &owner.token).await, 404);
    let (theirs, _) = make(&app, &other, "theirs", &["read"]).await;
    let path = format!("/api/me/tokens/{}", theirs["id"].as_str().unwrap());
    assert_eq!(delete(&app, &path, &owner.token).await, 404);
    app.stop().await;
}

#[actix_web::test]
async fn log_out_everywhere_ends_every_token() {
    let app = TestApp::spawn().await;
    let owner = app.account("leaver").await;
    let (_, secret) = make(&app, &owner, "bot", &["read", "play"]).await;
    let mut socket = Player::connect(&app, secret.clone(), owner.user.clone()).await;
    let (status, everywhere) = app
        .post("/api/logout/everywhere", Some(&owner.token), json!({}))
        .await;
    assert_eq!(status, 200, "{everywhere}");
    let closed = socket.next().await;
    assert_eq!(closed["type"], "closed", "{closed}");
    let (status, body) = app.get("/api/me", Some(&secret)).await;
    assert_eq!(status, 401, "{body}");
    let fresh = everywhere["token"].as_str().unwrap();
    let (status, list) = app.get("/api/me/tokens", Some(fresh)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["tokens"], json!([]), "{list}");
    app.stop().await;
}

#[actix_web::test]
async fn bad_token_requests_get_clear_errors() {
    let app = TestApp::spawn().await;
    let guest = app.guest().await;
    let (status, body) = app
        .post(
            "/api/me/tokens",
            Some(&guest.token),
            json!({"name": "x", "scopes": ["read"]}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("wrong_state")),
        "{body}"
    );

    let owner = app.account("careful").await;
    for (body, what) in [
        (json!({"name": "   ", "scopes": ["read"]}), "a name"),
        (
            json!({"name": "x".repeat(41), "scopes": ["read"]}),
            "40 characters",
        ),
        (json!({"name": "a\u{7}b", "scopes": ["read"]}), "control"),
        (json!({"name": "x", "scopes": []}), "at least one scope"),
        (json!({"name": "x", "scopes": ["admin"]}), "admin"),
    ] {
        let (status, answer) = app
            .post("/api/me/tokens", Some(&owner.token), body.clone())
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(what),
            "{body}: {answer}"
        );
    }
    let (_, unknown) = app.get("/api/me", Some("stk_notatokenatall")).await;
    assert_eq!(unknown["code"], "unauthorized", "{unknown}");

    for i in 0..20 {
        make(&app, &owner, &format!("token {i}"), &["read"]).await;
    }
    let (status, body) = app
        .post(
            "/api/me/tokens",
            Some(&owner.token),
            json!({"name": "one more", "scopes": ["read"]}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("at most 20"),
        "{body}"
    );
    app.stop().await;
}
