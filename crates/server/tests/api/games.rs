//! Complete games of every game, played through the real API by two (or one) clients.

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

/// A tiny deterministic generator for the test players' choices.
struct Dice(u64);

impl Dice {
    fn pick<'a>(&mut self, moves: &'a [String]) -> &'a str {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        &moves[((self.0 >> 33) % moves.len() as u64) as usize]
    }
}

/// What a test player knows about the table it plays at.
pub struct Seen {
    pub table: String,
    pub game: String,
    pub variant: String,
    pub ply: u64,
    pub position: String,
    pub to_move: Option<String>,
    pub legal: Vec<String>,
    pub truncated: bool,
}

impl Seen {
    pub fn from_snapshot(table: &Value) -> Seen {
        Seen {
            table: table["id"].as_str().unwrap().to_string(),
            game: table["game"].as_str().unwrap().to_string(),
            variant: table["variant"].as_str().unwrap().to_string(),
            ply: table["ply"].as_u64().unwrap(),
            position: table["position"].as_str().unwrap().to_string(),
            to_move: table["to_move"].as_str().map(str::to_string),
            legal: strings(&table["legal"]),
            truncated: table["legal_truncated"].as_bool().unwrap(),
        }
    }

    pub fn update(&mut self, event: &Value) {
        self.ply = event["ply"].as_u64().unwrap();
        self.position = event["position"].as_str().unwrap().to_string();
        self.to_move = event["to_move"].as_str().map(str::to_string);
        self.legal = strings(&event["legal"]);
        self.truncated = event["legal_truncated"].as_bool().unwrap();
    }

    /// The legal moves, computed locally when the server left a huge list out.
    fn legal_moves(&self) -> Vec<String> {
        if !self.truncated {
            return self.legal.clone();
        }
        catalog::AnyGame::from_position(variant_id(&self.game, &self.variant), &self.position, 0)
            .unwrap()
            .legal_texts()
    }
}

