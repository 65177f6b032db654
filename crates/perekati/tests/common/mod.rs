//! What several of the engine's test files share: a set-up position of the default board, and
//! a line of moves played in the notation.

use game::Game;
use perekati::{Perekati, Variant};

/// The `malysh` board at `position` (the project's notation), or the test fails saying why.
pub fn malysh(position: &str) -> Perekati {
    Perekati::from_position(Variant::Malysh, position, 0)
        .unwrap_or_else(|e| panic!("{position}: {e}"))
}

/// Plays `moves`, each of which must be legal.
pub fn play(game: &mut Perekati, moves: &[&str]) {
    for text in moves {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} at {}: {e}", game.position()));
    }
}
