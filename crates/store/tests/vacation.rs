//! Vacation days in the store, on a fresh SQLite file (`sqlite::…`) and a fresh PostgreSQL
//! database (the ignored `postgres::…`, run with `-- --ignored postgres`; see store.rs).

use store::testing::{TestDatabase, postgres_admin};
use store::{EndReason, GameStatus, NewGame, Occupant, Store, StoreError, Vacation};

const T0: i64 = 1_764_400_000_000;

async fn sqlite_store() -> (Store, TestDatabase) {
    let database = TestDatabase::sqlite();
    (Store::connect(&database.url).await.unwrap(), database)
}

async fn postgres_store() -> (Store, TestDatabase) {
    let database = TestDatabase::postgres(&postgres_admin().await)
        .await
        .expect("create a PostgreSQL test database");
    (Store::connect(&database.url).await.unwrap(), database)
}

macro_rules! on_both_backends {
    ($($name:ident;)*) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() {
                let (store, _database) = super::sqlite_store().await;
                super::$name(&store).await
            })*
        }
        mod postgres {
            $(#[tokio::test]
            #[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
            async fn $name() {
                let (store, _database) = super::postgres_store().await;
                super::$name(&store).await
            })*
        }
    };
}

on_both_backends! {
    a_new_account_has_automatic_vacation_and_no_day_taken;
    taking_a_day_moves_the_allowance_and_the_deadline_together;
    a_day_is_taken_only_from_the_allowance_read;
    no_day_is_taken_for_a_game_not_being_played;
}

/// A correspondence game `g1` between `ann` and `bob`, started.
async fn correspondence_game(store: &Store) {
    store.create_user("ann", "Ann", T0).await.unwrap();
    store.create_user("bob", "Bob", T0).await.unwrap();
    let game = NewGame {
        id: "g1".into(),
        game: "mill".into(),
        variant: "standard".into(),
        seed: 1,
        private: false,
        invite_token: None,
        clock_initial_ms: None,
        clock_increment_ms: None,
        move_days: Some(2),
        rematch_of: None,
        host_id: None,
        created_at: T0,
        daily: None,
        rated: false,
        rating_range: None,
        seats: vec![
            Some(Occupant::User("ann".into())),
            Some(Occupant::User("bob".into())),
        ],
    };
    store.create_game(&game).await.unwrap();
    store.start_game("g1", T0).await.unwrap();
}

const FRESH: Vacation = Vacation {
    used: 0,
    year: 0,
    auto: true,
};

async fn a_new_account_has_automatic_vacation_and_no_day_taken(store: &Store) {
    store.create_user("ann", "Ann", T0).await.unwrap();
    assert_eq!(store.vacation("ann").await.unwrap(), Some(FRESH));
    assert_eq!(store.vacation("nobody").await.unwrap(), None);
    store.set_vacation_auto("ann", false).await.unwrap();
    assert!(!store.vacation("ann").await.unwrap().unwrap().auto);
    assert!(matches!(
        store.set_vacation_auto("nobody", false).await,
        Err(StoreError::NotFound)
    ));
}

async fn taking_a_day_moves_the_allowance_and_the_deadline_together(store: &Store) {
    correspondence_game(store).await;
    assert_eq!(
        store.game("g1").await.unwrap().unwrap().vacation_deadline,
        None
    );
    let after = Vacation {
        used: 1,
        year: 2026,
        ..FRESH
    };
    assert!(
        store
            .take_vacation_day("ann", &FRESH, &after, "g1", 0, T0 + 3)
            .await
            .unwrap()
    );
    assert_eq!(store.vacation("ann").await.unwrap(), Some(after));
    let record = store.game("g1").await.unwrap().unwrap();
    assert_eq!(record.vacation_deadline, Some((0, T0 + 3)));
    // A restarted server finds it with the other unfinished games.
    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(unfinished[0].vacation_deadline, Some((0, T0 + 3)));
}

async fn a_day_is_taken_only_from_the_allowance_read(store: &Store) {
    correspondence_game(store).await;
    let after = Vacation {
        used: 1,
        year: 2026,
        ..FRESH
    };
    store
        .take_vacation_day("ann", &FRESH, &after, "g1", 0, T0 + 3)
        .await
        .unwrap();
    // Read before that day was taken: nothing is written.
    assert!(
        !store
            .take_vacation_day("ann", &FRESH, &after, "g1", 0, T0 + 9)
            .await
            .unwrap()
    );
    // Automatic use turned off since it was read: nothing either.
    store.set_vacation_auto("ann", false).await.unwrap();
    let two = Vacation { used: 2, ..after };
    assert!(
        !store
            .take_vacation_day("ann", &after, &two, "g1", 0, T0 + 9)
            .await
            .unwrap()
    );
    assert_eq!(
        store.vacation("ann").await.unwrap(),
        Some(Vacation {
            auto: false,
            ..after
        })
    );
    let record = store.game("g1").await.unwrap().unwrap();
    assert_eq!(record.vacation_deadline, Some((0, T0 + 3)));
}

async fn no_day_is_taken_for_a_game_not_being_played(store: &Store) {
    correspondence_game(store).await;
    store
        .finish_game("g1", GameStatus::Aborted, None, EndReason::Expired, T0 + 1)
        .await
        .unwrap();
    let after = Vacation {
        used: 1,
        year: 2026,
        ..FRESH
    };
    assert!(
        !store
            .take_vacation_day("ann", &FRESH, &after, "g1", 0, T0 + 3)
            .await
            .unwrap()
    );
    assert_eq!(store.vacation("ann").await.unwrap(), Some(FRESH));
}
