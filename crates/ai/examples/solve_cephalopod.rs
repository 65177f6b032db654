//! Solves Cephalopod 3×3 from the empty board and prints the value of every first move: by
//! the final dice margin (the bots' solver), or with `plies` by the margin and then the plies
//! to the end (the analysis's solver).
//!
//!     cargo run --release -p ai --example solve_cephalopod
//!     cargo run --release -p ai --example solve_cephalopod -- plies

use std::time::Instant;

use ai::cephalopod::{MarginPlies, PlySolver, Solver};
use cephalopod::{Cephalopod, Variant};
use game::Game;

fn main() {
    let plies = std::env::args().nth(1).as_deref() == Some("plies");
    let start = Instant::now();
    let mut game = Cephalopod::new(Variant::ThreeByThree, 0);
    let (positions, mut rated, value) = if plies {
        let mut solver = PlySolver::new();
        let value = solver.margin(&mut game);
        (solver.positions(), solver.rate_moves(&game), value)
    } else {
        let mut solver = Solver::new();
        let value = solver.margin(&mut game);
        (solver.positions(), solver.rate_moves(&game), value)
    };
    let elapsed = start.elapsed();
    let show = |value: i16| match plies {
        true => match MarginPlies::decode(value) {
            (margin, Some(n)) => format!("{margin:+} dice in {n} plies"),
            (margin, None) => format!("{margin:+} dice"),
        },
        false => format!("{value:+} dice"),
    };
    println!(
        "cephalopod 3x3: the first player (a) ends {} with perfect play \
         ({positions} positions, {:.2} s)",
        show(value),
        elapsed.as_secs_f64()
    );
    rated.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    for (mv, value) in rated {
        println!("  {} {}", game.format_move(mv), show(value));
    }
}
