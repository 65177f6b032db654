//! The engine's review of a two-player game: every position evaluated by Hard's search at a
//! fixed budget, every move labelled by what it lost, exact values where they can be had.
//!
//! Everything here is reproducible: budgets count nodes and playouts, never time, and each
//! position's search is seeded from the position itself, so the same game gets the same review
//! on any machine and under any load.
//!
//! **Values** are the first player's (seat A's) expected score, from 0 (A loses) through 0.5
//! (even, or a draw) to 1 (A wins). An exact value is 0, 0.5 or 1 with the result under
//! perfect play; an estimate is the search's score passed through a logistic curve whose
//! scale is the game's ([`scale`]).
//!
//! **Exact values**: Cephalopod 3×3 from its solver by margin and plies
//! ([`crate::cephalopod::PlySolver`]): the final dice margin with perfect play and the plies to
//! the end, each side keeping its best margin and then, ahead, hurrying or, behind, delaying
//! (nine cells cannot split evenly, so there is no draw and every 3×3 value has its plies);
//! Cephalopod 5×5 with at most [`END_EMPTY_CEPHALOPOD`] empty cells and Tumbleweed (in play)
//! with at most [`END_EMPTY_TUMBLEWEED`] searched to the end by alpha-beta over results, within
//! [`END_NODES`] nodes (past that, the engine's estimate stands). Such a search also gives the
//! number of plies to the end with best play (the winner hurrying, the loser delaying).
//! Perekati-pole and mill values are always the engine's estimates.
//!
//! **Labels** ([`label`]): the drop of a move is the mover's expected score before the move
//! (with the engine's best play) less the mover's expected score after it. The engine's own
//! move, or a drop under [`GOOD`], is *best*; under [`INACCURACY`] *good*; under [`MISTAKE`]
//! an *inaccuracy*; under [`BLUNDER`] a *mistake*; from [`BLUNDER`] on a *blunder*.

use std::time::{Duration, Instant};

use catalog::AnyGame;
use game::{Game, Outcome, Seat};

use crate::alphabeta::AlphaBeta;
use crate::eval::{Evaluator, WIN, WIN_BOUND, terminal_score};
use crate::rng::Rng;

/// Drops below this are as good as the engine's move (*best*).
pub const GOOD: f64 = 0.02;
/// Drops below this are *good*.
pub const INACCURACY: f64 = 0.05;
/// Drops below this are *inaccuracies*.
pub const MISTAKE: f64 = 0.10;
/// Drops below this are *mistakes*; from here on, *blunders*.
pub const BLUNDER: f64 = 0.20;

/// Cephalopod 5×5 positions with at most this many empty cells are searched to the end.
pub const END_EMPTY_CEPHALOPOD: u32 = 7;
/// Tumbleweed positions (in play) with at most this many empty cells are searched to the end.
pub const END_EMPTY_TUMBLEWEED: usize = 4;
/// The most nodes a search to the end may visit before the estimate is kept instead.
pub const END_NODES: u64 = 400_000;
/// Cephalopod 3×3 positions with at most this many empty cells are solved afresh until the
/// process's whole-game solution by margin and plies is made (about a minute once,
/// docs/bots.md); earlier ones wait for it. Captures free cells, so a position with four or
/// five empty cells already reaches most of the game (14 s and 16 million positions afresh).
const FRESH_3X3_EMPTY: u32 = 3;

/// The budget of one position's evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Alpha-beta nodes (Perekati-pole, mill, Tumbleweed).
    pub nodes: u64,
    /// Monte Carlo playouts (Cephalopod 5×5).
    pub playouts: u64,
}

/// The review's default: 36–112 ms a position (a few in Cephalopod 3×3) on this project's
/// machine (docs/bots.md, "The engine's review").
pub const DEFAULT_BUDGET: Budget = Budget {
    nodes: 150_000,
    playouts: 30_000,
};

