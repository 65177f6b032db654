//! The live standings follow a page: a watcher of one page of an arena is sent the lines that
//! stand on it or stood on it, not the others; a player is sent their own line wherever it is.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Player, TestApp};
use crate::tournaments::join;

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
