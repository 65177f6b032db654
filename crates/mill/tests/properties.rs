//! Generic engine properties over random games of every variant, and fuzzed input.

use game::testing::{check_catalogue_entry, check_random_game};
use game::{Game, Variant as _};
use mill::{Mill, Variant};
use proptest::prelude::*;

/// A game cannot outlast 100 quiet moves after each of at most 12 removals.
const MAX_PLIES: usize = 1_400;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_every_invariant_and_end(v in variant(), seed in any::<u64>()) {
        let report = check_random_game(Mill::new(v, seed), seed, MAX_PLIES);
        prop_assert!(report.outcome.is_some(), "{v:?} seed {seed} did not end in {MAX_PLIES} plies");
    }

    #[test]
    fn arbitrary_move_texts_never_panic_or_change_the_state(
        v in variant(),
        seed in any::<u64>(),
        plies in 0usize..60,
        text in "[a-hx1-8 -]{0,12}|\\PC{0,8}",
    ) {
        let mut g = Mill::new(v, seed);
        let mut rng = game::GameRng::seeded(seed);
        let mut moves = Vec::new();
        for _ in 0..plies {
            g.legal_moves(&mut moves);
            if moves.is_empty() { break; }
            g.make(moves[rng.below(moves.len() as u32) as usize]);
        }
        let before = g.position();
        let key = g.hash_key();
        let _ = g.parse_move(&text);
        let legal = g.legal_texts();
        let result = g.play_text(&text);
        if result.is_err() {
            prop_assert_eq!(g.position(), before);
            prop_assert_eq!(g.hash_key(), key);
        } else {
            prop_assert!(legal.contains(&text));
        }
    }

    #[test]
    fn arbitrary_position_texts_never_panic(v in variant(), text in "[.ab/ 0-9a-f]{0,60}|\\PC{0,40}") {
        if let Ok(g) = Mill::from_position(v, &text, 0) {
            prop_assert_eq!(g.position(), text);
        }
    }

    #[test]
    fn mangled_real_positions_never_panic(v in variant(), seed in any::<u64>(), at in 0usize..64, c in "[.ab0-9a-fx/ -]") {
        let mut g = Mill::new(v, seed);
        let mut rng = game::GameRng::seeded(seed);
        let mut moves = Vec::new();
        for _ in 0..(seed % 80) {
            g.legal_moves(&mut moves);
            if moves.is_empty() { break; }
            g.make(moves[rng.below(moves.len() as u32) as usize]);
        }
        let text = g.position();
        let at = at % text.len();
        let mangled = format!("{}{}{}", &text[..at], c, &text[at + 1..]);
        if let Ok(h) = Mill::from_position(v, &mangled, 0) {
            prop_assert_eq!(h.position(), mangled);
        }
    }
}

#[test]
fn the_catalogue_entry_is_consistent() {
    check_catalogue_entry::<Mill>();
    assert_eq!(Mill::INFO.id, "mill");
    const { assert!(!Mill::INFO.has_dice) };
    assert_eq!(Mill::INFO.seats, 2);
}

#[test]
fn long_random_games_of_every_variant_end() {
    for &v in Variant::ALL {
        for seed in 0..8 {
            let report = check_random_game(Mill::new(v, seed), 1000 + seed, MAX_PLIES);
            assert!(report.outcome.is_some(), "{v:?} {seed}");
        }
    }
}
