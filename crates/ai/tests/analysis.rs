//! The review's labels, and its exact values checked against a brute force written here
//! apart from the module's search: plain minimax over every line, no pruning.

use ai::Rng;
use ai::analysis::{self, Budget, Label, judge, label};
use catalog::{AnyGame, VariantId};
use std::collections::HashMap;

use game::{Game, Outcome, Seat};

/// `game/variant` or `game` (its default variant).
fn vid(text: &str) -> VariantId {
    let (game, variant) = match text.split_once('/') {
        Some((g, v)) => (g, Some(v)),
        None => (text, None),
    };
    VariantId::parse(game, variant).unwrap()
}

#[test]
fn labels_follow_the_stated_thresholds() {
    assert_eq!(
        label(0.3, true),
        Label::Best,
        "the engine's own move is best"
    );
    assert_eq!(label(0.0, false), Label::Best);
    assert_eq!(label(0.019, false), Label::Best);
    assert_eq!(label(0.02, false), Label::Good);
    assert_eq!(label(0.049, false), Label::Good);
    assert_eq!(label(0.05, false), Label::Inaccuracy);
    assert_eq!(label(0.099, false), Label::Inaccuracy);
    assert_eq!(label(0.10, false), Label::Mistake);
    assert_eq!(label(0.199, false), Label::Mistake);
    assert_eq!(label(0.20, false), Label::Blunder);
    assert_eq!(label(1.0, false), Label::Blunder);
}

#[test]
fn labels_from_a_sequence_of_evaluations() {
    // Seat A's expected score before each move, and after the last.
    let values = [0.5, 0.52, 0.40, 0.41, 0.95, 0.9, 0.0];
    let movers = [Seat::A, Seat::B, Seat::A, Seat::B, Seat::A, Seat::B];
    let engine = [false, false, false, false, true, false];
    let judged = judge(&values, &movers, &engine);
    let labels: Vec<Label> = judged.iter().map(|&(_, l)| l).collect();
    assert_eq!(
        labels,
        vec![
            // A: 0.50 → 0.52, gained: best.
            Label::Best,
            // B: 0.48 → 0.60 for B, gained.
            Label::Best,
            // A: 0.40 → 0.41, gained.
            Label::Best,
            // B: 0.59 → 0.05, lost 0.54.
            Label::Blunder,
            // A's move was the engine's: best though the value fell 0.05.
            Label::Best,
            // B: 0.10 → 1.0, gained.
            Label::Best,
        ]
    );
    let drops: Vec<f64> = judged.iter().map(|&(d, _)| d).collect();
    assert!((drops[3] - 0.54).abs() < 1e-9, "{drops:?}");
    let inaccuracy = judge(&[0.6, 0.53], &[Seat::A], &[false]);
    assert_eq!(inaccuracy[0].1, Label::Inaccuracy);
    let mistake = judge(&[0.4, 0.55], &[Seat::B], &[false]);
    assert_eq!(mistake[0].1, Label::Mistake);
    let good = judge(&[0.4, 0.43], &[Seat::B], &[false]);
    assert_eq!(good[0].1, Label::Good);
}

/// The result with perfect play for the side to move of `game`, and the plies to the end
/// (each side prefers a win, sooner, then a draw, then a loss, later): every line visited,
/// each position's answer kept by its hash in `seen`. `None` once `budget` moves have been
/// tried.
fn brute<G: Game>(
    game: &mut G,
    seen: &mut HashMap<u64, (Outcome, u32)>,
    budget: &mut u64,
) -> Option<(Outcome, u32)> {
    if let Some(&known) = seen.get(&game.hash_key()) {
        return Some(known);
    }
    let me = game.to_move()?;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best: Option<(i64, Outcome, u32)> = None;
    for mv in moves {
        *budget = budget.checked_sub(1)?;
        let undo = game.make(mv);
        let result = match game.outcome() {
            Some(o) => Some((o, 1)),
            None => brute(game, seen, budget).map(|(o, p)| (o, p + 1)),
        };
        game.unmake(mv, undo);
        let (outcome, plies) = result?;
        let rank = match outcome {
            Outcome::Win(w) if w == me => 2_000_000 - plies as i64,
            Outcome::Win(_) => -2_000_000 + plies as i64,
            _ => 0,
        };
        if best.is_none_or(|(r, _, _)| rank > r) {
            best = Some((rank, outcome, plies));
        }
    }
    let (_, outcome, plies) = best?;
    seen.insert(game.hash_key(), (outcome, plies));
    Some((outcome, plies))
}

