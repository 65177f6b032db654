//! The exact endings of Perekati-pole (`ai::perekati_exact`) against a brute force written
//! here on its own: plain minimax over every move to a fixed depth, no pruning, no ordering,
//! keeping for each position the interval its true value must lie in.

use ai::eval::WIN;
use ai::perekati_exact::{self, Exact};
use ai::{Level, Rng, choose_move};
use catalog::AnyGame;
use game::{Game, Outcome, Seat};
use perekati::{Perekati, Variant};

/// The interval `[low, high]` holding the true value of `game` for its side to move, by
/// looking at every line `depth` plies deep: a finished game is worth `WIN - plies` to its
/// winner, an unfinished line anything a game decided later could be.
fn brute_force(game: &mut Perekati, depth: i32, ply: i32, root_depth: i32) -> (i32, i32) {
    if let Some(outcome) = game.outcome() {
        // The side "to move" in a finished game is the one that did not make the last move.
        let here = if game.turn_label() == "a" {
            Seat::A
        } else {
            Seat::B
        };
        let value = match outcome {
            Outcome::Win(w) if w == here => WIN - ply,
            Outcome::Win(_) => -(WIN - ply),
            _ => 0,
        };
        return (value, value);
    }
    if depth == 0 {
        let slowest = WIN - root_depth - 1;
        return (-slowest, slowest);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let (mut low, mut high) = (i32::MIN, i32::MIN);
    for mv in moves {
        let undo = game.make(mv);
        let (child_low, child_high) = brute_force(game, depth - 1, ply + 1, root_depth);
        game.unmake(mv, undo);
        low = low.max(-child_high);
        high = high.max(-child_low);
    }
    (low, high)
}

/// A position of the family on `variant`: every cube of each side home but `away_a` of side a
/// and `away_b` of side b, which stand on random free cells of the three rows nearest their
/// goal, with random hats (so that many of these endings are decided within a few plies).
fn family_position(
    variant: Variant,
    away_a: usize,
    away_b: usize,
    rng: &mut Rng,
) -> Option<Perekati> {
    let (columns, rows) = (variant.columns() as usize, variant.rows() as usize);
    let mut grid = vec![vec!['.'; columns]; rows];
    for (letter, away, goal) in [('U', away_a, rows - 1), ('u', away_b, 0)] {
        // The goal cells left free: `away` distinct columns.
        let mut gaps = Vec::new();
        while gaps.len() < away {
            let c = rng.below(columns);
            if !gaps.contains(&c) {
                gaps.push(c);
            }
        }
        for (c, cell) in grid[goal].iter_mut().enumerate() {
            if !gaps.contains(&c) {
                *cell = letter;
            }
        }
    }
    for (letter, away) in [('U', away_a), ('u', away_b)] {
        let near: Vec<usize> = if letter == 'U' {
            (rows - 3..rows).collect()
        } else {
            (0..3).collect()
        };
        for _ in 0..away {
            let free: Vec<(usize, usize)> = near
                .iter()
                .flat_map(|&r| (0..columns).map(move |c| (r, c)))
                .filter(|&(r, c)| grid[r][c] == '.')
                .collect();
            let (r, c) = free[rng.below(free.len())];
            let hat = b"UDNSEW"[rng.below(6)] as char;
            grid[r][c] = if letter == 'U' {
                hat
            } else {
                hat.to_ascii_lowercase()
            };
        }
    }
    let rows_text: Vec<String> = grid.iter().rev().map(|r| r.iter().collect()).collect();
    let side = if rng.below(2) == 0 { "a" } else { "b" };
    let text = format!("{} {side}", rows_text.join("/"));
    // A cube dealt hat up onto a free goal cell is home: the position is then another
    // family's (or over), and is skipped.
    Perekati::from_position(variant, &text, 0).ok().filter(|g| {
        !g.is_over()
            && variant.cubes() - g.home_count(Seat::A) == away_a as u32
            && variant.cubes() - g.home_count(Seat::B) == away_b as u32
    })
}

/// Every board, `per_board` random positions with `away_a` and `away_b` cubes away: every
/// position the brute force decides within `depth` plies is proved by the solver with the
/// same value and a best move that keeps it, and nothing the solver proves falls outside the
/// brute force's interval. Returns how many positions the brute force decided.
fn check_family(away_a: usize, away_b: usize, depth: i32, per_board: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let (mut proved, mut compared) = (0, 0);
    for variant in [
        Variant::Malysh,
        Variant::Long,
        Variant::Large,
        Variant::Printed,
    ] {
        let mut tried = 0;
        while tried < per_board {
            let Some(game) = family_position(variant, away_a, away_b, &mut rng) else {
                continue;
            };
            assert!(perekati_exact::in_family(&game), "{}", game.position());
            tried += 1;
            let (low, high) = brute_force(&mut game.clone(), depth, 0, depth);
            let exact = perekati_exact::solve_within(&game, 100_000);
            if low == high {
                compared += 1;
                let exact = exact.unwrap_or_else(|| {
                    panic!("{}: brute force proves {low}, solver none", game.position())
                });
                assert_eq!(exact.score(), low, "{}", game.position());
                check_best_move(&game, &exact, depth);
            }
            if let Some(exact) = exact {
                proved += 1;
                // Whatever the solver proves, the brute force cannot contradict.
                assert!(
                    low <= exact.score() && exact.score() <= high,
                    "{}: solver {} outside [{low}, {high}]",
                    game.position(),
                    exact.score()
                );
            }
        }
    }
    assert!(proved >= compared);
    compared
}

#[test]
fn exact_endings_agree_with_the_brute_force() {
    let compared = check_family(1, 1, 7, 20, 51);
    assert!(compared >= 25, "only {compared} of 80 positions decided");
}

#[test]
fn exact_endings_of_two_cubes_against_one_agree_with_the_brute_force() {
    let compared = check_family(2, 1, 7, 10, 52) + check_family(1, 2, 7, 10, 53);
    assert!(compared >= 15, "only {compared} of 80 positions decided");
}

/// The best move keeps the value: after it the opponent's exact value is its negation, one
/// ply nearer the end.
fn check_best_move(game: &Perekati, exact: &Exact, depth: i32) {
    let mut next = game.clone();
    next.make(exact.best);
    match next.outcome() {
        Some(_) => assert_eq!(exact.plies, 1, "{}", game.position()),
        None => {
            let (low, high) = brute_force(&mut next.clone(), depth, 0, depth);
            let shifted = match exact.score() {
                s if s > 0 => -(s + 1),
                s if s < 0 => -(s - 1),
                _ => 0,
            };
            assert!(
                low <= shifted && shifted <= high,
                "{}: after {:?} [{low}, {high}] vs {shifted}",
                game.position(),
                exact.best
            );
        }
    }
}

#[test]
fn positions_outside_the_family_are_not_solved() {
    let start = Perekati::new(Variant::Malysh, 0);
    assert!(!perekati_exact::in_family(&start));
    assert_eq!(perekati_exact::solve(&start), None);
    // Two cubes of side a away from home against one of b: in the family.
    let two_against_one =
        Perekati::from_position(Variant::Malysh, "UUU../..n../..S../...N./...../uuuu. a", 0)
            .unwrap();
    assert!(perekati_exact::in_family(&two_against_one));
    // Two a side: not.
    let two_a_side =
        Perekati::from_position(Variant::Malysh, "UUU../..n../..S../...N./...../uuu.n a", 0)
            .unwrap();
    assert!(!perekati_exact::in_family(&two_a_side));
    assert_eq!(perekati_exact::solve(&two_a_side), None);
}

#[test]
fn a_won_race_is_exact_and_hard_plays_it() {
    // a's last cube stands below its free goal cell with the hat south: one roll home.
    let game = Perekati::from_position(Variant::Malysh, "UUUU./....S/...../..n../...../uuuu. a", 0)
        .unwrap();
    let exact = perekati_exact::solve(&game).expect("one roll from the end");
    assert_eq!((exact.outcome, exact.plies), (Outcome::Win(Seat::A), 1));
    assert_eq!(game.format_move(exact.best), "e5e6");
    let any = AnyGame::Perekati(game);
    let mv = choose_move(&any, Level::Hard, std::time::Duration::from_millis(50), 1);
    assert_eq!(mv.as_deref(), Some("e5e6"));
}