/// What an exact search proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exact {
    /// The result with perfect play.
    pub outcome: Outcome,
    /// Plies to the end with perfect play (the winner hurrying, the loser delaying): always for
    /// Cephalopod 3×3 (among moves that keep the best margin), otherwise when the search to the
    /// end gave them; `None` for a draw.
    pub plies: Option<u32>,
    /// Cephalopod 3×3: seat A's final dice margin with perfect play.
    pub margin: Option<i32>,
}

/// One position's evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Seat A's expected score, 0 to 1.
    pub value: f64,
    /// The engine's move, in canonical notation; `None` when the game is over (or in
    /// Tumbleweed's setup, where the pie rule makes every setup even).
    pub best: Option<String>,
    /// `Some` when the value is proved, not estimated.
    pub exact: Option<Exact>,
}

/// How a move is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// The label of a move that lost `drop` of the mover's expected score; `engine_move` when it
/// was the engine's own choice.
pub fn label(drop: f64, engine_move: bool) -> Label {
    if engine_move || drop < GOOD {
        Label::Best
    } else if drop < INACCURACY {
        Label::Good
    } else if drop < MISTAKE {
        Label::Inaccuracy
    } else if drop < BLUNDER {
        Label::Mistake
    } else {
        Label::Blunder
    }
}

/// The mover's loss of a move from a position valued `before` to one valued `after` (both
/// seat A's expected scores), never below 0.
pub fn drop_for(mover: Seat, before: f64, after: f64) -> f64 {
    (for_a(mover, before) - for_a(mover, after)).max(0.0)
}

/// One move of a reviewed game.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub mv: String,
    pub mover: Seat,
    pub drop: f64,
    pub label: Label,
}

/// A game's review: `positions[i]` is the position before move `i` (the last one is the final
/// position), `moves[i]` the judgement of move `i`.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub positions: Vec<Evaluation>,
    pub moves: Vec<Judged>,
}

/// Labels every move of a game from its positions' values: `values[i]` is seat A's expected
/// score before move `i` (one more value than moves), `movers[i]` who made move `i`,
/// `engine[i]` whether it was the engine's move.
pub fn judge(values: &[f64], movers: &[Seat], engine: &[bool]) -> Vec<(f64, Label)> {
    movers
        .iter()
        .zip(engine)
        .enumerate()
        .map(|(i, (&mover, &was_best))| {
            let drop = drop_for(mover, values[i], values[i + 1]);
            (drop, label(drop, was_best))
        })
        .collect()
}

/// Reviews the game of `variant` dealt with `seed` and played as `moves`, calling
/// `progress(done, total)` after each position. An error when a move does not replay.
pub fn review(
    start: AnyGame,
    moves: &[String],
    budget: Budget,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, String> {
    let mut game = start;
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut movers = Vec::with_capacity(moves.len());
    let total = moves.len() + 1;
    for (i, mv) in moves.iter().enumerate() {
        let mover = game
            .to_move()
            .ok_or_else(|| format!("move {} ({mv}) comes after the end", i + 1))?;
        positions.push(evaluate(&game, budget));
        progress(i + 1, total);
        movers.push(mover);
        game.play_text(mv)
            .map_err(|e| format!("move {} ({mv}) does not replay: {e}", i + 1))?;
    }
    positions.push(evaluate(&game, budget));
    progress(total, total);
    Ok(assemble(positions, moves, &movers))
}

/// The review from its positions' evaluations (one more than `moves`) and who made each move.
pub fn assemble(positions: Vec<Evaluation>, moves: &[String], movers: &[Seat]) -> Review {
    let values: Vec<f64> = positions.iter().map(|p| p.value).collect();
    let engine: Vec<bool> = moves
        .iter()
        .zip(&positions)
        .map(|(mv, p)| p.best.as_deref() == Some(mv.as_str()))
        .collect();
    let judged = judge(&values, movers, &engine)
        .into_iter()
        .zip(moves.iter().zip(movers))
        .map(|((drop, label), (mv, &mover))| Judged {
            mv: mv.clone(),
            mover,
            drop,
            label,
        })
        .collect();
    Review {
        positions,
        moves: judged,
    }
}

/// Seat A's expected score when `mover`'s is `p`.
fn for_a(mover: Seat, p: f64) -> f64 {
    if mover == Seat::A { p } else { 1.0 - p }
}

fn outcome_value(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(seat) if seat == Seat::A => 1.0,
        Outcome::Win(_) => 0.0,
        _ => 0.5,
    }
}

