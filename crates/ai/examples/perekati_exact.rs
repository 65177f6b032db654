//! How often and how fast `ai::perekati_exact`'s proof settles Perekati-pole endings with one
//! or two cubes a side away from home (two a side is beyond the family the bots use), on random positions of every board: the away cubes stand on
//! random free cells of the three rows nearest their goal, with random hats, the others home on
//! random goal cells.
//!
//!     cargo run --release -p ai --example perekati_exact [positions] [node budget]

use std::time::{Duration, Instant};

use ai::Rng;
use ai::perekati_exact;
use game::{Game, Variant as _};
use perekati::{Perekati, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(200, |a| a.parse().expect("positions"));
    let budget: u64 = args.next().map_or(perekati_exact::SOLVE_NODES, |a| {
        a.parse().expect("node budget")
    });
    println!("{count} positions a row, {budget} nodes a proof");
    println!("board    away a+b  proved  time per proof: median / p95 / longest (ms)");
    let mut rng = Rng::new(2026);
    for variant in [
        Variant::Malysh,
        Variant::Long,
        Variant::Large,
        Variant::Printed,
    ] {
        for (away_a, away_b) in [(1, 1), (2, 1), (2, 2)] {
            let mut times = Vec::new();
            let mut proved = 0;
            while times.len() < count {
                let Some(game) = position(variant, away_a, away_b, &mut rng) else {
                    continue;
                };
                let start = Instant::now();
                let exact = perekati_exact::prove_within(&game, budget);
                times.push(start.elapsed());
                proved += usize::from(exact.is_some());
            }
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "{:8} {away_a}+{away_b}       {:5.1} %  {:.2} / {:.2} / {:.2}",
                variant.id(),
                100.0 * proved as f64 / count as f64,
                ms(times[count / 2]),
                ms(times[count * 95 / 100]),
                ms(times[count - 1]),
            );
        }
    }
}

/// A position with `away_a` and `away_b` cubes of each side away from home (`None` when the
/// draw made a finished game or put a cube home by chance).
fn position(variant: Variant, away_a: usize, away_b: usize, rng: &mut Rng) -> Option<Perekati> {
    let (columns, rows) = (variant.columns() as usize, variant.rows() as usize);
    let mut grid = vec![vec!['.'; columns]; rows];
    for (letter, away, goal) in [('U', away_a, rows - 1), ('u', away_b, 0)] {
        let mut gaps: Vec<usize> = (0..columns).collect();
        rng.shuffle(&mut gaps);
        for &c in &gaps[away..] {
            grid[goal][c] = letter;
        }
        let near: Vec<usize> = if goal == 0 {
            (0..3).collect()
        } else {
            (rows - 3..rows).collect()
        };
        for _ in 0..away {
            let free: Vec<(usize, usize)> = near
                .iter()
                .flat_map(|&r| (0..columns).map(move |c| (r, c)))
                .filter(|&(r, c)| grid[r][c] == '.')
                .collect();
            let (r, c) = free[rng.below(free.len())];
            // Never hat up on the goal row: that cube would be home.
            let hats = if r == goal {
                &b"DNSEW"[..]
            } else {
                &b"UDNSEW"[..]
            };
            let hat = hats[rng.below(hats.len())] as char;
            grid[r][c] = if letter == 'U' {
                hat
            } else {
                hat.to_ascii_lowercase()
            };
        }
    }
    let text: Vec<String> = grid.iter().rev().map(|r| r.iter().collect()).collect();
    let side = if rng.below(2) == 0 { "a" } else { "b" };
    Perekati::from_position(variant, &format!("{} {side}", text.join("/")), 0)
        .ok()
        .filter(|g| !g.is_over())
}
