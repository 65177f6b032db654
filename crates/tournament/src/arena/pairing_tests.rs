use proptest::prelude::*;

use super::*;

fn id(name: &str) -> PlayerId {
    PlayerId::new(name)
}

fn waiting(name: &str, rank: u32, since: u64) -> Waiting {
    Waiting {
        player: id(name),
        rating: 1500,
        rank,
        since,
        recent: Vec::new(),
    }
}

fn after(mut w: Waiting, recent: &[&str]) -> Waiting {
    w.recent = recent.iter().map(|name| id(name)).collect();
    w
}

fn settings() -> PairingSettings {
    PairingSettings {
        wait_ms: 16_000,
        duel_up_to: 12,
        bot_after_ms: None,
    }
}

fn plan(waiting: &[Waiting], playing: usize, now: u64) -> Plan {
    pair(
        Pool {
            waiting,
            playing,
            now,
        },
        &settings(),
        &[],
    )
}

/// The pairs as sorted name pairs, sorted.
fn pairs(plan: &Plan) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = plan
        .pairs
        .iter()
        .map(|[a, b]| {
            let (a, b) = (a.to_string(), b.to_string());
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    pairs.sort();
    pairs
}

fn names(list: &[PlayerId]) -> Vec<&str> {
    list.iter().map(PlayerId::as_str).collect()
}

#[test]
fn a_lone_player_waits() {
    let plan = plan(&[waiting("a", 1, 0)], 5, 1_000_000);
    assert!(plan.pairs.is_empty());
    assert_eq!(names(&plan.waiting), ["a"]);
}

#[test]
fn two_waiting_in_a_small_arena_play_at_once() {
    // Ten others are playing, and both arrived this very moment.
    let plan = plan(&[waiting("a", 1, 500), waiting("b", 7, 500)], 10, 500);
    assert_eq!(pairs(&plan), [("a".into(), "b".into())]);
}

#[test]
fn two_who_just_played_each_other_wait_for_someone_else() {
    let pool = [
        after(waiting("a", 1, 0), &["b"]),
        after(waiting("b", 2, 0), &["a"]),
    ];
    let plan = plan(&pool, 2, 1_000_000);
    assert!(plan.pairs.is_empty());
    assert_eq!(names(&plan.waiting), ["a", "b"]);
    // Only one of them need remember it.
    let pool = [after(waiting("a", 1, 0), &["b"]), waiting("b", 2, 0)];
    assert!(self::plan(&pool, 2, 1_000_000).pairs.is_empty());
}

#[test]
fn the_only_two_players_of_an_arena_play_again() {
    let pool = [
        after(waiting("a", 1, 0), &["b"]),
        after(waiting("b", 2, 0), &["a"]),
    ];
    assert_eq!(pairs(&plan(&pool, 0, 0)).len(), 1);
}

#[test]
fn a_big_arena_waits_for_a_choice_then_pairs() {
    // 40 playing: two waiting is no duel; the wait is the full 16 s.
    let pool = [waiting("a", 1, 1_000), waiting("b", 30, 1_000)];
    assert!(plan(&pool, 40, 1_000).pairs.is_empty());
    assert!(plan(&pool, 40, 16_999).pairs.is_empty());
    assert_eq!(plan(&pool, 40, 17_000).pairs.len(), 1);
}

#[test]
fn the_wait_shrinks_with_fewer_players_in_games() {
    let settings = settings();
    assert_eq!(settings.wait_now(0), 0);
    assert_eq!(settings.wait_now(4), 4_000);
    assert_eq!(settings.wait_now(BUSY), 16_000);
    assert_eq!(settings.wait_now(500), 16_000);
    // Three waiting with four playing: paired after 4 s.
    let pool = [waiting("a", 1, 0), waiting("b", 2, 0), waiting("c", 3, 0)];
    assert!(plan(&pool, 4, 3_999).pairs.is_empty());
    assert_eq!(plan(&pool, 4, 4_000).pairs.len(), 1);
}

#[test]
fn lichess_waits_for_a_clock() {
    assert_eq!(PairingSettings::for_clock(60_000, 0).wait_ms, 15_000);
    assert_eq!(PairingSettings::for_clock(300_000, 3_000).wait_ms, 27_000);
    assert_eq!(PairingSettings::for_clock(1_800_000, 0).wait_ms, 30_000);
}

#[test]
fn a_large_pool_is_paired_without_waiting() {
    let pool: Vec<Waiting> = (0..PAIR_AT_ONCE as u32)
        .map(|i| waiting(&format!("p{i:03}"), i + 1, 1_000))
        .collect();
    let plan = plan(&pool, 400, 1_000);
    assert_eq!(plan.pairs.len(), PAIR_AT_ONCE / 2);
}

#[test]
fn neighbours_in_the_standings_meet() {
    let pool: Vec<Waiting> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .enumerate()
        .map(|(i, name)| waiting(name, i as u32 + 1, 0))
        .collect();
    assert_eq!(
        pairs(&plan(&pool, 0, 0)),
        [
            ("a".into(), "b".into()),
            ("c".into(), "d".into()),
            ("e".into(), "f".into())
        ]
    );
}

#[test]
fn ratings_decide_between_equal_standings() {
    let rated = |name: &str, rating: i32| Waiting {
        rating,
        ..waiting(name, 1, 0)
    };
    let pool = [
        rated("a", 1200),
        rated("b", 1900),
        rated("c", 1250),
        rated("d", 1850),
    ];
    assert_eq!(
        pairs(&plan(&pool, 0, 0)),
        [("a".into(), "c".into()), ("b".into(), "d".into())]
    );
}

#[test]
fn a_recent_opponent_is_avoided_and_the_last_one_never_met() {
    // a met b two games ago: a–c and b–d rather than a–b and c–d.
    let pool = [
        after(waiting("a", 1, 0), &["x", "b"]),
        waiting("b", 2, 0),
        waiting("c", 3, 0),
        waiting("d", 4, 0),
    ];
    assert_eq!(
        pairs(&plan(&pool, 0, 0)),
        [("a".into(), "c".into()), ("b".into(), "d".into())]
    );
    // a's last opponent was b and everyone else is far below: still not b.
    let pool = [
        after(waiting("a", 1, 0), &["b"]),
        waiting("b", 2, 0),
        waiting("c", 90, 0),
        waiting("d", 91, 0),
    ];
    let got = pairs(&plan(&pool, 0, 0));
    assert_eq!(got.len(), 2);
    assert!(!got.contains(&("a".into(), "b".into())));
}

#[test]
fn an_odd_pool_leaves_out_the_newest_arrival() {
    let pool = [
        waiting("a", 1, 100),
        waiting("b", 2, 900),
        waiting("c", 3, 200),
    ];
    let plan = plan(&pool, 0, 1_000);
    assert_eq!(pairs(&plan), [("a".into(), "c".into())]);
    assert_eq!(names(&plan.waiting), ["b"]);
}

fn bots() -> Vec<HouseBot> {
    vec![
        HouseBot {
            id: id("bot-easy"),
            rating: 1200,
        },
        HouseBot {
            id: id("bot-hard"),
            rating: 1900,
        },
    ]
}

#[test]
fn a_player_who_waited_long_with_nobody_gets_the_nearest_house_bot() {
    let with_bots = PairingSettings {
        bot_after_ms: Some(30_000),
        ..settings()
    };
    let strong = Waiting {
        rating: 1800,
        ..waiting("a", 1, 0)
    };
    fn pool(w: &Waiting, now: u64) -> Pool<'_> {
        Pool {
            waiting: std::slice::from_ref(w),
            playing: 3,
            now,
        }
    }
    let early = pair(pool(&strong, 29_999), &with_bots, &bots());
    assert!(early.bots.is_empty());
    let late = pair(pool(&strong, 30_000), &with_bots, &bots());
    assert_eq!(late.bots, [(id("a"), id("bot-hard"))]);
    assert!(late.waiting.is_empty());
    // Not the bot just played, when there is another…
    let again = after(strong.clone(), &["bot-hard"]);
    let plan = pair(pool(&again, 30_000), &with_bots, &bots());
    assert_eq!(plan.bots, [(id("a"), id("bot-easy"))]);
    // …and no bots at all unless the arena allows them.
    assert!(
        pair(pool(&strong, 99_000), &settings(), &bots())
            .bots
            .is_empty()
    );
}

