//! Tournaments as stored, on SQLite and on PostgreSQL (see `store.rs` for how the PostgreSQL
//! half is found): the row, the event log whose key lets one writer take each number, the
//! entrants, and a pairing's game with its status and length.

use store::testing::{TestDatabase, postgres_admin};
use store::{NewGame, Occupant, Store, StoreError, TournamentEvent, TournamentRow};

const T0: i64 = 1_764_400_000_000;

async fn open(database: TestDatabase) -> (Store, TestDatabase) {
    let store = Store::connect(&database.url)
        .await
        .expect("open the test database");
    (store, database)
}

macro_rules! on_both_backends {
    ($($name:ident;)*) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() {
                let (store, _database) = super::open(store::testing::TestDatabase::sqlite()).await;
                super::$name(&store).await
            })*
        }
        mod postgres {
            $(#[tokio::test]
            #[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
            async fn $name() {
                let admin = super::postgres_admin().await;
                let database = super::TestDatabase::postgres(&admin).await.expect("a PostgreSQL test database");
                let (store, _database) = super::open(database).await;
                super::$name(&store).await
            })*
        }
    };
}

on_both_backends! {
    a_tournament_keeps_its_row_its_log_and_its_entrants;
    of_two_writers_of_one_event_number_exactly_one_wins;
    a_pairing_game_reads_with_its_status_and_length;
    a_scheduled_occurrence_is_stored_once_by_its_key;
    a_players_record_lists_the_finished_tournaments_they_entered_newest_first;
}

fn arena(id: &str, creator: &str) -> TournamentRow {
    TournamentRow {
        id: id.to_string(),
        kind: "arena".to_string(),
        game: "mill".to_string(),
        variant: "standard".to_string(),
        clock_initial_ms: 180_000,
        clock_increment_ms: 2_000,
        rated: true,
        starts_at: T0 + 60_000,
        ends_at: T0 + 3_660_000,
        status: "upcoming".to_string(),
        creator_id: Some(creator.to_string()),
        settings: "{}".to_string(),
        standings: None,
        created_at: T0,
        players: 0,
        move_days: None,
        vacation: true,
        start_pushed: false,
        scheduled: false,
    }
}

fn event(seq: i64, text: &str) -> TournamentEvent {
    TournamentEvent {
        seq,
        at: T0 + seq,
        event: text.to_string(),
    }
}

async fn a_tournament_keeps_its_row_its_log_and_its_entrants(store: &Store) {
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.create_user("u2", "Bob", T0).await.unwrap();
    store.create_tournament(&arena("t1", "u1")).await.unwrap();
    assert_eq!(store.tournaments_created_since("u1", T0).await.unwrap(), 1);
    assert_eq!(
        store.tournaments_created_since("u1", T0 + 1).await.unwrap(),
        0
    );
    store
        .append_tournament_event("t1", &event(0, "join ann"), Some("u1"))
        .await
        .unwrap();
    store
        .append_tournament_event("t1", &event(1, "join bob"), Some("u2"))
        .await
        .unwrap();
    store
        .append_tournament_event("t1", &event(2, "tick"), None)
        .await
        .unwrap();
    let log = store.tournament_events_after("t1", -1).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(
        store.tournament_events_after("t1", 1).await.unwrap(),
        [event(2, "tick")]
    );
    let row = store.tournament("t1").await.unwrap().unwrap();
    assert_eq!(row.players, 2);
    assert_eq!(
        row,
        TournamentRow {
            players: 2,
            ..arena("t1", "u1")
        }
    );
    let mut entrants = store.tournament_entrants("t1").await.unwrap();
    entrants.sort();
    assert_eq!(
        entrants,
        [
            ("u1".to_string(), "Ann".to_string()),
            ("u2".to_string(), "Bob".to_string())
        ]
    );
    store
        .set_tournament_status("t1", "finished", Some("[1]"))
        .await
        .unwrap();
    let listed = store.tournaments_with_status("finished", 10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].standings.as_deref(), Some("[1]"));
    assert!(
        store
            .tournaments_with_status("upcoming", 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.tournament("nope").await.unwrap().is_none());
}

async fn of_two_writers_of_one_event_number_exactly_one_wins(store: &Store) {
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.create_tournament(&arena("t1", "u1")).await.unwrap();
    let (one, two) = (event(0, "one"), event(0, "two"));
    let (first, second) = tokio::join!(
        store.append_tournament_event("t1", &one, None),
        store.append_tournament_event("t1", &two, None),
    );
    let won = [first.is_ok(), second.is_ok()];
    assert_eq!(
        won.iter().filter(|ok| **ok).count(),
        1,
        "{first:?} {second:?}"
    );
    let lost = if won[0] { second } else { first };
    assert!(matches!(lost, Err(StoreError::Conflict)), "{lost:?}");
    assert_eq!(
        store.tournament_events_after("t1", -1).await.unwrap().len(),
        1
    );
}