fn variant_id(game: &str, variant: &str) -> catalog::VariantId {
    catalog::VariantId::parse(game, Some(variant)).unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// Two guests at a new table of `game`: the first creates it, the second sits down.
pub async fn two_at_a_table(app: &TestApp, create: Value) -> (Player, Player, Seen) {
    let mut a = app.guest().await;
    let mut b = app.guest().await;
    let table = a.create_table(app, create).await;
    let id = table["id"].as_str().unwrap().to_string();
    let token = table["invite"].clone();
    a.ok(json!({"type": "table.subscribe", "table": id})).await;
    b.ok(json!({"type": "table.subscribe", "table": id, "token": token}))
        .await;
    b.ok(json!({"type": "sit", "table": id, "token": token}))
        .await;
    let started = a.expect("table").await;
    assert_eq!(started["table"]["status"], "playing");
    let seen_b = b.expect("table").await;
    assert_eq!(seen_b["table"]["you"], "b");
    a.forget();
    b.forget();
    (a, b, Seen::from_snapshot(&started["table"]))
}

/// `a` then `b` play their first legal move, so that an ending after it counts (before both
/// sides have moved it would be an abort).
pub async fn one_move_each(a: &mut Player, b: &mut Player, seen: &mut Seen) {
    // Each move's event carries the legal moves to the player who moves next.
    let mv = seen.legal_moves()[0].clone();
    a.ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    seen.update(&b.expect("move").await);
    let mv = seen.legal_moves()[0].clone();
    b.ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    seen.update(&a.expect("move").await);
    a.forget();
    b.forget();
}

/// Plays moves chosen by `choose` until the game ends; every move is checked to reach both
/// players with the same ply. Returns the `end` message.
pub async fn play_out(
    players: &mut [&mut Player],
    seen: &mut Seen,
    mut choose: impl FnMut(&Seen, &[String]) -> String,
    max_plies: u64,
) -> Value {
    while let Some(seat) = seen.to_move.clone() {
        assert!(
            seen.ply < max_plies,
            "{} did not end in {max_plies} plies",
            seen.game
        );
        let mover = if seat == "a" || players.len() == 1 {
            0
        } else {
            1
        };
        let legal = seen.legal_moves();
        let mv = choose(seen, &legal);
        players[mover]
            .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
            .await;
        let mut copies = Vec::new();
        for player in players.iter_mut() {
            let got = player.expect("move").await;
            assert_eq!(got["ply"], json!(seen.ply + 1));
            assert_eq!(got["move"], json!(mv));
            copies.push(got);
        }
        // The copy of the player to move: only it carries the legal list (or its mark).
        let carries = |c: &&Value| {
            c["legal"].as_array().is_some_and(|l| !l.is_empty()) || c["legal_truncated"] == true
        };
        seen.update(copies.iter().find(carries).unwrap_or(&copies[0]));
    }
    let mut end = Value::Null;
    for player in players.iter_mut() {
        end = player.expect("end").await;
        assert_eq!(end["status"], "finished");
    }
    end
}

/// A repetition draw in eight plies: one cube each steps forward and back twice.
fn perekati_script(seen: &Seen, _: &[String]) -> String {
    ["c1c2", "c6c5", "c2c1", "c5c6"][(seen.ply % 4) as usize].to_string()
}

async fn complete_game(app: &TestApp, game: &str, variant: &str) -> (Value, String) {
    let (mut a, mut b, mut seen) =
        two_at_a_table(app, json!({"game": game, "variant": variant})).await;
    let mut dice = Dice(7);
    let end = play_out(
        &mut [&mut a, &mut b],
        &mut seen,
        |seen, legal| match seen.game.as_str() {
            "perekati" => perekati_script(seen, legal),
            // A few placements, then both pass: a short but complete game.
            "tumbleweed" if seen.ply > 20 && legal.iter().any(|m| m == "pass") => "pass".into(),
            _ => dice.pick(legal).to_string(),
        },
        3_000,
    )
    .await;
    (end, seen.table)
}

#[actix_web::test]
async fn every_two_player_game_can_be_played_to_its_end() {
    let app = TestApp::spawn().await;
    for (game, variant) in [
        ("cephalopod", "5x5"),
        ("cephalopod", "3x3"),
        ("mill", "troika"),
        ("tumbleweed", "hex6"),
        ("perekati", "malysh"),
    ] {
        let (end, table) = complete_game(&app, game, variant).await;
        assert!(end["result"].is_string(), "{game}: {end}");
        if game == "perekati" {
            assert_eq!(end["reason"], "repetition", "{game}: {end}");
            assert_eq!(end["result"], "draw", "threefold repetition scores 0-0");
        } else {
            assert_eq!(end["reason"], "rules", "{game}: {end}");
        }
        // The finished game is kept as a record that replays to the same end.
        let (status, record) = app.get(&format!("/api/records/{table}"), None).await;
        assert_eq!(status, 200);
        assert_eq!(record["status"], "finished");
        let moves: Vec<&str> = record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let replayed = catalog::AnyGame::replay(
            variant_id(game, variant),
            record["seed"].as_u64().unwrap(),
            moves,
        )
        .unwrap();
        assert!(replayed.is_over());
        let (status, replay) = app
            .get(&format!("/api/records/{table}/positions"), None)
            .await;
        assert_eq!(status, 200);
        let positions = replay["positions"].as_array().unwrap();
        assert_eq!(
            positions.len(),
            record["moves"].as_array().unwrap().len() + 1
        );
        assert_eq!(positions.last().unwrap(), &json!(replayed.position()));
    }
    app.stop().await;
}

#[actix_web::test]
async fn a_white_rabbit_game_starts_at_once_and_is_played_to_its_end() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = solo
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    assert_eq!(table["status"], "playing");
    assert_eq!(table["seats"].as_array().unwrap().len(), 1);
    let id = table["id"].as_str().unwrap();
    let snapshot = solo
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    if seen.to_move.is_none() {
        // A deal that is won before any action: rare, but the rules allow it.
        return;
    }
    let mut dice = Dice(3);
    let end = play_out(
        &mut [&mut solo],
        &mut seen,
        |_, legal| dice.pick(legal).to_string(),
        5_000,
    )
    .await;
    let result = end["result"].as_str().unwrap();
    assert!(result == "lost" || result.starts_with("won "), "{end}");
    app.stop().await;
}

