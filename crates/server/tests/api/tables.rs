//! Tables: quick match, private links, spectators, offers, clocks, reconnects and restarts.

use std::time::Duration;

use serde_json::json;

use crate::games::{Seen, one_move_each, two_at_a_table};
use crate::helpers::{LobbyPage, Player, TestApp};

#[actix_web::test]
async fn quick_match_pairs_two_queued_players_and_the_lobby_shows_the_queue() {
    let app = TestApp::spawn().await;
    let mut watcher = app.guest().await;
    let mut lobby = LobbyPage::follow(&mut watcher, json!({"type": "lobby.subscribe"})).await;
    assert_eq!(lobby.0["queues"], json!([]));

    let mut a = app.guest().await;
    let mut b = app.guest().await;
    let join = json!({"type": "queue.join", "game": "cephalopod", "variant": "5x5",
                      "clock": {"initial": 300, "increment": 3}});
    a.ok(join.clone()).await;
    let update = lobby.next(&mut watcher).await;
    assert_eq!(update["queues"][0]["waiting"], 1, "{update}");
    assert_eq!(update["queues"][0]["game"], "cephalopod");

    // Leaving works, and joining again is fine.
    a.ok(json!({"type": "queue.leave"})).await;
    a.refused(json!({"type": "queue.leave"}), "wrong_state")
        .await;
    a.ok(join.clone()).await;
    b.ok(join).await;
    let table_a = a.expect("match").await["table"].clone();
    let table_b = b.expect("match").await["table"].clone();
    assert_eq!(table_a, table_b);

    let snapshot = a
        .ok(json!({"type": "table.subscribe", "table": table_a}))
        .await;
    let table = &snapshot["table"];
    assert_eq!(table["status"], "playing");
    assert_eq!(table["clock"]["initial_ms"], 300_000);
    let seated: Vec<&str> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user"]["id"].as_str().unwrap())
        .collect();
    assert!(seated.contains(&a.id()) && seated.contains(&b.id()));
    app.stop().await;
}

#[actix_web::test]
async fn a_solo_game_cannot_be_queued_for() {
    let app = TestApp::spawn().await;
    let mut a = app.guest().await;
    a.refused(
        json!({"type": "queue.join", "game": "white-rabbit"}),
        "bad_request",
    )
    .await;
    a.refused(
        json!({"type": "queue.join", "game": "chess"}),
        "bad_request",
    )
    .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_private_table_is_reached_through_its_link_and_refused_without_it() {
    let app = TestApp::spawn().await;
    let mut host = app.guest().await;
    let mut friend = app.guest().await;
    let mut stranger = app.guest().await;
    let table = host
        .create_table(&app, json!({"game": "mill", "private": true}))
        .await;
    let id = table["id"].as_str().unwrap();
    let token = table["invite"]
        .as_str()
        .expect("the host sees the invitation");
    assert!(token.len() >= 20, "the token is unguessable");

    // Not in the lobby, not readable or joinable without the token.
    let (_, lobby) = app.get("/api/tables", None).await;
    assert!(
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != id)
    );
    let (status, _) = app
        .get(&format!("/api/tables/{id}"), Some(&stranger.token))
        .await;
    assert_eq!(status, 403);
    stranger
        .refused(json!({"type": "table.subscribe", "table": id}), "forbidden")
        .await;
    stranger
        .refused(
            json!({"type": "table.subscribe", "table": id, "token": "guess"}),
            "forbidden",
        )
        .await;
    stranger
        .refused(json!({"type": "sit", "table": id}), "forbidden")
        .await;

    // With the link's token it opens, and the friend can sit.
    let (status, _) = app
        .get(
            &format!("/api/tables/{id}?token={token}"),
            Some(&friend.token),
        )
        .await;
    assert_eq!(status, 200);
    let snapshot = friend
        .ok(json!({"type": "table.subscribe", "table": id, "token": token}))
        .await;
    assert_eq!(snapshot["table"]["status"], "open");
    assert!(
        snapshot["table"]["invite"].is_null(),
        "spectators do not see the token"
    );
    friend
        .ok(json!({"type": "sit", "table": id, "token": token}))
        .await;
    let started = friend.expect("table").await;
    assert_eq!(started["table"]["status"], "playing");
    assert_eq!(started["table"]["you"], "b");
    host.forget();
    app.stop().await;
}

