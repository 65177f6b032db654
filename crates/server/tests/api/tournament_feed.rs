//! The live standings follow a page: a watcher of one page of an arena is sent the lines that
//! stand on it or stood on it, not the others; a player is sent their own line wherever it is.
//! A line the watcher has comes as its change (after a result, only the game's new mark), and
//! the changes applied to the page rebuild the standings the server shows over HTTP.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};
use crate::tournaments::{MINUTE, compete, create_arena, join, page};

/// Every line's rank, from the tournament's pages over HTTP.
async fn ranks(app: &TestApp, id: &str) -> HashMap<String, u64> {
    let mut ranks = HashMap::new();
    for page in 1..=2 {
        let (status, body) = app
            .get(&format!("/api/tournaments/{id}?page={page}"), None)
            .await;
        assert_eq!(status, 200, "{body}");
        for line in body["standings"]["items"].as_array().unwrap() {
            ranks.insert(
                line["player"].as_str().unwrap().to_string(),
                line["rank"].as_u64().unwrap(),
            );
        }
    }
    ranks
}

/// The next `tournament.changes` of `id` that `player` gets.
async fn changes(player: &mut Player, id: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let message = player.expect("tournament.changes").await;
            if message["tournament"] == id {
                return message;
            }
        }
    })
    .await
    .expect("a tournament.changes within 10 s")
}

/// Reads and drops whatever `player` is sent until it has been quiet for two seconds: the
/// feed's first pass after a tournament gains watchers sends them its page.
async fn drain(player: &mut Player) {
    while tokio::time::timeout(Duration::from_secs(2), player.next())
        .await
        .is_ok()
    {}
}

