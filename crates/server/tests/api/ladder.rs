//! The bot ladder end to end: with the ladder on, the site's bots play rated games to their
//! end and their ratings move, a person's never; a bot account that joined the ladder is
//! challenged in a house bot's name (and its game, accepted, counts for its rating), one that
//! did not join is never challenged; a person's account cannot join.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{Db, Player, TestApp};
use crate::ndjson::Lines;

/// A server on `db` whose ladder plays `games` at once with a short pause.
async fn ladder_app(db: Db, games: usize) -> TestApp {
    TestApp::spawn_tuned(db, |config| {
        config.ladder = server::LadderConfig {
            games,
            pause: Duration::from_millis(100),
            // A short rest: the path a site takes, without the wait.
            move_rest: Duration::from_millis(20),
        };
    })
    .await
}

/// A fresh account made a bot, with a token of the bot, challenge and read scopes.
async fn bot_account(app: &TestApp, name: &str) -> (Player, String) {
    let owner = app.account(name).await;
    let (status, made) = app
        .post(
            "/api/me/tokens",
            Some(&owner.token),
            json!({"name": "engine", "scopes": ["bot", "challenge", "read"]}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let secret = made["secret"].as_str().unwrap().to_string();
    let (status, upgraded) = app
        .post("/api/bot/account/upgrade", Some(&secret), json!({}))
        .await;
    assert_eq!(status, 200, "{upgraded}");
    (owner, secret)
}

/// Reads the ladder until `done` says so, for at most `patience`.
async fn ladder_until(app: &TestApp, patience: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, ladder) = app.get("/api/ladder", None).await;
        assert_eq!(status, 200, "{ladder}");
        if done(&ladder) {
            return ladder;
        }
        assert!(
            start.elapsed() < patience,
            "the ladder did not get there in {patience:?}: {ladder}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Rated games counted in all of a ladder bot's ratings.
fn rated_games(bot: &Value) -> u64 {
    bot["ratings"]
        .as_object()
        .into_iter()
        .flat_map(|games| games.values())
        .flat_map(|classes| classes.as_object().unwrap().values())
        .map(|rating| rating["games"].as_u64().unwrap())
        .sum()
}

#[actix_web::test]
async fn the_house_bots_play_rated_ladder_games_to_the_end_and_only_their_ratings_move() {
    house_bots_play(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_the_house_bots_play_rated_ladder_games_and_only_their_ratings_move() {
    house_bots_play(Db::postgres().await).await;
}

async fn house_bots_play(db: Db) {
    let app = ladder_app(db, 2).await;
    let person = app.account("onlooker").await;
    let (_, before) = app.get(&format!("/api/users/{}", person.id()), None).await;

    let ladder = ladder_until(&app, Duration::from_secs(240), |l| {
        l["recent"].as_array().unwrap().len() >= 3
    })
    .await;
    let recent = ladder["recent"].as_array().unwrap();
    let mut variants = std::collections::HashSet::new();
    for game in recent {
        let id = game["id"].as_str().expect("a ladder game has its table");
        let players = game["players"].as_array().unwrap();
        assert_eq!(players.len(), 2, "{game}");
        for player in players {
            assert!(player["id"].as_str().unwrap().starts_with("bot:"), "{game}");
        }
        assert_ne!(players[0]["id"], players[1]["id"], "{game}");
        variants.insert((game["game"].clone(), game["variant"].clone()));
        // An ordinary stored game: its replay is there, played to a result.
        let (status, record) = app.get(&format!("/api/records/{id}"), None).await;
        assert_eq!(status, 200, "{record}");
        assert_eq!(record["status"], "finished", "{record}");
        assert!(!record["moves"].as_array().unwrap().is_empty(), "{record}");
        assert_eq!(game["result"], record["result"], "{game} {record}");
    }
    // The games go round the variants: two meetings of a pair play one variant from each
    // side, and each new pair starts from the first, so three games played at least one.
    assert!(!variants.is_empty());

    let bots = ladder["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 3, "only the house bots: {ladder}");
    let counted: u64 = bots.iter().map(rated_games).sum();
    assert!(
        counted >= 2 * recent.len() as u64,
        "each game moved both bots' ratings: {ladder}"
    );
    // What the bots' own list says agrees.
    let (_, listed) = app.get("/api/bots", None).await;
    let listed: u64 = listed.as_array().unwrap().iter().map(rated_games).sum();
    assert!(listed >= counted, "{listed} < {counted}");

    // A person's ratings never move: the ladder is the bots' alone.
    let (_, after) = app.get(&format!("/api/users/{}", person.id()), None).await;
    assert_eq!(before["ratings"], after["ratings"]);
    assert_eq!(after["ratings"], json!({}), "{after}");
    for class in ["blitz", "rapid"] {
        let (_, board) = app
            .get(&format!("/api/leaderboard/mill?class={class}"), None)
            .await;
        assert_eq!(board["players"], json!([]), "{board}");
    }
}

#[actix_web::test]
async fn a_bot_account_on_the_ladder_is_challenged_and_one_off_it_never_is() {
    let app = ladder_app(Db::sqlite(), 3).await;
    let (on, on_secret) = bot_account(&app, "laddered").await;
    let (off, off_secret) = bot_account(&app, "bystander").await;

    // A person's account cannot join, nor can a token without the bot scope.
    let person = app.account("human").await;
    let (status, refused) = app
        .post("/api/bot/ladder", Some(&person.token), json!({}))
        .await;
    assert_eq!(status, 403, "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("bot ladder is for bot accounts"),
        "{message}"
    );
    let (status, anonymous) = app.post("/api/bot/ladder", None, json!({})).await;
    assert_eq!(status, 401, "{anonymous}");

    let mut events = Lines::open(&app, "/api/stream/event", &on_secret)
        .await
        .expect("the event stream opens");
    let (status, joined) = app
        .post("/api/bot/ladder", Some(&on_secret), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["on_ladder"], true);
    assert_eq!(joined["user_id"], on.id());
    // Joining twice changes nothing; the owner's session may join for it too.
    let (status, again) = app
        .post("/api/bot/ladder", Some(&on.token), json!({}))
        .await;
    assert_eq!(status, 200, "{again}");

    let (_, ladder) = app.get("/api/ladder", None).await;
    let ids: Vec<&str> = ladder["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&on.id()), "{ladder}");
    assert!(!ids.contains(&off.id()), "{ladder}");

    // Once the house bots' first games are under way, the account's turn comes.
    let challenge = tokio::time::timeout(Duration::from_secs(240), async {
        loop {
            let line = events.expect("challenge").await;
            if line["challenge"]["status"] == "created" {
                return line["challenge"].clone();
            }
        }
    })
    .await
    .expect("the ladder challenges the account that joined");
    assert_eq!(challenge["dest"]["id"], on.id(), "{challenge}");
    let challenger = challenge["challenger"]["id"].as_str().unwrap();
    assert!(challenger.starts_with("bot:"), "{challenge}");
    assert_eq!(challenge["challenger"]["bot"], true, "{challenge}");
    assert_eq!(challenge["rated"], true, "{challenge}");

    // Accepted, it is an ordinary rated game; resigned once both sides moved, it counts for the account's rating.
    let id = challenge["id"].as_str().unwrap();
    let (status, accepted) = app
        .post(
            &format!("/api/challenge/{id}/accept"),
            Some(&on_secret),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    let table = accepted["game_id"].as_str().unwrap().to_string();
    let start = events.expect("gameStart").await;
    assert_eq!(start["game"]["id"], table.as_str(), "{start}");
    move_once(&app, &on_secret, &table).await;
    let (status, body) = app
        .post(
            &format!("/api/bot/game/{table}/resign"),
            Some(&on_secret),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let ladder = ladder_until(&app, Duration::from_secs(60), |l| {
        l["recent"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == table.as_str())
    })
    .await;
    let mine = ladder["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == on.id())
        .unwrap()
        .clone();
    assert_eq!(mine["account"], true, "{mine}");
    assert_eq!(rated_games(&mine), 1, "{mine}");

    // The account that never joined was never asked.
    let (_, open) = app.get("/api/challenge", Some(&off_secret)).await;
    assert_eq!(open["incoming"], json!([]), "{open}");
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    let pairs = store.ladder_pairs().await.unwrap();
    store.close().await;
    assert!(
        pairs
            .iter()
            .any(|p| p.player_lo == on.id() || p.player_hi == on.id()),
        "{pairs:?}"
    );
    assert!(
        !pairs
            .iter()
            .any(|p| p.player_lo == off.id() || p.player_hi == off.id()),
        "{pairs:?}"
    );

    // Off the ladder, it is no longer listed.
    let (status, left) = app.delete("/api/bot/ladder", Some(&on_secret)).await;
    assert_eq!(status, 200, "{left}");
    assert_eq!(left["on_ladder"], false);
    let (_, ladder) = app.get("/api/ladder", None).await;
    assert_eq!(ladder["bots"].as_array().unwrap().len(), 3, "{ladder}");
}

/// The bot plays its first move of `table` (the first legal one) and waits until the house bot
/// has moved too, so that the game counts for the ratings.
async fn move_once(app: &TestApp, secret: &str, table: &str) {
    let path = format!("/api/bot/game/stream/{table}");
    let mut stream = Lines::open(app, &path, secret)
        .await
        .expect("the game stream opens");
    let full = stream.expect("gameFull").await;
    let you = full["you"].clone();
    let mut state = full["state"].clone();
    let mut moved = false;
    loop {
        assert_eq!(state["status"], "playing", "{state}");
        if moved && state["ply"].as_u64() >= Some(2) {
            return;
        }
        if state["to_move"] == you && !moved {
            let mv = state["legal"][0]
                .as_str()
                .expect("a legal move")
                .to_string();
            let (status, body) = app
                .post(
                    &format!("/api/bot/game/{table}/move/{mv}"),
                    Some(secret),
                    json!({}),
                )
                .await;
            assert_eq!(status, 200, "{mv}: {body}");
            moved = true;
        }
        state = stream.expect("gameState").await;
    }
}
