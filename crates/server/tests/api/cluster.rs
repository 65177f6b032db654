//! Several nodes of one site: one database, the machine's Redis (under a prefix of the test's
//! own), players and spectators on different nodes. A table runs on one node; the others
//! forward to it and carry its events back.

use std::time::Duration;

use serde_json::{Value, json};

use crate::games::{Seen, play_out};
use crate::helpers::{Db, LobbyPage, Player, TestApp};
use crate::shared_limits::{fresh_prefix, machine_redis, wait_for_health};

/// `n` nodes sharing one fresh SQLite database and one Redis prefix.
async fn site(n: usize) -> Vec<TestApp> {
    site_on(Db::sqlite(), n).await
}

/// `n` nodes sharing `db` and one Redis prefix.
async fn site_on(db: Db, n: usize) -> Vec<TestApp> {
    site_with_redis(db, &machine_redis(), n).await
}

async fn site_with_redis(db: Db, redis: &str, n: usize) -> Vec<TestApp> {
    let prefix = fresh_prefix();
    // The first node owns the database; the others share it.
    let first = TestApp::spawn_node_on(db, redis, &prefix, "node-0", "off").await;
    let mut nodes = vec![first];
    for i in 1..n {
        let db = Db::shared(&nodes[0].db);
        let node = TestApp::spawn_node_on(db, redis, &prefix, &format!("node-{i}"), "off").await;
        nodes.push(node);
    }
    nodes
}

async fn stop_all(nodes: Vec<TestApp>) {
    // The first node owns the database file: it goes last.
    for node in nodes.into_iter().rev() {
        node.stop().await;
    }
}

/// The first dice-free pick: the first legal move.
fn first(_: &Seen, legal: &[String]) -> String {
    legal[0].clone()
}

