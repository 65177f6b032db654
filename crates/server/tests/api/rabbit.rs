//! White Rabbit at the server: hints from the solver at a live table, and the daily deal.
//! (Over 600 lines: every daily-deal rule needs a server and a played-out deal to show it.)

use serde_json::{Value, json};

use crate::games::{Seen, play_out};
use crate::helpers::TestApp;

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn hints_rank_every_legal_action_of_a_live_table() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = solo
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    if table["status"] != "playing" {
        return; // a deal won before any action: nothing to hint
    }
    let id = table["id"].as_str().unwrap();
    let path = format!("/api/tables/{id}/hints");

    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], id);
    assert_eq!(body["ply"], 0);
    let hints = body["hints"].as_array().unwrap();
    let mut hinted: Vec<String> = hints
        .iter()
        .map(|h| h["action"].as_str().unwrap().to_string())
        .collect();
    let mut legal = strings(&table["legal"]);
    hinted.sort();
    legal.sort();
    assert_eq!(hinted, legal, "one hint per legal action");
    assert_eq!(body["exact"], false, "no tables: hint mode");
    assert_ranked(&body);
    for h in hints {
        let win = h["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "{h}");
        assert!(h["score"].as_f64().unwrap() >= 0.0, "{h}");
        assert!(h["actions"].as_f64().unwrap() >= 1.0, "{h}");
    }

    // The best action is a move the table accepts; the next hints are for the next ply.
    let best = hints[0]["action"].as_str().unwrap();
    solo.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    solo.ok(json!({"type": "move", "table": id, "move": best, "ply": 0}))
        .await;
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    if status == 200 {
        assert_eq!(body["ply"], 1, "{body}");
    } else {
        assert_eq!(
            body["code"], "wrong_state",
            "only a won game has no hints: {body}"
        );
    }
    app.stop().await;
}

/// Following the server's first hint never goes round a loop: no position comes back within
/// a turn, and the deal ends.
#[actix_web::test]
async fn the_first_hint_never_leads_back_to_a_position_of_the_same_turn() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    for _ in 0..2 {
        let table = solo
            .create_table(&app, json!({"game": "white-rabbit"}))
            .await;
        let id = table["id"].as_str().unwrap().to_string();
        let snapshot = solo
            .ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        let mut seen = Seen::from_snapshot(&snapshot["table"]);
        let mut this_turn = std::collections::HashSet::from([seen.position.clone()]);
        while seen.to_move.is_some() {
            assert!(seen.ply < 2_000, "the deal did not end in 2,000 actions");
            let (status, body) = app
                .get(&format!("/api/tables/{id}/hints"), Some(&solo.token))
                .await;
            assert_eq!(status, 200, "{body}");
            assert_ranked(&body);
            let best = body["hints"][0]["action"].as_str().unwrap().to_string();
            solo.ok(json!({"type": "move", "table": id, "move": best, "ply": seen.ply}))
                .await;
            let event = solo.expect("move").await;
            seen.update(&event);
            if best == "end" {
                this_turn.clear();
            }
            assert!(
                this_turn.insert(seen.position.clone()),
                "{best} led back to {} within one turn",
                seen.position
            );
        }
        solo.expect("end").await;
    }
    app.stop().await;
}

fn assert_ranked(body: &Value) {
    let hints = body["hints"].as_array().unwrap();
    let repeats: Vec<bool> = hints
        .iter()
        .map(|h| h["repeats"].as_bool().expect("repeats"))
        .collect();
    assert!(
        repeats.windows(2).all(|w| w[0] <= w[1]),
        "what leads back to this turn's positions comes last: {body}"
    );
    assert_ranked_by_the_one_order(body);
}

/// The answer names its ranking, the same for exact values and hint mode's estimates, and
/// follows exactly that: win probability, then expected score (higher first), then expected
/// actions (fewer first), each on the solver's grid of 1e-9. So no line below the first shows
/// better numbers than it.
pub(crate) fn assert_ranked_by_the_one_order(body: &Value) {
    let hints = body["hints"].as_array().unwrap();
    assert_eq!(
        body["ranking"],
        json!(["win", "score", "actions"]),
        "{body}"
    );
    let grid = |h: &Value, k: &str| (h[k].as_f64().unwrap() / 1e-9).round();
    for pair in hints.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a["repeats"] != b["repeats"] {
            continue; // each part is ranked on its own
        }
        let order = grid(b, "win")
            .total_cmp(&grid(a, "win"))
            .then(grid(b, "score").total_cmp(&grid(a, "score")))
            .then(grid(a, "actions").total_cmp(&grid(b, "actions")));
        assert_ne!(order, std::cmp::Ordering::Greater, "{a} before {b}");
    }
}

