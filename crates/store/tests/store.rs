//! The store against real databases: every test of the shared list runs on a fresh SQLite file
//! (`sqlite::…`) and on a fresh PostgreSQL database (`postgres::…`).
//!
//! The PostgreSQL tests are `#[ignore]`d, so that `cargo test` reports them as ignored where
//! PostgreSQL is missing; `tests/run` runs them (`-- --ignored postgres`) when PostgreSQL
//! answers at `STOLIK_TEST_POSTGRES` (an admin URL, default
//! `postgres://postgres@127.0.0.1:5432/postgres`) or `STOLIK_REQUIRE_POSTGRES=1`, and there
//! an unreachable server fails them.

use std::ops::Deref;

use store::testing::{TestDatabase, postgres_admin};
use store::{
    Backend, ChatRoom, DailyResult, EndReason, GameStatus, MoveRow, NewChatLine, NewGame,
    NewReport, NoteKind, Occupant, Outcome, Registration, Store, StoreError,
};

// ---------------------------------------------------------------------------------------
// Harness

/// A store on a throw-away database (removed when dropped). It dereferences to the `Store`.
struct TestDb {
    store: Store,
    url: String,
    // Dropped after the store, which removes the database.
    database: TestDatabase,
}

impl Deref for TestDb {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.store
    }
}

async fn open(database: TestDatabase) -> TestDb {
    let store = Store::connect(&database.url)
        .await
        .expect("open the test database");
    TestDb {
        store,
        url: database.url.clone(),
        database,
    }
}

async fn sqlite_db() -> TestDb {
    open(TestDatabase::sqlite()).await
}

async fn postgres_db() -> TestDb {
    let database = TestDatabase::postgres(&postgres_admin().await)
        .await
        .expect("create a PostgreSQL test database");
    open(database).await
}

/// Each listed `async fn NAME(db: TestDb)` becomes `sqlite::NAME` and the ignored
/// `postgres::NAME` (see the top of the file), with the given test attribute.
macro_rules! on_both_backends {
    ($(#[$test:meta] $name:ident;)*) => {
        mod sqlite {
            $(#[$test] async fn $name() {
                super::$name(super::sqlite_db().await).await
            })*
        }
        mod postgres {
            $(#[$test]
            #[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
            async fn $name() {
                super::$name(super::postgres_db().await).await
            })*
        }
    };
}

on_both_backends! {
    #[tokio::test] backend_reports_which_database_is_in_use;
    #[tokio::test] connecting_twice_to_the_same_database_applies_migrations_once_and_keeps_data;
    #[tokio::test] ping_answers;
    #[tokio::test] a_guest_registers_and_keeps_the_same_id_and_games;
    #[tokio::test] usernames_are_unique_whatever_their_letter_case;
    #[tokio::test] confusable_skeletons_are_unique_and_backfilled;
    #[tokio::test] token_versions_grow_on_registration_password_change_and_logout_everywhere;
    #[tokio::test] guests_are_written_once_and_flags_mutes_and_reports_are_kept;
    #[tokio::test] set_password_replaces_the_hash;
    #[tokio::test] a_created_game_reads_back_with_its_seats;
    #[tokio::test] a_correspondence_game_keeps_its_days_per_move;
    #[tokio::test] notifications_are_listed_newest_first_and_marked_read_by_their_player_only;
    #[tokio::test] a_new_notification_replaces_the_unread_one_of_its_kind_at_its_table;
    #[tokio::test] notifications_name_the_game_and_the_opponent_and_go_with_their_game;
    #[tokio::test] accounts_are_searched_by_the_start_of_their_username;
    #[tokio::test] moves_come_back_in_ply_order_and_a_taken_ply_is_a_conflict;
    #[tokio::test] two_racing_moves_for_one_ply_end_in_one_success_and_one_conflict;
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    racing_moves_from_separate_tasks_and_pools_store_each_ply_once;
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    many_games_moving_at_once_each_end_with_exactly_their_moves;
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)] a_bad_move_in_a_batch_fails_alone;
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    moves_sent_once_the_database_is_gone_are_refused_and_none_is_written;
    #[tokio::test] unfinished_games_lists_open_and_playing_games_with_their_moves;
    #[tokio::test] finish_game_records_the_ending_and_the_first_ending_wins;
    #[tokio::test] games_of_user_lists_ended_games_newest_first;
    #[tokio::test] chat_tail_returns_the_last_lines_oldest_first;
    #[tokio::test] the_secret_setting_is_created_once_and_then_kept;
    #[tokio::test] the_daily_leaderboard_keeps_each_players_best_and_ranks_it;
    #[tokio::test] a_player_has_one_daily_game_a_day;
    #[tokio::test] seeds_above_i64_max_round_trip;
    #[tokio::test] a_rated_ending_moves_both_ratings_in_the_same_transaction;
    #[tokio::test] the_leaderboard_lists_settled_accounts_best_first;
}

// ---------------------------------------------------------------------------------------
// Fixtures

/// A result in its stored text form.
fn result(text: &str) -> Outcome {
    text.parse().expect("a result")
}

const T0: i64 = 1_764_400_000_000;

fn new_game(id: &str, seats: Vec<Option<Occupant>>) -> NewGame {
    NewGame {
        id: id.to_string(),
        game: "mill".to_string(),
        variant: "standard".to_string(),
        seed: 42,
        private: false,
        invite_token: None,
        clock_initial_ms: None,
        clock_increment_ms: None,
        move_days: None,
        rematch_of: None,
        host_id: None,
        created_at: T0,
        daily: None,
        rated: false,
        rating_range: None,
        seats,
    }
}

fn user_seat(id: &str) -> Option<Occupant> {
    Some(Occupant::User(id.to_string()))
}

fn mv(ply: u32, text: &str) -> MoveRow {
    MoveRow {
        ply,
        mv: text.to_string(),
        played_at: T0 + i64::from(ply) * 1000,
        clock_a_ms: Some(300_000 - i64::from(ply)),
        clock_b_ms: Some(300_000),
    }
}

/// A game between two new guests `<id>-a` and `<id>-b`.
async fn two_player_game(store: &Store, id: &str, created_at: i64) {
    let (a, b) = (format!("{id}-a"), format!("{id}-b"));
    store.create_user(&a, "Ann", created_at).await.unwrap();
    store.create_user(&b, "Bob", created_at).await.unwrap();
    let mut game = new_game(id, vec![user_seat(&a), user_seat(&b)]);
    game.created_at = created_at;
    store.create_game(&game).await.unwrap();
}

// ---------------------------------------------------------------------------------------
// Tests

