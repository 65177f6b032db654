//! The Bot API's orders besides moving, end to end: a bot chats, offers and answers draws and
//! takebacks, aborts, and claims a game its opponent left, each over HTTP with its token, and
//! its game stream tells every change (chat lines, offers, the end); the per-token request
//! limit and the streams' keep-alive lines.

use std::time::Duration;

use serde_json::{Value, json};

use crate::bot_api::{accept, bot_account};
use crate::helpers::{Db, Player, TestApp};
use crate::ndjson::Lines;

/// `person` challenges the bot to a casual Cephalopod 5×5 game with side `a`, the bot
/// accepts: the table's id, with the person subscribed to it and the bot's game stream open
/// past its `gameFull`.
async fn game(app: &TestApp, person: &mut Player, bot: &Player, secret: &str) -> (String, Lines) {
    let bot_id = bot.user["id"].as_str().unwrap();
    let (status, challenge) = app
        .post(
            &format!("/api/challenge/{bot_id}"),
            Some(&person.token),
            json!({"game": "cephalopod", "variant": "5x5", "side": "a", "rated": false,
                   "clock": {"initial": 600, "increment": 5}}),
        )
        .await;
    assert_eq!(status, 201, "{challenge}");
    let table = accept(app, &challenge, secret).await;
    let mut stream = Lines::open(app, &format!("/api/bot/game/stream/{table}"), secret)
        .await
        .expect("the game stream opens");
    let full = stream.expect("gameFull").await;
    assert_eq!(full["you"], "b", "{full}");
    person
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    (table, stream)
}

/// The next `gameState` line for which `wanted` holds, while `person`'s socket is read (its
/// messages kept) so that it stays alive however long the wait.
async fn state_until(
    stream: &mut Lines,
    person: &mut Player,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let patience = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut last = Value::Null;
    loop {
        assert!(
            tokio::time::Instant::now() < patience,
            "no such state in 30 s; the last: {last}"
        );
        let line = tokio::select! {
            biased;
            line = stream.expect("gameState") => line,
            _ = person.pump() => continue,
        };
        if wanted(&line) {
            return line;
        }
        last = line;
    }
}

/// The next `gameState` line for which `wanted` holds, with no socket to keep alive.
async fn next_state(stream: &mut Lines, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let line = stream.expect("gameState").await;
        if wanted(&line) {
            return line;
        }
    }
}

/// The bot's order `path` (after `/api/bot/game/{table}/`): its status and body.
async fn order(app: &TestApp, secret: &str, table: &str, path: &str, body: Value) -> (u16, Value) {
    app.post(&format!("/api/bot/game/{table}/{path}"), Some(secret), body)
        .await
}

/// The person plays the first legal move at `table`: the state the bot's stream tells after.
async fn person_moves(
    app: &TestApp,
    person: &mut Player,
    stream: &mut Lines,
    table: &str,
) -> Value {
    let (_, view) = app
        .get(&format!("/api/tables/{table}"), Some(&person.token))
        .await;
    let mv = view["legal"][0].clone();
    let ply = view["ply"].as_u64().unwrap();
    person
        .ok(json!({"type": "move", "table": table, "move": mv, "ply": ply}))
        .await;
    state_until(stream, person, |s| s["ply"].as_u64() == Some(ply + 1)).await
}