#[actix_web::test]
async fn a_spectator_watches_but_cannot_move() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    let mut spectator = app.guest().await;
    let snapshot = spectator
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    assert!(snapshot["table"]["you"].is_null());
    assert_eq!(snapshot["table"]["to_move"], "a");
    assert_eq!(
        snapshot["table"]["legal"],
        json!([]),
        "the legal list is the players'"
    );
    spectator
        .refused(
            json!({"type": "move", "table": seen.table, "move": "c3"}),
            "not_seated",
        )
        .await;
    spectator
        .refused(json!({"type": "resign", "table": seen.table}), "not_seated")
        .await;
    a.ok(json!({"type": "move", "table": seen.table, "move": "c3"}))
        .await;
    let event = spectator.expect("move").await;
    assert_eq!(event["move"], "c3");
    assert_eq!(event["ply"], 1);
    assert_eq!(event["to_move"], "b");
    assert_eq!(event["legal"], json!([]));
    // Only the side to move gets its legal list, in the same event; the player who just
    // moved gets the event without it.
    let moved = a.expect("move").await;
    assert_eq!(moved["ply"], 1);
    assert_eq!(moved["legal"], json!([]), "{moved}");
    let to_move = b.expect("move").await;
    assert_eq!(to_move["ply"], 1);
    assert!(
        !to_move["legal"].as_array().unwrap().is_empty(),
        "{to_move}"
    );
    // A snapshot follows the same rule.
    let waiting = a
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    assert_eq!(waiting["table"]["legal"], json!([]), "{waiting}");
    let moving = b
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    assert!(
        !moving["table"]["legal"].as_array().unwrap().is_empty(),
        "{moving}"
    );
    b.forget();
    app.stop().await;
}

/// Sends `body` under `id` and reads up to its reply, returning what came before it.
async fn before_reply(
    player: &mut Player,
    mut body: serde_json::Value,
    id: u64,
) -> Vec<serde_json::Value> {
    body["id"] = json!(id);
    player.send_text(body.to_string()).await;
    let mut before = Vec::new();
    loop {
        let message = player.next().await;
        if message["id"] == json!(id) {
            assert_ne!(message["type"], "error", "{message}");
            return before;
        }
        before.push(message);
    }
}

#[actix_web::test]
async fn a_reply_comes_before_the_events_its_request_caused() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    let table = seen.table.clone();
    let mut legal = seen.legal.clone();
    let mut spectator = app.guest().await;
    for ply in 0..12u64 {
        let (mover, other) = if ply % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let id = 100_000 + ply;
        let mv = legal[0].clone();
        let body = json!({"type": "move", "table": table, "move": mv, "ply": ply});
        let early = before_reply(mover, body, id).await;
        assert!(
            early.iter().all(|m| m["type"] != "move"),
            "ply {ply}: the move's event came before its ok: {early:?}"
        );
        assert_eq!(mover.expect("move").await["ply"], ply + 1);
        let event = other.expect("move").await;
        assert_eq!(event["ply"], ply + 1);
        legal = serde_json::from_value(event["legal"].clone()).unwrap();
        if ply == 5 {
            // A subscription's snapshot comes before the table's next event.
            let subscribe = json!({"type": "table.subscribe", "table": table});
            let early = before_reply(&mut spectator, subscribe, 200_000).await;
            assert!(early.iter().all(|m| m["type"] != "move"), "{early:?}");
        }
    }
    assert_eq!(spectator.expect("move").await["ply"], 7);
    app.stop().await;
}