async fn a_pairing_game_reads_with_its_status_and_length(store: &Store) {
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.create_user("u2", "Bob", T0).await.unwrap();
    store.create_tournament(&arena("t1", "u1")).await.unwrap();
    let game = NewGame {
        id: "g1".to_string(),
        game: "mill".to_string(),
        variant: "standard".to_string(),
        seed: 7,
        private: false,
        invite_token: None,
        clock_initial_ms: Some(180_000),
        clock_increment_ms: Some(2_000),
        move_days: None,
        rematch_of: None,
        host_id: None,
        created_at: T0,
        daily: None,
        rated: true,
        rating_range: None,
        seats: vec![
            Some(Occupant::User("u1".to_string())),
            Some(Occupant::User("u2".to_string())),
        ],
    };
    store.create_game(&game).await.unwrap();
    store.link_tournament_game("t1", 0, "g1").await.unwrap();
    assert!(matches!(
        store.link_tournament_game("t1", 0, "g1").await,
        Err(StoreError::Conflict)
    ));
    let games = store.tournament_games("t1").await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].pairing, games[0].game_id.as_str()), (0, "g1"));
    assert_eq!((games[0].status.as_str(), games[0].plies), ("open", 0));
    assert_eq!(games[0].finished_at, None);
    // A second pairing's game: reading from pairing 1 leaves the first out.
    store
        .create_game(&NewGame {
            id: "g2".to_string(),
            ..game
        })
        .await
        .unwrap();
    store.link_tournament_game("t1", 1, "g2").await.unwrap();
    let pairings = |games: Vec<store::TournamentGame>| -> Vec<i64> {
        games.iter().map(|game| game.pairing).collect()
    };
    assert_eq!(
        pairings(store.tournament_games("t1").await.unwrap()),
        [0, 1]
    );
    assert_eq!(
        pairings(store.tournament_games_from("t1", 1).await.unwrap()),
        [1]
    );
    assert!(
        (store.tournament_games_from("t1", 2).await.unwrap()).is_empty(),
        "nothing from a pairing not yet made"
    );
}

async fn a_scheduled_occurrence_is_stored_once_by_its_key(store: &Store) {
    let site = |id: &str| TournamentRow {
        creator_id: None,
        ..arena(id, "nobody")
    };
    let key = "evening@1764403600000";
    assert!(
        store
            .create_scheduled_tournament(&site("s1"), key)
            .await
            .unwrap()
    );
    // Another pass, node or life asks for the same occurrence: nothing more is stored.
    assert!(
        !store
            .create_scheduled_tournament(&site("s2"), key)
            .await
            .unwrap()
    );
    assert!(store.tournament("s2").await.unwrap().is_none());
    let stored = store.tournament("s1").await.unwrap().unwrap();
    assert!(stored.scheduled);
    assert_eq!(stored.creator_id, None);
    // Tournaments of players have no key, and any number of them are stored.
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.create_tournament(&arena("p1", "u1")).await.unwrap();
    store.create_tournament(&arena("p2", "u1")).await.unwrap();
    assert!(!store.tournament("p2").await.unwrap().unwrap().scheduled);
}

async fn a_players_record_lists_the_finished_tournaments_they_entered_newest_first(store: &Store) {
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.create_user("u2", "Bob", T0).await.unwrap();
    for (id, ends_at, status) in [
        ("old", T0 + 10, "finished"),
        ("new", T0 + 20, "finished"),
        ("running", T0 + 30, "running"),
        ("not-hers", T0 + 40, "finished"),
    ] {
        let row = TournamentRow {
            ends_at,
            ..arena(id, "u1")
        };
        store.create_tournament(&row).await.unwrap();
        let entrant = if id == "not-hers" { "u2" } else { "u1" };
        store
            .append_tournament_event(id, &event(0, "join"), Some(entrant))
            .await
            .unwrap();
        store
            .set_tournament_status(id, status, Some("[]"))
            .await
            .unwrap();
    }
    let ids = |rows: Vec<TournamentRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.finished_tournaments_of("u1", 10, 0).await.unwrap()),
        ["new", "old"]
    );
    assert_eq!(
        ids(store.finished_tournaments_of("u1", 1, 1).await.unwrap()),
        ["old"]
    );
    assert!(
        store
            .finished_tournaments_of("nobody", 10, 0)
            .await
            .unwrap()
            .is_empty()
    );
}
