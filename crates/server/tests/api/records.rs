//! Who may read a game's record: the rule of its table (a private one needs its link unless
//! the reader sits there or hosts it), read from the database — also for a table that is not
//! running, before and after a restart.

use serde_json::json;

use crate::helpers::TestApp;

#[actix_web::test]
async fn a_private_games_record_follows_its_tables_rule() {
    let app = TestApp::spawn().await;
    let mut host = app.guest().await;
    let mut friend = app.guest().await;
    let stranger = app.guest().await;
    let table = host
        .create_table(&app, json!({"game": "mill", "private": true}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let token = table["invite"].as_str().unwrap().to_string();
    let record = format!("/api/records/{id}");
    let positions = format!("/api/records/{id}/positions");

    for path in [&record, &positions] {
        let (status, refused) = app.get(path, Some(&stranger.token)).await;
        assert_eq!(status, 403, "{path}: {refused}");
        assert_eq!(refused["code"], "forbidden");
        let (status, _) = app
            .get(&format!("{path}?token=guess"), Some(&stranger.token))
            .await;
        assert_eq!(status, 403, "{path} with a wrong token");
        let (status, _) = app.get(path, None).await;
        assert_eq!(status, 403, "{path} without an identity");
        let (status, body) = app
            .get(&format!("{path}?token={token}"), Some(&stranger.token))
            .await;
        assert_eq!(status, 200, "{path} with the link: {body}");
        let (status, _) = app.get(path, Some(&host.token)).await;
        assert_eq!(status, 200, "{path} for its host");
    }

    // A friend who sits needs the link no more.
    friend
        .ok(json!({"type": "sit", "table": id, "token": token}))
        .await;
    let (status, _) = app.get(&record, Some(&friend.token)).await;
    assert_eq!(status, 200, "a player, seated");
    // The host of a table that closed (they stood up, and nobody sat there) still hosts it.
    let other = host
        .create_table(&app, json!({"game": "mill", "private": true}))
        .await;
    let other = other["id"].as_str().unwrap();
    host.ok(json!({"type": "stand", "table": other})).await;
    let (status, closed) = app
        .get(&format!("/api/records/{other}"), Some(&host.token))
        .await;
    assert_eq!(status, 200, "the host, standing: {closed}");
    assert_eq!(closed["status"], "aborted", "{closed}");

    let (status, missing) = app.get("/api/records/no-such-game", None).await;
    assert_eq!(status, 404);
    assert_eq!(missing["code"], "not_found");
    assert_eq!(missing["message"], "no such table");

    // After a restart the same answers.
    let (host_token, friend_token, stranger_token) = (
        host.token.clone(),
        friend.token.clone(),
        stranger.token.clone(),
    );
    host.close().await;
    friend.close().await;
    stranger.close().await;
    let app = TestApp::spawn_on(app.stop().await).await;
    let (status, _) = app.get(&record, Some(&stranger_token)).await;
    assert_eq!(status, 403, "a stranger, after the restart");
    let (status, _) = app
        .get(&format!("{record}?token={token}"), Some(&stranger_token))
        .await;
    assert_eq!(status, 200, "the link, after the restart");
    for player in [&host_token, &friend_token] {
        let (status, _) = app.get(&record, Some(player)).await;
        assert_eq!(status, 200, "host and player, after the restart");
    }
    app.stop().await;
}

/// The keys of a JSON object, sorted.
fn keys(value: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

/// What the server reads from its database reaches a client only through the views it names:
/// a list of games has its fixed fields, and no answer carries the password's hash or a
/// private table's invitation.
#[actix_web::test]
async fn answers_carry_the_views_fields_and_never_a_hash_or_an_invitation() {
    let app = TestApp::spawn().await;
    let mut host = app.account("keeper").await;
    let mut friend = app.guest().await;
    let table = host
        .create_table(&app, json!({"game": "mill", "private": true}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let invite = table["invite"].as_str().unwrap().to_string();
    // The friend sits by the link and the game starts; called off before anyone moved, it
    // is in both players' lists.
    friend
        .ok(json!({"type": "sit", "table": id, "token": invite}))
        .await;
    host.ok(json!({"type": "abort", "table": id})).await;
    let user = host.id().to_string();

    let (status, games) = app.get("/api/me/games", Some(&host.token)).await;
    assert_eq!(status, 200, "{games}");
    let game = &games.as_array().expect("a list")[0];
    assert_eq!(game["id"], id.as_str(), "{games}");
    assert_eq!(
        keys(game),
        [
            "created_at",
            "end_reason",
            "finished_at",
            "game",
            "id",
            "move_count",
            "private",
            "rated",
            "result",
            "seats",
            "status",
            "variant"
        ],
        "{game}"
    );
    assert_eq!(game["status"], "aborted", "{game}");
    assert!(game["result"].is_null(), "null, not absent: {game}");
    assert_eq!(
        keys(&game["seats"][0]),
        [
            "bot",
            "bot_account",
            "display_name",
            "guest",
            "rating_after",
            "rating_change",
            "rating_provisional",
            "seat",
            "user_id"
        ],
        "{game}"
    );
    assert_eq!(game["seats"][0]["user_id"], user.as_str(), "{game}");
    assert_eq!(game["seats"][0]["display_name"], "keeper", "{game}");

    for path in [
        "/api/me".to_string(),
        format!("/api/users/{user}"),
        "/api/me/games".to_string(),
        format!("/api/users/{user}/games"),
        format!("/api/records/{id}"),
        "/api/notifications".to_string(),
    ] {
        let (status, body) = app.get(&path, Some(&host.token)).await;
        assert_eq!(status, 200, "{path}: {body}");
        let text = body.to_string();
        assert!(!text.contains("$argon2"), "{path} carries a hash: {text}");
        assert!(
            !text.contains(&invite),
            "{path} carries the invitation: {text}"
        );
    }
    host.close().await;
    friend.close().await;
    app.stop().await;
}
