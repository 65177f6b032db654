//! Helpers for the tests of the bots, here and in the server: games brought to where the
//! bots' judgement applies.

use game::Game;
use perekati::{Move, Perekati};

use crate::Rng;

/// `plies` random moves from `game` that end nothing and bring no cube home: a game where
/// neither side makes progress (the stall rule of [`crate::perekati_verdict`]).
pub fn quiet_moves(game: &Perekati, plies: usize, seed: u64) -> Vec<Move> {
    let mut game = game.clone();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut played = Vec::with_capacity(plies);
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        rng.shuffle(&mut moves);
        let quiet = moves.iter().copied().find(|&mv| {
            let mut next = game.clone();
            next.make(mv);
            !next.is_over() && next.plies_since_home() > 0
        });
        let mv = quiet.expect("a move that brings nothing home");
        game.make(mv);
        played.push(mv);
    }
    played
}
