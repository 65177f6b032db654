//! Limits per address as well as per identity, and logins that cannot lock the owner out,
//! from several client addresses: the server trusts the test as its proxy, so each request
//! names its client address in `X-Forwarded-For`.

use std::net::IpAddr;

use serde_json::{Value, json};
use server::LimitsConfig;

use crate::games::two_at_a_table;
use crate::helpers::{Db, Player, TestApp};

/// A server behind a proxy at 127.0.0.1 (the test itself), with these limits.
pub async fn behind_proxy(limits: &str) -> TestApp {
    let limits = LimitsConfig::parse(limits).expect("a valid limits spec");
    TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.limits = limits;
        config.security.trusted_proxies = vec![IpAddr::from([127, 0, 0, 1])];
    })
    .await
}

/// `POST path` from the client at `from`.
pub async fn post_from(
    app: &TestApp,
    from: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut request = app
        .http()
        .post(format!("{}{path}", app.base))
        .insert_header(("X-Forwarded-For", from));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let mut response = request.send_json(&body).await.unwrap();
    let status = response.status().as_u16();
    (
        status,
        response.json::<Value>().await.unwrap_or(Value::Null),
    )
}

#[actix_web::test]
async fn the_owner_logs_in_at_once_from_a_clean_address_while_another_fails_fifty_times() {
    let app = behind_proxy("login_per_address=1000/min").await;
    let (_, me) = app.get("/api/me", None).await;
    let (status, body) = app
        .post(
            "/api/register",
            me["token"].as_str(),
            json!({"username": "owner", "password": "the owner's password"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let login = |password: &str| json!({"username": "owner", "password": password});

    let mut refused = 0;
    for _ in 0..50 {
        let (status, body) =
            post_from(&app, "203.0.113.7", "/api/login", None, login("guess")).await;
        match status {
            401 => {}
            429 => refused += 1,
            _ => panic!("{status} {body}"),
        }
    }
    assert!(refused > 0, "the guessing address is held back");
    // Guessed again once the hold is over: that failure holds the address back anew (a second
    // or more), so the right password, asked at once, is still refused there. (Asked after the
    // loop instead, it could come just as a hold ran out on a loaded machine.)
    loop {
        let (status, body) =
            post_from(&app, "203.0.113.7", "/api/login", None, login("guess")).await;
        match status {
            401 => break,
            429 => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            _ => panic!("{status} {body}"),
        }
    }
    let (status, _) = post_from(
        &app,
        "203.0.113.7",
        "/api/login",
        None,
        login("the owner's password"),
    )
    .await;
    assert_eq!(status, 429);
    // The owner, from an address with no failures, is let in at once.
    let (status, body) = post_from(
        &app,
        "198.51.100.20",
        "/api/login",
        None,
        login("the owner's password"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["name"], "owner");
    app.stop().await;
}

/// A fresh guest's token (asked from the test's own address).
async fn guest_token(app: &TestApp) -> String {
    let (_, me) = app.get("/api/me", None).await;
    me["token"].as_str().expect("a guest token").to_string()
}

/// The address that fills a limit in the tests below, and one that has done nothing.
const BUSY: &str = "203.0.113.7";
const CLEAN: &str = "198.51.100.20";

/// `allowed` fresh guests from [`BUSY`] each `POST` `body` to `path` (201); one more guest from
/// there is refused with `rate_limited`. Returns that last guest's token.
async fn fill_the_address_limit(app: &TestApp, path: &str, body: &Value, allowed: usize) -> String {
    for _ in 0..allowed {
        let guest = guest_token(app).await;
        let (status, answer) = post_from(app, BUSY, path, Some(&guest), body.clone()).await;
        assert_eq!(status, 201, "{answer}");
    }
    let refused = guest_token(app).await;
    let (status, answer) = post_from(app, BUSY, path, Some(&refused), body.clone()).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (429, Some("rate_limited")),
        "{answer}"
    );
    refused
}

/// `token` `POST`s `body` to `path` from `from`, and it is taken (201).
async fn taken(app: &TestApp, from: &str, path: &str, token: &str, body: Value) {
    let (status, answer) = post_from(app, from, path, Some(token), body).await;
    assert_eq!(status, 201, "{answer}");
}

#[actix_web::test]
async fn public_tables_are_limited_per_address_whatever_the_number_of_guests() {
    let app = behind_proxy("public_tables_per_address=3/h").await;
    let public = json!({"game": "mill"});
    let fourth = fill_the_address_limit(&app, "/api/tables", &public, 3).await;
    // From the same address a private table is still fine, and another address is not held
    // back.
    let private = json!({"game": "mill", "private": true});
    taken(&app, BUSY, "/api/tables", &fourth, private).await;
    taken(&app, CLEAN, "/api/tables", &fourth, public).await;
    app.stop().await;
}

#[actix_web::test]
async fn reports_are_limited_per_address_whatever_the_number_of_guests() {
    let app = behind_proxy("reports_per_address=2/h").await;
    let target = app.account("reported_one").await;
    let report = json!({"user": target.id(), "reason": "spam"});
    let third = fill_the_address_limit(&app, "/api/reports", &report, 2).await;
    taken(&app, CLEAN, "/api/reports", &third, report).await;
    app.stop().await;
}

/// A fresh guest connected from `from`.
async fn guest_from(app: &TestApp, from: &str) -> Player {
    let (_, me) = app.get("/api/me", None).await;
    let token = me["token"].as_str().expect("a guest token").to_string();
    Player::connect_from(app, token, me["user"].clone(), Some(from)).await
}

#[actix_web::test]
async fn spectator_chat_is_limited_per_address_whatever_the_number_of_guests() {
    let app = behind_proxy("spectator_chat_per_address=3/min").await;
    let (mut a, _b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    let table = seen.table.clone();
    let subscribe = json!({"type": "table.subscribe", "table": table});
    let say = |text: &str| json!({"type": "chat", "table": table, "text": text});
    for n in 0..3 {
        let mut spectator = guest_from(&app, BUSY).await;
        spectator.ok(subscribe.clone()).await;
        spectator.ok(say(&format!("line {n}"))).await;
    }
    let mut fourth = guest_from(&app, BUSY).await;
    fourth.ok(subscribe.clone()).await;
    fourth.refused(say("one too many"), "rate_limited").await;
    // The same guest from another address is not held back.
    let mut elsewhere =
        Player::connect_from(&app, fourth.token.clone(), fourth.user.clone(), Some(CLEAN)).await;
    elsewhere.ok(subscribe.clone()).await;
    elsewhere.ok(say("from elsewhere")).await;
    // The players' own room is not counted against anyone's spectator limit.
    for n in 0..4 {
        a.ok(say(&format!("player line {n}"))).await;
    }
    app.stop().await;
}

#[actix_web::test]
async fn correspondence_games_are_limited_per_address_whatever_the_number_of_guests() {
    let app = behind_proxy("correspondence_per_address=2/h").await;
    let correspondence = json!({"game": "mill", "clock": {"days": 3}, "private": true});
    let third = fill_the_address_limit(&app, "/api/tables", &correspondence, 2).await;
    // A correspondence queue from that address is refused too; a game on the clock is not.
    let mut queued = guest_from(&app, BUSY).await;
    queued
        .refused(
            json!({"type": "queue.join", "game": "mill", "clock": {"days": 3}}),
            "rate_limited",
        )
        .await;
    let timed = json!({"game": "mill", "private": true, "clock": {"initial": 300, "increment": 3}});
    taken(&app, BUSY, "/api/tables", &third, timed).await;
    // Another address is not held back.
    taken(&app, CLEAN, "/api/tables", &third, correspondence).await;
    app.stop().await;
}