async fn connecting_twice_to_the_same_database_applies_migrations_once_and_keeps_data(db: TestDb) {
    db.create_user("u1", "Ann", T0).await.unwrap();
    let again = Store::connect(&db.url).await.expect("second connect");
    assert_eq!(again.user("u1").await.unwrap().unwrap().display_name, "Ann");
    again.close().await;
}

async fn ping_answers(db: TestDb) {
    db.ping().await.unwrap();
}

async fn backend_reports_which_database_is_in_use(db: TestDb) {
    let expected = if db.database.is_postgres() {
        Backend::Postgres
    } else {
        Backend::Sqlite
    };
    assert_eq!(db.backend(), expected);
}

#[tokio::test]
async fn an_unknown_database_url_is_refused() {
    let err = Store::connect("mysql://localhost/x").await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
}

#[tokio::test]
async fn an_in_memory_sqlite_store_keeps_its_data_across_calls() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    store.create_user("u1", "Ann", T0).await.unwrap();
    store.ping().await.unwrap();
    assert!(store.user("u1").await.unwrap().is_some());
    store.close().await;
}

#[tokio::test]
async fn a_sqlite_file_gets_its_missing_directory_and_a_write_ahead_log() {
    let dir = std::env::temp_dir().join(format!("stolik-store-dir-{}", store::new_id()));
    let url = format!("sqlite://{}/nested/stolik.db", dir.display());
    let store = Store::connect(&url).await.unwrap();
    store.create_user("u1", "Ann", T0).await.unwrap();
    // The write-ahead log beside the file shows the WAL journal mode took effect.
    assert!(dir.join("nested/stolik.db-wal").exists());
    store.close().await;
    assert!(dir.join("nested/stolik.db").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The log's header counts its restarts (the checkpoint sequence number, bytes 12..16).
fn log_restarts(database: &str) -> u32 {
    let header = std::fs::read(format!("{database}-wal")).unwrap_or_default();
    header
        .get(12..16)
        .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_write_ahead_log_starts_again_while_moves_stream_without_a_pause() {
    // A passive checkpoint alone never catches up with a writer that never pauses, and the
    // log then grows for as long as the load lasts.
    let db = sqlite_db().await;
    let path = db.url.trim_start_matches("sqlite://").to_string();
    const GAMES: usize = 32;
    for g in 0..GAMES {
        two_player_game(&db, &format!("w{g}"), T0).await;
    }
    let before = log_restarts(&path);
    let until = std::time::Instant::now() + std::time::Duration::from_millis(2_500);
    let players = (0..GAMES).map(|g| {
        let store = db.store.clone();
        tokio::spawn(async move {
            let mut ply = 0;
            while std::time::Instant::now() < until {
                ply += 1;
                store
                    .append_move(&format!("w{g}"), &mv(ply, "a1"))
                    .await
                    .unwrap();
            }
            ply
        })
    });
    let mut written = Vec::new();
    for player in players {
        written.push(player.await.unwrap());
    }
    let restarts = log_restarts(&path).wrapping_sub(before);
    assert!(
        restarts >= 2,
        "the log started again {restarts} times in 2.5 s of moves"
    );
    for (g, plies) in written.into_iter().enumerate() {
        let game = db.game(&format!("w{g}")).await.unwrap().unwrap();
        assert_eq!(
            game.moves.len(),
            plies as usize,
            "every move of w{g} is kept"
        );
    }
}

async fn a_guest_registers_and_keeps_the_same_id_and_games(db: TestDb) {
    db.create_user("guest1", "Guest 1", T0).await.unwrap();
    let guest = db.user("guest1").await.unwrap().unwrap();
    assert!(guest.is_guest());
    assert_eq!(guest.created_at, T0);
    db.create_game(&new_game("g1", vec![user_seat("guest1"), None]))
        .await
        .unwrap();
    db.finish_game("g1", GameStatus::Aborted, None, EndReason::Abort, T0 + 1)
        .await
        .unwrap();

    db.register("guest1", &account("Alice", "hash-1"))
        .await
        .unwrap();

    let user = db.user("guest1").await.unwrap().unwrap();
    assert_eq!(user.username.as_deref(), Some("Alice"));
    assert_eq!(user.password_hash.as_deref(), Some("hash-1"));
    assert_eq!(user.display_name, "Guest 1");
    assert!(!user.is_guest());
    let by_name = db.user_by_username("alice").await.unwrap().unwrap();
    assert_eq!(by_name.id, "guest1");
    let games = db.games_of_user("guest1", 10).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].id, "g1");

    assert!(matches!(
        db.register("guest1", &account("Alice2", "h")).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        db.register("nobody", &account("Zed", "h")).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        db.create_user("guest1", "Again", T0).await,
        Err(StoreError::Conflict)
    ));
    db.set_display_name("guest1", "Alice W.").await.unwrap();
    assert_eq!(
        db.user("guest1").await.unwrap().unwrap().display_name,
        "Alice W."
    );
    assert!(db.user("nobody").await.unwrap().is_none());
}

async fn usernames_are_unique_whatever_their_letter_case(db: TestDb) {
    db.create_user("u1", "One", T0).await.unwrap();
    db.create_user("u2", "Two", T0).await.unwrap();
    db.register("u1", &account("Ёжик", "h1")).await.unwrap();
    assert!(matches!(
        db.register("u2", &account("ёЖИК", "h2")).await,
        Err(StoreError::NameTaken)
    ));
    // The refused registration left the second user a guest.
    assert!(db.user("u2").await.unwrap().unwrap().is_guest());
    assert_eq!(db.user_by_username("ЁЖИК").await.unwrap().unwrap().id, "u1");
    assert!(db.user_by_username("nobody").await.unwrap().is_none());
    db.register("u2", &account("Hedgehog", "h2")).await.unwrap();
}

/// A registration whose skeleton is the name itself (the server computes the real one).
fn account<'a>(username: &'a str, password_hash: &'a str) -> Registration<'a> {
    Registration {
        username,
        skeleton: username,
        password_hash,
    }
}

async fn confusable_skeletons_are_unique_and_backfilled(db: TestDb) {
    db.create_user("u1", "One", T0).await.unwrap();
    db.create_user("u2", "Two", T0).await.unwrap();
    let first = Registration {
        username: "admin",
        skeleton: "admin",
        password_hash: "h",
    };
    db.register("u1", &first).await.unwrap();
    let lookalike = Registration {
        username: "аdmin",
        skeleton: "admin",
        password_hash: "h",
    };
    assert!(matches!(
        db.register("u2", &lookalike).await,
        Err(StoreError::NameTaken)
    ));
    assert!(db.users_without_skeleton().await.unwrap().is_empty());
    assert!(matches!(
        db.set_skeleton("u2", "admin").await,
        Err(StoreError::NameTaken)
    ));
}

async fn token_versions_grow_on_registration_password_change_and_logout_everywhere(db: TestDb) {
    db.create_user("u1", "One", T0).await.unwrap();
    assert_eq!(db.user("u1").await.unwrap().unwrap().token_version, 0);
    assert_eq!(db.register("u1", &account("one", "h")).await.unwrap(), 1);
    assert_eq!(db.set_password("u1", "h2").await.unwrap(), 2);
    assert_eq!(db.bump_token_version("u1").await.unwrap(), 3);
    assert_eq!(db.user("u1").await.unwrap().unwrap().token_version, 3);
    assert!(matches!(
        db.bump_token_version("nobody").await,
        Err(StoreError::NotFound)
    ));
}

async fn guests_are_written_once_and_flags_mutes_and_reports_are_kept(db: TestDb) {
    let before = db.user_count().await.unwrap();
    db.ensure_user("g1", "Fox 1000", T0).await.unwrap();
    db.ensure_user("g1", "Fox 1000", T0 + 5).await.unwrap();
    db.ensure_user("g2", "Owl 2000", T0).await.unwrap();
    assert_eq!(db.user_count().await.unwrap(), before + 2);
    assert_eq!(db.user("g1").await.unwrap().unwrap().created_at, T0);

    assert_eq!(db.user("g1").await.unwrap().unwrap().flagged_at, None);
    db.set_flagged("g1", Some(T0 + 9)).await.unwrap();
    assert_eq!(
        db.user("g1").await.unwrap().unwrap().flagged_at,
        Some(T0 + 9)
    );
    db.set_flagged("g1", None).await.unwrap();
    assert_eq!(db.user("g1").await.unwrap().unwrap().flagged_at, None);
    assert!(matches!(
        db.set_flagged("nobody", Some(T0)).await,
        Err(StoreError::NotFound)
    ));

    db.mute("g1", "g2", T0).await.unwrap();
    db.mute("g1", "g2", T0).await.unwrap();
    assert_eq!(db.mutes_of("g1").await.unwrap(), vec!["g2".to_string()]);
    assert!(db.mutes_of("g2").await.unwrap().is_empty());
    assert!(matches!(
        db.mute("g1", "nobody", T0).await,
        Err(StoreError::NotFound)
    ));
    db.unmute("g1", "g2").await.unwrap();
    assert!(db.mutes_of("g1").await.unwrap().is_empty());

    let report = NewReport {
        reporter_id: "g1".into(),
        reported_id: "g2".into(),
        chat_id: None,
        reason: "rude".into(),
        created_at: T0,
    };
    let id = db.add_report(&report).await.unwrap();
    let stored = db.reports_about("g2").await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0].id, stored[0].reason.as_str()), (id, "rude"));
    let bad = NewReport {
        reported_id: "nobody".into(),
        ..report
    };
    assert!(matches!(
        db.add_report(&bad).await,
        Err(StoreError::NotFound)
    ));
    db.probe_write(T0).await.unwrap();
    assert_eq!(
        db.setting("health_probe").await.unwrap().as_deref(),
        Some(T0.to_string().as_str())
    );
}