/// A fresh White Rabbit table that is not won at setup, with its player subscribed.
pub(crate) async fn live_table(
    app: &TestApp,
    solo: &mut crate::helpers::Player,
    variant: &str,
) -> Value {
    for _ in 0..20 {
        let table = solo
            .create_table(app, json!({"game": "white-rabbit", "variant": variant}))
            .await;
        if table["status"] == "playing" {
            let id = table["id"].as_str().unwrap();
            solo.ok(json!({"type": "table.subscribe", "table": id}))
                .await;
            return table;
        }
    }
    panic!("twenty deals in a row won at setup");
}

fn empty_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("api-rabbit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// With an empty table directory hints come from hint mode, without waiting for tables, and
/// say so. (A node that does not build: building the full game's level 1 takes minutes, see
/// the ignored test below.)
#[actix_web::test]
async fn a_server_with_an_empty_table_directory_answers_from_hint_mode() {
    let dir = empty_dir("empty");
    let app = TestApp::spawn_with_tables(server::TableSource {
        dir: dir.clone(),
        build: false,
        poll: std::time::Duration::from_millis(100),
        ..server::TableSource::building(std::path::PathBuf::new())
    })
    .await;
    let mut solo = app.guest().await;
    for variant in ["classic", "no-wrap"] {
        let table = live_table(&app, &mut solo, variant).await;
        let path = format!("/api/tables/{}/hints", table["id"].as_str().unwrap());
        // Answered from hint mode (whose own deadline bounds its time) with nothing built.
        let (status, body) = app.get(&path, Some(&solo.token)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["exact"], false, "{body}");
        assert_ranked(&body);
    }
    app.stop().await;
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `stolik` binary, for comparing with the command (built by `cargo build --bin stolik`;
/// `STOLIK_BIN` names another).
fn stolik_bin() -> std::path::PathBuf {
    let bin = std::env::var_os("STOLIK_BIN").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/debug/stolik"),
        Into::into,
    );
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --bin stolik` first",
        bin.display()
    );
    bin
}

/// `stolik solve white-rabbit --exact` at a position, as its lines `ACTION WIN SCORE ACTIONS`.
fn solve_exact(dir: &std::path::Path, variant: &str, position: &str) -> Vec<String> {
    let out = std::process::Command::new(stolik_bin())
        .args([
            "solve",
            "white-rabbit",
            "--exact",
            "--variant",
            variant,
            "--data",
        ])
        .arg(dir)
        .arg(position)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A hint list printed as the command prints it.
fn as_printed(body: &Value) -> Vec<String> {
    body["hints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            format!(
                "{} {:.6} {:.6} {:.3}",
                h["action"].as_str().unwrap(),
                h["win"].as_f64().unwrap(),
                h["score"].as_f64().unwrap(),
                h["actions"].as_f64().unwrap()
            )
        })
        .collect()
}

/// The full game, classic level 1: a node on an empty table directory answers hint mode at
/// once; while the level is being written beside it (a complete copy under a temporary name,
/// as the solver and other nodes write) it still does; once the file is renamed into place it
/// answers exactly, with the very values `stolik solve white-rabbit --exact` prints for the
/// same positions (a game at green 1 followed by its best hint). The level itself comes from
/// `classic_level_1` (solved at normal priority when missing). The node's own background
/// build is the same code on the full game as on the reduced models of
/// `rabbit_tables::tests`; at nice 19 on a busy machine it can take far longer than minutes.
#[actix_web::test]
#[ignore = "needs the full game's classic level 1 (solved in minutes if missing); run with \
            `cargo build --bin stolik && cargo test -p server --test api -- --ignored \
            exact_hints_equal_the_command`, STOLIK_TEST_RABBIT_TABLES=DIR to use a \
            directory that has it"]
async fn exact_hints_equal_the_command_once_the_level_is_written() {
    use std::time::{Duration, Instant};
    let source = classic_level_1().join("classic-green1.bin");
    let dir = empty_dir("written");
    let app = TestApp::spawn_with_tables(server::TableSource {
        dir: dir.clone(),
        build: false,
        poll: Duration::from_millis(100),
        ..server::TableSource::building(std::path::PathBuf::new())
    })
    .await;
    let mut solo = app.guest().await;
    let table = live_table(&app, &mut solo, "classic").await;
    let id = table["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}/hints");
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!((status, &body["exact"]), (200, &json!(false)), "{body}");
    // Down to green 1, the level about to be written.
    for ply in 0..5 {
        play(&mut solo, &id, ply, "end").await;
    }
    let (_, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(body["exact"], false, "{body}");

    // Written under a temporary name: never read, however many looks the node takes.
    let tmp = dir.join("classic-green1.bin.999-0.tmp");
    std::fs::copy(&source, &tmp).unwrap();
    actix_web::rt::time::sleep(Duration::from_secs(2)).await;
    let (_, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(body["exact"], false, "a temporary file was read: {body}");
    // Renamed into place: used at the next look.
    let level = dir.join("classic-green1.bin");
    std::fs::rename(&tmp, &level).unwrap();
    let t = Instant::now();
    loop {
        let (_, body) = app.get(&path, Some(&solo.token)).await;
        if body["exact"] == true {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "written but not used: {body}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("level used {:?} after the rename", t.elapsed());

    let (mut ply, mut compared) = (5, 0);
    loop {
        let (_, view) = app
            .get(&format!("/api/tables/{id}"), Some(&solo.token))
            .await;
        if view["status"] != "playing" || compared == 40 {
            break;
        }
        let (status, body) = app.get(&path, Some(&solo.token)).await;
        assert_eq!((status, &body["exact"]), (200, &json!(true)), "{body}");
        assert_ranked(&body);
        let position = view["position"].as_str().unwrap();
        assert_eq!(
            as_printed(&body),
            solve_exact(&dir, "classic", position),
            "at {position}"
        );
        compared += 1;
        let best = body["hints"][0]["action"].as_str().unwrap().to_string();
        play(&mut solo, &id, ply, &best).await;
        ply += 1;
    }
    eprintln!("{compared} positions compared with stolik solve --exact");
    assert!(compared > 0);
    app.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[actix_web::test]
async fn hints_are_only_for_the_player_of_a_white_rabbit_game() {
    let app = TestApp::spawn().await;
    let solo = app.guest().await;
    let stranger = app.guest().await;
    let table = solo
        .create_table(&app, json!({"game": "white-rabbit"}))
        .await;
    let path = format!("/api/tables/{}/hints", table["id"].as_str().unwrap());

    let (status, body) = app.get(&path, None).await;
    assert_eq!(
        (status, &body["code"]),
        (401, &json!("unauthorized")),
        "{body}"
    );
    let (status, body) = app.get(&path, Some(&stranger.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (403, &json!("not_seated")),
        "{body}"
    );

    let mill = solo
        .create_table(&app, json!({"game": "mill", "bot": "easy"}))
        .await;
    let path = format!("/api/tables/{}/hints", mill["id"].as_str().unwrap());
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (409, &json!("wrong_state")),
        "{body}"
    );

    let (status, body) = app
        .get("/api/tables/nosuchtable/hints", Some(&solo.token))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (404, &json!("not_found")),
        "{body}"
    );
    app.stop().await;
}

/// The day before `day` (`YYYY-MM-DD`), good enough for tests: days 2..=28 of a month.
pub(crate) fn earlier_day(today: &str, back: u32) -> String {
    let (month, day) = today.rsplit_once('-').unwrap();
    let day: u32 = day.parse().unwrap();
    if day > back {
        format!("{month}-{:02}", day - back)
    } else {
        // Early in a month: use the middle of the year before, which is always in the past.
        let year: i32 = today[..4].parse().unwrap();
        format!("{}-06-{:02}", year - 1, 10 + back)
    }
}

#[actix_web::test]
async fn the_daily_deal_is_the_same_for_everyone_and_one_attempt_a_day() {
    let app = TestApp::spawn().await;
    let ann = app.guest().await;
    let bob = app.guest().await;

    let (status, a) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 201, "{a}");
    let (status, b) = app.post("/api/daily", Some(&bob.token), json!({})).await;
    assert_eq!(status, 201, "{b}");
    let today = a["daily"].as_str().unwrap().to_string();
    assert_eq!(b["daily"], today.as_str());
    assert_eq!(a["game"], "white-rabbit");
    assert_ne!(a["id"], b["id"], "each player has a table of their own");
    assert_eq!(a["position"], b["position"], "the same deal for everyone");
    assert_eq!(
        a["private"], true,
        "nobody watches someone else's daily deal"
    );
    assert_eq!(a["invite"], Value::Null, "and there is no link to share");

    // Asking again returns the same table: no second attempt.
    let (status, again) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], a["id"]);
    let (status, board) = app.get("/api/daily", Some(&ann.token)).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["day"], today.as_str());
    assert_eq!(board["table"], a["id"]);
    assert_eq!(board["leaderboard"], json!([]));

    // A past day is another deal, the same for both players too, played for practice: an
    // unranked table, as many times as one likes.
    let yesterday = earlier_day(&today, 1);
    let (status, ay) = app
        .post("/api/daily", Some(&ann.token), json!({"day": yesterday}))
        .await;
    assert_eq!(status, 201, "{ay}");
    let (_, by) = app
        .post("/api/daily", Some(&bob.token), json!({"day": yesterday}))
        .await;
    assert_eq!(ay["daily"], Value::Null, "practice is not a ranked attempt");
    assert_eq!(ay["position"], by["position"]);
    assert_ne!(ay["position"], a["position"], "a new day, a new deal");
    let (status, again) = app
        .post("/api/daily", Some(&ann.token), json!({"day": yesterday}))
        .await;
    assert_eq!(status, 201, "{again}");
    assert_ne!(again["id"], ay["id"], "practice starts afresh");
    assert_eq!(again["position"], ay["position"]);

    // No hints on the daily deal, and no seed in its record while the day lasts.
    let id = a["id"].as_str().unwrap();
    let (status, body) = app
        .get(&format!("/api/tables/{id}/hints"), Some(&ann.token))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (403, &json!("forbidden")),
        "{body}"
    );
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}

#[actix_web::test]
async fn a_day_to_come_or_a_malformed_day_is_refused() {
    let app = TestApp::spawn().await;
    let ann = app.guest().await;
    // Not written YYYY-MM-DD: a bad request. Written so, but with no deal: not found.
    for (day, status, code) in [
        ("yesterday", 400, "bad_request"),
        ("", 400, "bad_request"),
        ("-9999-01-01", 400, "bad_request"),
        ("2026-1-01", 400, "bad_request"),
        ("2999-01-01", 404, "not_found"),
        ("2026-13-01", 404, "not_found"),
        ("2024-12-31", 404, "not_found"),
    ] {
        let (got, body) = app
            .post("/api/daily", Some(&ann.token), json!({"day": day}))
            .await;
        assert_eq!(
            (got, body["code"].as_str()),
            (status, Some(code)),
            "{day}: {body}"
        );
        let (got, body) = app
            .get(&format!("/api/daily?day={day}"), Some(&ann.token))
            .await;
        assert_eq!(got, status, "{day}: {body}");
    }
    // A body that is not JSON is bad JSON; no body at all, or `null`, is today.
    let mut response = app
        .http()
        .post(format!("{}/api/daily", app.base))
        .bearer_auth(&ann.token)
        .insert_header(("content-type", "application/json"))
        .send_body("\u{0}")
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "bad_json", "{body}");
    let (status, body) = app.post("/api/daily", Some(&ann.token), json!(null)).await;
    assert!(status == 201 || status == 200, "{status} {body}");
    let (status, body) = app.post("/api/daily", None, json!({})).await;
    assert_eq!(status, 401, "{body}");
    app.stop().await;
}

/// The solver's best action for a position the server sent (hint mode, computed here).
fn solver_choice(seen: &Seen) -> String {
    let game = catalog::AnyGame::from_position(
        catalog::VariantId::parse(&seen.game, Some(&seen.variant)).unwrap(),
        &seen.position,
        0,
    )
    .expect("the server's position parses");
    let catalog::AnyGame::WhiteRabbit(game) = game else {
        panic!("not a White Rabbit position");
    };
    rabbit_solver::hints(&game)[0].action.clone()
}

/// Plays a White Rabbit table to its end with the solver's choices; returns the result and
/// the number of actions.
pub(crate) async fn solve_out(player: &mut crate::helpers::Player, table: &str) -> (String, u64) {
    let snapshot = player
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    if seen.to_move.is_none() {
        let result = snapshot["table"]["result"].as_str().unwrap().to_string();
        return (result, seen.ply);
    }
    // Hint mode's best actions can go round a loop of swaps within a turn; a position seen
    // before ends the turn instead (the new roll leads elsewhere).
    let mut been = std::collections::HashSet::new();
    let choose = |s: &Seen, _: &[String]| {
        if been.insert(s.position.clone()) {
            solver_choice(s)
        } else {
            "end".to_string()
        }
    };
    let end = play_out(&mut [player], &mut seen, choose, 20_000).await;
    (end["result"].as_str().unwrap().to_string(), seen.ply)
}

#[actix_web::test]
async fn todays_won_deal_is_ranked_and_practice_on_a_past_day_is_not() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann").await;
    let (status, table) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    assert_eq!(status, 201, "{table}");
    let today = table["daily"].as_str().unwrap().to_string();
    let id = table["id"].as_str().unwrap().to_string();
    let (result, actions) = solve_out(&mut ann, &id).await;
    let (_, board) = app.get("/api/daily", None).await;
    let lines = board["leaderboard"].as_array().unwrap();
    match result.strip_prefix("won ") {
        Some(score) => {
            assert_eq!(lines.len(), 1, "{board}");
            assert_eq!(lines[0]["rank"], 1);
            assert_eq!(lines[0]["user_id"], ann.id());
            assert_eq!(lines[0]["game_id"], id.as_str());
            assert_eq!(lines[0]["score"].to_string(), score);
            assert_eq!(lines[0]["actions"].as_u64(), Some(actions), "{board}");
        }
        // The solver wins nearly every deal; a lost one must not be ranked.
        None => assert!(lines.is_empty(), "a lost deal is not ranked: {board}"),
    }
    // Today's deal keeps its seed hidden even once the player is done: others still play it.
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");

    // A past day's deal, played for practice and won or lost, stays off that day's board.
    let day = earlier_day(&today, 2);
    let (status, practice) = app
        .post("/api/daily", Some(&ann.token), json!({"day": day}))
        .await;
    assert_eq!(status, 201, "{practice}");
    let practice_id = practice["id"].as_str().unwrap().to_string();
    solve_out(&mut ann, &practice_id).await;
    let (_, board) = app.get(&format!("/api/daily?day={day}"), None).await;
    assert_eq!(board["leaderboard"], json!([]), "{board}");
    assert_eq!(board["table"], Value::Null, "{board}");
    // That day's competition is closed, so its seed is shown once the game is over.
    let (_, record) = app
        .get(&format!("/api/records/{practice_id}"), Some(&ann.token))
        .await;
    assert_ne!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}

/// The seed of the daily deal as it once was: a public hash of the day, XORed with a mask.
fn unkeyed_day_hash(day: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in "stolik/white-rabbit/daily/".bytes().chain(day.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    rabbit_solver::hint::mix(h)
}

#[actix_web::test]
async fn the_seeds_of_past_deals_predict_no_other_days_dice() {
    let app = TestApp::spawn().await;
    let mut ann = app.guest().await;
    let (_, board) = app.get("/api/daily", None).await;
    let today = board["today"].as_str().unwrap().to_string();
    // Play and resign three past days, and read their seeds from the records.
    let mut seeds = Vec::new();
    for back in 1..=3 {
        let day = earlier_day(&today, back);
        let (status, table) = app
            .post("/api/daily", Some(&ann.token), json!({"day": day}))
            .await;
        assert_eq!(status, 201, "{table}");
        let id = table["id"].as_str().unwrap().to_string();
        ann.ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        ann.ok(json!({"type": "resign", "table": id})).await;
        let (_, record) = app
            .get(&format!("/api/records/{id}"), Some(&ann.token))
            .await;
        let seed = record["seed"]
            .as_u64()
            .expect("a past deal's seed once over");
        seeds.push((day, seed));
    }
    // Under the old scheme every day shared one XOR mask, so one past day gave away all.
    let masks: Vec<u64> = seeds
        .iter()
        .map(|(day, seed)| seed ^ unkeyed_day_hash(day))
        .collect();
    assert_ne!(masks[0], masks[1], "no shared mask");
    assert_ne!(masks[1], masks[2], "no shared mask");
    // Nor does the difference of two days' seeds carry over to another pair of days.
    assert_ne!(seeds[0].1 ^ seeds[1].1, seeds[1].1 ^ seeds[2].1);
    // And today's table, once finished, still hides today's seed.
    let (_, table) = app.post("/api/daily", Some(&ann.token), json!({})).await;
    let id = table["id"].as_str().unwrap().to_string();
    ann.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    ann.ok(json!({"type": "resign", "table": id})).await;
    let (_, record) = app
        .get(&format!("/api/records/{id}"), Some(&ann.token))
        .await;
    assert_eq!(record["seed"], Value::Null, "{record}");
    app.stop().await;
}

pub(crate) async fn play(solo: &mut crate::helpers::Player, id: &str, ply: u32, mv: &str) {
    solo.ok(json!({"type": "move", "table": id, "move": mv, "ply": ply}))
        .await;
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// The summary adds up the decisions, and each decision's loss is the difference of the best
/// action's values and the taken one's (zero when optimal).
fn assert_review_adds_up(review: &Value) {
    let decisions = review["decisions"].as_array().unwrap();
    let mut total = [0.0; 3];
    let mut optimal = 0;
    for d in decisions {
        let (t, b, l) = (&d["taken"], &d["best"], &d["loss"]);
        let expect = if d["optimal"] == true {
            [0.0; 3]
        } else {
            [
                f(&b["win"]) - f(&t["win"]),
                f(&b["score"]) - f(&t["score"]),
                f(&t["actions"]) - f(&b["actions"]),
            ]
        };
        assert_eq!(
            [f(&l["win"]), f(&l["score"]), f(&l["actions"])],
            expect,
            "{d}"
        );
        for k in 0..3 {
            total[k] += expect[k];
        }
        optimal += (d["optimal"] == true && d["forced"] == false) as u64;
    }
    let s = &review["summary"];
    assert_eq!(s["decisions"], decisions.len());
    assert_eq!(s["optimal"], optimal);
    let l = &s["loss"];
    assert_eq!([f(&l["win"]), f(&l["score"]), f(&l["actions"])], total);
}

/// A finished game's review replays every decision (hint mode here: no tables), flags each
/// as not exact, and adds up; a game in progress has none yet, another game never.
#[actix_web::test]
async fn the_review_of_a_finished_game_judges_every_decision() {
    let app = TestApp::spawn().await;
    let mut solo = app.guest().await;
    let table = live_table(&app, &mut solo, "classic").await;
    let id = table["id"].as_str().unwrap().to_string();
    let path = format!("/api/records/{id}/review");
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (409, &json!("wrong_state")),
        "{body}"
    );
    for ply in 0..6 {
        play(&mut solo, &id, ply, "end").await;
    }
    let (status, review) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(status, 200, "{review}");
    let decisions = review["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 6);
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(d["ply"], i);
        assert_eq!(d["green"], 6 - i);
        assert_eq!(d["taken"]["action"], "end");
        assert_eq!(d["exact"], false, "no tables: hint mode");
    }
    assert_eq!(review["ranking"], json!(["win", "score", "actions"]));
    assert_eq!(
        review["mode"], "estimates",
        "no tables: hint mode, and it says so"
    );
    // Ending the last turn at once loses for sure; something else was better.
    let last = &decisions[5];
    assert_eq!(f(&last["taken"]["win"]), 0.0);
    assert_eq!(last["optimal"], false, "{last}");
    assert_eq!(review["summary"]["exact"], 0);
    assert_review_adds_up(&review);

    let mill = solo
        .create_table(&app, json!({"game": "mill", "bot": "easy"}))
        .await;
    let path = format!("/api/records/{}/review", mill["id"].as_str().unwrap());
    let (status, body) = app.get(&path, Some(&solo.token)).await;
    assert_eq!(
        (status, &body["code"]),
        (409, &json!("wrong_state")),
        "{body}"
    );
    app.stop().await;
}

/// A directory holding the full game's classic level 1: `STOLIK_TEST_RABBIT_TABLES`, or
/// `target/rabbit-tables-test` (solved there first if missing: minutes).
fn classic_level_1() -> std::path::PathBuf {
    let dir = std::env::var_os("STOLIK_TEST_RABBIT_TABLES").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/rabbit-tables-test"),
        Into::into,
    );
    let m = rabbit_solver::Model::of(rabbit_solver::white_rabbit::Variant::Classic);
    let effort = rabbit_solver::tables::Effort::new(&m, 2);
    rabbit_solver::tables::level(&dir, m, 1, effort, &mut |s: &str| eprintln!("{s}"))
        .expect("classic level 1");
    dir
}

/// A practice table on a past day's deal (the same deal every time), not won at setup, moved
/// down to green 1 by ending five turns.
async fn practice_at_green_1(app: &TestApp, solo: &mut crate::helpers::Player) -> (String, u32) {
    let (_, daily) = app.get("/api/daily", Some(&solo.token)).await;
    let today = daily["today"].as_str().unwrap().to_string();
    for back in 1..20 {
        let (status, table) = app
            .post(
                "/api/daily",
                Some(&solo.token),
                json!({"day": earlier_day(&today, back)}),
            )
            .await;
        assert_eq!(status, 201, "{table}");
        if table["status"] == "playing" {
            let id = table["id"].as_str().unwrap().to_string();
            solo.ok(json!({"type": "table.subscribe", "table": id}))
                .await;
            for ply in 0..5 {
                play(solo, &id, ply, "end").await;
            }
            return (id, 5);
        }
    }
    panic!("no past deal in progress after setup");
}

/// Plays a table to its end by the exact hints, but at ply `mistake` (if any) the first
/// listed action that is worse than the best; returns the hint answers met, by ply.
async fn play_by_hints(
    app: &TestApp,
    solo: &mut crate::helpers::Player,
    id: &str,
    mut ply: u32,
    mistake: Option<u32>,
) -> std::collections::HashMap<u32, Value> {
    let mut seen = std::collections::HashMap::new();
    let path = format!("/api/tables/{id}/hints");
    let mut made = false;
    loop {
        let (_, view) = app
            .get(&format!("/api/tables/{id}"), Some(&solo.token))
            .await;
        if view["status"] != "playing" {
            return seen;
        }
        let (status, body) = app.get(&path, Some(&solo.token)).await;
        assert_eq!((status, &body["exact"]), (200, &json!(true)), "{body}");
        let hints = body["hints"].as_array().unwrap();
        let best = &hints[0];
        let worse = |h: &&Value| f(&h["win"]) < f(&best["win"]) - 1e-6;
        let mv = match (mistake, hints.iter().find(worse)) {
            (Some(at), Some(w)) if ply >= at && !made => {
                made = true;
                let mut b = body.clone();
                b["mistake"] = w["action"].clone();
                seen.insert(ply, b);
                w["action"].as_str().unwrap().to_string()
            }
            _ => {
                seen.insert(ply, body.clone());
                best["action"].as_str().unwrap().to_string()
            }
        };
        play(solo, id, ply, &mv).await;
        ply += 1;
    }
}

/// The review of a deal played by the exact hints marks every exact decision optimal with
/// zero loss; the same deal with one deliberate mistake marks that decision alone, with a
/// loss equal to the difference of the two actions' exact values. (Only classic level 1 is
/// solved here, so the five `end`s that bring the deal down to it are judged by hint mode
/// and flagged as such.)
#[actix_web::test]
#[ignore = "needs the full game's classic level 1 (solved in minutes if missing); run with \
            `cargo test -p server --test api -- --ignored a_review_shows`, \
            STOLIK_TEST_RABBIT_TABLES=DIR to use a directory that has it"]
async fn a_review_shows_exact_play_as_optimal_and_prices_one_mistake() {
    let dir = classic_level_1();
    let app = TestApp::spawn_with_tables(server::TableSource {
        dir,
        build: false,
        poll: std::time::Duration::from_millis(100),
        ..server::TableSource::building(std::path::PathBuf::new())
    })
    .await;
    let mut solo = app.guest().await;
    let t = std::time::Instant::now();
    let (id, ply) = loop {
        let (id, ply) = practice_at_green_1(&app, &mut solo).await;
        let (_, body) = app
            .get(&format!("/api/tables/{id}/hints"), Some(&solo.token))
            .await;
        if body["exact"] == true {
            break (id, ply);
        }
        assert!(t.elapsed().as_secs() < 60, "level 1 not loaded: {body}");
        actix_web::rt::time::sleep(std::time::Duration::from_millis(500)).await;
    };
    play_by_hints(&app, &mut solo, &id, ply, None).await;
    let (status, review) = app
        .get(&format!("/api/records/{id}/review"), Some(&solo.token))
        .await;
    assert_eq!(status, 200, "{review}");
    assert_review_adds_up(&review);
    let exact: Vec<&Value> = review["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["exact"] == true)
        .collect();
    assert!(!exact.is_empty());
    for d in &exact {
        assert_eq!(d["green"], 1);
        assert_eq!(d["optimal"], true, "{d}");
        assert_eq!(
            d["loss"],
            json!({"win": 0.0, "score": 0.0, "actions": 0.0}),
            "{d}"
        );
    }

    // The same deal, one mistake: the first decision (at green 1) where an action is worse.
    let (id, ply) = practice_at_green_1(&app, &mut solo).await;
    let seen = play_by_hints(&app, &mut solo, &id, ply, Some(ply)).await;
    let (at, hints) = seen
        .iter()
        .find(|(_, b)| b.get("mistake").is_some_and(|m| m.is_string()))
        .expect("a decision with a worse action");
    let wrong = hints["mistake"].as_str().unwrap();
    let h = |a: &str| {
        hints["hints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["action"] == a)
            .unwrap()
            .clone()
    };
    let (best, taken) = (hints["hints"][0].clone(), h(wrong));
    let (_, review) = app
        .get(&format!("/api/records/{id}/review"), Some(&solo.token))
        .await;
    assert_review_adds_up(&review);
    for d in review["decisions"].as_array().unwrap() {
        if d["exact"] != true {
            continue;
        }
        if d["ply"] == *at {
            assert_eq!(d["taken"]["action"], wrong);
            assert_eq!(d["optimal"], false, "{d}");
            let l = &d["loss"];
            assert_eq!(f(&l["win"]), f(&best["win"]) - f(&taken["win"]), "{d}");
            assert_eq!(
                f(&l["score"]),
                f(&best["score"]) - f(&taken["score"]),
                "{d}"
            );
            assert_eq!(
                f(&l["actions"]),
                f(&taken["actions"]) - f(&best["actions"]),
                "{d}"
            );
            assert!(f(&l["win"]) > 0.0);
        } else {
            assert_eq!(d["optimal"], true, "only the mistake is marked: {d}");
        }
    }
    app.stop().await;
}

/// Without the exact tables the daily deal says nothing of perfect play (no estimate stands
/// in for an exact value).
#[actix_web::test]
async fn the_daily_deal_has_no_perfect_play_value_without_the_tables() {
    let app = TestApp::spawn().await;
    let (status, daily) = app.get("/api/daily", None).await;
    assert_eq!(status, 200, "{daily}");
    assert_eq!(daily["perfect"], json!(null), "{daily}");
    app.stop().await;
}

/// With the full classic tables (levels 1–6) the daily deal shows what perfect play expects
/// of it: the exact values `stolik solve white-rabbit --exact` prints for its first position.
#[actix_web::test]
#[ignore = "needs the full game's classic levels 1-6 (about an hour to solve): build them with \
            `stolik solve white-rabbit --exact --levels --data DIR`, then run with \
            STOLIK_TEST_RABBIT_FULL_TABLES=DIR `cargo test -p server --test api -- --ignored \
            the_daily_deal_shows_perfect_play`"]
async fn the_daily_deal_shows_perfect_play_from_the_exact_tables() {
    let dir: std::path::PathBuf = std::env::var_os("STOLIK_TEST_RABBIT_FULL_TABLES")
        .expect("STOLIK_TEST_RABBIT_FULL_TABLES names the directory of the tables")
        .into();
    let app = TestApp::spawn_with_tables(server::TableSource {
        dir: dir.clone(),
        build: false,
        poll: std::time::Duration::from_millis(100),
        ..server::TableSource::building(std::path::PathBuf::new())
    })
    .await;
    let mut solo = app.guest().await;
    let (status, table) = app.post("/api/daily", Some(&solo.token), json!({})).await;
    assert_eq!(status, 201, "{table}");
    // Loading six levels takes a moment; the value appears once level 6 is in.
    let mut daily = Value::Null;
    for _ in 0..600 {
        daily = app.get("/api/daily", Some(&solo.token)).await.1;
        if !daily["perfect"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let perfect = &daily["perfect"];
    assert!(perfect.is_object(), "{daily}");
    let printed = solve_exact(&dir, "classic", table["position"].as_str().unwrap());
    let best: Vec<&str> = printed[0].split_whitespace().collect();
    assert_eq!(format!("{:.6}", perfect["win"].as_f64().unwrap()), best[1]);
    assert_eq!(
        format!("{:.6}", perfect["score"].as_f64().unwrap()),
        best[2]
    );
    solo.ok(json!({"type": "ping"})).await;
    app.stop().await;
}