#[actix_web::test]
async fn an_agreed_draw_ends_the_game() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, mut seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    // Before both sides have moved, an ending is an abort: one move each first.
    one_move_each(&mut a, &mut b, &mut seen).await;
    b.refused(
        json!({"type": "draw.accept", "table": seen.table}),
        "wrong_state",
    )
    .await;
    a.ok(json!({"type": "draw.offer", "table": seen.table}))
        .await;
    let offer = b.expect("offer").await;
    assert_eq!(offer["kind"], "draw");
    assert_eq!(offer["by"], "a");
    b.ok(json!({"type": "draw.accept", "table": seen.table}))
        .await;
    for player in [&mut a, &mut b] {
        let end = player.expect("end").await;
        assert_eq!(end["result"], "draw");
        assert_eq!(end["reason"], "agreement");
    }
    // Over means over.
    a.refused(
        json!({"type": "move", "table": seen.table, "move": "d2"}),
        "wrong_state",
    )
    .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_declined_draw_offer_lets_the_game_go_on() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    a.ok(json!({"type": "draw.offer", "table": seen.table}))
        .await;
    assert_eq!(
        a.expect("offer").await["by"],
        "a",
        "everyone hears of the offer"
    );
    b.expect("offer").await;
    b.ok(json!({"type": "draw.decline", "table": seen.table}))
        .await;
    let cleared = a.expect("offer").await;
    assert!(cleared["by"].is_null());
    a.ok(json!({"type": "move", "table": seen.table, "move": "d2"}))
        .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_resignation_gives_the_game_to_the_opponent_and_a_rematch_swaps_seats() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, mut seen) =
        two_at_a_table(&app, json!({"game": "tumbleweed", "variant": "hex6"})).await;
    one_move_each(&mut a, &mut b, &mut seen).await;
    b.ok(json!({"type": "resign", "table": seen.table})).await;
    let end = a.expect("end").await;
    assert_eq!(end["result"], "a");
    assert_eq!(end["reason"], "resign");
    b.expect("end").await;

    a.ok(json!({"type": "rematch.offer", "table": seen.table}))
        .await;
    b.expect("offer").await;
    b.ok(json!({"type": "rematch.accept", "table": seen.table}))
        .await;
    let next = a.expect("rematch").await["next"]
        .as_str()
        .unwrap()
        .to_string();
    let snapshot = a
        .ok(json!({"type": "table.subscribe", "table": next}))
        .await;
    assert_eq!(snapshot["table"]["status"], "playing");
    assert_eq!(snapshot["table"]["you"], "b", "seats swap in a rematch");
    app.stop().await;
}

#[actix_web::test]
async fn a_restarted_table_remembers_its_rematch_and_starts_no_second_one() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    b.ok(json!({"type": "resign", "table": seen.table})).await;
    a.ok(json!({"type": "rematch.offer", "table": seen.table}))
        .await;
    b.ok(json!({"type": "rematch.accept", "table": seen.table}))
        .await;
    let next = a.expect("rematch").await["next"]
        .as_str()
        .unwrap()
        .to_string();
    let tokens = [
        (a.token.clone(), a.user.clone()),
        (b.token.clone(), b.user.clone()),
    ];
    drop((a, b));
    let db = app.stop().await;

    let app = TestApp::spawn_on(db).await;
    let mut a = Player::connect(&app, tokens[0].0.clone(), tokens[0].1.clone()).await;
    let snapshot = a
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    assert_eq!(snapshot["table"]["rematch"], next.as_str(), "{snapshot}");
    let again = a
        .request(json!({"type": "rematch.offer", "table": seen.table}))
        .await;
    assert_eq!(again["code"], "wrong_state", "{again}");
    app.stop().await;
}

