//! Solves Cephalopod 3×3 from the empty board and prints the value of every first move.
//!
//!     cargo run --release -p ai --example solve_cephalopod

use std::time::Instant;

use ai::cephalopod::Solver;
use cephalopod::{Cephalopod, Variant};
use game::Game;

fn main() {
    let start = Instant::now();
    let mut solver = Solver::new();
    let mut game = Cephalopod::new(Variant::ThreeByThree, 0);
    let margin = solver.margin(&mut game);
    let elapsed = start.elapsed();
    println!(
        "cephalopod 3x3: the first player (a) ends {margin:+} dice with perfect play \
         ({} positions, {:.2} s)",
        solver.positions(),
        elapsed.as_secs_f64()
    );
    let mut rated = solver.rate_moves(&game);
    rated.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    for (mv, value) in rated {
        println!("  {} {value:+}", game.format_move(mv));
    }
}
