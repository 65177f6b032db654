//! Exact endings of Perekati-pole: when each side has one cube left away from home, or one
//! side two and the other one, the position is searched to its end on the engine itself (so
//! the rocking rule and repetitions count exactly as in a game), and the result is a proved
//! value and distance, or nothing.
//!
//! The proof: the search runs twice to the same depth, once scoring every position it had to
//! leave unfinished as the slowest possible win of the side to move at the root, once as its
//! slowest possible loss. A finished game within the depth scores `WIN - plies`, so an
//! unfinished line's true score lies between those two; minimax is monotone in its leaves,
//! and when both runs agree their common value is the exact one. The depth grows until they
//! agree or the node budget is spent.

use std::time::{Duration, Instant};

use game::{Game, Outcome, Seat};
use perekati::{Move, Perekati};

use crate::eval::{Evaluator, WIN, terminal_score};
use crate::perekati::PerekatiEval;

/// At most this many cubes of each side away from home for the position to be in the family.
pub const AWAY_PER_SIDE: u32 = 2;
/// At most this many cubes of both sides together away from home: two against one. Two a
/// side are proved within [`SOLVE_NODES`] in only a few positions in a hundred
/// (docs/bots.md), and a failed proof costs its whole budget.
pub const AWAY_IN_ALL: u32 = 3;
/// Nodes one [`solve`] may visit in all (both runs, every depth): some 30–40 ms on the
/// development machine when the proof does not come (docs/bots.md).
pub const SOLVE_NODES: u64 = 400_000;
/// The deepest proof tried, in plies.
const MAX_DEPTH: i32 = 40;

/// A proved result for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exact {
    /// `Win(seat)` or `Draw`, as the game will end with best play.
    pub outcome: Outcome,
    /// Plies to that end with best play (the winner hurrying, the loser holding out).
    pub plies: u32,
    /// A best move of the side to move.
    pub best: Move,
    /// The side to move.
    mover: Seat,
}

impl Exact {
    /// The value on the search's scale for the side to move (see [`crate::eval::WIN`]).
    pub fn score(&self) -> i32 {
        match self.outcome {
            Outcome::Win(winner) if winner == self.mover => WIN - self.plies as i32,
            Outcome::Win(_) => -(WIN - self.plies as i32),
            _ => 0,
        }
    }
}

/// Whether `game` is in the solved family: not over, each side with at most
/// [`AWAY_PER_SIDE`] cubes away from home and both with at most [`AWAY_IN_ALL`].
pub fn in_family(game: &Perekati) -> bool {
    let (a, b) = (away(game, Seat::A), away(game, Seat::B));
    game.to_move().is_some() && a.max(b) <= AWAY_PER_SIDE && a + b <= AWAY_IN_ALL
}

fn away(game: &Perekati, seat: Seat) -> u32 {
    game.variant().cubes() - game.home_count(seat)
}

/// The exact result of `game` for the side to move, within [`SOLVE_NODES`]; `None` when the
/// position is not in the family or the proof needs more. For an analysis board as well as
/// the bots: a `Some` is a fact about the position, not an estimate.
pub fn solve(game: &Perekati) -> Option<Exact> {
    solve_within(game, SOLVE_NODES)
}

/// [`solve`] with another node budget.
pub fn solve_within(game: &Perekati, max_nodes: u64) -> Option<Exact> {
    solve_by(game, max_nodes, Instant::now() + Duration::from_secs(60))
}

/// [`solve`] that also gives up at `deadline` (a bot's move keeps to its budget).
pub fn solve_by(game: &Perekati, max_nodes: u64, deadline: Instant) -> Option<Exact> {
    if !in_family(game) {
        return None;
    }
    prove(game, max_nodes, deadline)
}

/// The same proof for any position, in the family or not (to measure how far it reaches):
/// a `Some` is exact, but outside the family it rarely comes within a small budget.
pub fn prove_within(game: &Perekati, max_nodes: u64) -> Option<Exact> {
    prove(game, max_nodes, Instant::now() + Duration::from_secs(60))
}