/// Random games of `variant` stopped once at most `empty` cells are left (by `empty_of`).
fn near_final(
    variant: &str,
    seed: u64,
    empty: u32,
    empty_of: impl Fn(&AnyGame) -> u32,
) -> Option<AnyGame> {
    let variant = vid(variant);
    let mut game = AnyGame::new(variant, seed);
    let mut rng = Rng::new(seed);
    while empty_of(&game) > empty {
        let moves = game.legal_texts();
        if moves.is_empty() {
            return None;
        }
        game.play_text(&moves[rng.below(moves.len())]).unwrap();
    }
    (!game.is_over()).then_some(game)
}

fn cephalopod_empty(game: &AnyGame) -> u32 {
    let AnyGame::Cephalopod(g) = game else {
        unreachable!()
    };
    (g.size() as u32).pow(2) - g.dice_count(Seat::A) - g.dice_count(Seat::B)
}

/// Tumbleweed in play: its empty cells, `u32::MAX` in the setup.
fn tumbleweed_empty(game: &AnyGame) -> u32 {
    let AnyGame::Tumbleweed(g) = game else {
        unreachable!()
    };
    match g.phase() {
        tumbleweed::Phase::Play(_) => g.cells().filter(|&c| g.stack(c).is_none()).count() as u32,
        _ => u32::MAX,
    }
}

/// Tumbleweed in play with every cell taken: the legal moves left (the overtopping ones and a
/// pass), `u32::MAX` before then.
fn tumbleweed_left(game: &AnyGame) -> u32 {
    let AnyGame::Tumbleweed(g) = game else {
        unreachable!()
    };
    let full = g.cells().all(|c| g.stack(c).is_some());
    match g.phase() {
        tumbleweed::Phase::Play(_) if full => game.legal_texts().len() as u32,
        _ => u32::MAX,
    }
}

/// Compares the review's exact value of near-final positions with the brute force, on the
/// first `wanted` positions the brute force settles. The review's search to the end may give
/// up (its node budget) on at most `may_give_up` of them, which are then not compared; it
/// says how many it gave up on.
fn agrees_with_brute_force(
    variant: &str,
    empty: u32,
    empty_of: fn(&AnyGame) -> u32,
    wanted: usize,
    may_give_up: usize,
) -> usize {
    let (mut compared, mut gave_up) = (0, 0);
    for seed in 0..120 {
        if compared + gave_up == wanted {
            break;
        }
        let Some(game) = near_final(variant, seed, empty, empty_of) else {
            continue;
        };
        let mut budget = 5_000_000;
        let seen = &mut HashMap::new();
        let truth = match &game {
            AnyGame::Cephalopod(g) => brute(&mut g.clone(), seen, &mut budget),
            AnyGame::Tumbleweed(g) => brute(&mut g.clone(), seen, &mut budget),
            _ => unreachable!(),
        };
        let Some((outcome, plies)) = truth else {
            continue;
        };
        let found = analysis::evaluate(&game, analysis::DEFAULT_BUDGET);
        let Some(exact) = found.exact else {
            gave_up += 1;
            assert!(
                gave_up <= may_give_up,
                "{variant} seed {seed}: {} is not exact",
                game.position()
            );
            continue;
        };
        assert_eq!(exact.outcome, outcome, "{variant} {}", game.position());
        if outcome != Outcome::Draw {
            assert_eq!(exact.plies, Some(plies), "{variant} {}", game.position());
        }
        let expected = match outcome {
            Outcome::Win(w) if w == Seat::A => 1.0,
            Outcome::Win(_) => 0.0,
            _ => 0.5,
        };
        assert_eq!(found.value, expected);
        // The best move keeps the value: played, the position has the same result.
        let mut after = game.clone();
        after.play_text(found.best.as_deref().unwrap()).unwrap();
        let next = analysis::evaluate(&after, analysis::DEFAULT_BUDGET);
        if next.exact.is_some() || may_give_up == 0 {
            assert_eq!(
                next.value,
                expected,
                "{variant} best move of {}",
                game.position()
            );
        }
        compared += 1;
    }
    assert_eq!(
        compared + gave_up,
        wanted,
        "{variant}: too few positions compared"
    );
    gave_up
}

