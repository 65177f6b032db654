//! How long the engine's review of a game takes at the default budget: a game of random
//! moves (up to 60 plies) of every variant of every two-player game, reviewed on one thread.
//! A variant whose values come from a whole-game solution first waits for it (made once a
//! process): that wait is not counted in its time, and is printed apart.
//!
//! `cargo run --release -p ai --example review_bench [PLIES [GAME]]`: GAME (a game's id, as
//! in the catalogue) times that game's variants only.

use std::time::Instant;

use ai::Rng;
use ai::analysis::{DEFAULT_BUDGET, ready, review};
use catalog::AnyGame;

fn main() {
    let mut args = std::env::args().skip(1);
    let plies: usize = args
        .next()
        .map_or(60, |a| a.parse().expect("PLIES is a number"));
    let only = args.next();
    let games = catalog::GameId::ALL
        .into_iter()
        .filter(|g| g.info().seats > 1)
        .filter(|g| only.as_deref().is_none_or(|o| o == g.as_str()));
    for game in games {
        for id in game.variants() {
            let start = AnyGame::new(id, 1);
            let waited = Instant::now();
            let mut solved = false;
            while !ready(&start) {
                solved = true;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            if solved {
                println!(
                    "{:<24} the whole-game solution made in {:.1} s (once a process)",
                    id.to_string(),
                    waited.elapsed().as_secs_f64()
                );
            }
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
}