fn prove(game: &Perekati, max_nodes: u64, deadline: Instant) -> Option<Exact> {
    let mover = game.to_move()?;
    let eval = PerekatiEval::hard(game.variant());
    let mut prover = Prover {
        eval: &eval,
        nodes: 0,
        max_nodes,
        deadline,
        root: mover,
        horizon_value: 0,
        buffers: Vec::new(),
    };
    let mut work = game.clone();
    for depth in (2..=MAX_DEPTH).step_by(2) {
        let slowest = WIN - depth - 1;
        let high = prover.root_value(&mut work, depth, slowest)?;
        let low = prover.root_value(&mut work, depth, -slowest)?;
        if high.0 == low.0 {
            let (score, best) = low;
            return Some(Exact::from_score(score, mover, best));
        }
    }
    None
}

impl Exact {
    fn from_score(score: i32, mover: Seat, best: Move) -> Exact {
        let (outcome, plies) = if score > 0 {
            (Outcome::Win(mover), (WIN - score) as u32)
        } else if score < 0 {
            (Outcome::Win(mover.other()), (WIN + score) as u32)
        } else {
            (Outcome::Draw, 0)
        };
        Exact {
            outcome,
            plies,
            best,
            mover,
        }
    }
}

struct Prover<'e> {
    eval: &'e PerekatiEval,
    nodes: u64,
    max_nodes: u64,
    deadline: Instant,
    /// The side to move at the root: unfinished lines are scored from its side.
    root: Seat,
    /// What an unfinished line is worth to `root` in this run.
    horizon_value: i32,
    buffers: Vec<Vec<Move>>,
}

impl Prover<'_> {
    /// The root's value and best move at `depth`, unfinished lines worth `horizon_value` to
    /// the root; `None` when the node budget ran out.
    fn root_value(
        &mut self,
        game: &mut Perekati,
        depth: i32,
        horizon_value: i32,
    ) -> Option<(i32, Move)> {
        self.horizon_value = horizon_value;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        self.eval.order_moves(game, &mut moves);
        let mut best: Option<(i32, Move)> = None;
        let mut alpha = -WIN - 1;
        for mv in moves {
            let undo = game.make(mv);
            let score = -self.negamax(game, depth - 1, -(WIN + 1), -alpha, 1);
            game.unmake(mv, undo);
            if self.nodes > self.max_nodes {
                return None;
            }
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, mv));
                alpha = alpha.max(score);
            }
        }
        best
    }

    /// Negamax for the side to move in `game` (sides always alternate in this game).
    fn negamax(
        &mut self,
        game: &mut Perekati,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && Instant::now() >= self.deadline {
            // Out of time: the same as out of nodes.
            self.nodes = self.max_nodes + 1;
        }
        if self.nodes > self.max_nodes {
            return 0;
        }
        let Some(me) = game.to_move() else {
            // The side that just moved is the other one; score for the side "to move" here,
            // which alternates: the previous mover's opponent.
            let outcome = game.outcome().unwrap_or(Outcome::Draw);
            let here = side_to_move_after(game);
            return terminal_score(outcome, here, ply);
        };
        if depth <= 0 {
            return if me == self.root {
                self.horizon_value
            } else {
                -self.horizon_value
            };
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        game.legal_moves(&mut moves);
        self.eval.order_moves(game, &mut moves);
        let mut best = -WIN - 1;
        for &mv in &moves {
            let undo = game.make(mv);
            let score = -self.negamax(game, depth - 1, -beta, -alpha, ply + 1);
            game.unmake(mv, undo);
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        best
    }
}

/// The side whose turn it would be in a finished game: the one that did not make the last
/// move (the position's notation keeps it).
fn side_to_move_after(game: &Perekati) -> Seat {
    if game.turn_label() == "a" {
        Seat::A
    } else {
        Seat::B
    }
}
