//! Health, the catalogue, guests and accounts.

use serde_json::json;

use crate::helpers::TestApp;

#[actix_web::test]
async fn health_and_the_catalogue_answer() {
    let app = TestApp::spawn().await;
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    let (status, games) = app.get("/api/games", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "perekati",
            "tumbleweed",
            "cephalopod",
            "mill",
            "white-rabbit"
        ]
    );
    let (status, mill) = app.get("/api/games/mill", None).await;
    assert_eq!(status, 200);
    assert_eq!(mill["seats"], 2);
    assert_eq!(mill["default_variant"], "troika");
    assert_eq!(mill["variants"].as_array().unwrap().len(), 4);
    assert!(mill["names"]["uk"].as_str().unwrap().contains("Млин"));
    app.stop().await;
}

#[actix_web::test]
async fn a_guest_who_registers_keeps_its_games_and_can_log_in_again() {
    let app = TestApp::spawn().await;
    let mut guest = app.guest().await;
    let table = guest
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    let id = table["id"].as_str().unwrap();
    guest.ok(json!({"type": "resign", "table": id})).await;

    let name = format!("rabbit_{}", &guest.id()[..6]);
    let (status, registered) = app
        .post(
            "/api/register",
            Some(&guest.token),
            json!({"username": name, "password": "carrots-and-cabbage"}),
        )
        .await;
    assert_eq!(status, 200, "{registered}");
    assert_eq!(registered["user"]["id"], guest.user["id"]);
    assert_eq!(registered["user"]["guest"], false);
    let token = registered["token"].as_str().unwrap();
    let (_, games) = app.get("/api/me/games", Some(token)).await;
    assert_eq!(games[0]["id"], id, "{games}");
    let (_, record) = app.get(&format!("/api/records/{id}"), None).await;
    assert_eq!(
        record["players"][0]["name"],
        json!(name),
        "old games show the new name"
    );

    // The name is taken now, in any case.
    let stranger = app.guest().await;
    let (status, reply) = app
        .post(
            "/api/register",
            Some(&stranger.token),
            json!({"username": name.to_uppercase(), "password": "another password"}),
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(reply["code"], "name_taken");

    // Log in from elsewhere: the same account.
    let (status, login) = app
        .post(
            "/api/login",
            None,
            json!({"username": name, "password": "carrots-and-cabbage"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(login["user"]["id"], guest.user["id"]);
    let (status, reply) = app
        .post(
            "/api/login",
            None,
            json!({"username": name, "password": "wrong password"}),
        )
        .await;
    assert_eq!(status, 401);
    assert_eq!(reply["code"], "unauthorized");
    let (status, _) = app
        .post(
            "/api/login",
            None,
            json!({"username": "nobody_here", "password": "whatever1"}),
        )
        .await;
    assert_eq!(status, 401);

    // Change the password: the old one stops working.
    let (status, reply) = app
        .post(
            "/api/password",
            Some(token),
            json!({"old": "wrong password", "new": "fresh-password"}),
        )
        .await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (401, Some("unauthorized"))
    );
    let (status, _) = app
        .post(
            "/api/password",
            Some(token),
            json!({"old": "carrots-and-cabbage", "new": "fresh-password"}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = app
        .post(
            "/api/login",
            None,
            json!({"username": name, "password": "carrots-and-cabbage"}),
        )
        .await;
    assert_eq!(status, 401);
    let (status, _) = app
        .post(
            "/api/login",
            None,
            json!({"username": name, "password": "fresh-password"}),
        )
        .await;
    assert_eq!(status, 200);
    app.stop().await;
}

#[actix_web::test]
async fn the_first_visit_gets_a_guest_cookie() {
    let app = TestApp::spawn().await;
    let response = app
        .http()
        .get(format!("{}/api/me", app.base))
        .send()
        .await
        .unwrap();
    let cookie = response.cookie("stolik").expect("a session cookie");
    assert!(cookie.http_only().unwrap_or(false));
    let (status, _) = app
        .post(
            "/api/register",
            None,
            json!({"username": "x", "password": "short"}),
        )
        .await;
    assert_eq!(status, 400);
    app.stop().await;
}