async fn set_password_replaces_the_hash(db: TestDb) {
    db.create_user("u1", "One", T0).await.unwrap();
    db.register("u1", &account("one", "old")).await.unwrap();
    db.set_password("u1", "new").await.unwrap();
    let user = db.user_by_username("ONE").await.unwrap().unwrap();
    assert_eq!(user.password_hash.as_deref(), Some("new"));
    assert!(matches!(
        db.set_password("nobody", "x").await,
        Err(StoreError::NotFound)
    ));
}

async fn a_created_game_reads_back_with_its_seats(db: TestDb) {
    db.create_user("host", "Hostess", T0).await.unwrap();
    let game = NewGame {
        private: true,
        invite_token: Some("tok".to_string()),
        clock_initial_ms: Some(300_000),
        clock_increment_ms: Some(2_000),
        host_id: Some("host".to_string()),
        ..new_game(
            "g1",
            vec![user_seat("host"), Some(Occupant::Bot("easy".to_string()))],
        )
    };
    db.create_game(&game).await.unwrap();

    let record = db.game("g1").await.unwrap().unwrap();
    assert_eq!(record.id, "g1");
    assert_eq!(record.game, "mill");
    assert_eq!(record.variant, "standard");
    assert_eq!(record.seed, 42);
    assert!(record.private);
    assert_eq!(record.invite_token.as_deref(), Some("tok"));
    assert_eq!(record.clock_initial_ms, Some(300_000));
    assert_eq!(record.clock_increment_ms, Some(2_000));
    assert_eq!(record.status, GameStatus::Open);
    assert_eq!(record.host_id.as_deref(), Some("host"));
    assert_eq!(record.created_at, T0);
    assert_eq!(record.started_at, None);
    assert!(record.moves.is_empty());
    assert_eq!(record.seats.len(), 2);
    assert_eq!(record.seats[0].seat, 0);
    assert_eq!(record.seats[0].user_id.as_deref(), Some("host"));
    assert_eq!(record.seats[0].display_name.as_deref(), Some("Hostess"));
    assert_eq!(record.seats[0].occupant(), user_seat("host"));
    assert_eq!(record.seats[1].bot.as_deref(), Some("easy"));
    assert_eq!(record.seats[1].display_name, None);

    // A second game under the same id is refused, and nothing of it is left behind.
    assert!(matches!(
        db.create_game(&new_game("g1", vec![None])).await,
        Err(StoreError::Conflict)
    ));
    // A seat naming a missing user rolls the whole game back.
    assert!(matches!(
        db.create_game(&new_game("g2", vec![None, user_seat("ghost")]))
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(db.game("g2").await.unwrap().is_none());

    db.set_seat("g1", 1, None).await.unwrap();
    db.set_seat("g1", 0, Some(&Occupant::Bot("hard".to_string())))
        .await
        .unwrap();
    let seats = db.game("g1").await.unwrap().unwrap().seats;
    assert_eq!(seats[0].occupant(), Some(Occupant::Bot("hard".to_string())));
    assert_eq!(seats[1].occupant(), None);
    assert!(matches!(
        db.set_seat("nope", 0, None).await,
        Err(StoreError::NotFound)
    ));
    assert!(db.game("nope").await.unwrap().is_none());
}

async fn a_correspondence_game_keeps_its_days_per_move(db: TestDb) {
    let game = NewGame {
        move_days: Some(3),
        ..new_game("g1", vec![user_seat("host"), None])
    };
    db.create_user("host", "Host", T0).await.unwrap();
    db.create_game(&game).await.unwrap();
    assert_eq!(db.game("g1").await.unwrap().unwrap().move_days, Some(3));
    let unfinished = db.unfinished_games().await.unwrap();
    assert_eq!(unfinished[0].move_days, Some(3));
}

async fn notifications_are_listed_newest_first_and_marked_read_by_their_player_only(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    let first = db
        .notify("g1-a", NoteKind::Joined, "g1", T0 + 1)
        .await
        .unwrap();
    let second = db
        .notify("g1-a", NoteKind::YourTurn, "g1", T0 + 2)
        .await
        .unwrap();
    db.notify("g1-b", NoteKind::YourTurn, "g1", T0 + 3)
        .await
        .unwrap();
    let (list, unread) = db.notifications_of("g1-a", 10).await.unwrap();
    assert_eq!(unread, 2);
    assert_eq!(list, vec![second.clone(), first.clone()]);
    assert!(!second.read);
    // Another player's ids change nothing; one's own are marked once.
    assert_eq!(
        db.mark_read("g1-b", Some(&[first.id]), T0 + 4)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        db.mark_read("g1-a", Some(&[first.id]), T0 + 4)
            .await
            .unwrap(),
        1
    );
    assert_eq!(db.mark_read("g1-a", Some(&[]), T0 + 4).await.unwrap(), 0);
    assert_eq!(db.notifications_of("g1-a", 10).await.unwrap().1, 1);
    assert_eq!(db.mark_read("g1-a", None, T0 + 5).await.unwrap(), 1);
    let (list, unread) = db.notifications_of("g1-a", 10).await.unwrap();
    assert_eq!(unread, 0);
    assert!(list.iter().all(|n| n.read));
    assert_eq!(db.notifications_of("g1-b", 10).await.unwrap().1, 1);
    assert!(matches!(
        db.notify("nobody", NoteKind::Joined, "g1", T0).await,
        Err(StoreError::NotFound)
    ));
}

async fn a_new_notification_replaces_the_unread_one_of_its_kind_at_its_table(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    two_player_game(&db, "g2", T0).await;
    let first = db
        .notify("g1-a", NoteKind::DrawOffer, "g1", T0 + 1)
        .await
        .unwrap();
    for i in 0..60 {
        let again = db
            .notify("g1-a", NoteKind::DrawOffer, "g1", T0 + 2 + i)
            .await
            .unwrap();
        assert_eq!((again.id, again.created_at), (first.id, T0 + 2 + i));
    }
    // Another kind, another table, another player: each a notification of its own.
    db.notify("g1-a", NoteKind::YourTurn, "g1", T0 + 70)
        .await
        .unwrap();
    db.notify("g2-a", NoteKind::DrawOffer, "g2", T0 + 71)
        .await
        .unwrap();
    db.notify("g1-b", NoteKind::DrawOffer, "g1", T0 + 72)
        .await
        .unwrap();
    let (list, unread) = db.notifications_of("g1-a", 10).await.unwrap();
    assert_eq!(unread, 2);
    let kinds: Vec<NoteKind> = list.iter().map(|n| n.kind).collect();
    assert_eq!(kinds, [NoteKind::YourTurn, NoteKind::DrawOffer]);
    // Once read, the next offer is a new unread notification beside the read one.
    db.mark_read("g1-a", Some(&[first.id]), T0 + 80)
        .await
        .unwrap();
    let next = db
        .notify("g1-a", NoteKind::DrawOffer, "g1", T0 + 81)
        .await
        .unwrap();
    assert_ne!(next.id, first.id);
    let (list, unread) = db.notifications_of("g1-a", 10).await.unwrap();
    assert_eq!((list.len(), unread), (3, 2));
}

async fn notifications_name_the_game_and_the_opponent_and_go_with_their_game(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    let joined = db
        .notify("g1-a", NoteKind::Joined, "g1", T0 + 1)
        .await
        .unwrap();
    assert_eq!(joined.game, "mill");
    assert_eq!(joined.opponent.as_deref(), Some("Bob"));
    db.notify("g1-b", NoteKind::YourTurn, "g1", T0 + 2)
        .await
        .unwrap();
    assert_eq!(
        db.notifications_of("g1-b", 10).await.unwrap().0[0]
            .opponent
            .as_deref(),
        Some("Ann")
    );
    // Opening the game reads its notifications, and only its player's.
    assert_eq!(db.mark_game_read("g1-a", "g1", T0 + 3).await.unwrap(), 1);
    assert_eq!(db.unread_notifications("g1-a").await.unwrap(), 0);
    assert_eq!(db.unread_notifications("g1-b").await.unwrap(), 1);
    // A withdrawn one is gone.
    db.notify("g1-a", NoteKind::Joined, "g1", T0 + 4)
        .await
        .unwrap();
    assert!(
        db.withdraw_notification("g1-a", NoteKind::Joined, "g1")
            .await
            .unwrap()
    );
    assert!(
        !db.withdraw_notification("g1-a", NoteKind::Joined, "g1")
            .await
            .unwrap()
    );
    // The game ends: all but the kinds kept go, and those who had unread ones are named.
    db.notify("g1-a", NoteKind::GameOver, "g1", T0 + 5)
        .await
        .unwrap();
    let told = db
        .drop_game_notifications("g1", &[NoteKind::GameOver])
        .await
        .unwrap();
    assert_eq!(told, ["g1-b"]);
    let (list, unread) = db.notifications_of("g1-a", 10).await.unwrap();
    let kinds: Vec<NoteKind> = list.iter().map(|n| n.kind).collect();
    assert_eq!((kinds.as_slice(), unread), (&[NoteKind::GameOver][..], 1));
    assert_eq!(db.notifications_of("g1-b", 10).await.unwrap(), (vec![], 0));
}

async fn accounts_are_searched_by_the_start_of_their_username(db: TestDb) {
    for (id, name) in [("u1", "anna_x"), ("u2", "Annabel"), ("u3", "bob")] {
        db.create_user(id, name, T0).await.unwrap();
        db.register(id, &account(name, "hash")).await.unwrap();
    }
    db.create_user("g1", "Annie the guest", T0).await.unwrap();
    let found = db.search_users("ANN", 10).await.unwrap();
    assert_eq!(
        found,
        [
            ("u1".to_string(), "anna_x".to_string()),
            ("u2".to_string(), "Annabel".to_string())
        ]
    );
    // LIKE's wildcards are letters here.
    assert_eq!(db.search_users("anna_", 10).await.unwrap().len(), 1);
    assert!(db.search_users("%", 10).await.unwrap().is_empty());
    assert_eq!(db.search_users("a", 1).await.unwrap().len(), 1);
}

async fn moves_come_back_in_ply_order_and_a_taken_ply_is_a_conflict(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    db.start_game("g1", T0 + 5).await.unwrap();
    for (ply, text) in [(1, "a1"), (2, "b2"), (3, "c3")] {
        db.append_move("g1", &mv(ply, text)).await.unwrap();
    }
    assert!(matches!(
        db.append_move("g1", &mv(2, "zz")).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        db.append_move("nope", &mv(1, "a1")).await,
        Err(StoreError::NotFound)
    ));
    let record = db.game("g1").await.unwrap().unwrap();
    assert_eq!(record.status, GameStatus::Playing);
    assert_eq!(record.started_at, Some(T0 + 5));
    assert_eq!(record.moves, vec![mv(1, "a1"), mv(2, "b2"), mv(3, "c3")]);
}

async fn two_racing_moves_for_one_ply_end_in_one_success_and_one_conflict(db: TestDb) {
    // A multi-threaded runtime is not needed for the race: the two inserts run on separate
    // pooled connections either way, and the database decides.
    two_player_game(&db, "g1", T0).await;
    for ply in 1..=20 {
        let (left, right) = (db.store.clone(), db.store.clone());
        let (a, b) = tokio::join!(
            async move { left.append_move("g1", &mv(ply, "left")).await },
            async move { right.append_move("g1", &mv(ply, "right")).await },
        );
        let outcomes = [a, b];
        let wins = outcomes.iter().filter(|r| r.is_ok()).count();
        let conflicts = outcomes
            .iter()
            .filter(|r| matches!(r, Err(StoreError::Conflict)))
            .count();
        assert_eq!((wins, conflicts), (1, 1), "ply {ply}: {outcomes:?}");
    }
    assert_eq!(db.game("g1").await.unwrap().unwrap().moves.len(), 20);
}

async fn racing_moves_from_separate_tasks_and_pools_store_each_ply_once(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    // A second store on the same database stands in for a second server node.
    let other = Store::connect(&db.url).await.unwrap();
    for ply in 1..=10 {
        let left = tokio::spawn({
            let store = db.store.clone();
            async move { store.append_move("g1", &mv(ply, "node-a")).await }
        });
        let right = tokio::spawn({
            let store = other.clone();
            async move { store.append_move("g1", &mv(ply, "node-b")).await }
        });
        let outcomes = [left.await.unwrap(), right.await.unwrap()];
        let wins = outcomes.iter().filter(|r| r.is_ok()).count();
        let conflicts = outcomes
            .iter()
            .filter(|r| matches!(r, Err(StoreError::Conflict)))
            .count();
        assert_eq!((wins, conflicts), (1, 1), "ply {ply}: {outcomes:?}");
    }
    other.close().await;
}

async fn many_games_moving_at_once_each_end_with_exactly_their_moves(db: TestDb) {
    // Every move waits for its own commit before the next of its game is sent, as a table
    // does; the writer batches whatever the forty games have waiting.
    let games: Vec<String> = (0..40).map(|i| format!("g{i}")).collect();
    for id in &games {
        two_player_game(&db, id, T0).await;
    }
    let writers: Vec<_> = games
        .iter()
        .map(|id| {
            let (store, id) = (db.store.clone(), id.clone());
            tokio::spawn(async move {
                for ply in 1..=25 {
                    store
                        .append_move(&id, &mv(ply, &format!("{id}-{ply}")))
                        .await
                        .unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    for id in &games {
        let moves = db.game(id).await.unwrap().unwrap().moves;
        let expected: Vec<MoveRow> = (1..=25).map(|p| mv(p, &format!("{id}-{p}"))).collect();
        assert_eq!(moves, expected, "{id}");
    }
}

async fn a_bad_move_in_a_batch_fails_alone(db: TestDb) {
    // Sent together they share a batch: the one for a missing game and the one for a taken
    // ply get their own errors, and the rest are written.
    for id in ["g1", "g2", "g3"] {
        two_player_game(&db, id, T0).await;
    }
    db.append_move("g2", &mv(1, "first")).await.unwrap();
    let send = |id: &'static str, ply: u32, text: &'static str| {
        let store = db.store.clone();
        tokio::spawn(async move { store.append_move(id, &mv(ply, text)).await })
    };
    let sent = [
        send("g1", 1, "a1"),
        send("missing", 1, "x"),
        send("g2", 1, "again"),
        send("g3", 1, "c1"),
    ];
    let mut outcomes = Vec::new();
    for task in sent {
        outcomes.push(task.await.unwrap());
    }
    assert!(outcomes[0].is_ok(), "{outcomes:?}");
    assert!(
        matches!(outcomes[1], Err(StoreError::NotFound)),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[2], Err(StoreError::Conflict)),
        "{outcomes:?}"
    );
    assert!(outcomes[3].is_ok(), "{outcomes:?}");
    assert_eq!(
        db.game("g1").await.unwrap().unwrap().moves,
        vec![mv(1, "a1")]
    );
    assert_eq!(
        db.game("g2").await.unwrap().unwrap().moves,
        vec![mv(1, "first")]
    );
    assert_eq!(
        db.game("g3").await.unwrap().unwrap().moves,
        vec![mv(1, "c1")]
    );
}

async fn moves_sent_once_the_database_is_gone_are_refused_and_none_is_written(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    db.append_move("g1", &mv(1, "kept")).await.unwrap();
    db.store.close().await;
    let sent: Vec<_> = (2..=6)
        .map(|ply| {
            let store = db.store.clone();
            tokio::spawn(async move { store.append_move("g1", &mv(ply, "lost")).await })
        })
        .collect();
    for task in sent {
        let outcome = task.await.unwrap();
        assert!(
            matches!(outcome, Err(StoreError::Unavailable(_))),
            "{outcome:?}"
        );
    }
    let reopened = Store::connect(&db.url).await.unwrap();
    let moves = reopened.game("g1").await.unwrap().unwrap().moves;
    assert_eq!(moves, vec![mv(1, "kept")]);
    reopened.close().await;
}

async fn unfinished_games_lists_open_and_playing_games_with_their_moves(db: TestDb) {
    two_player_game(&db, "open", T0).await;
    two_player_game(&db, "playing", T0 + 1).await;
    two_player_game(&db, "done", T0 + 2).await;
    two_player_game(&db, "dropped", T0 + 3).await;
    db.start_game("playing", T0 + 10).await.unwrap();
    db.append_move("playing", &mv(1, "a1")).await.unwrap();
    db.append_move("playing", &mv(2, "b1")).await.unwrap();
    db.start_game("done", T0 + 10).await.unwrap();
    db.append_move("done", &mv(1, "x")).await.unwrap();
    db.finish_game(
        "done",
        GameStatus::Finished,
        Some(result("a")),
        EndReason::Resign,
        T0 + 20,
    )
    .await
    .unwrap();
    db.finish_game(
        "dropped",
        GameStatus::Aborted,
        None,
        EndReason::Abort,
        T0 + 20,
    )
    .await
    .unwrap();

    let games = db.unfinished_games().await.unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["open", "playing"]);
    assert!(games[0].moves.is_empty());
    assert_eq!(games[0].seats.len(), 2);
    assert_eq!(games[1].moves, vec![mv(1, "a1"), mv(2, "b1")]);
    assert_eq!(games[1].seats[1].display_name.as_deref(), Some("Bob"));
}

async fn finish_game_records_the_ending_and_the_first_ending_wins(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    db.start_game("g1", T0 + 1).await.unwrap();
    assert!(matches!(
        db.start_game("g1", T0 + 2).await,
        Err(StoreError::Conflict)
    ));
    db.finish_game(
        "g1",
        GameStatus::Finished,
        Some(result("b")),
        EndReason::Time,
        T0 + 9,
    )
    .await
    .unwrap();
    assert!(matches!(
        db.finish_game(
            "g1",
            GameStatus::Finished,
            Some(result("a")),
            EndReason::Resign,
            T0 + 10
        )
        .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        db.finish_game("nope", GameStatus::Aborted, None, EndReason::Abort, T0)
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        db.finish_game("g1", GameStatus::Playing, None, EndReason::Rules, T0)
            .await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        db.start_game("nope", T0).await,
        Err(StoreError::NotFound)
    ));

    let record = db.game("g1").await.unwrap().unwrap();
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(record.result, Some(result("b")));
    assert_eq!(record.end_reason, Some(EndReason::Time));
    assert_eq!(record.finished_at, Some(T0 + 9));
}

async fn games_of_user_lists_ended_games_newest_first(db: TestDb) {
    db.create_user("me", "Me", T0).await.unwrap();
    db.create_user("you", "You", T0).await.unwrap();
    // (id, finished at, moves); "live" never ends and "theirs" is not mine.
    for (id, ended, moves) in [("old", 100, 1), ("new", 300, 3), ("mid", 200, 0)] {
        let game = new_game(id, vec![user_seat("me"), user_seat("you")]);
        db.create_game(&game).await.unwrap();
        for ply in 1..=moves {
            db.append_move(id, &mv(ply, "m")).await.unwrap();
        }
        db.finish_game(
            id,
            GameStatus::Finished,
            Some(result("draw")),
            EndReason::Agreement,
            T0 + ended,
        )
        .await
        .unwrap();
    }
    db.create_game(&new_game("live", vec![user_seat("me"), None]))
        .await
        .unwrap();
    db.create_game(&new_game("theirs", vec![user_seat("you"), None]))
        .await
        .unwrap();
    db.finish_game(
        "theirs",
        GameStatus::Aborted,
        None,
        EndReason::Abort,
        T0 + 999,
    )
    .await
    .unwrap();
    db.create_game(&new_game("mirror", vec![user_seat("me"), user_seat("me")]))
        .await
        .unwrap();
    db.finish_game(
        "mirror",
        GameStatus::Aborted,
        None,
        EndReason::Abort,
        T0 + 50,
    )
    .await
    .unwrap();

    let games = db.games_of_user("me", 10).await.unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["new", "mid", "old", "mirror"]);
    assert_eq!(games[0].move_count, 3);
    assert_eq!(games[0].status, GameStatus::Finished);
    assert_eq!(games[0].result, Some(result("draw")));
    assert_eq!(games[0].end_reason, Some(EndReason::Agreement));
    assert_eq!(games[0].finished_at, Some(T0 + 300));
    assert_eq!(games[0].seats.len(), 2);
    assert_eq!(games[0].seats[1].display_name.as_deref(), Some("You"));
    assert_eq!(games[3].status, GameStatus::Aborted);

    let first_two = db.games_of_user("me", 2).await.unwrap();
    assert_eq!(first_two.len(), 2);
    assert_eq!(first_two[1].id, "mid");
    assert!(db.games_of_user("nobody", 10).await.unwrap().is_empty());
}

async fn chat_tail_returns_the_last_lines_oldest_first(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    two_player_game(&db, "g2", T0).await;
    for i in 0..5 {
        let line = NewChatLine {
            game_id: "g1".to_string(),
            user_id: Some("g1-a".to_string()),
            author: "Ann".to_string(),
            body: format!("line {i}"),
            sent_at: T0 + i,
            room: ChatRoom::Players,
        };
        db.add_chat(&line).await.unwrap();
    }
    db.add_chat(&NewChatLine {
        game_id: "g2".to_string(),
        user_id: None,
        author: "server".to_string(),
        body: "other table".to_string(),
        sent_at: T0,
        room: ChatRoom::Spectators,
    })
    .await
    .unwrap();

    let tail = db.chat_tail("g1", 3).await.unwrap();
    let bodies: Vec<&str> = tail.iter().map(|l| l.body.as_str()).collect();
    assert_eq!(bodies, ["line 2", "line 3", "line 4"]);
    assert_eq!(tail[0].author, "Ann");
    assert_eq!(tail[0].user_id.as_deref(), Some("g1-a"));
    assert_eq!(tail[2].sent_at, T0 + 4);
    assert!(tail[0].id < tail[1].id);
    assert_eq!(db.chat_tail("g1", 50).await.unwrap().len(), 5);
    let other = db.chat_tail("g2", 50).await.unwrap();
    assert_eq!(other.len(), 1);
    assert_eq!(other[0].user_id, None);
    assert_eq!(other[0].room, ChatRoom::Spectators);
    assert_eq!(tail[0].room, ChatRoom::Players);
    assert!(db.chat_tail("g3", 5).await.unwrap().is_empty());
    let orphan = NewChatLine {
        game_id: "nope".to_string(),
        user_id: None,
        author: "server".to_string(),
        body: "lost".to_string(),
        sent_at: T0,
        room: ChatRoom::Players,
    };
    assert!(matches!(
        db.add_chat(&orphan).await,
        Err(StoreError::NotFound)
    ));
}

async fn the_secret_setting_is_created_once_and_then_kept(db: TestDb) {
    assert_eq!(db.setting("jwt_secret").await.unwrap(), None);
    let first = db
        .setting_or_insert("jwt_secret", store::new_secret)
        .await
        .unwrap();
    assert_eq!(first.len(), 64);
    let second = db
        .setting_or_insert("jwt_secret", || panic!("must not make a second secret"))
        .await
        .unwrap();
    assert_eq!(first, second);

    // Two nodes starting together may both make a secret; both must end up with one.
    let (a, b) = tokio::join!(
        db.setting_or_insert("race", || "from-a".to_string()),
        db.setting_or_insert("race", || "from-b".to_string()),
    );
    assert_eq!(a.unwrap(), b.unwrap());
}

async fn the_daily_leaderboard_keeps_each_players_best_and_ranks_it(db: TestDb) {
    for (id, name) in [
        ("ann", "Ann"),
        ("bob", "Bob"),
        ("cat", "Cat"),
        ("dan", "Dan"),
    ] {
        db.create_user(id, name, T0).await.unwrap();
        db.create_game(&new_game(&format!("{id}-1"), vec![user_seat(id)]))
            .await
            .unwrap();
        db.create_game(&new_game(&format!("{id}-2"), vec![user_seat(id)]))
            .await
            .unwrap();
    }
    let result = |user: &str, game: u8, score: i32, actions: u32, at: i64| DailyResult {
        day: "2026-11-29".to_string(),
        user_id: user.to_string(),
        game_id: format!("{user}-{game}"),
        score,
        actions,
        finished_at: T0 + at,
    };
    assert!(db.record_daily(&result("ann", 1, 10, 30, 1)).await.unwrap());
    // Worse and equal results leave the best in place.
    assert!(!db.record_daily(&result("ann", 2, 9, 5, 2)).await.unwrap());
    assert!(!db.record_daily(&result("ann", 2, 10, 30, 3)).await.unwrap());
    // Same score in fewer actions is better.
    assert!(db.record_daily(&result("ann", 2, 10, 25, 4)).await.unwrap());
    assert!(db.record_daily(&result("bob", 1, 12, 40, 5)).await.unwrap());
    assert!(db.record_daily(&result("cat", 1, 10, 25, 2)).await.unwrap());
    assert!(db.record_daily(&result("dan", 1, 3, 10, 1)).await.unwrap());
    assert!(db.record_daily(&result("dan", 2, 11, 50, 9)).await.unwrap());
    // Another day is another board.
    let mut tomorrow = result("dan", 1, 99, 1, 10);
    tomorrow.day = "2026-11-30".to_string();
    assert!(db.record_daily(&tomorrow).await.unwrap());

    let board = db.daily_leaderboard("2026-11-29", 10).await.unwrap();
    let order: Vec<(u32, &str, i32, u32)> = board
        .iter()
        .map(|e| (e.rank, e.display_name.as_str(), e.score, e.actions))
        .collect();
    // Cat and Ann tie on score and actions; Cat finished earlier.
    assert_eq!(
        order,
        [
            (1, "Bob", 12, 40),
            (2, "Dan", 11, 50),
            (3, "Cat", 10, 25),
            (4, "Ann", 10, 25),
        ]
    );
    assert_eq!(board[3].game_id, "ann-2");
    assert_eq!(board[3].finished_at, T0 + 4);
    // Each player's place is the board's, ties included.
    for (user, place) in [("bob", 1), ("dan", 2), ("cat", 3), ("ann", 4)] {
        let rank = db.daily_rank("2026-11-29", user).await.unwrap();
        assert_eq!(rank, Some(place), "{user}");
    }
    assert_eq!(db.daily_rank("2026-11-30", "ann").await.unwrap(), None);
    // A review is kept as first written: a second writer gets the first one back.
    let kept = db
        .keep_rabbit_review("ann-1", "{\"a\":1}", T0)
        .await
        .unwrap();
    assert_eq!(kept, "{\"a\":1}");
    let again = db
        .keep_rabbit_review("ann-1", "{\"b\":2}", T0 + 1)
        .await
        .unwrap();
    assert_eq!(again, "{\"a\":1}");
    assert_eq!(db.rabbit_review("bob-1").await.unwrap(), None);
    assert_eq!(
        db.daily_leaderboard("2026-11-29", 2).await.unwrap().len(),
        2
    );
    assert_eq!(
        db.daily_leaderboard("2026-11-30", 10).await.unwrap().len(),
        1
    );
    assert!(
        db.daily_leaderboard("2020-01-01", 10)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_player_has_one_daily_game_a_day(db: TestDb) {
    db.create_user("ann", "Ann", T0).await.unwrap();
    db.create_user("bob", "Bob", T0).await.unwrap();
    let daily = |id: &str, host: &str, day: &str| NewGame {
        game: "white-rabbit".to_string(),
        variant: "classic".to_string(),
        host_id: Some(host.to_string()),
        daily: Some(day.to_string()),
        ..new_game(id, vec![user_seat(host)])
    };
    assert_eq!(db.daily_game_of("2026-11-29", "ann").await.unwrap(), None);
    db.create_game(&daily("d1", "ann", "2026-11-29"))
        .await
        .unwrap();
    // A second attempt the same day is a conflict; another day or another player is not.
    assert!(matches!(
        db.create_game(&daily("d2", "ann", "2026-11-29")).await,
        Err(StoreError::Conflict)
    ));
    db.create_game(&daily("d3", "ann", "2026-11-30"))
        .await
        .unwrap();
    db.create_game(&daily("d4", "bob", "2026-11-29"))
        .await
        .unwrap();
    // Ordinary games (no day) never collide with each other.
    for id in ["o1", "o2"] {
        db.create_game(&NewGame {
            host_id: Some("ann".to_string()),
            ..new_game(id, vec![user_seat("ann")])
        })
        .await
        .unwrap();
    }
    assert_eq!(
        db.daily_game_of("2026-11-29", "ann")
            .await
            .unwrap()
            .as_deref(),
        Some("d1")
    );
    assert_eq!(
        db.daily_game_of("2026-11-30", "ann")
            .await
            .unwrap()
            .as_deref(),
        Some("d3")
    );
    assert_eq!(
        db.game("d4").await.unwrap().unwrap().daily.as_deref(),
        Some("2026-11-29")
    );
    assert_eq!(db.game("o1").await.unwrap().unwrap().daily, None);
}

async fn seeds_above_i64_max_round_trip(db: TestDb) {
    let seeds = [
        0,
        1,
        i64::MAX as u64,
        i64::MAX as u64 + 1,
        u64::MAX - 7,
        u64::MAX,
    ];
    for (i, seed) in seeds.into_iter().enumerate() {
        let id = format!("g{i}");
        db.create_game(&NewGame {
            seed,
            ..new_game(&id, vec![None])
        })
        .await
        .unwrap();
        assert_eq!(db.game(&id).await.unwrap().unwrap().seed, seed);
    }
}

#[test]
fn game_status_names_round_trip() {
    for status in [
        GameStatus::Open,
        GameStatus::Playing,
        GameStatus::Finished,
        GameStatus::Aborted,
    ] {
        assert_eq!(GameStatus::parse(status.as_str()), Some(status));
    }
    assert_eq!(GameStatus::parse("lost"), None);
}

#[test]
fn random_ids_and_secrets_have_their_promised_shape() {
    let id = store::new_id();
    assert_eq!(id.len(), 12);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    );
    assert_ne!(store::new_id(), id);
    assert_eq!(store::new_token().len(), 22);
    let secret = store::new_secret();
    assert_eq!(secret.len(), 64);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));
}

// ---------------------------------------------------------------------------------------
// Ratings

fn rated_end<'a>(players: [&'a str; 2], first_scored: rating::Score) -> store::RatedEnd<'a> {
    store::RatedEnd {
        game: "mill",
        class: rating::Class::Blitz,
        players,
        first_scored,
    }
}

