//! Round robins end to end: four accounts join over HTTP, the server opens every game of the
//! schedule at the start (correspondence: all at once, each pair from both seats), the games
//! are played over real sockets (a server restart in the middle loses nothing), and the
//! final cross table equals a recomputation from the stored games, Sonneborn–Berger
//! included; a withdrawal strikes out or forfeits as docs/tournaments.md says; a round robin
//! that forbids vacation lets a passed deadline lose on time.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};

/// A minute of the tournaments' calendar in these tests.
const MINUTE: Duration = Duration::from_secs(3);

async fn server(db: Db, day: Duration) -> TestApp {
    TestApp::spawn_tuned(db, |config| {
        config.tournament_minute = MINUTE;
        config.day = day;
    })
    .await
}

/// A correspondence Cephalopod 3×3 round robin starting in a minute, of at most four.
async fn create(app: &TestApp, creator: &Player, extra: Value) -> String {
    let mut body = json!({"kind": "round_robin", "game": "cephalopod", "variant": "3x3",
                          "days": 1, "max_players": 4, "starts_in": 1});
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    let (status, body) = app
        .post("/api/tournaments", Some(&creator.token), body)
        .await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

async fn post(app: &TestApp, id: &str, what: &str, player: &Player) -> (u16, Value) {
    app.post(
        &format!("/api/tournaments/{id}/{what}"),
        Some(&player.token),
        json!({}),
    )
    .await
}

async fn page(app: &TestApp, id: &str, player: Option<&Player>) -> Value {
    let path = format!("/api/tournaments/{id}");
    let (status, body) = app.get(&path, player.map(|p| p.token.as_str())).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Four accounts entered in a new round robin, and its id.
async fn four_entered(app: &TestApp, names: [&str; 4], extra: Value) -> (Vec<Player>, String) {
    let mut players = Vec::new();
    for name in names {
        players.push(app.account(name).await);
    }
    let id = create(app, &players[0], extra).await;
    for player in &players {
        let (status, body) = post(app, &id, "join", player).await;
        assert_eq!(status, 204, "{body}");
    }
    (players, id)
}

/// Waits until the page satisfies `done`, and returns it.
async fn until(app: &TestApp, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..300 {
        let body = page(app, id, None).await;
        if done(&body) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "round robin {id} did not get there: {}",
        page(app, id, None).await
    );
}

/// Waits until the game at `table` is over, and returns its record.
async fn ended(app: &TestApp, table: &str) -> Value {
    for _ in 0..100 {
        let (_, record) = app.get(&format!("/api/records/{table}"), None).await;
        if record["status"] != "playing" {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("table {table} did not end");
}

fn all_playing(body: &Value) -> bool {
    let games = body["games"].as_array().unwrap();
    !games.is_empty() && games.iter().all(|g| g["status"] == "playing")
}

/// How a game is ended once each side has moved.
#[derive(Clone, Copy)]
enum End {
    AResigns,
    BResigns,
    Draw,
}

/// The index in `players` of seat `seat`'s player of `table`.
async fn seated(app: &TestApp, players: &[Player], table: &str, seat: usize) -> usize {
    let (_, snapshot) = app.get(&format!("/api/tables/{table}"), None).await;
    let id = snapshot["seats"][seat]["user"]["id"].clone();
    players.iter().position(|p| p.user["id"] == id).unwrap()
}

/// Plays one move a side at `table` over the players' sockets, then ends it as `end` says.
async fn settle(app: &TestApp, players: &mut [Player], table: &str, end: End) {
    let a = seated(app, players, table, 0).await;
    let b = seated(app, players, table, 1).await;
    for (ply, mover) in [(0, a), (1, b)] {
        let snapshot = players[mover]
            .ok(json!({"type": "table.subscribe", "table": table}))
            .await;
        let legal = snapshot["table"]["legal"][0].clone();
        players[mover]
            .ok(json!({"type": "move", "table": table, "move": legal, "ply": ply}))
            .await;
    }
    match end {
        End::AResigns => {
            players[a]
                .ok(json!({"type": "resign", "table": table}))
                .await
        }
        End::BResigns => {
            players[b]
                .ok(json!({"type": "resign", "table": table}))
                .await
        }
        End::Draw => {
            players[a]
                .ok(json!({"type": "draw.offer", "table": table}))
                .await;
            players[b]
                .ok(json!({"type": "draw.accept", "table": table}))
                .await
        }
    };
    for index in [a, b] {
        players[index]
            .ok(json!({"type": "table.unsubscribe", "table": table}))
            .await;
        players[index].forget();
    }
}

/// Each player's points and Sonneborn–Berger recomputed from the stored games of the
/// schedule: 1 a win, ½ a draw; the points of each opponent beaten and half of each drawn.
async fn recompute(app: &TestApp, games: &[Value]) -> HashMap<String, (f64, f64)> {
    let mut results = Vec::new();
    for game in games.iter().filter(|g| g["status"] == "finished") {
        let table = game["table"].as_str().unwrap();
        let (status, record) = app.get(&format!("/api/records/{table}"), None).await;
        assert_eq!(status, 200, "{record}");
        assert_eq!(record["status"], "finished", "{record}");
        let ids = [0, 1].map(|i| record["players"][i]["user"].as_str().unwrap().to_string());
        let scored = match record["result"].as_str().unwrap() {
            "draw" => [0.5, 0.5],
            "a" => [1.0, 0.0],
            _ => [0.0, 1.0],
        };
        results.push((ids, scored));
    }
    let mut points: HashMap<String, f64> = HashMap::new();
    for (ids, scored) in &results {
        for i in 0..2 {
            *points.entry(ids[i].clone()).or_default() += scored[i];
        }
    }
    let mut sb: HashMap<String, f64> = HashMap::new();
    for (ids, scored) in &results {
        for i in 0..2 {
            *sb.entry(ids[i].clone()).or_default() += scored[i] * points[&ids[1 - i]];
        }
    }
    points
        .into_iter()
        .map(|(p, pts)| (p.clone(), (pts, sb[&p])))
        .collect()
}

/// Every line of the cross table agrees with the stored games, in the standings' order.
async fn check_cross_table(app: &TestApp, body: &Value) {
    let expected = recompute(app, body["games"].as_array().unwrap()).await;
    let lines = body["cross_table"].as_array().unwrap();
    for line in lines {
        let player = line["player"].as_str().unwrap();
        let (points, sb) = expected.get(player).copied().unwrap_or_default();
        assert_eq!(line["points"].as_f64().unwrap(), points, "{line}");
        assert_eq!(line["sonneborn_berger"].as_f64().unwrap(), sb, "{line}");
    }
    let keys: Vec<(f64, f64)> = lines
        .iter()
        .map(|l| {
            (
                l["points"].as_f64().unwrap(),
                l["sonneborn_berger"].as_f64().unwrap(),
            )
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] >= w[1]),
        "ordered by points, then Sonneborn–Berger: {keys:?}"
    );
}

#[actix_web::test]
async fn a_correspondence_round_robin_of_four_plays_to_its_end() {
    let app = server(Db::sqlite(), Duration::from_secs(600)).await;
    let names = ["rr_ann", "rr_bob", "rr_cyd", "rr_dee"];
    let (mut players, id) = four_entered(&app, names, json!({})).await;
    let before = page(&app, &id, Some(&players[1])).await;
    assert_eq!(before["tournament"]["kind"], "round_robin", "{before}");
    assert_eq!(before["tournament"]["move_days"], 1, "{before}");
    assert_eq!(before["me"]["joined"], true, "{before}");
    assert_eq!(before["cross_table"].as_array().unwrap().len(), 4);
    // Entries close at the start.
    let late = app.account("rr_late").await;

    // At the start every game opens at once: each pair from both seats.
    let body = until(&app, &id, all_playing).await;
    assert_eq!(body["tournament"]["status"], "running", "{body}");
    assert_eq!(body["games"].as_array().unwrap().len(), 12, "{body}");
    let (status, refused) = post(&app, &id, "join", &late).await;
    assert_eq!(status, 409, "{refused}");
    let mine = page(&app, &id, Some(&players[0])).await;
    assert_eq!(mine["me"]["playing"].as_array().unwrap().len(), 6, "{mine}");
    let tables: Vec<String> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["table"].as_str().unwrap().to_string())
        .collect();
    let ends = [End::AResigns, End::BResigns, End::Draw];

    // Half the games, then a restart on the same database, then the rest.
    for (index, table) in tables.iter().enumerate().take(6) {
        settle(&app, &mut players, table, ends[index % 3]).await;
    }
    let users: Vec<(String, Value)> = players
        .drain(..)
        .map(|p| (p.token.clone(), p.user.clone()))
        .collect();
    let db = app.stop().await;
    let app = server(db, Duration::from_secs(600)).await;
    for (token, user) in users {
        players.push(Player::connect(&app, token, user).await);
    }
    for (index, table) in tables.iter().enumerate().skip(6) {
        settle(&app, &mut players, table, ends[index % 3]).await;
    }

    let body = until(&app, &id, |b| b["tournament"]["status"] == "finished").await;
    let games = body["games"].as_array().unwrap();
    assert!(games.iter().all(|g| g["status"] == "finished"), "{body}");
    check_cross_table(&app, &body).await;
    // Each line holds two games against each opponent, one from each seat.
    for line in body["cross_table"].as_array().unwrap() {
        let cells = line["against"].as_array().unwrap();
        let played: Vec<usize> = cells.iter().map(|c| c.as_array().unwrap().len()).collect();
        assert_eq!(played.iter().filter(|&&n| n == 2).count(), 3, "{line}");
    }
    // The record is kept: it is listed among the finished.
    let (_, list) = app.get("/api/tournaments", None).await;
    assert!(
        list["finished"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str()),
        "{list}"
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_withdrawal_strikes_out_early_and_forfeits_late() {
    let app = server(Db::sqlite(), Duration::from_secs(600)).await;
    let names = ["wd_ann", "wd_bob", "wd_cyd", "wd_dee"];
    let (mut players, id) = four_entered(&app, names, json!({})).await;
    until(&app, &id, all_playing).await;
    let dee = players[3].user["id"].as_str().unwrap().to_string();
    let cyd = players[2].user["id"].as_str().unwrap().to_string();

    // Dee leaves with no result: struck out, every game of theirs annulled and ended.
    let (status, refused) = post(&app, &id, "withdraw", &players[3]).await;
    assert_eq!(status, 204, "{refused}");
    let body = until(&app, &id, |b| {
        b["cross_table"].as_array().unwrap().len() == 3
            && b["games"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["status"] == "annulled")
                .count()
                == 6
    })
    .await;
    for game in body["games"].as_array().unwrap() {
        if game["status"] == "annulled" {
            // Resigned in Dee's name (a game without a move is called off instead).
            let record = ended(&app, game["table"].as_str().unwrap()).await;
            assert_eq!(record["status"], "aborted", "{record}");
        }
    }
    assert!(
        body["cross_table"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["player"] != dee.as_str()),
        "{body}"
    );

    // Cyd plays two of four (half) and leaves: those stand, the other two are forfeited.
    let cyds: Vec<String> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| {
            g["status"] == "playing" && g["players"].as_array().unwrap().contains(&json!("wd_cyd"))
        })
        .map(|g| g["table"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(cyds.len(), 4, "{body}");
    settle(&app, &mut players, &cyds[0], End::AResigns).await;
    settle(&app, &mut players, &cyds[1], End::Draw).await;
    until(&app, &id, |b| {
        b["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "finished")
            .count()
            == 2
    })
    .await;
    let (status, refused) = post(&app, &id, "withdraw", &players[2]).await;
    assert_eq!(status, 204, "{refused}");
    let body = until(&app, &id, |b| {
        b["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "forfeited")
            .count()
            == 2
    })
    .await;
    // Their games still being played end at once (not begun, they are called off); the
    // round robin counts them as won by the opponent.
    for table in &cyds[2..] {
        let record = ended(&app, table).await;
        assert_eq!(record["status"], "aborted", "{record}");
    }
    let line = |body: &Value, player: &str| {
        body["cross_table"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["player"] == player)
            .cloned()
            .unwrap()
    };
    let cyd_line = line(&body, &cyd);
    assert_eq!(cyd_line["withdrawn"], true, "{cyd_line}");
    assert_eq!(
        cyd_line["losses"].as_u64().unwrap()
            + cyd_line["wins"].as_u64().unwrap()
            + cyd_line["draws"].as_u64().unwrap(),
        4,
        "{cyd_line}"
    );

    // Ann and Bob play their two games; the round robin ends.
    let rest: Vec<String> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "playing")
        .map(|g| g["table"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rest.len(), 2, "{body}");
    for table in &rest {
        settle(&app, &mut players, table, End::BResigns).await;
    }
    let body = until(&app, &id, |b| b["tournament"]["status"] == "finished").await;
    assert_eq!(body["cross_table"].as_array().unwrap().len(), 3, "{body}");
    // Forfeits count in points and Sonneborn–Berger: recomputed with them as wins.
    let lines = body["cross_table"].as_array().unwrap();
    let total: f64 = lines.iter().map(|l| l["points"].as_f64().unwrap()).sum();
    // Six games stand (two of Cyd's played, two forfeited, Ann and Bob's two): a point each.
    assert_eq!(total, 6.0, "{body}");
    app.stop().await;
}

#[actix_web::test]
async fn a_round_robin_that_forbids_vacation_loses_a_passed_deadline_on_time() {
    let day = Duration::from_millis(2000);
    let app = server(Db::sqlite(), day).await;
    let names = ["nv_ann", "nv_bob", "nv_cyd", "nv_dee"];
    let (mut players, id) = four_entered(&app, names, json!({"vacation": false})).await;
    let body = until(&app, &id, all_playing).await;
    assert_eq!(body["tournament"]["vacation"], false, "{body}");
    let table = body["games"][0]["table"].as_str().unwrap().to_string();
    let a = seated(&app, &players, &table, 0).await;
    let b = seated(&app, &players, &table, 1).await;
    for (ply, mover) in [(0, a), (1, b)] {
        let snapshot = players[mover]
            .ok(json!({"type": "table.subscribe", "table": table}))
            .await;
        let legal = snapshot["table"]["legal"][0].clone();
        players[mover]
            .ok(json!({"type": "move", "table": table, "move": legal, "ply": ply}))
            .await;
    }
    // Seat A has days left and automatic use on, but lets the deadline pass: lost on time.
    let (_, days) = app.get("/api/me/vacation", Some(&players[a].token)).await;
    assert_eq!(
        (days["auto"].clone(), days["days_left"].clone()),
        (json!(true), json!(20))
    );
    let record = ended(&app, &table).await;
    assert_eq!(record["status"], "finished", "{record}");
    assert_eq!(record["result"], "b", "{record}");
    let (_, days) = app.get("/api/me/vacation", Some(&players[a].token)).await;
    assert_eq!(days["days_left"], 20, "no day was taken: {days}");
    // The win counts in the round robin.
    let body = until(&app, &id, |b| b["games"][0]["status"] == "finished").await;
    assert_eq!(body["games"][0]["result"], "b", "{body}");
    app.stop().await;
}

#[actix_web::test]
async fn a_round_robin_asked_for_badly_is_refused_with_the_reason() {
    let app = server(Db::sqlite(), Duration::from_secs(600)).await;
    let ann = app.account("bad_rr").await;
    for (body, words) in [
        (
            json!({"kind": "round_robin", "game": "mill", "max_players": 4, "starts_in": 0}),
            "either days",
        ),
        (
            json!({"kind": "round_robin", "game": "mill", "days": 4, "max_players": 4, "starts_in": 0}),
            "days a move",
        ),
        (
            json!({"kind": "round_robin", "game": "mill", "initial": 60, "max_players": 12, "starts_in": 0}),
            "3 to 10",
        ),
        (
            json!({"kind": "round_robin", "game": "mill", "days": 2, "max_players": 2, "starts_in": 0}),
            "3 to 16",
        ),
    ] {
        let (status, refused) = app.post("/api/tournaments", Some(&ann.token), body).await;
        assert_eq!(status, 400, "{refused}");
        assert!(
            refused["message"].as_str().unwrap().contains(words),
            "{refused}"
        );
    }
    // A round robin has no pause.
    let id = create(&app, &ann, json!({})).await;
    post(&app, &id, "join", &ann).await;
    let (status, refused) = post(&app, &id, "pause", &ann).await;
    assert_eq!(status, 409, "{refused}");
    app.stop().await;
}