fn players_of(message: &Value) -> Vec<(String, u64)> {
    message["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["player"].as_str().unwrap().to_string(),
                l["rank"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn a_watcher_is_sent_its_page_and_its_own_line() {
    let app = TestApp::spawn().await;
    let host = app.account("feed_host").await;
    let (status, body) = app
        .post(
            "/api/tournaments",
            Some(&host.token),
            json!({"game": "mill", "initial": 180, "increment": 2, "minutes": 30, "starts_in": 60}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let mut entrants = Vec::new();
    for i in 0..21 {
        let player = app.account(&format!("feed_p{i}")).await;
        join(&app, &id, &player).await;
        entrants.push(player);
    }
    let before = ranks(&app, &id).await;
    assert_eq!(before.len(), 21);

    let mut first = app.guest().await;
    let page = first
        .ok(json!({"type": "tournament.subscribe", "tournament": id}))
        .await;
    assert_eq!(
        page["tournament"]["standings"]["items"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    let mut second = app.guest().await;
    let page = second
        .ok(json!({"type": "tournament.subscribe", "tournament": id, "page": 2}))
        .await;
    assert_eq!(
        page["tournament"]["standings"]["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A player on page 1 (ranks are drawn by id among equals) follows page 2.
    let me = entrants
        .iter_mut()
        .find(|p| before[p.id()] <= 19)
        .expect("a player on page 1");
    me.ok(json!({"type": "tournament.subscribe", "tournament": id, "page": 2}))
        .await;
    second
        .refused(
            json!({"type": "tournament.subscribe", "tournament": id, "page": 0}),
            "bad_request",
        )
        .await;

    drain(&mut first).await;
    drain(&mut second).await;
    drain(me).await;

    // A 22nd entrant: the lines from its rank down move one place.
    let late = app.account("feed_late").await;
    join(&app, &id, &late).await;
    let after = ranks(&app, &id).await;
    let was = |player: &str| before.get(player).copied();
    let on =
        |rank: Option<u64>, page: u64| rank.is_some_and(|r| r > (page - 1) * 20 && r <= page * 20);

    let to_second = players_of(&changes(&mut second, &id).await);
    assert!(!to_second.is_empty());
    for (player, rank) in &to_second {
        assert!(
            on(Some(*rank), 2) || on(was(player), 2),
            "{player} at {rank} sent to page 2"
        );
    }
    // Page 2 holds two lines now: at most they changed there.
    assert!(to_second.len() <= 2, "{to_second:?}");
    let moved_on_first: Vec<&String> = after
        .iter()
        .filter(|(p, r)| on(Some(**r), 1) && was(p) != Some(**r))
        .map(|(p, _)| p)
        .collect();
    if !moved_on_first.is_empty() {
        let to_first = players_of(&changes(&mut first, &id).await);
        for (player, rank) in &to_first {
            assert!(
                on(Some(*rank), 1) || on(was(player), 1),
                "{player} at {rank} sent to page 1"
            );
        }
        for player in &moved_on_first {
            assert!(
                to_first.iter().any(|(p, _)| p == *player),
                "{player} not sent to page 1"
            );
        }
    }
    // The player following page 2 hears of its own line when it moved.
    let my_id = me.id().to_string();
    if after[&my_id] != before[&my_id] {
        let mine = players_of(&changes(me, &id).await);
        assert!(mine.iter().any(|(p, _)| *p == my_id), "{mine:?}");
    }
    app.stop().await;
}

/// Applies `tournament.changes` events to `lines` (the page as subscribing gave it) until the
/// tournament is over, checking that a line the watcher has comes as its change, with only its
/// new marks; the number of new marks such changes carried.
async fn follow_to_the_end(
    watcher: &mut Player,
    id: &str,
    lines: &mut HashMap<String, Value>,
) -> usize {
    let mut new_marks = 0;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), changes(watcher, id))
            .await
            .expect("the tournament's changes until it is over");
        for entry in message["changed"].as_array().unwrap() {
            let player = entry["player"].as_str().unwrap().to_string();
            let Some(from) = entry.get("scores_from") else {
                lines.insert(player, entry.clone());
                continue;
            };
            let line = lines
                .get_mut(&player)
                .unwrap_or_else(|| panic!("a change to a line the watcher lacks: {entry}"));
            let had = line["scores"].as_array().unwrap().len();
            assert_eq!(
                from.as_u64(),
                Some(had as u64),
                "only the new marks: {entry}"
            );
            assert!(
                entry.get("name").is_none(),
                "a change, not the line: {entry}"
            );
            let marks = entry["scores"].as_array().cloned().unwrap_or_default();
            new_marks += marks.len();
            for (key, value) in entry.as_object().unwrap() {
                if key != "scores_from" && key != "scores" {
                    line[key] = value.clone();
                }
            }
            line["scores"].as_array_mut().unwrap().extend(marks);
        }
        for player in message["removed"].as_array().unwrap() {
            lines.remove(player.as_str().unwrap());
        }
        if message["status"] == "finished" {
            return new_marks;
        }
    }
}

#[actix_web::test]
async fn a_result_sends_only_the_new_marks_and_the_changes_rebuild_the_standings() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| config.tournament_minute = MINUTE).await;
    let mut players = Vec::new();
    for name in ["marks_ann", "marks_bob", "marks_cyd", "marks_dee"] {
        players.push(app.account(name).await);
    }
    let id = create_arena(&app, &players[0]).await;
    for player in &players {
        join(&app, &id, player).await;
    }
    let mut watcher = app.guest().await;
    let subscribed = watcher
        .ok(json!({"type": "tournament.subscribe", "tournament": id}))
        .await;
    let mut lines: HashMap<String, Value> = subscribed["tournament"]["standings"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| (line["player"].as_str().unwrap().to_string(), line.clone()))
        .collect();
    assert_eq!(lines.len(), 4);
    let first = page(&app, &id, None).await;
    let ends_at = first["tournament"]["ends_at"].as_i64().unwrap();
    let wait = Duration::from_millis((ends_at - first["now"].as_i64().unwrap()).max(0) as u64);
    let until = tokio::time::Instant::now() + wait + Duration::from_secs(1);
    let [a, b, c, d]: [Player; 4] = players.try_into().ok().unwrap();
    let (played, new_marks) = futures_util::future::join(
        futures_util::future::join4(
            compete(a, until),
            compete(b, until),
            compete(c, until),
            compete(d, until),
        ),
        follow_to_the_end(&mut watcher, &id, &mut lines),
    )
    .await;
    let games = [played.0, played.1, played.2, played.3]
        .iter()
        .map(|(_, tables)| tables.len())
        .sum::<usize>();
    assert!(games >= 4, "only {games} seats played a game");
    assert!(new_marks > 0, "no result came as a line's change");

    let fetched = page(&app, &id, None).await;
    assert_eq!(fetched["tournament"]["status"], "finished", "{fetched}");
    let fetched: HashMap<String, Value> = fetched["standings"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| (line["player"].as_str().unwrap().to_string(), line.clone()))
        .collect();
    assert_eq!(lines, fetched);
    app.stop().await;
}