async fn a_rated_ending_moves_both_ratings_in_the_same_transaction(db: TestDb) {
    two_player_game(&db, "g1", T0).await;
    let end = rated_end(["g1-a", "g1-b"], rating::Score::Win);
    let changes = db
        .finish_rated_game("g1", result("a"), EndReason::Rules, T0 + 50, &end)
        .await
        .unwrap();
    let start = rating::Rating::default();
    let (a, b) = rating::after_game(&start, &start, rating::Score::Win);
    // The first game of the pair, held within the pair's bound.
    let first = rating::PairHistory::default();
    let (a, b) = (first.damp(&start, &a), first.damp(&start, &b));
    assert_eq!(changes[0].after, a);
    assert_eq!(changes[1].after, b);
    assert!(changes[0].shown_change() > 0 && changes[1].shown_change() < 0);
    assert_eq!(
        db.rating("g1-a", "mill", rating::Class::Blitz)
            .await
            .unwrap(),
        a
    );
    // Another class of the same game is untouched.
    assert_eq!(
        db.rating("g1-a", "mill", rating::Class::Rapid)
            .await
            .unwrap(),
        rating::Rating::default()
    );
    let record = db.game("g1").await.unwrap().unwrap();
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(record.seats[0].rating_after, Some(a.shown()));
    assert_eq!(
        record.seats[0].rating_change,
        Some(changes[0].shown_change())
    );
    assert_eq!(
        record.seats[1].rating_change,
        Some(changes[1].shown_change())
    );

    // The first ending wins: a second rated ending changes nothing.
    assert!(matches!(
        db.finish_rated_game("g1", result("b"), EndReason::Resign, T0 + 60, &end)
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        db.rating("g1-a", "mill", rating::Class::Blitz)
            .await
            .unwrap(),
        a
    );
    assert!(matches!(
        db.finish_rated_game("nope", result("a"), EndReason::Rules, T0, &end)
            .await,
        Err(StoreError::NotFound)
    ));

    // The next game starts from the ratings the first one left.
    two_player_game(&db, "g2", T0 + 100).await;
    db.set_seat("g2", 0, user_seat("g1-a").as_ref())
        .await
        .unwrap();
    db.set_seat("g2", 1, user_seat("g1-b").as_ref())
        .await
        .unwrap();
    let draw = rated_end(["g1-a", "g1-b"], rating::Score::Draw);
    let second = db
        .finish_rated_game("g2", result("draw"), EndReason::Agreement, T0 + 200, &draw)
        .await
        .unwrap();
    assert_eq!(second[0].before, a);
    assert_eq!(second[0].after.games, 2);

    let history = db.rating_history("g1-a").await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].game_id, "g1");
    assert_eq!(history[0].rating, a.shown());
    assert_eq!(history[0].opponent_id.as_deref(), Some("g1-b"));
    assert_eq!(history[0].opponent_name.as_deref(), Some("Bob"));
    assert_eq!(history[1].rating, second[0].after.shown());
    let mine = db.ratings_of("g1-a").await.unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].class, rating::Class::Blitz);
    assert_eq!(mine[0].rating.games, 2);
    let results = db
        .results_of(&Occupant::User("g1-a".to_string()))
        .await
        .unwrap();
    assert_eq!((results.wins, results.draws, results.losses), (1, 1, 0));
    let results = db
        .results_of(&Occupant::User("g1-b".to_string()))
        .await
        .unwrap();
    assert_eq!((results.wins, results.draws, results.losses), (0, 1, 1));
}