/// The dice of a White Rabbit position by place: (`k1`, 3), one list for the table, one for the
/// hand.
fn rabbit_dice(position: &str) -> [Vec<(String, u8)>; 2] {
    let mut fields = position.split(' ');
    [(); 2].map(|()| {
        fields
            .next()
            .unwrap()
            .split(',')
            .filter(|die| !die.is_empty())
            .map(|die| {
                let (place, value) = die.split_once('=').unwrap();
                (place.to_string(), value.parse().unwrap())
            })
            .collect()
    })
}

/// A move the server must refuse as illegal (sent again when the rate limit answers first:
/// a cheater sends many).
async fn refused_as_illegal(player: &mut Player, table: &str, mv: &str, ply: u64) {
    let body = json!({"type": "move", "table": table, "move": mv, "ply": ply});
    let reply = player.request(body).await;
    assert_eq!(reply["code"], "illegal_move", "{mv}: {reply}");
}

#[actix_web::test]
async fn the_client_never_supplies_dice_values() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    // A deal may be won before any action (rarely): take the first that is not.
    let mut seen = None;
    for _ in 0..10 {
        let table = solo
            .create_table(&app, json!({"game": "white-rabbit"}))
            .await;
        let snapshot = solo
            .ok(json!({"type": "table.subscribe", "table": table["id"]}))
            .await;
        let table = Seen::from_snapshot(&snapshot["table"]);
        if table.to_move.is_some() {
            seen = Some(table);
            break;
        }
    }
    let seen = seen.expect("a deal with something to do");
    let [table_dice, hand_dice] = rabbit_dice(&seen.position);

    // What a cheating client sends: the legal actions with the values it would like attached
    // (the swapped dice, the next roll of the hand), and swaps that would be legal in another
    // deal but are not in this one. A server that took values or legality from the client
    // would play them.
    let mut cheats = Vec::new();
    for action in &seen.legal {
        cheats.push(format!("{action}=6"));
        cheats.push(format!("{action} 6"));
        if let Some((hand, table)) = action.split_once('~') {
            cheats.push(format!("{hand}=6~{table}"));
            cheats.push(format!("{hand}~{table}=1"));
        }
    }
    cheats.push("end k4=6,k5=6,w=6".to_string());
    let other_deals_swaps: Vec<String> = hand_dice
        .iter()
        .flat_map(|(hand, _)| {
            table_dice
                .iter()
                .map(move |(table, _)| format!("{hand}~{table}"))
        })
        .filter(|swap| !seen.legal.contains(swap))
        .collect();
    assert!(!other_deals_swaps.is_empty(), "{}", seen.position);
    cheats.extend(other_deals_swaps);
    for mv in &cheats {
        refused_as_illegal(&mut solo, &seen.table, mv, seen.ply).await;
    }

    // None of them was played: the honest action is the first, and it gives what the rules
    // give from the dealt position (a swap moves dice; it rolls none).
    let honest = seen
        .legal
        .iter()
        .find(|action| action.contains('~'))
        .unwrap_or(&seen.legal[0])
        .clone();
    solo.ok(json!({"type": "move", "table": seen.table, "move": honest, "ply": seen.ply}))
        .await;
    let played = solo.expect("move").await;
    assert_eq!(played["ply"], json!(seen.ply + 1));
    if honest.contains('~') {
        let mut game = catalog::AnyGame::from_position(
            variant_id(&seen.game, &seen.variant),
            &seen.position,
            0,
        )
        .unwrap();
        game.play_texts([honest.as_str()]).unwrap();
        assert_eq!(played["position"], json!(game.position()));
        // The die just brought into the hand may be rerolled: never to a value of the
        // client's choosing.
        for value in 1..=6 {
            for mv in [format!("reroll={value}"), format!("reroll {value}")] {
                refused_as_illegal(&mut solo, &seen.table, &mv, seen.ply + 1).await;
            }
        }
    }
    app.stop().await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn a_complete_game_and_a_restart_work_on_postgresql() {
    let app = TestApp::spawn_on(Db::postgres().await).await;
    let (end, _) = complete_game(&app, "cephalopod", "3x3").await;
    assert_eq!(end["reason"], "rules");
    crate::tables::restart_resumes_the_game(app).await;
}

