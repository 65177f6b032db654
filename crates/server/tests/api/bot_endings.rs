//! Perekati-pole's bots end games as a person would, through the real server: the person sees
//! the bot's draw offer in a game where nothing has come home for long, the bot takes the
//! person's offer there and declines it where the game is still going somewhere, and a bot
//! in a lost race resigns. The games are brought to those positions by writing their moves
//! to the store (as a table with its moves played) and starting the server on it.

use catalog::{AnyGame, Game, Perekati, Seat, VariantId};
use serde_json::{Value, json};

use crate::helpers::{Player, TestApp};

/// A Perekati-pole table of `variant` against an Easy bot, with `moves` written to its record
/// as played, and the server started again on it; the person (side a) watching it.
async fn table_after(variant: &str, moves: &[String]) -> (TestApp, Player, String) {
    let app = TestApp::spawn().await;
    let human = app.guest().await;
    let table = human
        .create_table(
            &app,
            json!({"game": "perekati", "variant": variant, "bot": "easy"}),
        )
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let (token, user) = (human.token.clone(), human.user.clone());
    drop(human);
    let db = app.stop().await;
    let store = store::Store::connect(&db.url()).await.unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let row = store::MoveRow {
            ply: i as u32 + 1,
            mv: mv.clone(),
            played_at: 1_000 + i as i64,
            clock_a_ms: None,
            clock_b_ms: None,
        };
        store.append_move(&id, &row).await.unwrap();
    }
    drop(store);
    let app = TestApp::spawn_on(db).await;
    let mut human = Player::connect(&app, token, user).await;
    let snapshot = human
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    assert_eq!(snapshot["table"]["ply"], moves.len(), "{snapshot}");
    (app, human, id)
}

/// `plies` random moves from the start of the large board that bring nothing home and end
/// nothing: a game where neither side has made progress.
fn quiet_moves(plies: usize, seed: u64) -> Vec<String> {
    let start = Perekati::new(perekati_variant("large"), 0);
    ai::testing::quiet_moves(&start, plies, seed)
        .into_iter()
        .map(|mv| start.format_move(mv))
        .collect()
}

fn perekati_variant(id: &str) -> <Perekati as Game>::Variant {
    let AnyGame::Perekati(game) = AnyGame::new(VariantId::parse("perekati", Some(id)).unwrap(), 0)
    else {
        unreachable!("a Perekati-pole variant")
    };
    game.variant()
}

/// A move of side a that brings nothing home, for the position after `moves`.
fn quiet_reply(moves: &[String]) -> String {
    let variant = VariantId::parse("perekati", Some("large")).unwrap();
    let mut game = AnyGame::new(variant, 0);
    for mv in moves {
        game.play_text(mv).unwrap();
    }
    game.legal_texts()
        .into_iter()
        .find(|mv| {
            let mut next = game.clone();
            next.play_text(mv).unwrap();
            matches!(&next, AnyGame::Perekati(p) if !p.is_over() && p.plies_since_home() > 0)
        })
        .unwrap()
}

/// Reads until the bot's offer (or its withdrawal) or the end comes.
async fn next_offer_or_end(human: &mut Player) -> Value {
    loop {
        let message = human.next().await;
        if message["type"] == "offer" || message["type"] == "end" {
            return message;
        }
    }
}