/// The bot plays the first legal move of `state`, its turn.
async fn bot_moves(
    app: &TestApp,
    (person, stream): (&mut Player, &mut Lines),
    secret: &str,
    table: &str,
    state: &Value,
) {
    assert_eq!(state["to_move"], "b", "{state}");
    let mv = state["legal"][0].as_str().unwrap();
    let (status, body) = order(app, secret, table, &format!("move/{mv}"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let ply = state["ply"].as_u64().unwrap();
    state_until(stream, person, |s| s["ply"].as_u64() == Some(ply + 1)).await;
}

#[actix_web::test]
async fn a_bot_chats_and_answers_draw_and_takeback_offers_and_its_stream_tells_each() {
    let app = TestApp::spawn().await;
    let mut person = app.account("carol").await;
    let (bot, _, secret) = bot_account(&app, "chatbot").await;
    let (table, mut stream) = game(&app, &mut person, &bot, &secret).await;

    // A line of chat: the person's socket hears it, and so does the bot's own stream.
    let (status, body) = order(&app, &secret, &table, "chat", json!({"text": "good luck"})).await;
    assert_eq!(status, 200, "{body}");
    let heard = person.expect("chat").await;
    assert_eq!(heard["line"]["text"], "good luck", "{heard}");
    let line = stream.expect("chatLine").await;
    assert_eq!(line["text"], "good luck", "{line}");
    assert_eq!(line["username"], "chatbot", "{line}");
    // The person's line reaches the bot's stream.
    person
        .ok(json!({"type": "chat", "table": table, "text": "thanks"}))
        .await;
    let line = stream.expect("chatLine").await;
    assert_eq!(line["text"], "thanks", "{line}");
    let (status, body) = order(&app, &secret, &table, "chat", json!({"text": "   "})).await;
    assert_eq!(status, 400, "an empty line: {body}");

    // Moves, then the person asks for their move back: the bot's stream shows the offer, and
    // the bot's yes takes the two plies back.
    let state = person_moves(&app, &mut person, &mut stream, &table).await;
    bot_moves(&app, (&mut person, &mut stream), &secret, &table, &state).await;
    person_moves(&app, &mut person, &mut stream, &table).await;
    person
        .ok(json!({"type": "takeback.offer", "table": table}))
        .await;
    let offered = state_until(&mut stream, &mut person, |s| s["takeback_offer"] == "a").await;
    assert_eq!(offered["ply"], 3, "{offered}");
    let (status, body) = order(&app, &secret, &table, "takeback/yes", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let back = state_until(&mut stream, &mut person, |s| s["ply"] == 2).await;
    assert!(back["takeback_offer"].is_null(), "{back}");
    assert_eq!(back["to_move"], "a", "{back}");
    // Asked again, and declined this time: nothing is taken back.
    person_moves(&app, &mut person, &mut stream, &table).await;
    person
        .ok(json!({"type": "takeback.offer", "table": table}))
        .await;
    state_until(&mut stream, &mut person, |s| s["takeback_offer"] == "a").await;
    let (status, body) = order(&app, &secret, &table, "takeback/no", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let kept = state_until(&mut stream, &mut person, |s| s["takeback_offer"].is_null()).await;
    assert_eq!(kept["ply"], 3, "{kept}");
    let (status, body) = order(&app, &secret, &table, "takeback/maybe", json!({})).await;
    assert_eq!(status, 400, "{body}");

    // The bot offers a draw; the person declines it; the person offers one, the bot takes it.
    let (status, body) = order(&app, &secret, &table, "draw/yes", json!({})).await;
    assert_eq!(status, 200, "{body}");
    state_until(&mut stream, &mut person, |s| s["draw_offer"] == "b").await;
    // The person's socket is told the offer (after the takeback's, read meanwhile).
    let mut offer = person.expect("offer").await;
    while offer["kind"] != "draw" {
        offer = person.expect("offer").await;
    }
    assert_eq!(offer["by"], "b", "{offer}");
    person
        .ok(json!({"type": "draw.decline", "table": table}))
        .await;
    state_until(&mut stream, &mut person, |s| s["draw_offer"].is_null()).await;
    person
        .ok(json!({"type": "draw.offer", "table": table}))
        .await;
    state_until(&mut stream, &mut person, |s| s["draw_offer"] == "a").await;
    let (status, body) = order(&app, &secret, &table, "draw/yes", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let end = state_until(&mut stream, &mut person, |s| s["status"] != "playing").await;
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["result"], "draw", "{end}");
    assert_eq!(end["reason"], "agreement", "{end}");
    assert!(
        stream.next().await.is_none(),
        "the stream ends with the game"
    );
    let (_, record) = app.get(&format!("/api/records/{table}"), None).await;
    assert_eq!(record["reason"], "agreement", "{record}");
}

#[actix_web::test]
async fn a_bot_aborts_a_game_before_it_has_begun_and_claims_one_its_opponent_left() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.abandon_grace = Duration::from_millis(1500);
    })
    .await;
    let mut person = app.account("dave").await;
    let (bot, _, secret) = bot_account(&app, "claimbot").await;

    // Before both sides have moved, the bot may abort; the person sees the table called off.
    let (table, mut stream) = game(&app, &mut person, &bot, &secret).await;
    let (status, body) = order(&app, &secret, &table, "claim", json!({})).await;
    assert_eq!(status, 409, "nobody has left: {body}");
    let (status, body) = order(&app, &secret, &table, "abort", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let end = state_until(&mut stream, &mut person, |s| s["status"] != "playing").await;
    assert_eq!(end["status"], "aborted", "{end}");
    assert_eq!(person.expect("end").await["status"], "aborted");
    let (status, body) = order(&app, &secret, &table, "abort", json!({})).await;
    assert_eq!(status, 409, "over already: {body}");

    // Once both have moved, aborting is too late; the person leaves, and after the grace the
    // bot claims the win.
    person.forget();
    let (table, mut stream) = game(&app, &mut person, &bot, &secret).await;
    let state = person_moves(&app, &mut person, &mut stream, &table).await;
    bot_moves(&app, (&mut person, &mut stream), &secret, &table, &state).await;
    let (status, body) = order(&app, &secret, &table, "abort", json!({})).await;
    assert_eq!(status, 409, "too late to abort: {body}");
    person.close().await;
    // Told away at once, the claim open after the grace.
    let open = next_state(&mut stream, |s| s["claim"] == true).await;
    assert_eq!(open["away"]["seat"], "a", "{open}");
    assert_eq!(open["status"], "playing", "{open}");
    let (status, body) = order(&app, &secret, &table, "claim", json!({})).await;
    assert_eq!(status, 200, "{body}");
    let end = next_state(&mut stream, |s| s["status"] != "playing").await;
    assert_eq!(end["result"], "b", "{end}");
    assert_eq!(end["reason"], "abandoned", "{end}");
}

#[actix_web::test]
async fn a_tokens_requests_past_its_limit_are_refused_and_an_idle_stream_keeps_alive() {
    let app = TestApp::spawn_limited("bot_requests_per_token=3/min").await;
    let (_, _, secret) = bot_account(&app, "busybot").await;
    // The upgrade is not a game request: three are taken, the fourth is refused.
    for _ in 0..3 {
        let (status, body) = app
            .post("/api/bot/game/nosuch/resign", Some(&secret), json!({}))
            .await;
        assert_eq!(status, 404, "{body}");
    }
    let (status, body) = app
        .post("/api/bot/game/nosuch/resign", Some(&secret), json!({}))
        .await;
    assert_eq!(status, 429, "{body}");

    // Another bot's token has a limit of its own; its event stream, with nothing to tell,
    // sends empty keep-alive lines.
    let (_, _, other) = bot_account(&app, "idlebot").await;
    let mut events = Lines::open(&app, "/api/stream/event", &other)
        .await
        .expect("the event stream opens");
    let alive = tokio::time::timeout(Duration::from_secs(12), events.keep_alive()).await;
    assert!(alive.is_ok(), "no keep-alive line in 12 s");
}
