//! Alpha-beta (negamax) with iterative deepening and a transposition table, written against
//! the `Game` trait.
//!
//! Sides do not always alternate (tumbleweed's colour choice can give the chooser the next
//! move too), so a child's score is negated only when the side to move changes.

use std::time::Instant;

use game::{Game, Seat};

use crate::eval::{Evaluator, WIN, WIN_BOUND, terminal_score};
use crate::rng::Rng;

const INF: i32 = WIN + 1;
const TT_BITS: u32 = 18;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    depth: i32,
    bound: Bound,
    score: i32,
    best: Option<M>,
}

/// One search: its table, its clock and its scratch buffers.
pub struct AlphaBeta<'e, G: Game, E: ?Sized> {
    eval: &'e E,
    table: Vec<Option<Entry<G::Move>>>,
    deadline: Instant,
    /// The search stops once it has visited this many nodes (a reproducible budget).
    max_nodes: u64,
    stopped: bool,
    pub nodes: u64,
    /// One move buffer per ply, so that the search does not allocate once warmed up.
    buffers: Vec<Vec<G::Move>>,
}

/// What a root search found.
#[derive(Debug, Clone, Copy)]
pub struct Found<M> {
    pub best: M,
    pub score: i32,
    /// The deepest iteration that finished (0 when none did).
    pub depth: i32,
}

impl<'e, G: Game, E: Evaluator<G> + ?Sized> AlphaBeta<'e, G, E> {
    pub fn new(eval: &'e E, deadline: Instant) -> Self {
        AlphaBeta {
            eval,
            table: vec![None; 1 << TT_BITS],
            deadline,
            max_nodes: u64::MAX,
            stopped: false,
            nodes: 0,
            buffers: Vec::new(),
        }
    }

    /// Also stops the search after `max_nodes` nodes, so that the same position and seed
    /// give the same move however loaded the machine is.
    pub fn with_node_limit(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Iterative deepening from `root` up to `max_depth` or the deadline. The root's moves are
    /// shuffled first so that equal moves are chosen at random. `None` when the game is over.
    pub fn best_move(&mut self, root: &G, max_depth: i32, rng: &mut Rng) -> Option<Found<G::Move>> {
        let mover = root.to_move()?;
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        rng.shuffle(&mut moves);
        self.eval.order_moves(root, &mut moves);
        let mut found = Found {
            best: *moves.first()?,
            score: 0,
            depth: 0,
        };
        if moves.len() == 1 {
            return Some(found);
        }
        let start = Instant::now();
        let mut game = root.clone();
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let mut iteration_best = None;
            for &mv in &moves {
                let undo = game.make(mv);
                let score = self.child_value(&mut game, mover, depth - 1, alpha, INF, 1);
                game.unmake(mv, undo);
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(mv);
                }
            }
            // The previous best is searched first, so a partial iteration's best is at least
            // as good at this depth as what we had.
            if let Some(best) = iteration_best {
                found = Found {
                    best,
                    score: alpha,
                    depth: if self.stopped { found.depth } else { depth },
                };
                let at = moves.iter().position(|&m| m == best).unwrap_or(0);
                moves[..=at].rotate_right(1);
            }
            if self.stopped || alpha.abs() >= WIN_BOUND {
                break;
            }
            // An iteration costs several times the previous one: do not start one that
            // cannot finish.
            let spent = start.elapsed();
            if depth > 1
                && (Instant::now() + spent * 2 >= self.deadline
                    || self.nodes.saturating_mul(3) >= self.max_nodes)
            {
                break;
            }
        }
        Some(found)
    }

    /// Every root move with its score at a fixed depth (full window, so each score is exact).
    /// Moves searched after the deadline are left out.
    pub fn score_moves(&mut self, root: &G, depth: i32) -> Vec<(G::Move, i32)> {
        let Some(mover) = root.to_move() else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut game = root.clone();
        let mut scored = Vec::with_capacity(moves.len());
        for mv in moves {
            let undo = game.make(mv);
            let score = self.child_value(&mut game, mover, depth - 1, -INF, INF, 1);
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            scored.push((mv, score));
        }
        scored
    }

    /// The value of the position just reached, for `mover`, who played into it.
    fn child_value(
        &mut self,
        game: &mut G,
        mover: Seat,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(outcome) = game.outcome() {
            return terminal_score(outcome, mover, ply);
        }
        match game.to_move() {
            Some(next) if next == mover => self.negamax(game, depth, alpha, beta, ply),
            _ => -self.negamax(game, depth, -beta, -alpha, ply),
        }
    }

    fn negamax(&mut self, game: &mut G, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || (self.nodes & 1023 == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth <= 0 {
            return self.eval.evaluate(game);
        }
        let Some(mover) = game.to_move() else {
            return 0;
        };
        let key = game.hash_key();
        let slot = (key >> (64 - TT_BITS)) as usize;
        let mut hint = None;
        if let Some(e) = self.table[slot]
            && e.key == key
        {
            hint = e.best;
            if e.depth >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if usable {
                    return e.score;
                }
            }
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        game.legal_moves(&mut moves);
        self.eval.order_moves(game, &mut moves);
        if let Some(hint) = hint
            && let Some(at) = moves.iter().position(|&m| m == hint)
        {
            moves[..=at].rotate_right(1);
        }
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for &mv in &moves {
            let undo = game.make(mv);
            let score = self.child_value(game, mover, depth - 1, alpha, beta, ply + 1);
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if !self.stopped && best_move.is_some() {
            let bound = if best <= alpha_in {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table[slot] = Some(Entry {
                key,
                depth,
                bound,
                score: best,
                best: best_move,
            });
        }
        best
    }
}