#[actix_web::test]
async fn a_full_game_against_each_bot_level_of_each_game() {
    let app = TestApp::spawn().await;
    for (game, variant) in [
        ("cephalopod", "3x3"),
        ("mill", "troika"),
        ("tumbleweed", "hex6"),
        ("perekati", "malysh"),
    ] {
        for level in ["easy", "medium", "hard"] {
            let mut human = app.guest().await;
            let table = human
                .create_table(
                    &app,
                    json!({"game": game, "variant": variant, "bot": level}),
                )
                .await;
            assert_eq!(table["status"], "playing", "a bot table starts at once");
            assert_eq!(table["seats"][1]["bot"], level);
            let id = table["id"].as_str().unwrap();
            let snapshot = human
                .ok(json!({"type": "table.subscribe", "table": id}))
                .await;
            let mut seen = Seen::from_snapshot(&snapshot["table"]);
            let mut dice = Dice(11);
            // The person moves at random (passing in tumbleweed once set up); the bot answers
            // through the same validation and log.
            // A game can also end off the rules' path: a Perekati-pole bot resigns a lost race,
            // and the platform adjudicates a game without progress.
            let end = loop {
                assert!(seen.ply < 5_000, "{game} against {level} did not end");
                if seen.to_move.as_deref() == Some("a") {
                    let legal = seen.legal_moves();
                    let mv = if game == "tumbleweed" && seen.ply >= 2 {
                        "pass".to_string()
                    } else {
                        dice.pick(&legal).to_string()
                    };
                    let reply = human
                        .request(json!({"type": "move", "table": id, "move": mv, "ply": seen.ply}))
                        .await;
                    // The bot's last move may have ended the game (an adjudication follows
                    // the move it ends): the end is on its way.
                    if reply["type"] == "error" {
                        assert_eq!(reply["code"], "wrong_state", "{reply}");
                        break human.expect("end").await;
                    }
                }
                let event = loop {
                    let m = human.next().await;
                    if m["type"] == "move" || m["type"] == "end" {
                        break m;
                    }
                };
                if event["type"] == "end" {
                    break event;
                }
                seen.update(&event);
            };
            // Perekati-pole's blocked side and threefold repetition have reasons of their own.
            let by_rules = ["rules", "blocked", "repetition", "noprogress", "resign"];
            assert!(
                by_rules.contains(&end["reason"].as_str().unwrap_or_default()),
                "{game} against {level}: {end}"
            );
            let (_, record) = app.get(&format!("/api/records/{id}"), None).await;
            assert_eq!(record["status"], "finished");
        }
    }
    app.stop().await;
}

/// A server stopped after storing a game's last move but before storing its ending leaves a
/// game over by the rules that the database still calls playing; the restarted server ends it
/// with the same result rather than keep a table nobody can move at, with no clock running.
#[actix_web::test]
async fn a_game_whose_ending_was_not_stored_is_ended_when_the_server_comes_back() {
    use sqlx::Connection;
    let app = TestApp::spawn().await;
    let (end, table) = complete_game(&app, "cephalopod", "3x3").await;
    let db = app.stop().await;
    let path = db.url().trim_start_matches("sqlite://").to_string();
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let undone = sqlx::query(
        "UPDATE games SET status = 'playing', result = NULL, end_reason = NULL, \
         finished_at = NULL WHERE id = $1",
    )
    .bind(&table)
    .execute(&mut conn)
    .await
    .unwrap();
    assert_eq!(undone.rows_affected(), 1);
    conn.close().await.unwrap();

    let app = TestApp::spawn_on(db).await;
    let mut watcher = app.guest().await;
    let snapshot = watcher
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    assert_eq!(snapshot["table"]["status"], "finished", "{snapshot}");
    assert_eq!(snapshot["table"]["result"], end["result"]);
    assert_eq!(snapshot["table"]["reason"], "rules");
    let (status, record) = app.get(&format!("/api/records/{table}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["status"], "finished");
    assert_eq!(record["result"], end["result"]);
    app.stop().await;
}
