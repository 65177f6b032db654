//! Berserk in an arena end to end: a player goes berserk over the socket before their first
//! move, their clock is halved and gets no increment while the opponent's does, a berserk
//! player's win that lasted scores the extra point in the standings, and berserk is refused
//! after the first move, twice, at a table that is not an arena's, and in an arena without it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

/// A minute of the tournaments' calendar in these tests: a 5-minute arena lasts 30 s.
const MINUTE: Duration = Duration::from_secs(6);

/// A Cephalopod 3×3 arena of one minute and ten seconds a move, starting now; `berserk` as
/// the organiser chooses.
async fn create_arena(app: &TestApp, creator: &Player, berserk: bool) -> String {
    let (status, body) = app
        .post(
            "/api/tournaments",
            Some(&creator.token),
            json!({"game": "cephalopod", "variant": "3x3", "initial": 60, "increment": 10,
                   "minutes": 5, "starts_in": 0, "berserk": berserk}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// Both players join arena `id`; the table they are paired at.
async fn paired(app: &TestApp, id: &str, players: [&mut Player; 2]) -> String {
    let mut tables = Vec::new();
    for player in &players {
        let (status, body) = app
            .post(
                &format!("/api/tournaments/{id}/join"),
                Some(&player.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 204, "{body}");
    }
    for player in players {
        let paired = player.expect("tournament.game").await;
        tables.push(paired["table"].as_str().unwrap().to_string());
    }
    assert_eq!(tables[0], tables[1]);
    tables.remove(0)
}

/// Plays the first legal move for `player` at `table` and returns the move event it causes.
async fn first_move(player: &mut Player, table: &str, snapshot: &Value) -> Value {
    let mv = snapshot["legal"][0].as_str().unwrap().to_string();
    let ply = snapshot["ply"].as_u64().unwrap();
    player
        .ok(json!({"type": "move", "table": table, "move": mv, "ply": ply}))
        .await;
    loop {
        let event = player.expect("move").await;
        if event["ply"] == ply + 1 {
            return event;
        }
    }
}

/// The table as `player` sees it now.
async fn look(player: &mut Player, table: &str) -> Value {
    // What was read before is older than the snapshot.
    player.forget();
    let _ = player
        .request(json!({"type": "table.unsubscribe", "table": table}))
        .await;
    let reply = player
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    reply["table"].clone()
}

/// The standings' line of `player`, once it holds `games` games.
async fn line_with_games(app: &TestApp, id: &str, player: &str, games: usize) -> Value {
    for _ in 0..100 {
        let (status, page) = app.get(&format!("/api/tournaments/{id}"), None).await;
        assert_eq!(status, 200, "{page}");
        let line = page["standings"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|line| line["player"] == player)
            .cloned();
        if let Some(line) = line
            && line["scores"].as_array().unwrap().len() >= games
        {
            return line;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("{player} never had {games} games in the standings");
}

#[actix_web::test]
async fn a_berserk_win_halves_the_clock_drops_the_increment_and_scores_an_extra_point() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut ann = app.account("berserk_ann").await;
    let mut bob = app.account("berserk_bob").await;
    let id = create_arena(&app, &ann, true).await;
    let table = paired(&app, &id, [&mut ann, &mut bob]).await;
    let view = look(&mut ann, &table).await;
    // Seat A moves first: `first` goes berserk, `second` does not.
    let (mut first, mut second) = match view["you"].as_str() {
        Some("a") => (ann, bob),
        _ => (bob, ann),
    };
    let before = look(&mut first, &table).await;
    assert_eq!(before["berserk"]["can"], true, "{before}");
    assert_eq!(before["berserk"]["seats"], json!([false, false]));
    assert_eq!(before["clock"]["remaining_ms"], json!([60_000, 60_000]));
    look(&mut second, &table).await;

    first.ok(json!({"type": "berserk", "table": table})).await;
    let told = second.expect("berserk").await;
    assert_eq!(told["seat"], "a", "{told}");
    assert_eq!(
        told["clock"]["remaining_ms"],
        json!([30_000, 60_000]),
        "{told}"
    );
    let again = first
        .refused(json!({"type": "berserk", "table": table}), "wrong_state")
        .await;
    assert!(
        again["message"].as_str().unwrap().contains("already"),
        "{again}"
    );
    let seen = look(&mut second, &table).await;
    assert_eq!(seen["berserk"]["seats"], json!([true, false]), "{seen}");

    // Plies 1 and 2 start the clocks; from ply 3 each move is charged.
    let view = look(&mut first, &table).await;
    first_move(&mut first, &table, &view).await;
    let view = look(&mut second, &table).await;
    first_move(&mut second, &table, &view).await;
    let late = second
        .refused(json!({"type": "berserk", "table": table}), "wrong_state")
        .await;
    assert!(
        late["message"].as_str().unwrap().contains("too late"),
        "{late}"
    );
    let view = look(&mut first, &table).await;
    let third = first_move(&mut first, &table, &view).await;
    let berserk_left = third["clock"][0].as_i64().unwrap();
    assert!(
        berserk_left <= 30_000,
        "no increment for the berserk seat: {third}"
    );
    let view = look(&mut second, &table).await;
    let fourth = first_move(&mut second, &table, &view).await;
    let plain_left = fourth["clock"][1].as_i64().unwrap();
    // Ten seconds of increment: more than it started with, unless it thought for 10 s.
    assert!(
        plain_left > 60_000,
        "the increment for the other seat: {fourth}"
    );
    let view = look(&mut first, &table).await;
    first_move(&mut first, &table, &view).await;
    let view = look(&mut second, &table).await;
    first_move(&mut second, &table, &view).await;

    // Six plies, more than Cephalopod 3×3's five for the berserk point: the other resigns.
    second.ok(json!({"type": "resign", "table": table})).await;
    let winner = first.id().to_string();
    let loser = second.id().to_string();
    let line = line_with_games(&app, &id, &winner, 1).await;
    assert_eq!(line["points"], 3, "a win and the berserk point: {line}");
    assert_eq!(line["scores"][0]["berserk"], true, "{line}");
    assert_eq!(line["scores"][0]["berserk_bonus"], true, "{line}");
    let line = line_with_games(&app, &id, &loser, 1).await;
    assert_eq!(line["points"], 0, "{line}");
    assert_eq!(line["scores"][0]["berserk"], false, "{line}");
}

#[actix_web::test]
async fn berserk_is_refused_where_no_arena_allows_it() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut cyd = app.account("berserk_cyd").await;
    let mut dee = app.account("berserk_dee").await;
    // An ordinary table against a bot: no arena, no berserk.
    let plain = cyd
        .create_table(
            &app,
            json!({"game": "mill", "bot": "easy", "clock": {"initial": 60, "increment": 0}}),
        )
        .await;
    let plain = plain["id"].as_str().unwrap().to_string();
    let view = look(&mut cyd, &plain).await;
    assert!(view.get("berserk").is_none(), "{view}");
    let refused = cyd
        .refused(json!({"type": "berserk", "table": plain}), "wrong_state")
        .await;
    assert!(
        refused["message"].as_str().unwrap().contains("arena"),
        "{refused}"
    );

    // An arena whose organiser did not allow it.
    let id = create_arena(&app, &cyd, false).await;
    let table = paired(&app, &id, [&mut cyd, &mut dee]).await;
    let view = look(&mut cyd, &table).await;
    assert!(view.get("berserk").is_none(), "{view}");
    let refused = cyd
        .refused(json!({"type": "berserk", "table": table}), "wrong_state")
        .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("does not allow"),
        "{refused}"
    );
    assert_eq!(
        look(&mut cyd, &table).await["clock"]["remaining_ms"],
        json!([60_000, 60_000])
    );
}

#[actix_web::test]
async fn a_restart_keeps_who_went_berserk_and_the_halved_clock() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut eve = app.account("berserk_eve").await;
    let mut fay = app.account("berserk_fay").await;
    let id = create_arena(&app, &eve, true).await;
    let table = paired(&app, &id, [&mut eve, &mut fay]).await;
    let view = look(&mut eve, &table).await;
    let (mut first, second) = match view["you"].as_str() {
        Some("a") => (eve, fay),
        _ => (fay, eve),
    };
    look(&mut first, &table).await;
    first.ok(json!({"type": "berserk", "table": table})).await;
    let (token, user) = (first.token.clone(), first.user.clone());
    first.close().await;
    second.close().await;
    let db = app.stop().await;
    let app = TestApp::spawn_tuned(db, |config| config.tournament_minute = MINUTE).await;
    let mut first = Player::connect(&app, token, user).await;
    let after = look(&mut first, &table).await;
    assert_eq!(after["berserk"]["seats"], json!([true, false]), "{after}");
    assert_eq!(after["berserk"]["can"], false, "{after}");
    assert_eq!(
        after["clock"]["remaining_ms"],
        json!([30_000, 60_000]),
        "{after}"
    );
    app.stop().await;
}
