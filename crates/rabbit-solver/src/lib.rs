//! The White Rabbit solver: exact values, fast hints and seeded deals.
//!
//! Every action is ranked by (1) the probability of winning, (2) the expected score (the green
//! counter at the win, 0 for a loss), (3) the expected number of actions until the game ends,
//! each for the policy that optimises them in that order.
//!
//! - [`model`]: the symmetry-reduced state (counts per colour and value, bans as classes),
//!   parameterised by a [`Model`] so that reduced games can be brute-forced in tests.
//! - [`exact`]: exact mode, the least fixed point of the lexicographic optimality equations
//!   over a whole within-turn state space, level by level of the green counter.
//! - [`full`]: the same values for the full game, from flat per-class arrays (`index`: ranks;
//!   `symmetry`: the classes; `values`: the per-class values; `level`: one level's Bellman
//!   operator; `sweep` and `order`: solving a level; `policy`: the policy's equations;
//!   `loops`: the policy's endless loops); [`tables`] caches them on disk, one file per
//!   variant and green level.
//! - [`hint`]: hint mode, rollout estimates within a deadline (`dice`, `closure`: the searches
//!   over swaps; `policy`: the playing policy; `continuation`: what a lost turn is worth), and
//!   the greedy baseline (`greedy`).
//! - [`deals`]: seeded deals played by a player (hint mode or greedy) through the engine.
//! - [`rng`]: the seeded generator of rollouts, samples and deal seeds (`game`'s splitmix64).
//!
//! The server's entry point is [`hints`].

pub mod deals;
pub mod exact;
pub mod full;
pub mod hint;
pub mod model;
pub mod rng;
pub mod tables;

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

use game::Game;
use white_rabbit::WhiteRabbit;

pub use exact::{Exact, Vals};
pub use hint::Budget;
pub use model::{Act, Model, State};
/// The engine crates, re-exported for callers that only depend on the solver.
pub use {game, white_rabbit};

/// One legal action with its three values (serialised as the server's hint API sends it).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hint {
    /// The action in the engine's notation (`k4~r2`, `reroll`, `end`).
    pub action: String,
    /// Probability of winning.
    pub win: f64,
    /// Expected score (the green counter at the win; 0 for a loss).
    pub score: f64,
    /// Expected number of actions until the game ends, this one included.
    pub actions: f64,
}

/// Hint mode: every legal action ranked best first, within ~100 ms. Blocking (CPU); the server
/// calls it on a blocking thread. Empty once the game is over.
///
/// The values are estimates (see [`hint`]): exact for a winning swap and for `end` at green 1,
/// rollout averages of the hint policy otherwise.
pub fn hints(game: &WhiteRabbit) -> Vec<Hint> {
    hints_with(game, Budget::default())
}

/// [`hints`] with an explicit budget.
pub fn hints_with(game: &WhiteRabbit, budget: Budget) -> Vec<Hint> {
    if game.is_over() {
        return Vec::new();
    }
    let m = Model::of(game.variant());
    let s = model::from_game(game);
    let values = hint::hint_values(&m, &s, game.green(), budget);
    label(game, &values)
}

/// Exact mode at an engine position, given solved tables for its variant.
pub fn exact_hints(game: &WhiteRabbit, exact: &Exact) -> Option<Vec<Hint>> {
    let s = model::from_game(game);
    let values = exact.action_values(&s, game.green())?;
    Some(label(game, &values))
}

/// Exact mode at an engine position from the full game's solved level at its green counter
/// (see [`tables`]).
pub fn full_hints(game: &WhiteRabbit, level: &full::Solved<impl full::Values>) -> Vec<Hint> {
    if game.is_over() {
        return Vec::new();
    }
    let s = model::from_game(game);
    label(game, &level.action_values(&s))
}

/// Gives every legal engine move the values of its class action, in the order of `values`
/// (best first; moves of one class by name).
fn label(game: &WhiteRabbit, values: &[(Act, Vals)]) -> Vec<Hint> {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let mut out: Vec<(usize, Vals, String)> = legal
        .into_iter()
        .map(|mv| {
            let a = model::act_of(game, mv);
            let i = values
                .iter()
                .position(|(b, _)| *b == a)
                .expect("every legal move has a class action");
            (i, values[i].1, game.format_move(mv))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.2.cmp(&b.2)));
    out.into_iter()
        .map(|(_, v, action)| Hint {
            action,
            win: v[0],
            score: v[1],
            actions: v[2],
        })
        .collect()
}
