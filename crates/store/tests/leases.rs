//! Leases of live games between nodes, on SQLite and on PostgreSQL (see `store.rs` for how
//! the PostgreSQL half is found).

use store::testing::{TestDatabase, postgres_admin};
use store::{GameStatus, NewGame, Store};

const T0: i64 = 1_764_400_000_000;
const TTL: i64 = 5_000;

async fn sqlite_store() -> (Store, TestDatabase) {
    open(TestDatabase::sqlite()).await
}

async fn postgres_store() -> (Store, TestDatabase) {
    let admin_url = postgres_admin().await;
    open(
        TestDatabase::postgres(&admin_url)
            .await
            .expect("a PostgreSQL test database"),
    )
    .await
}

async fn open(database: TestDatabase) -> (Store, TestDatabase) {
    let store = Store::connect(&database.url)
        .await
        .expect("open the test database");
    (store, database)
}

/// Each test on SQLite, and on PostgreSQL as an ignored test that `tests/run` runs when
/// PostgreSQL answers (see `store.rs`).
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
    one_node_holds_a_lease_until_it_expires;
    of_nodes_racing_for_one_lease_exactly_one_wins;
    renewing_keeps_what_the_node_still_holds_and_says_what_it_lost;
    orphaned_games_are_the_unfinished_ones_no_live_lease_covers;
    a_game_created_with_its_lease_is_never_an_orphan;
}

async fn game(store: &Store, id: &str, created_at: i64) {
    store.create_game(&new_game(id, created_at)).await.unwrap();
}

fn new_game(id: &str, created_at: i64) -> NewGame {
    NewGame {
        id: id.to_string(),
        game: "mill".to_string(),
        variant: "standard".to_string(),
        seed: 7,
        private: false,
        invite_token: None,
        clock_initial_ms: None,
        clock_increment_ms: None,
        move_days: None,
        rematch_of: None,
        host_id: None,
        created_at,
        daily: None,
        rated: false,
        rating_range: None,
        seats: vec![None, None],
    }
}

async fn a_game_created_with_its_lease_is_never_an_orphan(store: &Store) {
    store
        .create_leased_game(&new_game("g1", T0), "a", T0 + TTL)
        .await
        .unwrap();
    assert_eq!(
        store.lease_owner("g1", T0).await.unwrap().as_deref(),
        Some("a")
    );
    assert!(store.orphaned_games(T0, 10).await.unwrap().is_empty());
    assert!(!store.take_lease("g1", "b", T0 + 1, TTL).await.unwrap());
    // Until its lease runs out like any other.
    assert_eq!(
        store.orphaned_games(T0 + TTL, 10).await.unwrap(),
        vec!["g1"]
    );
}

async fn one_node_holds_a_lease_until_it_expires(store: &Store) {
    {
        game(store, "g1", T0).await;
        assert!(store.take_lease("g1", "a", T0, TTL).await.unwrap());
        assert!(
            !store.take_lease("g1", "b", T0 + 1, TTL).await.unwrap(),
            "a's lease runs"
        );
        assert!(
            store.take_lease("g1", "a", T0 + 2, TTL).await.unwrap(),
            "the owner renews"
        );
        assert_eq!(
            store.lease_owner("g1", T0 + 3).await.unwrap().as_deref(),
            Some("a")
        );
        // Expired: anyone may take it, and then the old owner may not.
        assert!(
            store
                .take_lease("g1", "b", T0 + 2 + TTL, TTL)
                .await
                .unwrap()
        );
        assert!(
            !store
                .take_lease("g1", "a", T0 + 3 + TTL, TTL)
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .lease_owner("g1", T0 + 3 + TTL)
                .await
                .unwrap()
                .as_deref(),
            Some("b")
        );
        assert_eq!(
            store.lease_owner("g1", T0 + 3 + 3 * TTL).await.unwrap(),
            None
        );
    }
}

async fn of_nodes_racing_for_one_lease_exactly_one_wins(store: &Store) {
    {
        for round in 0..10 {
            let id = format!("race-{round}");
            game(store, &id, T0).await;
            let takes = (0..8).map(|node| {
                let (store, id) = (store.clone(), id.clone());
                tokio::spawn(async move {
                    store
                        .take_lease(&id, &format!("n{node}"), T0, TTL)
                        .await
                        .unwrap()
                })
            });
            let mut winners = 0;
            for take in takes.collect::<Vec<_>>() {
                winners += usize::from(take.await.unwrap());
            }
            assert_eq!(winners, 1, "round {round}");
        }
    }
}

async fn renewing_keeps_what_the_node_still_holds_and_says_what_it_lost(store: &Store) {
    {
        for id in ["g1", "g2", "g3"] {
            game(store, id, T0).await;
        }
        assert!(store.take_lease("g1", "a", T0, TTL).await.unwrap());
        assert!(store.take_lease("g2", "a", T0, TTL).await.unwrap());
        assert!(store.take_lease("g3", "b", T0, TTL).await.unwrap());
        assert_eq!(
            store.renew_leases("a", T0 + 1_000, TTL).await.unwrap(),
            ["g1", "g2"]
        );
        // a stops renewing g2 in time: it expires, b takes it over, and a learns it lost it.
        assert!(
            store
                .take_lease("g2", "b", T0 + 1_000 + TTL, TTL)
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .renew_leases("a", T0 + 1_000 + TTL - 1, TTL)
                .await
                .unwrap(),
            ["g1"]
        );
        store.release_lease("g1", "b").await.unwrap();
        assert_eq!(
            store
                .lease_owner("g1", T0 + 2_000)
                .await
                .unwrap()
                .as_deref(),
            Some("a"),
            "only the owner releases"
        );
        store.release_lease("g1", "a").await.unwrap();
        assert_eq!(store.lease_owner("g1", T0 + 2_000).await.unwrap(), None);
    }
}

async fn orphaned_games_are_the_unfinished_ones_no_live_lease_covers(store: &Store) {
    {
        for (n, id) in ["held", "expired", "never", "over"].into_iter().enumerate() {
            game(store, id, T0 + n as i64).await;
        }
        store
            .finish_game(
                "over",
                GameStatus::Aborted,
                None,
                store::EndReason::Abort,
                T0,
            )
            .await
            .unwrap();
        assert!(
            store
                .take_lease("held", "a", T0 + 10_000, TTL)
                .await
                .unwrap()
        );
        assert!(store.take_lease("expired", "a", T0, TTL).await.unwrap());
        let orphans = store.orphaned_games(T0 + 10_000, 10).await.unwrap();
        assert_eq!(orphans, ["expired", "never"]);
        assert_eq!(
            store.orphaned_games(T0 + 10_000, 1).await.unwrap(),
            ["expired"]
        );
    }
}