/// How many evaluation points make the mover about 73 % sure (one unit of the logistic curve).
pub fn scale(game: &AnyGame) -> f64 {
    match game {
        AnyGame::Cephalopod(_) => 150.0,
        AnyGame::Tumbleweed(_) => 250.0,
        AnyGame::Perekati(_) => 300.0,
        AnyGame::Mill(_) => 800.0,
        AnyGame::WhiteRabbit(_) => 1.0,
    }
}

fn logistic(score: i32, scale: f64) -> f64 {
    if score >= WIN_BOUND {
        return 1.0;
    }
    if score <= -WIN_BOUND {
        return 0.0;
    }
    1.0 / (1.0 + (-(score as f64) / scale).exp())
}

/// Whether [`evaluate`] can answer `game` without waiting: false for a Cephalopod 3×3 position
/// that needs the whole-game solution while it is still being computed (asking starts it).
/// A caller with a shared pool waits for this outside the pool.
pub fn ready(game: &AnyGame) -> bool {
    match game {
        AnyGame::Cephalopod(g) if g.variant() == ::cephalopod::Variant::ThreeByThree => {
            let cells = (g.size() as u32).pow(2);
            let empty = cells - g.dice_count(Seat::A) - g.dice_count(Seat::B);
            if empty <= FRESH_3X3_EMPTY || g.is_over() {
                return true;
            }
            crate::shared_3x3_ply_solver();
            solved_3x3_ready()
        }
        _ => true,
    }
}

/// What [`evaluate`]'s search counts on `game`, as [`Budget`]'s fields name it: `"playouts"`
/// for Cephalopod 5×5's Monte Carlo search, `"nodes"` for the alpha-beta searches (Cephalopod
/// 3×3 is solved, never estimated).
pub fn search_unit(game: &AnyGame) -> &'static str {
    match game {
        AnyGame::Cephalopod(g) if g.variant() == ::cephalopod::Variant::FiveByFive => "playouts",
        _ => "nodes",
    }
}

/// One position's evaluation at `budget`. White Rabbit (one player) is valued 0.5 and has no
/// best move: callers refuse it before asking.
pub fn evaluate(game: &AnyGame, budget: Budget) -> Evaluation {
    if let Some(outcome) = game.outcome() {
        return Evaluation {
            value: outcome_value(outcome),
            best: None,
            exact: Some(Exact {
                outcome,
                plies: Some(0),
                margin: None,
            }),
        };
    }
    let Some(mover) = game.to_move() else {
        return estimate(0.5, None);
    };
    let mut rng = Rng::new(0x5eed_a11a_u64 ^ game.hash_key());
    match game {
        AnyGame::Perekati(g) => {
            let eval = crate::perekati::PerekatiEval::hard(g.variant());
            searched(g, &eval, mover, budget, scale(game), &mut rng)
        }
        AnyGame::Mill(g) => {
            let eval = crate::mill::MillEval::new(g.variant());
            searched(g, &eval, mover, budget, scale(game), &mut rng)
        }
        AnyGame::Tumbleweed(g) => tumbleweed(g, mover, budget, &mut rng),
        AnyGame::Cephalopod(g) => cephalopod(g, mover, budget, &mut rng),
        AnyGame::WhiteRabbit(_) => estimate(0.5, None),
    }
}

