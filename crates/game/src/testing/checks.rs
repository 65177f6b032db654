//! The checks of one position, each on its own, shared by the property tests
//! ([`super::check_random_game`]) and the fuzz targets (`fuzz/src/lib.rs`), which pick how
//! many of the listed moves each check goes through.

use std::collections::HashSet;

use crate::Game;

/// The position notation round-trips through `from_position`, hash included. History-dependent
/// rules (repetition, rocking) are not part of the position, so only the position is compared.
pub fn check_position_round_trip<G: Game>(game: &G) {
    let position = game.position();
    let reparsed = G::from_position(game.variant(), &position, 0)
        .unwrap_or_else(|e| panic!("own position {position:?} refused: {e}"));
    assert_eq!(reparsed.position(), position, "position round trip");
    assert_eq!(reparsed.hash_key(), game.hash_key(), "hash of {position}");
}

/// The side to move, the legal moves (`legal`, as listed) and the outcome agree: moves exist
/// iff the game is not over, and `count_legal` counts them.
pub fn check_turn<G: Game>(game: &G, legal: &[G::Move]) {
    let position = game.position();
    let outcome = game.outcome();
    assert_eq!(
        legal.is_empty(),
        outcome.is_some(),
        "legal moves and outcome disagree at {position} (outcome {outcome:?})"
    );
    assert_eq!(
        game.to_move().is_none(),
        outcome.is_some(),
        "to_move and outcome disagree at {position}"
    );
    assert_eq!(game.count_legal(), legal.len(), "count_legal at {position}");
}

/// No move is listed twice.
pub fn check_distinct<G: Game>(game: &G, legal: &[G::Move]) {
    let mut seen = HashSet::with_capacity(legal.len());
    for mv in legal {
        assert!(
            seen.insert(mv),
            "duplicate move {mv:?} at {}",
            game.position()
        );
    }
}

/// A listed move formats to a text that parses back to it, and passes `check_move`.
pub fn check_listed_move<G: Game>(game: &G, mv: G::Move) {
    let text = game.format_move(mv);
    assert_eq!(
        game.parse_move(&text),
        Ok(mv),
        "listed move {text} does not parse back at {}",
        game.position()
    );
    game.check_move(mv).unwrap_or_else(|e| {
        panic!(
            "listed move {text} fails check_move at {}: {e}",
            game.position()
        )
    });
}

/// `make` then `unmake` of `mv` on `scratch`, a copy of `game`, restores its position, hash
/// and outcome, and, when `legal` is given (the listed moves), its legal moves. `scratch` is
/// the caller's so that a loop over many moves copies the game once.
pub fn check_unmake<G: Game>(game: &G, scratch: &mut G, mv: G::Move, legal: Option<&[G::Move]>) {
    let undo = scratch.make(mv);
    scratch.unmake(mv, undo);
    let position = game.position();
    assert_eq!(scratch.position(), position, "unmake of {mv:?}");
    assert_eq!(
        scratch.hash_key(),
        game.hash_key(),
        "hash after unmake of {mv:?} at {position}"
    );
    assert_eq!(
        scratch.outcome(),
        game.outcome(),
        "outcome after unmake of {mv:?} at {position}"
    );
    if let Some(legal) = legal {
        let mut after = Vec::new();
        scratch.legal_moves(&mut after);
        assert_eq!(
            after, legal,
            "legal moves after unmake of {mv:?} at {position}"
        );
    }
}