#[test]
fn a_bot_is_only_for_whom_the_matching_left_out() {
    let with_bots = PairingSettings {
        bot_after_ms: Some(1_000),
        ..settings()
    };
    let pool = [waiting("a", 1, 0), waiting("b", 2, 0), waiting("c", 3, 10)];
    let plan = pair(
        Pool {
            waiting: &pool,
            playing: 0,
            now: 5_000,
        },
        &with_bots,
        &bots(),
    );
    assert_eq!(plan.pairs.len(), 1);
    assert_eq!(plan.bots, [(id("c"), id("bot-easy"))]);
}

/// A pool of `n` players whose last opponents are drawn from the pool.
fn any_pool(max: usize) -> impl Strategy<Value = Vec<Waiting>> {
    (0..=max).prop_flat_map(|n| {
        prop::collection::vec(
            (
                1000i32..2200,
                1u32..40,
                0u64..5_000,
                prop::collection::vec(0..n.max(1), 0..3),
            ),
            n,
        )
        .prop_map(move |rows| {
            rows.into_iter()
                .enumerate()
                .map(|(i, (rating, rank, since, recent))| Waiting {
                    player: id(&format!("p{i:03}")),
                    rating,
                    rank,
                    since,
                    recent: recent
                        .into_iter()
                        .filter(|&o| o != i)
                        .map(|o| id(&format!("p{o:03}")))
                        .collect(),
                })
                .collect()
        })
    })
}

