//! Property tests: random games checked ply by ply, and arbitrary text never panics.

use game::testing::{check_catalogue_entry, check_random_game};
use game::{Game, Variant as _};
use perekati::{Perekati, Variant};
use proptest::prelude::*;

/// Random games end (every game must: a position may occur only twice), and in practice they
/// end long before this: over 1,000 seeds per variant the longest took 6,521 plies.
const MAX_PLIES: usize = 20_000;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL)
}

#[test]
fn the_catalogue_entry_matches_the_variants() {
    check_catalogue_entry::<Perekati>();
    let info = Perekati::INFO;
    assert_eq!(info.id, "perekati");
    assert_eq!(info.seats, 2);
    assert!(!info.has_dice);
    assert_eq!(info.default_variant().id, "malysh");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_games_keep_every_invariant_and_end(variant in variant(), seed in any::<u64>()) {
        let report = check_random_game(Perekati::new(variant, seed), seed, MAX_PLIES);
        prop_assert!(
            report.outcome.is_some(),
            "{} seed {seed}: no end after {} plies", variant.id(), report.plies
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_move_text_never_panics_nor_changes_the_state(
        variant in variant(),
        text in "\\PC{0,8}|[a-h][0-9][a-h][0-9]",
    ) {
        let mut game = Perekati::new(variant, 0);
        let before = (game.position(), game.hash_key());
        if let Ok(mv) = game.parse_move(&text) {
            let _ = game.check_move(mv);
        }
        if game.play_text(&text).is_err() {
            prop_assert_eq!((game.position(), game.hash_key()), before);
        }
    }

    #[test]
    fn arbitrary_position_text_never_panics(variant in variant(), text in "\\PC{0,60}") {
        if let Ok(game) = Perekati::from_position(variant, &text, 0) {
            prop_assert_eq!(game.position(), text);
        }
    }

    #[test]
    fn arbitrary_boards_of_the_right_shape_never_panic(
        variant in variant(),
        cells in prop::collection::vec(prop::sample::select(&b".UDNSEWudnsewx"[..]), 48),
        side in prop::sample::select(&["a", "b", "c"][..]),
    ) {
        let (w, h) = (variant.columns() as usize, variant.rows() as usize);
        let rows: Vec<String> = cells[..w * h]
            .chunks(w)
            .map(|r| r.iter().map(|&c| c as char).collect())
            .collect();
        let text = format!("{} {side}", rows.join("/"));
        if let Ok(mut game) = Perekati::from_position(variant, &text, 0) {
            prop_assert_eq!(game.position(), text.clone());
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            prop_assert_eq!(moves.is_empty(), game.is_over());
            prop_assert_eq!(moves.len(), game.count_legal());
            for mv in moves {
                let undo = game.make(mv);
                game.unmake(mv, undo);
                prop_assert_eq!(game.position(), text.clone());
            }
        }
    }
}

/// Boards that pass the shape check: exactly the right number of cubes per side, random
/// cells and hats, so the end checks of a set-up position get exercised.
fn valid_board(variant: Variant) -> impl Strategy<Value = String> {
    let (w, h) = (variant.columns() as usize, variant.rows() as usize);
    let n = variant.cubes() as usize;
    let hats = prop::collection::vec(prop::sample::select(&b"UDNSEW"[..]), 2 * n);
    (
        Just(()).prop_perturb(move |_, mut rng| {
            let mut cells: Vec<usize> = (0..w * h).collect();
            for i in 0..2 * n {
                let j = i + (rng.random::<u64>() as usize) % (cells.len() - i);
                cells.swap(i, j);
            }
            cells.truncate(2 * n);
            cells
        }),
        hats,
        any::<bool>(),
    )
        .prop_map(move |(cells, hats, b_to_move)| {
            let mut board = vec![b'.'; w * h];
            for (i, &cell) in cells.iter().enumerate() {
                board[cell] = if i < n {
                    hats[i]
                } else {
                    hats[i].to_ascii_lowercase()
                };
            }
            // board[0] is a1: the notation lists the last row first.
            let rows: Vec<String> = board
                .chunks(w)
                .rev()
                .map(|r| String::from_utf8_lossy(r).into_owned())
                .collect();
            format!("{} {}", rows.join("/"), if b_to_move { 'b' } else { 'a' })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_valid_positions_play_out_consistently(
        (variant, position) in variant().prop_flat_map(|v| (Just(v), valid_board(v))),
        seed in any::<u64>(),
    ) {
        match Perekati::from_position(variant, &position, 0) {
            Ok(game) => {
                prop_assert_eq!(game.position(), position);
                check_random_game(game, seed, 2_000);
            }
            // Only the impossible "side to move has every cube home" may be refused.
            Err(e) => prop_assert!(e.to_string().contains("every cube home"), "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The engine's repetition check (a hash window plus a bucket filter) against the plain
    /// reading of rule 3: count every earlier occurrence of the position text.
    #[test]
    fn repetition_ends_agree_with_counting_position_texts(
        variant in variant(),
        seed in any::<u64>(),
    ) {
        use std::collections::HashMap;
        let mut game = Perekati::new(variant, 0);
        let mut rng = game::GameRng::seeded(seed);
        let mut seen: HashMap<String, u32> = HashMap::new();
        seen.insert(game.position(), 1);
        let mut moves = Vec::new();
        for _ in 0..MAX_PLIES {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mover = game.to_move().expect("a side to move");
            game.make(moves[rng.below(moves.len() as u32) as usize]);
            let position = game.position();
            let count = seen.entry(position.clone()).or_insert(0);
            *count += 1;
            let third = *count >= 3;
            let all_home = game.home_count(mover) == variant.cubes();
            // Without history a set-up position knows nothing of the rocking rule, which can
            // hold at most one move.
            let fresh = Perekati::from_position(variant, &position, 0).expect("own position");
            if third {
                prop_assert!(game.is_over(), "third occurrence of {} not an end", position);
            }
            if game.is_over() && !all_home && fresh.count_legal() >= 2 {
                prop_assert!(third, "{} ended without a reason", position);
            }
        }
        prop_assert!(game.is_over());
    }
}