#[actix_web::test]
async fn a_public_table_nobody_joins_closes_and_leaves_the_lobby() {
    let app = TestApp::spawn().await;
    let host = app.guest().await;
    let table = host.create_table(&app, json!({"game": "mill"})).await;
    let id = table["id"].as_str().unwrap().to_string();
    let (_, lobby) = app.get("/api/tables", None).await;
    assert!(lobby["tables"].to_string().contains(&id), "{lobby}");
    drop(host);
    let db = app.stop().await;
    // An hour passes (the table's creation is moved back), and the server starts again.
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&db.url()).await.unwrap();
        sqlx::query("UPDATE games SET created_at = created_at - 3600000 WHERE id = $1")
            .bind(&id)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let app = TestApp::spawn_on(db).await;
    let mut closed = None;
    for _ in 0..50 {
        let (_, record) = app.get(&format!("/api/records/{id}"), None).await;
        if record["status"] == "aborted" {
            closed = Some(record);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let record = closed.expect("the expired table closes");
    assert_eq!(record["reason"], "expired", "{record}");
    let (_, lobby) = app.get("/api/tables", None).await;
    assert!(!lobby["tables"].to_string().contains(&id), "{lobby}");
    app.stop().await;
}

#[actix_web::test]
async fn a_game_can_be_aborted_only_before_both_sides_moved() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    a.ok(json!({"type": "move", "table": seen.table, "move": "a1"}))
        .await;
    b.ok(json!({"type": "abort", "table": seen.table})).await;
    let end = a.expect("end").await;
    assert_eq!(end["status"], "aborted");
    assert!(end["result"].is_null());

    let (mut c, mut d, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    c.ok(json!({"type": "move", "table": seen.table, "move": "a1"}))
        .await;
    d.ok(json!({"type": "move", "table": seen.table, "move": "a2"}))
        .await;
    c.refused(json!({"type": "abort", "table": seen.table}), "wrong_state")
        .await;
    app.stop().await;
}

#[actix_web::test]
async fn the_flag_falls_on_time_even_when_nobody_sends_anything() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(
        &app,
        json!({"game": "cephalopod", "clock": {"initial": 1, "increment": 0}}),
    )
    .await;
    a.ok(json!({"type": "move", "table": seen.table, "move": "a1"}))
        .await;
    b.ok(json!({"type": "move", "table": seen.table, "move": "e5"}))
        .await;
    // Both have moved: a's clock runs out in one second with nobody saying anything.
    let end = tokio::time::timeout(Duration::from_secs(5), a.expect("end"))
        .await
        .expect("the flag falls");
    assert_eq!(end["reason"], "time");
    assert_eq!(end["result"], "b");
    b.expect("end").await;
    let (_, record) = app.get(&format!("/api/records/{}", seen.table), None).await;
    assert_eq!(record["reason"], "time");
    app.stop().await;
}

#[actix_web::test]
async fn a_reconnecting_player_receives_the_moves_it_missed() {
    let app = TestApp::spawn().await;
    let (mut a, b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    let (b_token, b_user) = (b.token.clone(), b.user.clone());
    let mut b = b;
    a.ok(json!({"type": "move", "table": seen.table, "move": "a1"}))
        .await;
    b.ok(json!({"type": "move", "table": seen.table, "move": "e5"}))
        .await;
    b.expect("move").await;
    drop(b); // the network drops

    a.ok(json!({"type": "move", "table": seen.table, "move": "c3"}))
        .await;
    let mut b = Player::connect(&app, b_token, b_user).await;
    let catchup = b
        .ok(json!({"type": "table.subscribe", "table": seen.table, "since": 2}))
        .await;
    assert_eq!(catchup["type"], "catchup");
    let missed = catchup["moves"].as_array().unwrap();
    assert_eq!(missed.len(), 1);
    assert_eq!(missed[0]["ply"], 3);
    assert_eq!(missed[0]["move"], "c3");
    assert_eq!(catchup["state"]["ply"], 3);
    assert_eq!(catchup["state"]["to_move"], "b");
    b.ok(json!({"type": "move", "table": seen.table, "move": "e1", "ply": 3}))
        .await;
    app.stop().await;
}

#[actix_web::test]
async fn chat_reaches_players_and_spectators_with_limits() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    let mut spectator = app.guest().await;
    spectator
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    a.ok(json!({"type": "chat", "table": seen.table, "text": "привет!"}))
        .await;
    for player in [&mut b, &mut spectator] {
        let line = player.expect("chat").await;
        assert_eq!(line["line"]["text"], "привет!");
        assert_eq!(line["line"]["author"], a.user["name"]);
    }
    assert_eq!(
        a.expect("chat").await["line"]["text"],
        "привет!",
        "the writer sees it too"
    );
    b.ok(json!({"type": "chat", "table": seen.table, "text": "hi"}))
        .await;
    assert_eq!(a.expect("chat").await["line"]["text"], "hi");

    a.refused(
        json!({"type": "chat", "table": seen.table, "text": "x".repeat(501)}),
        "too_long",
    )
    .await;
    a.refused(
        json!({"type": "chat", "table": seen.table, "text": "   "}),
        "bad_request",
    )
    .await;
    for i in 0..4 {
        a.ok(json!({"type": "chat", "table": seen.table, "text": format!("{i}")}))
            .await;
    }
    a.refused(
        json!({"type": "chat", "table": seen.table, "text": "spam"}),
        "rate_limited",
    )
    .await;

    // The chat tail is part of a snapshot.
    let snapshot = spectator
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    assert_eq!(snapshot["table"]["chat"][0]["text"], "привет!");
    app.stop().await;
}

