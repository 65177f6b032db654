//! How long the engine's review of a game takes at the default budget: a game of random
//! moves (up to 60 plies) of each two-player game (its default variant), reviewed on one
//! thread.
//!
//! `cargo run --release -p ai --example review_bench [PLIES]`

use std::time::Instant;

use ai::Rng;
use ai::analysis::{DEFAULT_BUDGET, review};
use catalog::{AnyGame, VariantId};

fn main() {
    let plies: usize = std::env::args()
        .nth(1)
        .map_or(60, |a| a.parse().expect("PLIES is a number"));
    let two_player = catalog::GameId::ALL.iter().filter(|g| g.info().seats > 1);
    for &game in two_player {
        let id = VariantId::parse(game.as_str(), None).unwrap();
        let start = AnyGame::new(id, 1);
        let mut g = start.clone();
        let mut rng = Rng::new(7);
        let mut moves = Vec::new();
        while moves.len() < plies && !g.is_over() {
            let legal = g.legal_texts();
            let mv = legal[rng.below(legal.len())].clone();
            g.play_text(&mv).unwrap();
            moves.push(mv);
        }
        let t = Instant::now();
        let r = review(start, &moves, DEFAULT_BUDGET, |_, _| {}).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let exact = r.positions.iter().filter(|p| p.exact.is_some()).count();
        println!(
            "{:<24} {:>3} plies  {:>6.1} s  {:>5.0} ms a position  {exact} exact",
            id.to_string(),
            moves.len(),
            secs,
            secs * 1000.0 / r.positions.len() as f64,
        );
    }
}