fn estimate(value: f64, best: Option<String>) -> Evaluation {
    Evaluation {
        value,
        best,
        exact: None,
    }
}

/// Hard's alpha-beta at the node budget.
fn searched<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    mover: Seat,
    budget: Budget,
    scale: f64,
    rng: &mut Rng,
) -> Evaluation {
    let far = Instant::now() + Duration::from_secs(3600);
    let mut search = AlphaBeta::new(eval, far).with_node_limit(budget.nodes.max(1));
    match search.best_move(game, 64, rng) {
        Some(found) => estimate(
            for_a(mover, logistic(found.score, scale)),
            Some(game.format_move(found.best)),
        ),
        None => estimate(0.5, None),
    }
}

fn tumbleweed(
    g: &::tumbleweed::Tumbleweed,
    mover: Seat,
    budget: Budget,
    rng: &mut Rng,
) -> Evaluation {
    use ::tumbleweed::Phase;
    let eval = crate::tumbleweed::TumbleweedEval;
    match g.phase() {
        // The pie rule: whatever the setup, the chooser takes the better colour.
        Phase::Setup => estimate(0.5, None),
        // The chooser's value is that of the better colour: one ply, then the search.
        Phase::Choose => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let mut best: Option<(f64, String)> = None;
            for mv in moves {
                let mut next = g.clone();
                next.make(mv);
                let value = match next.to_move() {
                    Some(m) => searched(&next, &eval, m, budget, 250.0, rng).value,
                    None => 0.5,
                };
                let mine = for_a(mover, value);
                if best.as_ref().is_none_or(|(v, _)| mine > *v) {
                    best = Some((mine, g.format_move(mv)));
                }
            }
            let (mine, mv) = best.unwrap_or((0.5, String::new()));
            estimate(for_a(mover, mine), Some(mv).filter(|m| !m.is_empty()))
        }
        Phase::Play(_) => {
            let empty = g.cells().filter(|&c| g.stack(c).is_none()).count();
            if empty <= END_EMPTY_TUMBLEWEED
                && let Some(exact) = to_the_end(g, &eval, mover, END_NODES)
            {
                return exact;
            }
            searched(g, &eval, mover, budget, 250.0, rng)
        }
    }
}

fn cephalopod(
    g: &::cephalopod::Cephalopod,
    mover: Seat,
    budget: Budget,
    rng: &mut Rng,
) -> Evaluation {
    let cells = (g.size() as u32).pow(2);
    let empty = cells - g.dice_count(Seat::A) - g.dice_count(Seat::B);
    let eval = crate::cephalopod::CephalopodEval;
    if g.variant() == ::cephalopod::Variant::ThreeByThree {
        return solved_3x3(g, mover, empty);
    }
    if empty <= END_EMPTY_CEPHALOPOD
        && let Some(exact) = to_the_end(g, &eval, mover, END_NODES)
    {
        return exact;
    }
    let far = Instant::now() + Duration::from_secs(3600);
    let params = &crate::cephalopod_mcts::HARD;
    match crate::cephalopod_mcts::search_within(g, params, far, budget.playouts.max(1), rng) {
        Some((mv, p)) => estimate(for_a(mover, p as f64), Some(g.format_move(mv))),
        None => estimate(0.5, None),
    }
}

/// Whether the process's whole-game 3×3 solution by margin and plies is made.
fn solved_3x3_ready() -> bool {
    crate::SOLVED_3X3_PLIES.load(std::sync::atomic::Ordering::Acquire)
}

