//! Property tests: the shared engine checks on random games, and arbitrary text never panics
//! nor changes the state.

use cephalopod::{Cephalopod, Variant};
use game::testing::{check_catalogue_entry, check_random_game};
use game::{Game, Variant as _};
use proptest::prelude::*;

/// Games always end: let P be the pips on the board (at most 6 per cell) and D the dice. A plain
/// placement adds 1 to P; a capture keeps P (the placed die shows what it removed) and lowers D
/// by at least 1. So `(cells + 1) * P - D` rises by at least 1 every ply and stays below
/// `26 * 150` on 5x5: no game lasts 3,900 plies (random ones end in well under 200).
const MAX_PLIES: usize = 5_000;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_pass_the_engine_checks_and_end(seed in any::<u64>(), variant in variant()) {
        let report = check_random_game(Cephalopod::new(variant, seed), seed, MAX_PLIES);
        prop_assert!(report.outcome.is_some(), "no end within {MAX_PLIES} plies");
        prop_assert!(report.plies >= variant.size() as usize * variant.size() as usize);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_move_text_never_panics_nor_changes_the_state(
        text in "\\PC{0,12}|[a-f][0-7](:[a-f][0-7](,[a-f][0-7]){0,4})?",
        variant in variant(),
        plies in 0usize..12,
        seed in any::<u64>(),
    ) {
        let mut game = random_position(variant, plies, seed);
        let before = game.clone();
        if let Ok(mv) = game.parse_move(&text) {
            let _ = game.check_move(mv);
            let _ = game.format_move(mv);
        }
        match game.play_text(&text) {
            Ok(mv) => {
                prop_assert_eq!(game.format_move(mv), text);
            }
            Err(_) => {
                prop_assert_eq!(&game, &before);
                prop_assert_eq!(game.hash_key(), before.hash_key());
            }
        }
    }

    #[test]
    fn arbitrary_position_text_never_panics(
        text in "\\PC{0,40}|([.]|[ab][0-7]){0,6}(/([.]|[ab][0-7]){0,6}){0,5} [abc]",
        variant in variant(),
    ) {
        if let Ok(game) = Cephalopod::from_position(variant, &text, 0) {
            prop_assert_eq!(game.position(), text);
        }
    }

    #[test]
    fn moves_of_the_other_board_size_are_refused_without_panicking(
        plies in 0usize..30,
        seed in any::<u64>(),
    ) {
        // A move value made for 5x5 handed to a 3x3 game: check_move and play must not panic.
        let big = random_position(Variant::FiveByFive, plies, seed);
        let mut small = random_position(Variant::ThreeByThree, plies % 8, seed);
        let mut moves = Vec::new();
        big.legal_moves(&mut moves);
        for mv in moves {
            let before = small.clone();
            let _ = small.format_move(mv);
            if small.play(mv).is_ok() {
                small = before;
            } else {
                prop_assert_eq!(&small, &before);
            }
        }
    }
}

fn random_position(variant: Variant, plies: usize, seed: u64) -> Cephalopod {
    let mut rng = game::GameRng::seeded(seed);
    let mut game = Cephalopod::new(variant, seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.make(moves[rng.below(moves.len() as u32) as usize]);
    }
    game
}

#[test]
fn the_catalogue_entry_is_consistent() {
    check_catalogue_entry::<Cephalopod>();
    let info = <Cephalopod as Game>::INFO;
    assert_eq!(info.id, "cephalopod");
    assert_eq!(info.names.ru, "Цефалопод");
    assert_eq!(info.names.uk, "Цефалопод");
    assert_eq!(info.names.en, "Cephalopod");
    assert_eq!(info.seats, 2);
    assert!(!info.has_dice);
    assert_eq!(Variant::default_variant(), Variant::FiveByFive);
    assert_eq!(Variant::from_id("3x3"), Some(Variant::ThreeByThree));
    assert_eq!(Variant::from_id("5x5"), Some(Variant::FiveByFive));
}