#[actix_web::test]
async fn players_on_two_nodes_play_a_whole_game_and_a_third_node_watches() {
    whole_game_across_nodes(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_players_on_two_nodes_play_a_whole_game_and_a_third_node_watches() {
    whole_game_across_nodes(Db::postgres().await).await;
}

async fn whole_game_across_nodes(db: Db) {
    let nodes = site_on(db, 3).await;
    let (a, b, c) = (&nodes[0], &nodes[1], &nodes[2]);
    let mut alice = a.guest().await;
    let mut bob = b.guest().await;
    let mut carol = c.guest().await;
    let table = alice
        .create_table(a, json!({"game": "cephalopod", "variant": "3x3"}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let token = table["invite"].clone();
    alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    // Bob and Carol reach the table through their own nodes.
    let snapshot = bob
        .ok(json!({"type": "table.subscribe", "table": id, "token": token}))
        .await;
    assert_eq!(snapshot["type"], "table", "{snapshot}");
    assert_eq!(snapshot["table"]["status"], "open");
    carol
        .ok(json!({"type": "table.subscribe", "table": id, "token": token}))
        .await;
    bob.ok(json!({"type": "sit", "table": id, "token": token}))
        .await;
    let started = alice.expect("table").await;
    assert_eq!(started["table"]["status"], "playing");
    assert_eq!(bob.expect("table").await["table"]["you"], "b");
    assert_eq!(carol.expect("table").await["table"]["status"], "playing");
    for player in [&mut alice, &mut bob, &mut carol] {
        player.forget();
    }

    // Chat from Bob's node reaches the table's node and the watcher's.
    bob.ok(json!({"type": "chat", "table": id, "text": "удачи"}))
        .await;
    for player in [&mut alice, &mut carol] {
        assert_eq!(player.expect("chat").await["line"]["text"], "удачи");
    }
    bob.expect("chat").await;
    // Voice signalling goes to the other player, across nodes both ways.
    let offer = json!({"kind": "offer", "sdp": "v=0 test"});
    alice
        .ok(json!({"type": "voice", "table": id, "signal": offer}))
        .await;
    assert_eq!(bob.expect("voice").await["signal"], offer);
    bob.ok(json!({"type": "voice", "table": id, "signal": {"kind": "answer", "sdp": "v=0"}}))
        .await;
    assert_eq!(alice.expect("voice").await["from"], "b");

    // The game is live on every node's list.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let (_, live) = c.get("/api/live", None).await;
        if live["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
        {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not live on node c: {live}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Every move reaches all three, in order (play_out checks the ply of each).
    let mut seen = Seen::from_snapshot(&started["table"]);
    play_out(
        &mut [&mut alice, &mut bob, &mut carol],
        &mut seen,
        first,
        500,
    )
    .await;
    // The table as another node's HTTP API shows it.
    let (status, view) = c
        .get(&format!("/api/tables/{id}"), Some(&carol.token))
        .await;
    assert_eq!(
        (status, &view["status"]),
        (200, &json!("finished")),
        "{view}"
    );
    assert_eq!(view["ply"], json!(seen.ply));
    stop_all(nodes).await;
}

#[actix_web::test]
async fn one_ply_moved_on_two_nodes_at_once_is_accepted_once() {
    let nodes = site(2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    let mut alice = a.guest().await;
    let table = alice
        .create_table(a, json!({"game": "mill", "bot": "easy"}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let snapshot = alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    // The same player on the other node too (a second tab, through another node).
    let mut again = Player::connect(b, alice.token.clone(), alice.user.clone()).await;
    again
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let legal: Vec<String> = serde_json::from_value(snapshot["table"]["legal"].clone()).unwrap();
    let (mine, theirs) = (legal[0].clone(), legal[1].clone());
    let (one, two) = futures_util::join!(
        alice.request(json!({"type": "move", "table": id, "move": mine, "ply": 0})),
        again.request(json!({"type": "move", "table": id, "move": theirs, "ply": 0})),
    );
    let accepted = [&one, &two].iter().filter(|r| r["type"] != "error").count();
    assert_eq!(accepted, 1, "exactly one of the two: {one} / {two}");
    let refused = if one["type"] == "error" { &one } else { &two };
    // Refused for what the first move changed: the turn passed (or the ply moved on).
    assert!(
        ["not_your_turn", "stale_ply"].contains(&refused["code"].as_str().unwrap()),
        "{refused}"
    );
    stop_all(nodes).await;
}

#[actix_web::test]
async fn when_a_node_stops_its_tables_go_on_at_another_with_every_move() {
    takeover_after_a_stop(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn postgres_when_a_node_stops_its_tables_go_on_at_another_with_every_move() {
    takeover_after_a_stop(Db::postgres().await).await;
}

async fn takeover_after_a_stop(db: Db) {
    let nodes = site_on(db, 2).await;
    let mut nodes = nodes.into_iter();
    let (a, b) = (nodes.next().unwrap(), nodes.next().unwrap());
    // Alice plays through node b against a bot at a table node a runs.
    let mut alice = b.guest().await;
    let table = alice
        .create_table(
            &a,
            json!({"game": "mill", "bot": "easy", "clock": {"initial": 300, "increment": 0}}),
        )
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let snapshot = alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    for _ in 0..2 {
        move_and_wait_for_the_bot(&mut alice, &mut seen).await;
    }
    let before = seen.ply;

    // Node a stops (a restart, a deploy): node b takes the table over and tells Alice.
    let db = a.stop().await;
    let snapshot = alice.expect("table").await;
    assert_eq!(snapshot["table"]["ply"], json!(before), "{snapshot}");
    let clock = &snapshot["table"]["clock"];
    let remaining = clock["remaining_ms"][0].as_i64().expect("a's time left");
    assert!(
        remaining > 295_000,
        "the time the table was moving is not charged to Alice: {clock}"
    );
    // And the game goes on there, with the bot answering.
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    move_and_wait_for_the_bot(&mut alice, &mut seen).await;
    assert_eq!(seen.ply, before + 2);
    b.stop().await;
    drop(db);
}

/// Alice (seat a) moves; then the bot's move comes.
async fn move_and_wait_for_the_bot(alice: &mut Player, seen: &mut Seen) {
    let mv = seen.legal[0].clone();
    alice
        .ok(json!({"type": "move", "table": seen.table, "move": mv, "ply": seen.ply}))
        .await;
    let mine = alice.expect("move").await;
    seen.update(&mine);
    while seen.to_move.as_deref() == Some("b") {
        let bots: Value = alice.expect("move").await;
        seen.update(&bots);
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
}

fn lists(lobby: &Value, id: &Value) -> bool {
    lobby["tables"]
        .as_array()
        .is_some_and(|t| t.iter().any(|entry| entry["id"] == *id))
}

#[actix_web::test]
async fn the_lobby_of_every_node_lists_the_open_tables_of_every_node() {
    let nodes = site(2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    let mut watcher = b.guest().await;
    let mut lobby = LobbyPage::follow(&mut watcher, json!({"type": "lobby.subscribe"})).await;
    let host = a.guest().await;
    let table = host
        .create_table(
            a,
            json!({"game": "mill", "clock": {"initial": 180, "increment": 2}}),
        )
        .await;
    lobby
        .until(&mut watcher, |lobby| lists(lobby, &table["id"]))
        .await;
    let listed = lobby.0["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["id"] == table["id"])
        .unwrap();
    assert_eq!(listed["players"][0], host.user["name"]);
    // The HTTP lobby of the other node has it too.
    let (_, over_http) = b.get("/api/tables", None).await;
    assert!(lists(&over_http, &table["id"]), "{over_http}");

    // A player of the watcher's node sits down (the call goes to the table's node): the table
    // leaves every node's lobby.
    let mut guest = b.guest().await;
    guest.ok(json!({"type": "sit", "table": table["id"]})).await;
    lobby
        .until(&mut watcher, |lobby| !lists(lobby, &table["id"]))
        .await;
    stop_all(nodes).await;
}

#[actix_web::test]
async fn quick_match_pairs_two_players_of_two_nodes_once() {
    let nodes = site(2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    let mut watcher = a.guest().await;
    let mut lobby = LobbyPage::follow(&mut watcher, json!({"type": "lobby.subscribe"})).await;
    let mut alice = a.guest().await;
    let mut bob = b.guest().await;
    let join = json!({"type": "queue.join", "game": "cephalopod", "clock": {"initial": 120, "increment": 1}});
    bob.ok(join.clone()).await;
    // Bob's wait shows in the other node's lobby before Alice joins.
    lobby
        .until(&mut watcher, |lobby| lobby["queues"][0]["waiting"] == 1)
        .await;
    alice.ok(join).await;
    let (to_alice, to_bob) = (alice.expect("match").await, bob.expect("match").await);
    assert_eq!(to_alice["table"], to_bob["table"], "one table for both");
    let id = to_alice["table"].clone();
    // Both sit at it, each from their own node.
    for player in [&mut alice, &mut bob] {
        let snapshot = player
            .ok(json!({"type": "table.subscribe", "table": id}))
            .await;
        assert_eq!(snapshot["table"]["status"], "playing", "{snapshot}");
        assert!(
            ["a", "b"].contains(&snapshot["table"]["you"].as_str().unwrap()),
            "{snapshot}"
        );
    }
    // Nobody waits any more, on either node, and neither was paired again.
    lobby
        .until(&mut watcher, |lobby| {
            lobby["queues"].as_array().is_some_and(|q| q.is_empty())
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for player in [&mut alice, &mut bob] {
        let pong = player.request(json!({"type": "ping"})).await;
        assert_eq!(pong["type"], "pong");
        assert!(
            player.backlog_has("match").is_none(),
            "a second match for one player"
        );
    }
    stop_all(nodes).await;
}

#[actix_web::test]
async fn while_redis_is_away_calls_across_nodes_fail_clearly_and_work_again_after() {
    let mut redis = cluster::testing::OwnRedis::start().await;
    let nodes = site_with_redis(Db::sqlite(), &redis.url(), 2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    // Alice plays at node a's table through node b.
    let mut alice = b.guest().await;
    let table = alice
        .create_table(a, json!({"game": "mill", "bot": "easy"}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let snapshot = alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    move_and_wait_for_the_bot(&mut alice, &mut seen).await;

    redis.stop();
    let (status, failed) = wait_for_health(b, 503).await;
    assert_eq!((status, failed.as_str()), (503, Some("redis")));
    // A move through node b cannot reach the table's node: a clear error, nothing played.
    let mv = seen.legal[0].clone();
    let refused = alice
        .request(json!({"type": "move", "table": id, "move": mv, "ply": seen.ply}))
        .await;
    assert_eq!(refused["code"], "busy", "{refused}");

    redis.restart().await;
    assert_eq!(wait_for_health(b, 200).await.0, 200);
    // Back: the subscription is made again (a fresh snapshot at the same ply), and the move
    // goes through.
    let snapshot = alice.expect("table").await;
    assert_eq!(snapshot["table"]["ply"], json!(seen.ply), "{snapshot}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let reply = alice
            .request(json!({"type": "move", "table": id, "move": mv, "ply": seen.ply}))
            .await;
        if reply["type"] != "error" {
            break;
        }
        assert_eq!(reply["code"], "busy", "{reply}");
        assert!(tokio::time::Instant::now() < deadline, "{reply}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let mine = alice.expect("move").await;
    assert_eq!(mine["ply"], json!(seen.ply + 1));
    stop_all(nodes).await;
}

#[actix_web::test]
async fn a_player_hears_turns_and_notifications_on_whatever_node_their_socket_is() {
    let nodes = site(2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    // Alice's socket is on node b; her table runs on node a, where Bob is.
    let mut alice = b.guest().await;
    assert_eq!(alice.hello["turns"], 0);
    let table = alice
        .create_table(a, json!({"game": "mill", "clock": {"days": 2}}))
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let mut bob = a.guest().await;
    bob.ok(json!({"type": "sit", "table": id})).await;
    let joined = alice.expect("notification").await;
    assert_eq!(joined["notification"]["kind"], "joined", "{joined}");
    assert_eq!(joined["notification"]["game_id"], id.as_str());
    // The first move is Alice's: her count reaches her node.
    assert_eq!(alice.expect("turns").await["count"], 1);
    let snapshot = alice
        .ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    let mut seen = Seen::from_snapshot(&snapshot["table"]);
    let mv = seen.legal[0].clone();
    alice
        .ok(json!({"type": "move", "table": id, "move": mv, "ply": seen.ply}))
        .await;
    seen.update(&alice.expect("move").await);
    assert_eq!(alice.expect("turns").await["count"], 0);
    assert_eq!(bob.expect("turns").await["count"], 1);
    stop_all(nodes).await;
}

#[actix_web::test]
async fn hints_for_a_white_rabbit_table_of_another_node_are_the_same() {
    let nodes = site(2).await;
    let (a, b) = (&nodes[0], &nodes[1]);
    let solo = b.guest().await;
    // A deal can be won before any action (nothing to hint): deal until one is not.
    let mut table = Value::Null;
    for _ in 0..10 {
        table = solo.create_table(a, json!({"game": "white-rabbit"})).await;
        if table["status"] == "playing" {
            break;
        }
    }
    assert_eq!(table["status"], "playing", "ten deals won at once: {table}");
    let path = format!("/api/tables/{}/hints", table["id"].as_str().unwrap());
    let (status, here) = a.get(&path, Some(&solo.token)).await;
    assert_eq!(status, 200, "{here}");
    // Through the other node: the position comes from the table's node, rebuilt there.
    let (status, there) = b.get(&path, Some(&solo.token)).await;
    assert_eq!(status, 200, "{there}");
    assert_eq!(there["ply"], here["ply"]);
    let actions = |hints: &Value| -> Vec<String> {
        let mut actions: Vec<String> = hints["hints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["action"].as_str().unwrap().to_string())
            .collect();
        actions.sort();
        actions
    };
    assert_eq!(actions(&there), actions(&here));
    assert!(!actions(&here).is_empty());
    stop_all(nodes).await;
}
