//! The site's scheduled tournaments and the record players keep: a server given a schedule
//! creates each occurrence ahead of its start, once — with a second node on the same
//! database trying too, and after a restart — owned by the site and joinable ahead; and a
//! finished arena appears in each of its players' records with their place and points.

use std::time::Duration;

use serde_json::Value;

use crate::helpers::{Db, Player, TestApp};
use crate::tournaments::{compete, create_arena, join, page};

const HOUR_MS: i64 = 3_600_000;

/// Every hour, 6 hours ahead: always six occurrences listed. Daily at noon, two days ahead:
/// always two.
const SCHEDULE: &str = r#"{
  "events": [
    { "id": "hourly-mill", "kind": "arena", "game": "mill", "initial": 180, "increment": 2,
      "minutes": 45, "hours": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
      18, 19, 20, 21, 22, 23] },
    { "id": "noon-round-robin", "kind": "round_robin", "game": "mill", "days": 3,
      "max_players": 8, "hours": [12], "ahead_hours": 48 }
  ]
}"#;

/// A schedule written to a file of its own, read as `--schedule FILE` reads it.
fn schedule(text: &str) -> server::Schedule {
    let path = std::env::temp_dir().join(format!(
        "stolik-schedule-{}-{}.json",
        std::process::id(),
        store::new_id()
    ));
    std::fs::write(&path, text).unwrap();
    let schedule = server::Schedule::from_option(Some(path.to_str().unwrap()))
        .expect("the schedule reads")
        .expect("a schedule, not off");
    let _ = std::fs::remove_file(&path);
    schedule
}

async fn scheduled_server(db: Db, schedule: &server::Schedule) -> TestApp {
    let schedule = schedule.clone();
    TestApp::spawn_tuned(db, move |config| config.schedule = Some(schedule)).await
}

