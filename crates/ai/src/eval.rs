//! What a game's own knowledge looks like to the search.

use game::{Game, Outcome, Seat};

/// A score beyond any evaluation: a won game, less the plies it takes (faster wins first).
pub const WIN: i32 = 1_000_000;
/// Scores at least this large are wins or losses found by search, not estimates.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// A game's static knowledge.
pub trait Evaluator<G: Game> {
    /// How good the position is for the side to move (positive: better), well inside
    /// `±WIN_BOUND`. Only called on positions that are not over.
    fn evaluate(&self, game: &G) -> i32;

    /// Reorders `moves` so that the likely best come first (alpha-beta prunes more when they
    /// do). The default keeps the generator's order.
    fn order_moves(&self, _game: &G, _moves: &mut [G::Move]) {}

    /// A playout's move when the game knows a better one than chance (Monte Carlo playouts
    /// call it; `None` means a uniformly random move). `roll` is uniform in `[0, 1)`.
    fn playout_move(&self, _game: &G, _moves: &[G::Move], _roll: f64) -> Option<G::Move> {
        None
    }
}

/// The score of a finished game for `seat`, `ply` plies from the root.
pub fn terminal_score(outcome: Outcome, seat: Seat, ply: usize) -> i32 {
    match outcome {
        Outcome::Win(winner) if winner == seat => WIN - ply as i32,
        Outcome::Win(_) => -(WIN - ply as i32),
        _ => 0,
    }
}