#[actix_web::test]
async fn a_bot_offers_a_draw_when_nothing_has_come_home_for_long_and_takes_one() {
    // 80 quiet plies: the person's move makes 81, and the bot, stalled, offers with its
    // answer.
    let mut moves = quiet_moves(ai::perekati_verdict::STALLED_PLIES, 3);
    let (app, mut human, id) = table_after("large", &moves).await;
    let mv = quiet_reply(&moves);
    human
        .ok(json!({"type": "move", "table": id, "move": mv, "ply": moves.len()}))
        .await;
    moves.push(mv);
    let offer = next_offer_or_end(&mut human).await;
    assert_eq!(
        offer,
        json!({"type": "offer", "table": id, "kind": "draw", "by": "b"})
    );
    let snapshot = human
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    assert_eq!(snapshot["table"]["draw_offer"], "b", "{snapshot}");
    // The person takes it: the game ends drawn by agreement and is recorded so.
    human.ok(json!({"type": "draw.accept", "table": id})).await;
    let end = human.expect("end").await;
    assert_eq!(end["result"], "draw", "{end}");
    assert_eq!(end["reason"], "agreement", "{end}");
    app.stop().await;

    // Offered by the person in the same stalled game, the draw is taken by the bot.
    let moves = quiet_moves(ai::perekati_verdict::STALLED_PLIES + 2, 4);
    let (app, mut human, id) = table_after("large", &moves).await;
    human.ok(json!({"type": "draw.offer", "table": id})).await;
    let mv = quiet_reply(&moves);
    human
        .ok(json!({"type": "move", "table": id, "move": mv, "ply": moves.len()}))
        .await;
    let end = human.expect("end").await;
    assert_eq!(
        (end["result"].as_str(), end["reason"].as_str()),
        (Some("draw"), Some("agreement")),
        "{end}"
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_bot_declines_a_draw_in_a_game_that_is_going_somewhere() {
    let (app, mut human, id) = table_after("large", &[]).await;
    human.ok(json!({"type": "draw.offer", "table": id})).await;
    human
        .ok(json!({"type": "move", "table": id, "move": "c1c2", "ply": 0}))
        .await;
    // The bot answers with a move, which declines the offer.
    let answer = loop {
        let message = human.next().await;
        assert_ne!(message["type"], "end", "{message}");
        if message["type"] == "move" && message["by"] == "b" {
            break message;
        }
    };
    assert_eq!(answer["ply"], 2, "{answer}");
    let snapshot = human
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let table = &snapshot["table"];
    assert_eq!(
        (table["ply"].as_u64(), table["status"].as_str()),
        (Some(2), Some("playing"))
    );
    assert_eq!(table["draw_offer"], Value::Null, "{table}");
    // Other games' bots still refuse offers outright.
    let mill = human
        .create_table(&app, json!({"game": "mill", "bot": "easy"}))
        .await;
    let mill = mill["id"].as_str().unwrap();
    human
        .refused(json!({"type": "draw.offer", "table": mill}), "wrong_state")
        .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_bot_in_a_lost_race_resigns() {
    // The person (a) plays Hard's moves against the Easy bot: long before a's last cube comes
    // home, the bot sees the race is lost and resigns. Easy plays one move in eight at random,
    // and such a move may bring a position round a third time, which ends the game by the
    // rules before the bot has judged the race: that game proves nothing, and is played again.
    for _ in 0..3 {
        let (end, game) = race_against_easy().await;
        if end["reason"] == "repetition" {
            continue;
        }
        assert_eq!(end["result"], "a", "{end}");
        assert_eq!(end["reason"], "resign", "{end}");
        assert!(!game.is_over(), "the bot resigned a game still going on");
        return;
    }
    panic!("three games in a row ended by repetition before the bot judged the race");
}

/// One game of Hard's moves (side a) against the Easy bot, to its end: the end event and the
/// game as the person saw it.
async fn race_against_easy() -> (Value, AnyGame) {
    let (app, mut human, id) = table_after("malysh", &[]).await;
    let mut game = AnyGame::new(VariantId::parse("perekati", Some("malysh")).unwrap(), 0);
    let mut ply = 0;
    let end = loop {
        assert!(ply < 400, "the bot never resigned");
        if game.to_move() == Some(Seat::A) {
            let budget = ai::Budget::Nodes(20_000);
            let hard = ai::choose_move_within(&game, ai::Level::Hard, budget, 1).unwrap();
            // The person plays on rather than let a position come round a third time, which
            // would end the game by the rules before the bot has judged the race.
            let repeats = |mv: &str| {
                let mut next = game.clone();
                next.play_text(mv).unwrap();
                matches!(&next, AnyGame::Perekati(p)
                    if p.end_rule() == Some(perekati::EndRule::Repetition))
            };
            let mv = if repeats(&hard) {
                game.legal_texts()
                    .into_iter()
                    .find(|mv| !repeats(mv))
                    .unwrap_or(hard)
            } else {
                hard
            };
            human
                .ok(json!({"type": "move", "table": id, "move": mv, "ply": ply}))
                .await;
        }
        let message = loop {
            let m = human.next().await;
            if m["type"] == "move" || m["type"] == "end" {
                break m;
            }
        };
        if message["type"] == "end" {
            break message;
        }
        game.play_text(message["move"].as_str().unwrap()).unwrap();
        ply += 1;
    };
    app.stop().await;
    (end, game)
}

/// Side b's c6 cube steps aside to d5 and side a's c1 cube rolls round to c6, home.
const A_COMES_HOME: [&str; 13] = [
    "c1c2", "c6c5", "c2c3", "c5d5", "c3d3", "a6a5", "d3d4", "a5a6", "d4c4", "b6b5", "c4c5", "b5b6",
    "c5c6",
];

#[actix_web::test]
async fn a_hundred_plies_without_a_cube_coming_home_end_the_game_for_the_leader() {
    // a (the person) brings a cube home, then 97 quiet plies are written; the person's
    // quiet moves and the bot's answers make 100, and the table adjudicates the game to a.
    let variant = perekati_variant("malysh");
    let mut game = Perekati::new(variant, 0);
    let mut moves: Vec<String> = A_COMES_HOME.iter().map(|m| m.to_string()).collect();
    for mv in &moves {
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.home_count(Seat::A), 1);
    for mv in ai::testing::quiet_moves(&game, perekati::NO_PROGRESS_PLIES - 3, 6) {
        moves.push(game.format_move(mv));
        game.make(mv);
    }
    let (app, mut human, id) = table_after("malysh", &moves).await;
    let mut ply = moves.len();
    let mut replay = AnyGame::Perekati(game);
    let end = loop {
        assert!(ply <= moves.len() + 4, "no end by ply {ply}");
        if replay.to_move() == Some(Seat::A) {
            let mv = quiet_reply_to(&replay);
            human
                .ok(json!({"type": "move", "table": id, "move": mv, "ply": ply}))
                .await;
        }
        let message = loop {
            let m = human.next().await;
            if m["type"] == "move" || m["type"] == "end" {
                break m;
            }
        };
        if message["type"] == "end" {
            break message;
        }
        replay.play_text(message["move"].as_str().unwrap()).unwrap();
        ply += 1;
    };
    assert_eq!(
        (end["result"].as_str(), end["reason"].as_str()),
        (Some("a"), Some("noprogress")),
        "{end}"
    );
    let AnyGame::Perekati(game) = &replay else {
        unreachable!()
    };
    assert_eq!(game.plies_since_home(), perekati::NO_PROGRESS_PLIES);
    assert!(!game.is_over(), "an adjudication, not an end by the rules");
    app.stop().await;
}

/// A move of the side to move that brings nothing home and ends nothing by the rules.
fn quiet_reply_to(game: &AnyGame) -> String {
    game.legal_texts()
        .into_iter()
        .find(|mv| {
            let mut next = game.clone();
            next.play_text(mv).unwrap();
            matches!(&next, AnyGame::Perekati(p) if !p.is_over() && p.plies_since_home() > 0)
        })
        .unwrap()
}