async fn the_leaderboard_lists_settled_accounts_best_first(db: TestDb) {
    for (id, name) in [("ann", "Ann"), ("bob", "Bob"), ("guest", "Guest")] {
        db.create_user(id, name, T0).await.unwrap();
    }
    for id in ["ann", "bob"] {
        let account = Registration {
            username: id,
            skeleton: id,
            password_hash: "hash",
        };
        db.register(id, &account).await.unwrap();
    }
    // Many games against one bot settle the deviations. Ann wins or draws, Bob loses or
    // draws: close enough to the bot for every game to tell something.
    let mut n = 0;
    for (player, score) in [
        ("ann", rating::Score::Win),
        ("bob", rating::Score::Loss),
        ("guest", rating::Score::Win),
    ] {
        for i in 0..30 {
            n += 1;
            let score = if i % 2 == 0 {
                score
            } else {
                rating::Score::Draw
            };
            let id = format!("lb{n}");
            db.create_game(&new_game(
                &id,
                vec![user_seat(player), Some(Occupant::Bot("easy".to_string()))],
            ))
            .await
            .unwrap();
            let end = rated_end([player, "bot:easy"], score);
            let text = match score {
                rating::Score::Win => "a",
                rating::Score::Draw => "draw",
                rating::Score::Loss => "b",
            };
            // A day apart: repeated games of one pair within a day count for less.
            let at = T0 + n * 2 * rating::PAIR_WINDOW.as_millis() as i64;
            db.finish_rated_game(&id, result(text), EndReason::Rules, at, &end)
                .await
                .unwrap();
        }
    }
    let board = db
        .leaderboard(
            "mill",
            rating::Class::Blitz,
            rating::PROVISIONAL_DEVIATION,
            10,
            false,
        )
        .await
        .unwrap();
    let names: Vec<&str> = board.iter().map(|e| e.name.as_str()).collect();
    // The guest and the bot are not on it; Ann is above Bob.
    assert_eq!(names, ["Ann", "Bob"]);
    assert_eq!(board[0].rank, 1);
    assert_eq!(board[0].games, 30);
    assert!(board[0].rating > board[1].rating);
    // With a strict threshold nobody qualifies yet.
    let strict = db
        .leaderboard("mill", rating::Class::Blitz, 1.0, 10, false)
        .await
        .unwrap();
    assert!(strict.is_empty());
    let bot = db
        .results_of(&Occupant::Bot("easy".to_string()))
        .await
        .unwrap();
    assert_eq!((bot.wins, bot.draws, bot.losses), (15, 45, 30));
    assert_eq!(
        db.rating("bot:easy", "mill", rating::Class::Blitz)
            .await
            .unwrap()
            .games,
        90
    );
}