#[test]
fn cephalopod_5x5_near_the_end_is_exact_and_agrees_with_brute_force() {
    // The search to the end may give up (its node budget) on a few: most must be proved.
    let gave_up = agrees_with_brute_force("cephalopod/5x5", 3, cephalopod_empty, 12, 4);
    eprintln!("cephalopod 5x5, 3 empty: the search to the end gave up on {gave_up} of 12");
}

/// At the edge of the exact range: as many empty cells as the review searches to the end.
/// Neither side settles there yet: on random positions the search to the end gives up within
/// its node budget from four or five empty cells (5×5) and one or two (Tumbleweed), and the
/// brute force needs more than two million moves tried per position.
#[test]
#[ignore = "the search to the end gives up on most positions at the edge of its range"]
fn cephalopod_5x5_at_the_edge_of_the_exact_range_agrees_with_brute_force() {
    let empty = analysis::END_EMPTY_CEPHALOPOD;
    let gave_up = agrees_with_brute_force("cephalopod/5x5", empty, cephalopod_empty, 6, 2);
    eprintln!("cephalopod 5x5, {empty} empty: the search to the end gave up on {gave_up} of 6");
}

#[test]
#[ignore = "the search to the end gives up on most positions at the edge of its range"]
fn tumbleweed_at_the_edge_of_the_exact_range_agrees_with_brute_force() {
    let empty = analysis::END_EMPTY_TUMBLEWEED as u32;
    let gave_up = agrees_with_brute_force("tumbleweed/hex6", empty, tumbleweed_empty, 6, 2);
    eprintln!("tumbleweed hex6, {empty} empty: the search to the end gave up on {gave_up} of 6");
}

#[test]
fn tumbleweed_with_the_board_full_is_exact_and_agrees_with_brute_force() {
    // Overtopping makes long endings: the search to the end may give up on up to half.
    let gave_up = agrees_with_brute_force("tumbleweed/hex6", 3, tumbleweed_left, 6, 3);
    eprintln!("tumbleweed hex6, board full: the search to the end gave up on {gave_up} of 6");
}

#[test]
fn the_3x3_solution_gives_the_dice_margin() {
    let game = near_final("cephalopod/3x3", 7, 3, cephalopod_empty).unwrap();
    let found = analysis::evaluate(&game, analysis::DEFAULT_BUDGET);
    let exact = found.exact.unwrap();
    let margin = exact.margin.unwrap();
    assert_eq!(margin % 2, 1, "nine cells: the margin is odd ({margin})");
    assert_eq!(exact.outcome == Outcome::Win(Seat::A), margin > 0);
    let plies = exact
        .plies
        .expect("every 3×3 value has its plies to the end");
    assert!(
        plies >= 4,
        "four empty cells take at least four plies to fill ({plies})"
    );
}

#[test]
fn estimates_are_labelled_and_reproducible() {
    let budget = Budget {
        nodes: 5_000,
        playouts: 1_000,
    };
    for variant in ["perekati", "mill", "cephalopod/5x5", "tumbleweed/hex6"] {
        let mut game = AnyGame::new(vid(variant), 3);
        let mut rng = Rng::new(9);
        let mut moves = Vec::new();
        for _ in 0..6 {
            let legal = game.legal_texts();
            let mv = legal[rng.below(legal.len())].clone();
            game.play_text(&mv).unwrap();
            moves.push(mv);
        }
        let start = AnyGame::new(vid(variant), 3);
        let mut seen = Vec::new();
        let first =
            analysis::review(start.clone(), &moves, budget, |k, n| seen.push((k, n))).unwrap();
        let second = analysis::review(start, &moves, budget, |_, _| {}).unwrap();
        assert_eq!(first, second, "{variant}: the same game, the same review");
        assert_eq!(first.positions.len(), 7);
        assert_eq!(seen.last(), Some(&(7, 7)));
        for p in &first.positions[..6] {
            assert!((0.0..=1.0).contains(&p.value));
            if variant != "tumbleweed/hex6" {
                assert!(p.exact.is_none(), "{variant}: an opening is an estimate");
                assert!(p.best.is_some());
            }
        }
    }
}