fn is_last_opponent(a: &Waiting, b: &Waiting) -> bool {
    a.recent.first() == Some(&b.player) || b.recent.first() == Some(&a.player)
}

/// What pairing maximises, in order: pairs, the newest arrival left out, minus the cost.
fn value(pool: &[Waiting], chosen: &[(usize, usize)]) -> (usize, bool, i64) {
    let max_rank = pool.iter().map(|w| w.rank).max().unwrap_or(1);
    let newest =
        (0..pool.len()).max_by_key(|&i| (pool[i].since, pool[i].rank, pool[i].player.clone()));
    let out = newest.is_some_and(|n| chosen.iter().all(|&(i, j)| i != n && j != n));
    let cost: i64 = chosen
        .iter()
        .map(|&(i, j)| i64::from(pair_cost(&pool[i], &pool[j], max_rank)))
        .sum();
    (chosen.len(), out, -cost)
}

/// The best value over every matching of allowed pairs, by enumeration.
fn brute_force(
    pool: &[Waiting],
    free: &mut Vec<usize>,
    chosen: &mut Vec<(usize, usize)>,
) -> (usize, bool, i64) {
    let mut best = value(pool, chosen);
    let Some(first) = free.pop() else {
        return best;
    };
    best = best.max(brute_force(pool, free, chosen));
    for k in 0..free.len() {
        let other = free[k];
        if !is_last_opponent(&pool[first], &pool[other]) {
            free.remove(k);
            chosen.push((first, other));
            best = best.max(brute_force(pool, free, chosen));
            chosen.pop();
            free.insert(k, other);
        }
    }
    free.push(first);
    best
}

/// Checks that `plan` accounts for every player of `pool` once and pairs no last opponents.
fn check_plan(pool: &[Waiting], plan: &Plan) -> Result<(), TestCaseError> {
    let mut seen: Vec<&PlayerId> = plan.pairs.iter().flatten().collect();
    seen.extend(plan.bots.iter().map(|(player, _)| player));
    seen.extend(&plan.waiting);
    seen.sort();
    let mut all: Vec<&PlayerId> = pool.iter().map(|w| &w.player).collect();
    all.sort();
    prop_assert_eq!(seen, all, "every player exactly once");
    let find = |p: &PlayerId| pool.iter().find(|w| &w.player == p).unwrap();
    for [a, b] in &plan.pairs {
        prop_assert!(a != b);
        prop_assert!(!is_last_opponent(find(a), find(b)), "{} met {} last", a, b);
    }
    Ok(())
}

proptest! {
    #[test]
    fn small_pools_get_an_optimal_matching_of_allowed_pairs(pool in any_pool(9)) {
        // Three playing elsewhere: no rematch exception; long enough after everyone arrived.
        let plan = plan(&pool, 3, 100_000);
        check_plan(&pool, &plan)?;
        let index = |p: &PlayerId| pool.iter().position(|w| &w.player == p).unwrap();
        let chosen: Vec<(usize, usize)> =
            plan.pairs.iter().map(|[a, b]| (index(a), index(b))).collect();
        let got = value(&pool, &chosen);
        let mut free: Vec<usize> = (0..pool.len()).collect();
        let best = brute_force(&pool, &mut free, &mut Vec::new());
        prop_assert_eq!(got, best);
    }
}

proptest! {
    // Large pools are slow to match in a debug build: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn large_pools_are_matchings_without_last_opponents(pool in any_pool(260)) {
        let plan = plan(&pool, 50, 100_000);
        check_plan(&pool, &plan)?;
    }
}
