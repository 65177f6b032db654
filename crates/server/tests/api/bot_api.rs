//! The Bot API end to end: a bot account made from a fresh account, challenged by a person's
//! client, accepting and playing whole games through its NDJSON streams and the move
//! endpoint; scopes, revocation, and challenges declined, cancelled and expired.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};
use crate::ndjson::Lines;

/// Makes a personal token with `scopes` for `owner`: its id and secret.
async fn token(app: &TestApp, owner: &Player, scopes: &[&str]) -> (String, String) {
    let (status, made) = app
        .post(
            "/api/me/tokens",
            Some(&owner.token),
            json!({"name": "engine", "scopes": scopes}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    (
        made["token"]["id"].as_str().unwrap().to_string(),
        made["secret"].as_str().unwrap().to_string(),
    )
}

/// A fresh account made a bot, with a token of the bot and challenge scopes.
pub(crate) async fn bot_account(app: &TestApp, name: &str) -> (Player, String, String) {
    let owner = app.account(name).await;
    let (id, secret) = token(app, &owner, &["bot", "challenge"]).await;
    let (status, upgraded) = app
        .post("/api/bot/account/upgrade", Some(&secret), json!({}))
        .await;
    assert_eq!(status, 200, "{upgraded}");
    assert_eq!(upgraded["bot"], true);
    (owner, id, secret)
}

/// Reads `player`'s socket until it is told `event` of challenge `id`.
async fn told(player: &mut Player, id: &str, event: &str) -> Value {
    loop {
        let message = player.expect("challenge").await;
        if message["challenge"]["id"] == id && message["event"] == event {
            return message;
        }
    }
}

/// The bot accepts `challenge` with its token: the new table's id.
async fn accept(app: &TestApp, challenge: &Value, secret: &str) -> String {
    let id = challenge["id"].as_str().unwrap();
    let (status, accepted) = app
        .post(
            &format!("/api/challenge/{id}/accept"),
            Some(secret),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    accepted["game_id"].as_str().unwrap().to_string()
}

fn id_of(player: &Player) -> String {
    player.user["id"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn a_bot_accepts_a_persons_challenges_and_plays_them_to_the_end_through_its_streams() {
    bot_plays(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_bot_accepts_a_persons_challenges_and_plays_them_to_the_end() {
    bot_plays(Db::postgres().await).await;
}

async fn bot_plays(db: Db) {
    let app = TestApp::spawn_on(db).await;
    let mut person = app.account("alice").await;
    let (bot, _, secret) = bot_account(&app, "robo").await;
    let bot_id = id_of(&bot);

    // Marked as a bot wherever it is shown.
    let (_, profile) = app.get(&format!("/api/users/{bot_id}"), None).await;
    assert_eq!(profile["bot_account"], true, "{profile}");
    let (_, me) = app.get("/api/me", Some(&bot.token)).await;
    assert_eq!(me["user"]["bot"], true, "{me}");

    let mut events = Lines::open(&app, "/api/stream/event", &secret)
        .await
        .expect("the event stream opens");
    let games = [("cephalopod", "3x3"), ("mill", "troika")];
    for (game, variant) in games {
        let (status, challenge) = app
            .post(
                &format!("/api/challenge/{bot_id}"),
                Some(&person.token),
                json!({"game": game, "variant": variant, "side": "a",
                       "clock": {"initial": 600, "increment": 5}}),
            )
            .await;
        assert_eq!(status, 201, "{challenge}");
        assert_eq!(challenge["status"], "created");
        assert_eq!(challenge["dest"]["bot"], true, "{challenge}");
        let told = person.expect("challenge").await;
        assert_eq!(told["event"], "created");

        let heard = events.expect("challenge").await;
        assert_eq!(heard["challenge"]["id"], challenge["id"]);
        let table = accept(&app, &challenge, &secret).await;
        let told = person.expect("challenge").await;
        assert_eq!(told["event"], "accepted");
        assert_eq!(told["challenge"]["game_id"], table.as_str());
        let start = events.expect("gameStart").await;
        assert_eq!(start["game"]["id"], table.as_str(), "{start}");

        let seen_by_bot = play_out(&app, &mut person, &secret, &table).await;

        let finish = events.expect("gameFinish").await;
        assert_eq!(finish["game"]["id"], table.as_str(), "{finish}");
        let (status, record) = app.get(&format!("/api/records/{table}"), None).await;
        assert_eq!(status, 200, "{record}");
        let recorded: Vec<Value> = record["moves"].as_array().unwrap().clone();
        assert_eq!(Value::from(recorded.clone()), seen_by_bot["moves"]);
        // The person's socket told every move, in order.
        let mut seen_by_person = Vec::new();
        for _ in &recorded {
            seen_by_person.push(person.expect("move").await["move"].clone());
        }
        assert_eq!(seen_by_person, recorded, "{game}");
        assert!(!recorded.is_empty());
        person.forget();
    }
}

/// Plays table `id` to its end: the bot from its game stream (the first legal move it is
/// told), the person from its socket (the last legal move). The bot's last state.
async fn play_out(app: &TestApp, person: &mut Player, secret: &str, id: &str) -> Value {
    let path = format!("/api/bot/game/stream/{id}");
    let mut stream = Lines::open(app, &path, secret)
        .await
        .expect("the game opens");
    let full = stream.expect("gameFull").await;
    assert_eq!(full["you"], "b", "{full}");
    person
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut state = full["state"].clone();
    loop {
        if state["status"] != "playing" {
            break;
        }
        if state["to_move"] == "b" {
            let mv = state["legal"][0]
                .as_str()
                .expect("a legal move")
                .to_string();
            let (status, body) = app
                .post(
                    &format!("/api/bot/game/{id}/move/{mv}"),
                    Some(secret),
                    json!({}),
                )
                .await;
            assert_eq!(status, 200, "{mv}: {body}");
        } else {
            let (_, view) = app
                .get(&format!("/api/tables/{id}"), Some(&person.token))
                .await;
            let legal = view["legal"].as_array().expect("legal moves");
            let mv = legal
                .last()
                .unwrap_or_else(|| panic!("a legal move: {view} (bot's state {state})"))
                .clone();
            person
                .ok(json!({"type": "move", "table": id, "move": mv, "ply": view["ply"]}))
                .await;
        }
        // Other changes (the person's presence) are told too: wait for the move.
        let played = state["ply"].as_u64();
        state = loop {
            let line = stream
                .next()
                .await
                .expect("the stream tells the game's end");
            if line["type"] == "gameState"
                && (line["ply"].as_u64() > played || line["status"] != "playing")
            {
                break line;
            }
        };
    }
    // The stream ends with the game.
    assert!(
        stream.next().await.is_none(),
        "the stream goes on after the end"
    );
    assert_eq!(person.expect("end").await["table"], id);
    state
}

#[actix_web::test]
async fn a_token_without_the_bot_scope_is_refused_and_revoking_a_token_ends_its_streams() {
    let app = TestApp::spawn().await;
    let person = app.account("carol").await;
    let owner = app.account("droid").await;
    let (_, reader) = token(&app, &owner, &["read", "play", "challenge"]).await;
    let (status, body) = app
        .post("/api/bot/account/upgrade", Some(&reader), json!({}))
        .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("bot scope"),
        "{body}"
    );
    let refused = Lines::open(&app, "/api/stream/event", &reader).await.err();
    assert_eq!(refused.map(|(status, _)| status), Some(403));

    let (token_id, secret) = token(&app, &owner, &["bot", "challenge"]).await;
    let (status, _) = app
        .post("/api/bot/account/upgrade", Some(&secret), json!({}))
        .await;
    assert_eq!(status, 200);
    let bot_id = id_of(&owner);
    // The bot's game endpoints need the bot scope too, even from a bot account.
    let (status, _) = app
        .post("/api/bot/game/none/resign", Some(&reader), json!({}))
        .await;
    assert_eq!(status, 403);
    // And a person's session cannot use them: they are for bot accounts.
    let (status, body) = app
        .post("/api/bot/game/none/resign", Some(&person.token), json!({}))
        .await;
    assert_eq!(status, 403, "{body}");

    let mut events = Lines::open(&app, "/api/stream/event", &secret)
        .await
        .expect("the event stream opens");
    let (status, challenge) = app
        .post(
            &format!("/api/challenge/{bot_id}"),
            Some(&person.token),
            json!({"game": "cephalopod", "variant": "3x3"}),
        )
        .await;
    assert_eq!(status, 201, "{challenge}");
    let table = accept(&app, &challenge, &secret).await;
    events.expect("gameStart").await;
    let mut game = Lines::open(&app, &format!("/api/bot/game/stream/{table}"), &secret)
        .await
        .expect("the game stream opens");
    game.expect("gameFull").await;

    // Revoked: both streams end at once, and the token opens no other.
    let response = app
        .http()
        .delete(format!("{}/api/me/tokens/{token_id}", app.base))
        .bearer_auth(&owner.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);
    assert!(events.next().await.is_none(), "the event stream goes on");
    assert!(game.next().await.is_none(), "the game stream goes on");
    let refused = Lines::open(&app, "/api/stream/event", &secret).await.err();
    assert_eq!(refused.map(|(status, _)| status), Some(401));
}

#[actix_web::test]
async fn challenges_are_declined_cancelled_and_expire_and_each_side_is_told() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.challenge_ttl = Duration::from_secs(2);
    })
    .await;
    let mut alice = app.account("alice").await;
    let mut bob = app.account("bob").await;
    let bob_id = id_of(&bob);
    let alice_token = alice.token.clone();
    let challenge = |body: Value| {
        let app = &app;
        let token = alice_token.clone();
        let path = format!("/api/challenge/{bob_id}");
        async move { app.post(&path, Some(&token), body).await }
    };

    // What cannot be asked is refused, and nothing is stored.
    let (status, body) = challenge(json!({"game": "white-rabbit"})).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = challenge(json!({"game": "mill", "side": "left"})).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post(
            "/api/challenge/nobody",
            Some(&alice.token),
            json!({"game": "mill"}),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let alice_id = id_of(&alice);
    let (status, body) = app
        .post(
            &format!("/api/challenge/{alice_id}"),
            Some(&alice.token),
            json!({"game": "mill"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (_, open) = app.get("/api/challenge", Some(&bob.token)).await;
    assert_eq!(open["incoming"], json!([]), "{open}");

    // Declined, with a reason from the list.
    let (status, sent) = challenge(json!({"game": "mill", "rated": true})).await;
    assert_eq!(status, 201, "{sent}");
    let id = sent["id"].as_str().unwrap().to_string();
    told(&mut bob, &id, "created").await;
    let (_, open) = app.get("/api/challenge", Some(&bob.token)).await;
    assert_eq!(open["incoming"][0]["id"], id.as_str(), "{open}");
    let decline = format!("/api/challenge/{id}/decline");
    let (status, body) = app
        .post(&decline, Some(&bob.token), json!({"reason": "bored"}))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post(&decline, Some(&alice.token), json!({"reason": "later"}))
        .await;
    assert_eq!(status, 403, "the challenger declined: {body}");
    let (status, declined) = app
        .post(&decline, Some(&bob.token), json!({"reason": "later"}))
        .await;
    assert_eq!(status, 200, "{declined}");
    let declined = told(&mut alice, &id, "declined").await;
    assert_eq!(declined["challenge"]["decline_reason"], "later");
    let (status, body) = app
        .post(
            &format!("/api/challenge/{id}/accept"),
            Some(&bob.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 409, "accepted after declining: {body}");

    // Cancelled by the challenger (and only by them).
    let (status, sent) = challenge(json!({"game": "mill"})).await;
    assert_eq!(status, 201, "{sent}");
    let id = sent["id"].as_str().unwrap().to_string();
    let cancel = format!("/api/challenge/{id}/cancel");
    let (status, _) = app.post(&cancel, Some(&bob.token), json!({})).await;
    assert_eq!(status, 403);
    let (status, cancelled) = app.post(&cancel, Some(&alice.token), json!({})).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["status"], "canceled");
    told(&mut bob, &id, "canceled").await;

    // Left unanswered: it expires, both are told, and it can no longer be accepted.
    let (status, sent) = challenge(json!({"game": "cephalopod"})).await;
    assert_eq!(status, 201, "{sent}");
    let id = sent["id"].as_str().unwrap().to_string();
    let expired = told(&mut bob, &id, "expired").await;
    told(&mut alice, &id, "expired").await;
    assert_eq!(expired["challenge"]["status"], "expired");
    let (status, body) = app
        .post(
            &format!("/api/challenge/{id}/accept"),
            Some(&bob.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let (_, open) = app.get("/api/challenge", Some(&alice.token)).await;
    assert_eq!(open["outgoing"], json!([]), "{open}");
}

#[actix_web::test]
async fn only_an_account_that_never_played_becomes_a_bot_and_bots_stay_out_of_quick_match() {
    let app = TestApp::spawn().await;
    let player = app.account("veteran").await;
    player.create_table(&app, json!({"game": "mill"})).await;
    let (status, body) = app
        .post("/api/bot/account/upgrade", Some(&player.token), json!({}))
        .await;
    assert_eq!(status, 409, "{body}");
    let guest = app.guest().await;
    let (status, _) = app
        .post("/api/bot/account/upgrade", Some(&guest.token), json!({}))
        .await;
    assert_eq!(status, 409);

    // A session may make its own account a bot, once.
    let fresh = app.account("newbot").await;
    let (status, body) = app
        .post("/api/bot/account/upgrade", Some(&fresh.token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app
        .post("/api/bot/account/upgrade", Some(&fresh.token), json!({}))
        .await;
    assert_eq!(status, 409);
    let mut socket = Player::connect(&app, fresh.token.clone(), fresh.user.clone()).await;
    assert_eq!(socket.hello["user"]["bot"], true, "{}", socket.hello);
    socket
        .refused(
            json!({"type": "queue.join", "game": "mill", "clock": {"initial": 300, "increment": 2}}),
            "forbidden",
        )
        .await;
    // Nor do they enter arenas, which are for people.
    let (status, arena) = app
        .post(
            "/api/tournaments",
            Some(&player.token),
            json!({"game": "mill", "initial": 180, "increment": 2, "minutes": 60, "starts_in": 10}),
        )
        .await;
    assert_eq!(status, 201, "{arena}");
    let join = format!("/api/tournaments/{}/join", arena["id"].as_str().unwrap());
    let (status, body) = app.post(&join, Some(&fresh.token), json!({})).await;
    assert_eq!(status, 403, "{body}");
    // The bots have a leaderboard of their own.
    let (status, board) = app.get("/api/leaderboard/mill?bots=true", None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["bots"], true);
}