/// The site's upcoming events, once `count` are listed (or what is listed after 20 s).
async fn site_events(app: &TestApp, count: usize) -> Vec<Value> {
    let mut events = Vec::new();
    for _ in 0..100 {
        let (status, list) = app.get("/api/tournaments", None).await;
        assert_eq!(status, 200, "{list}");
        events = list["upcoming"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["site"] == true)
            .cloned()
            .collect();
        if events.len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    events
}

fn starts(events: &[Value], kind: &str) -> Vec<i64> {
    let mut starts: Vec<i64> = events
        .iter()
        .filter(|t| t["kind"] == kind)
        .map(|t| t["starts_at"].as_i64().unwrap())
        .collect();
    starts.sort_unstable();
    starts
}

#[actix_web::test]
async fn scheduled_events_are_created_ahead_once_across_nodes_and_restarts() {
    let first_schedule = schedule(SCHEDULE);
    let db = Db::sqlite();
    let node_a = scheduled_server(db, &first_schedule).await;
    // A second node on the same database, with the same schedule, tries at the same time.
    let node_b = scheduled_server(Db::shared(&node_a.db), &first_schedule).await;
    let events = site_events(&node_a, 8).await;
    let now = unix_now();
    let hourly = starts(&events, "arena");
    assert_eq!(hourly.len(), 6, "{events:?}");
    for (i, start) in hourly.iter().enumerate() {
        assert_eq!(start % HOUR_MS, 0, "on the hour");
        assert!(*start > now - 5_000 && *start <= now + 6 * HOUR_MS + 5_000);
        if i > 0 {
            assert_eq!(start - hourly[i - 1], HOUR_MS);
        }
    }
    let noon = starts(&events, "round_robin");
    assert_eq!(noon.len(), 2, "{events:?}");
    assert!(
        noon.iter().all(|s| s % (24 * HOUR_MS) == 12 * HOUR_MS),
        "{noon:?}"
    );
    for event in &events {
        assert!(event["creator"].is_null(), "{event}");
        assert_eq!(event["rated"], true);
    }
    // Joinable ahead, by an account.
    let ann = node_a.account("sched_ann").await;
    let soonest = events
        .iter()
        .filter(|t| t["kind"] == "arena")
        .min_by_key(|t| t["starts_at"].as_i64())
        .unwrap();
    let soonest_id = soonest["id"].as_str().unwrap();
    join(&node_a, soonest_id, &ann).await;
    let joined = page(&node_a, soonest_id, Some(&ann)).await;
    assert_eq!(joined["me"]["joined"], true, "{joined}");
    assert_eq!(joined["tournament"]["site"], true);
    // Both nodes had their passes: still eight.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(site_events(&node_b, 9).await.len(), 8);
    drop(node_b.stop().await);
    let db = node_a.stop().await;

    // Started again with one more event: its occurrence shows that the pass has run, and the
    // first ones are not made again.
    let more = SCHEDULE.replace(
        "\"ahead_hours\": 48 }",
        "\"ahead_hours\": 48 },\n    { \"id\": \"late\", \"kind\": \"arena\", \"game\": \"mill\", \
         \"initial\": 60, \"minutes\": 30, \"hours\": [0, 6, 12, 18], \"minute\": 30 }",
    );
    let second_schedule = schedule(&more);
    let again = scheduled_server(db, &second_schedule).await;
    let after = site_events(&again, 9).await;
    let late = after
        .iter()
        .filter(|t| t["starts_at"].as_i64().unwrap() % HOUR_MS != 0)
        .count();
    assert!(late >= 1, "the restarted server's pass ran: {after:?}");
    let hourly_again = starts(&after, "arena")
        .into_iter()
        .filter(|s| s % HOUR_MS == 0)
        .collect::<Vec<_>>();
    // The same six (none started yet in so short a test, unless an hour turned: then five of
    // them and one new one), never twice.
    let mut unique = hourly_again.clone();
    unique.dedup();
    assert_eq!(unique, hourly_again, "no occurrence twice: {after:?}");
    assert_eq!(starts(&after, "round_robin"), noon, "{after:?}");
    let still = page(&again, soonest_id, Some(&ann)).await;
    assert_eq!(still["me"]["joined"], true, "the entry is kept: {still}");
    again.stop().await;
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn id_of(player: &Player) -> &str {
    player.user["id"].as_str().unwrap()
}

/// `player`'s record, first page.
async fn record(app: &TestApp, player: &Player) -> Value {
    let (status, body) = app
        .get(&format!("/api/users/{}/tournaments", id_of(player)), None)
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

#[actix_web::test]
async fn a_finished_arena_is_in_each_players_record_with_place_and_points() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.tournament_minute = crate::tournaments::MINUTE
    })
    .await;
    let mut players = Vec::new();
    for name in ["rec_ann", "rec_bob", "rec_cyd"] {
        players.push(app.account(name).await);
    }
    let id = create_arena(&app, &players[0]).await;
    for player in &players {
        join(&app, &id, player).await;
        assert!(
            record(&app, player).await["tournaments"]
                .as_array()
                .unwrap()
                .is_empty(),
            "nothing is recorded before the end"
        );
    }
    let first = page(&app, &id, None).await;
    let ends_at = first["tournament"]["ends_at"].as_i64().unwrap();
    let wait = Duration::from_millis((ends_at - first["now"].as_i64().unwrap()).max(0) as u64);
    let until = tokio::time::Instant::now() + wait + Duration::from_secs(1);
    let [a, b, c]: [Player; 3] = players.try_into().ok().unwrap();
    let (a, b, c) =
        futures_util::future::join3(compete(a, until), compete(b, until), compete(c, until)).await;
    let mut finished = page(&app, &id, None).await;
    for _ in 0..50 {
        if finished["tournament"]["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        finished = page(&app, &id, None).await;
    }
    assert_eq!(finished["tournament"]["status"], "finished", "{finished}");
    let lines = finished["standings"]["items"].as_array().unwrap().clone();
    assert_eq!(lines.len(), 3);
    assert!(
        lines.iter().any(|l| l["points"].as_u64() > Some(0)),
        "somebody scored: {finished}"
    );
    for (player, _) in [&a, &b, &c] {
        let line = lines.iter().find(|l| l["player"] == id_of(player)).unwrap();
        let mine = record(&app, player).await;
        let entries = mine["tournaments"].as_array().unwrap();
        assert_eq!(entries.len(), 1, "{mine}");
        let entry = &entries[0];
        assert_eq!(entry["id"], id.as_str());
        assert_eq!(entry["place"], line["rank"], "{mine} vs {line}");
        assert_eq!(entry["points"].as_f64(), line["points"].as_f64(), "{mine}");
        assert_eq!(entry["of"], 3);
        assert_eq!(entry["site"], false);
        assert_eq!(entry["kind"], "arena");
        assert_eq!(mine["more"], false);
    }
    let (status, body) = app.get("/api/users/nobody-at-all/tournaments", None).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = app
        .get(
            &format!("/api/users/{}/tournaments?page=0", id_of(&a.0)),
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
}