/// Cephalopod 3×3 from its solver by margin and plies: the best margin and, unless it is a
/// draw, the plies to the end (the side ahead hurrying, the side behind delaying, among moves
/// that keep the margin); the best move is the first of the legal order among equals.
fn solved_3x3(g: &::cephalopod::Cephalopod, mover: Seat, empty: u32) -> Evaluation {
    let rated = if empty <= FRESH_3X3_EMPTY && !solved_3x3_ready() {
        crate::cephalopod::PlySolver::new().rate_moves(g)
    } else {
        let shared = crate::shared_3x3_ply_solver();
        while !solved_3x3_ready() {
            std::thread::sleep(Duration::from_millis(50));
        }
        shared
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .rate_moves(g)
    };
    let Some(&(best, value)) = rated
        .iter()
        .max_by_key(|&&(m, v)| (v, std::cmp::Reverse(m.cell())))
    else {
        return estimate(0.5, None);
    };
    let (margin, plies) = crate::cephalopod::MarginPlies::decode(value);
    let winner = if margin > 0 { mover } else { mover.other() };
    let outcome = if margin == 0 {
        Outcome::Draw
    } else {
        Outcome::Win(winner)
    };
    let margin_a = if mover == Seat::A {
        margin as i32
    } else {
        -(margin as i32)
    };
    Evaluation {
        value: outcome_value(outcome),
        best: Some(g.format_move(best)),
        exact: Some(Exact {
            outcome,
            plies,
            margin: Some(margin_a),
        }),
    }
}

/// The position searched to the end within `max_nodes`: exact, or `None` when the budget ran
/// out first.
pub fn to_the_end<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    mover: Seat,
    max_nodes: u64,
) -> Option<Evaluation> {
    let (score, best) = solve(game, eval, max_nodes)?;
    let plies = (WIN - score.abs()) as u32;
    let (outcome, plies) = match score.signum() {
        0 => (Outcome::Draw, None),
        1 => (Outcome::Win(mover), Some(plies)),
        _ => (Outcome::Win(mover.other()), Some(plies)),
    };
    Some(Evaluation {
        value: outcome_value(outcome),
        best: best.map(|m| game.format_move(m)),
        exact: Some(Exact {
            outcome,
            plies,
            margin: None,
        }),
    })
}

/// The exact score of `game` for its mover (`WIN - plies` for a win, its negation for a loss,
/// 0 for a draw) and a best move, by alpha-beta over results alone; `None` past `max_nodes`.
pub fn solve<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    max_nodes: u64,
) -> Option<(i32, Option<G::Move>)> {
    let mover = game.to_move()?;
    let mut end = EndSearch {
        eval,
        nodes: 0,
        max_nodes,
    };
    let mut g = game.clone();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    eval.order_moves(&g, &mut moves);
    let (mut alpha, beta) = (-WIN - 1, WIN + 1);
    let mut best = None;
    for mv in moves {
        let undo = g.make(mv);
        let score = end.child(&mut g, mover, alpha, beta, 1)?;
        g.unmake(mv, undo);
        if score > alpha || best.is_none() {
            alpha = alpha.max(score);
            best = Some(mv);
        }
    }
    Some((alpha, best))
}

struct EndSearch<'e, E> {
    eval: &'e E,
    nodes: u64,
    max_nodes: u64,
}

impl<E> EndSearch<'_, E> {
    fn child<G: Game>(
        &mut self,
        game: &mut G,
        mover: Seat,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32>
    where
        E: Evaluator<G>,
    {
        if let Some(outcome) = game.outcome() {
            return Some(terminal_score(outcome, mover, ply));
        }
        match game.to_move() {
            Some(next) if next == mover => self.negamax(game, alpha, beta, ply),
            _ => self.negamax(game, -beta, -alpha, ply).map(|s| -s),
        }
    }

    fn negamax<G: Game>(
        &mut self,
        game: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32>
    where
        E: Evaluator<G>,
    {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        let mover = game.to_move()?;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        self.eval.order_moves(game, &mut moves);
        let mut best = -WIN - 1;
        for mv in moves {
            let undo = game.make(mv);
            let score = self.child(game, mover, alpha, beta, ply + 1);
            game.unmake(mv, undo);
            let score = score?;
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}
