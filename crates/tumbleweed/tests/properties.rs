//! The shared property checks of the `game` crate, plus fuzzing of every text entry point.

use game::testing::{check_catalogue_entry, check_random_game};
use game::{Game, Variant as _};
use proptest::prelude::*;
use tumbleweed::{Tumbleweed, Variant};

/// An upper bound on the length of any game: every placement raises the total height on the
/// board by at least one (heights never exceed 6), at most one pass separates placements, and
/// the setup and the choice come first.
fn max_plies(variant: Variant) -> usize {
    2 + 2 * (6 * variant.cells() + 1)
}

// Playing from the start of hex11 checks 108,570 setup moves in the first ply, so that
// variant gets fewer cases.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_on_small_boards_keep_every_invariant_and_end(
        seed in any::<u64>(),
        small in any::<bool>(),
    ) {
        let v = if small { Variant::Hex6 } else { Variant::Hex8 };
        let report = check_random_game(Tumbleweed::new(v, seed), seed, max_plies(v));
        prop_assert!(report.outcome.is_some(), "no end after {} plies", report.plies);
    }

    #[test]
    fn random_games_from_a_midgame_position_keep_every_invariant(seed in any::<u64>()) {
        let text = ".....w1/......./.......r1/......r1r1w1/.w1w2w2..w2..w1/.....n2...r1./\
                    ........../....r2.w2.r2/....r1r2.r1/......./.r1w2w1.. r 0";
        let start = Tumbleweed::from_position(Variant::Hex6, text, 0).unwrap();
        let report = check_random_game(start, seed, max_plies(Variant::Hex6));
        prop_assert!(report.outcome.is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn random_games_on_hex11_keep_every_invariant_and_end(seed in any::<u64>()) {
        let v = Variant::Hex11;
        let report = check_random_game(Tumbleweed::new(v, seed), seed, max_plies(v));
        prop_assert!(report.outcome.is_some(), "no end after {} plies", report.plies);
    }
}

#[test]
fn the_catalogue_entry_is_consistent() {
    check_catalogue_entry::<Tumbleweed>();
    let info = Tumbleweed::INFO;
    assert_eq!(info.id, "tumbleweed");
    assert_eq!(info.seats, 2);
    assert!(!info.has_dice);
    assert_eq!(info.names.en, "Tumbleweed");
    assert_eq!(info.default_variant().id, "hex8");
}

/// A few positions in every phase, to throw texts at.
fn states() -> Vec<Tumbleweed> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        let mut g = Tumbleweed::new(*v, 0);
        out.push(g.clone());
        g.play_text("a1,b2").unwrap();
        out.push(g.clone());
        g.play_text("white").unwrap();
        out.push(g.clone());
        g.play_text("pass").unwrap();
        out.push(g.clone());
        g.play_text("pass").unwrap();
        out.push(g);
    }
    out
}

fn unchanged_after<F: FnOnce(&mut Tumbleweed)>(g: &Tumbleweed, f: F) -> Result<(), TestCaseError> {
    let mut copy = g.clone();
    f(&mut copy);
    prop_assert_eq!(copy.position(), g.position());
    prop_assert_eq!(copy.hash_key(), g.hash_key());
    prop_assert_eq!(copy.to_move(), g.to_move());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_move_texts_never_panic(text in ".{0,12}") {
        for g in states() {
            let _ = g.parse_move(&text);
            unchanged_after(&g, |c| {
                if c.play_text(&text).is_ok() {
                    // Accepted only when it is a legal move's canonical text.
                    assert!(g.legal_texts().contains(&text));
                    *c = g.clone();
                }
            })?;
        }
    }

    #[test]
    fn move_like_texts_never_panic(text in "[a-v]?[0-9]{0,3}(,[a-v][0-9]{0,3})?|pass|red|white") {
        for g in states() {
            if let Ok(mv) = g.parse_move(&text) {
                prop_assert_eq!(g.format_move(mv), text.clone());
                let _ = g.check_move(mv);
            }
            unchanged_after(&g, |c| {
                if c.play_text(&text).is_ok() {
                    *c = g.clone();
                }
            })?;
        }
    }

    #[test]
    fn arbitrary_positions_never_panic(text in ".{0,80}") {
        for v in Variant::ALL {
            let _ = Tumbleweed::from_position(*v, &text, 0);
        }
    }

    #[test]
    fn position_like_texts_never_panic_and_round_trip_when_accepted(
        columns in prop::collection::vec("([.]|[rwn][0-9]{1,2}){5,12}", 11),
        phase in "setup|choose|r|w|x",
        passes in 0u8..4,
    ) {
        let text = format!("{} {phase} {passes}", columns.join("/"));
        if let Ok(g) = Tumbleweed::from_position(Variant::Hex6, &text, 0) {
            prop_assert_eq!(g.position(), text);
            // Whatever was accepted is a state every method handles.
            let _ = g.legal_texts();
            let _ = g.outcome();
            let _ = g.score();
        }
    }
}