#[test]
fn a_move_that_does_not_replay_is_an_error() {
    let start = AnyGame::new(vid("mill"), 1);
    let err = analysis::review(
        start,
        &["zz".to_string()],
        analysis::DEFAULT_BUDGET,
        |_, _| {},
    )
    .unwrap_err();
    assert!(err.contains("does not replay"), "{err}");
}

/// Cephalopod 3×3 with perfect play for the side to move: its final dice margin and the plies
/// to the end, each side maximising its margin and then, ahead, hurrying or, behind,
/// delaying (nine cells: never a draw). Plain minimax over every line, each position's answer
/// kept by its hash (captures free cells, so even three empty cells lead to millions of
/// positions).
fn brute_3x3(game: &mut cephalopod::Cephalopod, seen: &mut HashMap<u64, (i32, u32)>) -> (i32, u32) {
    if let Some(&known) = seen.get(&game.hash_key()) {
        return known;
    }
    let me = game.to_move().unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best: Option<(i64, i32, u32)> = None;
    for mv in moves {
        let undo = game.make(mv);
        let (margin, plies) = if game.is_over() {
            (
                game.dice_count(me) as i32 - game.dice_count(me.other()) as i32,
                1,
            )
        } else {
            let (m, p) = brute_3x3(game, seen);
            (-m, p + 1)
        };
        game.unmake(mv, undo);
        assert_ne!(margin, 0, "nine cells cannot split evenly");
        let rank = 1_000 * margin as i64
            + if margin > 0 {
                -(plies as i64)
            } else {
                plies as i64
            };
        if best.is_none_or(|(r, _, _)| rank > r) {
            best = Some((rank, margin, plies));
        }
    }
    let (_, margin, plies) = best.unwrap();
    seen.insert(game.hash_key(), (margin, plies));
    (margin, plies)
}

/// The review's 3×3 margin and plies against [`brute_3x3`] on `wanted` random positions with
/// `empty` empty cells; the positions each brute force visited, summed.
fn plies_3x3_agree(empty: u32, wanted: usize) -> usize {
    let mut compared = 0;
    let mut visited = 0;
    for seed in 0..200 {
        if compared == wanted {
            break;
        }
        let Some(game) = near_final("cephalopod/3x3", 1_000 + seed, empty, cephalopod_empty) else {
            continue;
        };
        if cephalopod_empty(&game) != empty {
            continue;
        }
        let AnyGame::Cephalopod(g) = &game else {
            unreachable!()
        };
        let mut seen = HashMap::new();
        let (margin, plies) = brute_3x3(&mut g.clone(), &mut seen);
        visited += seen.len();
        let mover = g.to_move().unwrap();
        let margin_a = if mover == Seat::A { margin } else { -margin };
        let exact = analysis::evaluate(&game, analysis::DEFAULT_BUDGET)
            .exact
            .unwrap();
        let at = game.position();
        assert_eq!(exact.margin, Some(margin_a), "margin of {at}");
        assert_eq!(exact.plies, Some(plies), "plies of {at}");
        let winner = if margin_a > 0 { Seat::A } else { Seat::B };
        assert_eq!(exact.outcome, Outcome::Win(winner), "{at}");
        compared += 1;
    }
    assert_eq!(compared, wanted, "too few 3×3 positions with {empty} empty");
    visited
}

#[test]
fn the_3x3_plies_agree_with_brute_force() {
    for (empty, wanted) in [(2, 6), (3, 2)] {
        let start = std::time::Instant::now();
        let visited = plies_3x3_agree(empty, wanted);
        eprintln!(
            "3x3, {empty} empty: {wanted} positions, brute force {visited} positions, {:.1?}",
            start.elapsed()
        );
    }
}