#[actix_web::test]
async fn voice_signals_are_relayed_to_the_other_player_only() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    let mut spectator = app.guest().await;
    spectator
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    let offer = json!({"kind": "offer", "sdp": "v=0 fake"});
    a.ok(json!({"type": "voice", "table": seen.table, "signal": offer}))
        .await;
    let got = b.expect("voice").await;
    assert_eq!(got["signal"], offer);
    assert_eq!(got["from"], "a");
    spectator
        .refused(
            json!({"type": "voice", "table": seen.table, "signal": {"kind": "bye"}}),
            "not_seated",
        )
        .await;
    // The spectator got no voice message: its next message is the reply to this ping.
    let pong = spectator.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong");
    app.stop().await;
}

/// Stops the server mid-game and starts it again on the same database: the game goes on from
/// the same ply, with the same players and nothing lost.
pub async fn restart_resumes_the_game(app: TestApp) {
    let (mut a, mut b, seen) = two_at_a_table(
        &app,
        json!({"game": "cephalopod", "clock": {"initial": 600, "increment": 5}}),
    )
    .await;
    for (i, mv) in ["a1", "e5", "c3"].into_iter().enumerate() {
        let player = if i % 2 == 0 { &mut a } else { &mut b };
        player
            .ok(json!({"type": "move", "table": seen.table, "move": mv}))
            .await;
    }
    a.ok(json!({"type": "chat", "table": seen.table, "text": "before the restart"}))
        .await;
    let tokens = [
        (a.token.clone(), a.user.clone()),
        (b.token.clone(), b.user.clone()),
    ];
    drop((a, b));
    let db = app.stop().await;

    let app = TestApp::spawn_on(db).await;
    let mut b = Player::connect(&app, tokens[1].0.clone(), tokens[1].1.clone()).await;
    let snapshot = b
        .ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    let table = &snapshot["table"];
    assert_eq!(table["status"], "playing");
    assert_eq!(table["ply"], 3);
    assert_eq!(table["moves"], json!(["a1", "e5", "c3"]));
    assert_eq!(table["you"], "b");
    assert_eq!(table["to_move"], "b");
    assert_eq!(table["chat"][0]["text"], "before the restart");
    let clock = table["clock"]["remaining_ms"].as_array().unwrap();
    assert!(clock[1].as_i64().unwrap() > 590_000, "{clock:?}");
    assert_eq!(Seen::from_snapshot(table).ply, 3);
    b.ok(json!({"type": "move", "table": seen.table, "move": "e1", "ply": 3}))
        .await;
    let mut a = Player::connect(&app, tokens[0].0.clone(), tokens[0].1.clone()).await;
    a.ok(json!({"type": "table.subscribe", "table": seen.table}))
        .await;
    a.ok(json!({"type": "move", "table": seen.table, "move": "a5", "ply": 4}))
        .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_restart_mid_game_loses_nothing() {
    restart_resumes_the_game(TestApp::spawn().await).await;
}

#[actix_web::test]
async fn the_lobby_lists_open_public_tables_live() {
    let app = TestApp::spawn().await;
    let mut watcher = app.guest().await;
    let mut lobby = LobbyPage::follow(&mut watcher, json!({"type": "lobby.subscribe"})).await;
    let host = app.guest().await;
    let table = host
        .create_table(&app, json!({"game": "perekati", "variant": "long", "clock": {"initial": 180, "increment": 2}}))
        .await;
    let change = lobby.next(&mut watcher).await;
    assert_eq!(change["removed"], json!([]), "{change}");
    let listed = &change["tables"][0];
    assert_eq!(listed["id"], table["id"]);
    assert_eq!(listed["variant"], "long");
    assert_eq!(listed["players"][0], host.user["name"]);
    assert_eq!(change["total"], 1);
    let (_, page) = app.get("/api/tables", None).await;
    assert_eq!(page["tables"][0]["id"], table["id"]);
    assert_eq!(page["total"], 1);

    // Once the seats fill, the table leaves the lobby: the change names only its id.
    let mut guest = app.guest().await;
    guest.ok(json!({"type": "sit", "table": table["id"]})).await;
    let change = lobby.next(&mut watcher).await;
    assert_eq!(change["removed"], json!([table["id"]]), "{change}");
    assert_eq!(change["tables"], json!([]), "{change}");
    assert!(lobby.ids().is_empty(), "{}", lobby.0);
    app.stop().await;
}

#[actix_web::test]
async fn a_lobby_page_follows_its_own_game_and_hears_only_what_changed_on_it() {
    let app = TestApp::spawn().await;
    let mut hosts = Vec::new();
    let mut mills = Vec::new();
    for i in 0..5 {
        let host = app.guest().await;
        let game = if i % 2 == 0 { "mill" } else { "cephalopod" };
        let table = host.create_table(&app, json!({"game": game})).await;
        if game == "mill" {
            mills.push(table["id"].as_str().unwrap().to_string());
        }
        hosts.push(host);
        // Opened in distinct milliseconds, so the newest-first order is the order made.
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    mills.reverse();

    // The first two mill tables of three, newest first.
    let mut watcher = app.guest().await;
    let subscribe = json!({"type": "lobby.subscribe", "game": "mill", "limit": 2});
    let mut page = LobbyPage::follow(&mut watcher, subscribe).await;
    assert_eq!(page.ids(), mills[..2]);
    assert_eq!(page.0["total"], 3);
    let (_, over_http) = app
        .get("/api/tables?game=mill&offset=2&limit=2", None)
        .await;
    assert_eq!(
        over_http["tables"][0]["id"],
        mills[2].as_str(),
        "{over_http}"
    );
    assert_eq!(over_http["total"], 3);

    // A new cephalopod table is not on this page: nothing is sent. A new mill table pushes
    // the oldest of the page off it: one entry in, one id out.
    let host = app.guest().await;
    host.create_table(&app, json!({"game": "cephalopod"})).await;
    let newest = host.create_table(&app, json!({"game": "mill"})).await;
    let change = page.next(&mut watcher).await;
    assert_eq!(change["removed"], json!([mills[1]]), "{change}");
    assert_eq!(change["tables"].as_array().unwrap().len(), 1, "{change}");
    assert_eq!(change["tables"][0]["id"], newest["id"]);
    assert_eq!(change["total"], 4);
    assert_eq!(page.ids(), [newest["id"].as_str().unwrap(), &mills[0]]);

    // A bad page is refused, and the page followed stays as it was.
    watcher
        .refused(
            json!({"type": "lobby.subscribe", "game": "chess"}),
            "bad_request",
        )
        .await;
    watcher
        .refused(
            json!({"type": "lobby.subscribe", "limit": 0}),
            "bad_request",
        )
        .await;
    let (status, _) = app.get("/api/tables?limit=1000", None).await;
    assert_eq!(status, 400);
    let mut guest = app.guest().await;
    guest.ok(json!({"type": "sit", "table": mills[0]})).await;
    let change = page.next(&mut watcher).await;
    assert_eq!(change["removed"], json!([mills[0]]), "{change}");
    assert_eq!(change["tables"][0]["id"], mills[1].as_str(), "{change}");
    assert_eq!(change["total"], 3);
    app.stop().await;
}

#[actix_web::test]
async fn choosing_a_colour_in_tumbleweed_renames_the_seats_for_everyone() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) =
        two_at_a_table(&app, json!({"game": "tumbleweed", "variant": "hex6"})).await;
    a.ok(json!({"type": "move", "table": seen.table, "move": "a1,b1"}))
        .await;
    b.ok(json!({"type": "move", "table": seen.table, "move": "red"}))
        .await;
    for player in [&mut a, &mut b] {
        loop {
            let snapshot = player.expect("table").await;
            if snapshot["table"]["ply"] == 2 {
                let labels: Vec<&str> = snapshot["table"]["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["label"].as_str().unwrap())
                    .collect();
                assert_eq!(labels, ["w", "r"], "b chose red");
                assert_eq!(snapshot["table"]["to_move"], "b", "red moves first");
                break;
            }
        }
    }
    app.stop().await;
}
