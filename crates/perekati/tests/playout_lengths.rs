//! How long uniformly random games last, per variant (run with `--ignored --nocapture`).

use game::{Game, GameRng, Outcome, Seat, Variant as _};
use perekati::{Perekati, Variant};
use std::time::Instant;

#[test]
#[ignore = "statistics for the report, not a check"]
fn random_game_lengths() {
    const SEEDS: u64 = 1000;
    const CAP: usize = 1_000_000;
    for &variant in Variant::ALL {
        let start = Instant::now();
        let mut lengths = Vec::new();
        let (mut wins_a, mut wins_b, mut draws, mut capped) = (0, 0, 0, 0);
        let mut by_home = [0u32; 2];
        let mut blocked = 0;
        for seed in 0..SEEDS {
            let mut game = Perekati::new(variant, 0);
            let mut rng = GameRng::seeded(seed);
            let mut moves = Vec::new();
            let mut plies = 0;
            while plies < CAP {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.make(moves[rng.below(moves.len() as u32) as usize]);
                plies += 1;
            }
            match game.outcome() {
                Some(Outcome::Win(Seat::A)) => wins_a += 1,
                Some(Outcome::Win(_)) => wins_b += 1,
                Some(_) => draws += 1,
                None => capped += 1,
            }
            let all_home = game.home_count(Seat::A) == variant.cubes()
                || game.home_count(Seat::B) == variant.cubes();
            by_home[usize::from(all_home)] += 1;
            // Without the history, a blocked position is still over; a repeated one is not.
            let fresh = Perekati::from_position(variant, &game.position(), 0);
            if !all_home && fresh.is_ok_and(|g| g.is_over()) {
                blocked += 1;
            }
            lengths.push(plies);
        }
        lengths.sort_unstable();
        let pct = |p: f64| lengths[((lengths.len() - 1) as f64 * p) as usize];
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        println!(
            "{:8} plies: min {} p10 {} median {} mean {:.0} p90 {} p99 {} max {} | a {wins_a} b {wins_b} draw {draws} capped {capped} | all-home ends {} blocked {blocked} | {:.2?}",
            variant.id(),
            lengths[0],
            pct(0.1),
            pct(0.5),
            mean,
            pct(0.9),
            pct(0.99),
            lengths[lengths.len() - 1],
            by_home[1],
            start.elapsed()
        );
    }
}
