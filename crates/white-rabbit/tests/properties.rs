//! Property tests: random games through the platform's generic checks, and arbitrary input
//! that must never panic nor change the state.

use game::testing::{check_catalogue_entry, check_random_game};
use game::{Game, Variant as _};
use proptest::prelude::*;
use white_rabbit::{Variant, WhiteRabbit};

/// `end` is always legal, so a random game ends after a few dozen actions on average; the cap
/// only guards against an engine that never ends.
const MAX_PLIES: usize = 10_000;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_pass_the_generic_checks_and_end(seed in any::<u64>(), v in variant()) {
        let report = check_random_game(WhiteRabbit::new(v, seed), seed ^ 0x5eed, MAX_PLIES);
        prop_assert!(report.outcome.is_some(), "no end after {} plies", report.plies);
        prop_assert!(report.plies < MAX_PLIES);
    }

    #[test]
    fn random_games_from_a_parsed_position_pass_the_generic_checks(seed in any::<u64>(), v in variant()) {
        let pos = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -";
        let start = WhiteRabbit::from_position(v, pos, seed).unwrap();
        let report = check_random_game(start, seed.rotate_left(7), MAX_PLIES);
        prop_assert!(report.outcome.is_some());
    }

    #[test]
    fn arbitrary_move_text_never_panics_nor_changes_the_state(seed in 0u64..1000, text in ".{0,12}") {
        let g = WhiteRabbit::new(Variant::Classic, seed);
        let _ = g.parse_move(&text);
        let mut copy = g.clone();
        if copy.play_text(&text).is_err() {
            prop_assert_eq!(&copy, &g);
        }
    }

    #[test]
    fn move_like_text_never_panics(text in "(k[0-6]|r[0-6]|w|x)?~?(k[0-6]|r[0-6]|w)?|reroll|end") {
        let g = WhiteRabbit::new(Variant::NoWrap, 3);
        let mut copy = g.clone();
        if copy.play_text(&text).is_err() {
            prop_assert_eq!(&copy, &g);
        }
    }

    #[test]
    fn arbitrary_positions_never_panic(text in ".{0,80}", v in variant()) {
        if let Ok(g) = WhiteRabbit::from_position(v, &text, 0) {
            prop_assert_eq!(g.position(), text);
        }
    }

    #[test]
    fn position_like_text_never_panics_and_what_parses_round_trips(
        table in "((k[1-6]|r[1-6]|w)=[0-7],){5}(k[1-6]|r[1-6]|w)=[0-7]",
        hand in "((k[1-6]|r[1-6]|w)=[0-7],){4}(k[1-6]|r[1-6]|w)=[0-7]",
        green in "[0-7]",
        ban in "-|(k[1-5]|r[1-5]|w)~(k[1-5]|r[1-5]|w)",
        reroll in "-|k[1-5]|r[1-5]|w",
        v in variant(),
    ) {
        let text = format!("{table} {hand} {green} {ban} {reroll}");
        if let Ok(g) = WhiteRabbit::from_position(v, &text, 0) {
            prop_assert_eq!(g.position(), text.clone());
            let report = check_random_game(g, 1, MAX_PLIES);
            prop_assert!(report.outcome.is_some());
        }
    }
}

#[test]
fn the_catalogue_entry_is_consistent() {
    check_catalogue_entry::<WhiteRabbit>();
}

#[test]
fn random_games_of_many_seeds_all_end() {
    let mut moves = Vec::new();
    for seed in 0..2000u64 {
        for v in Variant::ALL {
            let mut g = WhiteRabbit::new(*v, seed);
            let mut rng = game::GameRng::seeded(seed);
            let mut plies = 0;
            loop {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                g.make(moves[rng.below(moves.len() as u32) as usize]);
                plies += 1;
                assert!(plies < MAX_PLIES);
            }
            assert!(g.outcome().is_some());
        }
    }
}
