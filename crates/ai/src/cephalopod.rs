//! Cephalopod's knowledge (dice count, capture threats, parity of the empty cells) and the
//! exact solver of the 3×3 board.

use std::collections::HashMap;

use cephalopod::{Cephalopod, Move};
use game::{Game, Seat};

use crate::eval::Evaluator;
use crate::rng::Rng;

pub struct CephalopodEval;

/// What `mv` changes in the mover's dice lead: one die placed, plus the opponent's captured
/// dice, minus the mover's own.
fn capture_gain(game: &Cephalopod, me: Seat, mv: Move) -> i32 {
    let mut gain = 1;
    for cell in game.captured_cells(mv) {
        match game.die(cell) {
            Some((owner, _)) if owner == me => gain -= 1,
            Some(_) => gain += 1,
            None => {}
        }
    }
    gain
}

impl Evaluator<Cephalopod> for CephalopodEval {
    fn evaluate(&self, game: &Cephalopod) -> i32 {
        let Some(me) = game.to_move() else {
            return 0;
        };
        let lead = game.dice_count(me) as i32 - game.dice_count(me.other()) as i32;
        let cells = (game.size() as i32).pow(2);
        let empty = cells - game.dice_count(me) as i32 - game.dice_count(me.other()) as i32;
        // The mover's best immediate swing: a capture threat it is about to carry out.
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best_gain = moves
            .iter()
            .map(|&mv| capture_gain(game, me, mv))
            .max()
            .unwrap_or(1);
        // Without captures, whoever fills the last cell gains a die: with an odd number of
        // empty cells that is the mover.
        let parity = empty % 2;
        100 * lead + 60 * (best_gain - 1) + 40 * parity
    }

    fn order_moves(&self, _game: &Cephalopod, moves: &mut [Move]) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.capture_mask().count_ones()));
    }

    /// Mostly the move that gains the most dice (a player rarely passes up a good capture),
    /// sometimes a random one.
    fn playout_move(&self, game: &Cephalopod, moves: &[Move], roll: f64) -> Option<Move> {
        if roll >= 0.75 {
            return None;
        }
        let me = game.to_move()?;
        // Start the scan at a roll-dependent offset so that ties do not always go the same way.
        let offset = (roll * 1e6) as usize % moves.len().max(1);
        let mut best = None;
        let mut best_gain = i32::MIN;
        for i in 0..moves.len() {
            let mv = moves[(i + offset) % moves.len()];
            let gain = if mv.is_capture() {
                capture_gain(game, me, mv)
            } else {
                1
            };
            if gain > best_gain {
                best_gain = gain;
                best = Some(mv);
            }
        }
        best
    }
}

/// Exact solver of Cephalopod by what `S` scores: [`Solver`] the final dice margin (mover's
/// dice minus the opponent's, once the board is full) with perfect play, when each side
/// maximises its own margin; [`PlySolver`] that margin and then the plies to the end.
///
/// Alpha-beta over values with a table of bounds keyed by the position up to the board's
/// eight symmetries. It terminates: a placement without capture adds one pip to the board's
/// total, a capture keeps the total and removes dice, and the total is bounded, so no
/// position recurs.
pub struct SolverOf<S> {
    table: HashMap<u64, (i16, i16)>,
    pub nodes: u64,
    /// When set, the search gives up at this instant (and stores nothing it has not proved).
    deadline: Option<std::time::Instant>,
    aborted: bool,
    scoring: std::marker::PhantomData<S>,
}

/// The bots' solver: the final dice margin.
pub type Solver = SolverOf<Margin>;
/// The analysis's solver of 3×3: the margin, then the plies to the end.
pub type PlySolver = SolverOf<MarginPlies>;

/// What an exact solver of Cephalopod maximises for the side to move, and how a child's value
/// becomes its parent's.
pub trait Scoring {
    /// Beyond any value.
    const OPEN: i16;
    /// The value, for the side that just moved, of a move that ended the game with
    /// `margin` (its dice less the opponent's).
    fn last_move(margin: i16) -> i16;
    /// The value for the mover of a move after which the opponent, to move, has `child`.
    fn parent(child: i16) -> i16;
    /// The window to search a child in when the parent's is `(alpha, beta)`: wide enough
    /// that a bound on the child is a bound on the parent on the same side.
    fn child_window(alpha: i16, beta: i16) -> (i16, i16);
}

/// The final dice margin alone: what the bots play by.
pub struct Margin;

impl Scoring for Margin {
    /// Beyond any margin on a 3×3 or 5×5 board.
    const OPEN: i16 = 100;
    fn last_move(margin: i16) -> i16 {
        margin
    }
    fn parent(child: i16) -> i16 {
        -child
    }
    fn child_window(alpha: i16, beta: i16) -> (i16, i16) {
        (-beta, -alpha)
    }
}

/// The final dice margin first, then the plies to the end: among moves that keep the best
/// margin, the side ahead hurries and the side behind delays; a draw (margin 0) is a draw
/// however long. The value is `margin × 256 − plies` when ahead, `margin × 256 + plies`
/// when behind, 0 for a draw ([`MarginPlies::decode`]). Only for 3×3, whose games end within
/// 127 plies of any position (a placement without capture adds a pip to the board's total of
/// at most 54, a capture removes at least one die of at most nine while every other move adds
/// one), and whose margins stay within 9.
pub struct MarginPlies;

/// Plies within one die of margin in [`MarginPlies`]'s values.
const PLY_SCALE: i16 = 256;

impl MarginPlies {
    /// The margin and, unless it is a draw, the plies to the end of a [`MarginPlies`] value.
    pub fn decode(value: i16) -> (i16, Option<u32>) {
        match value.signum() {
            0 => (0, None),
            1 => {
                let margin = (value + PLY_SCALE - 1) / PLY_SCALE;
                (margin, Some((margin * PLY_SCALE - value) as u32))
            }
            _ => {
                let margin = -((-value + PLY_SCALE - 1) / PLY_SCALE);
                (margin, Some((value - margin * PLY_SCALE) as u32))
            }
        }
    }

    fn encode(margin: i16, plies: i16) -> i16 {
        match margin.signum() {
            0 => 0,
            1 => margin * PLY_SCALE - plies,
            _ => margin * PLY_SCALE + plies,
        }
    }
}

impl Scoring for MarginPlies {
    const OPEN: i16 = 10 * PLY_SCALE;
    fn last_move(margin: i16) -> i16 {
        MarginPlies::encode(margin, 1)
    }
    /// One ply more than the child's, on the other side: `-(child - sign(child))`, which never
    /// decreases as the child's value falls, so bounds stay bounds.
    fn parent(child: i16) -> i16 {
        -(child - child.signum())
    }
    fn child_window(alpha: i16, beta: i16) -> (i16, i16) {
        // parent() moves a value by at most one beside plain negation.
        (-beta.saturating_add(1), -alpha.saturating_sub(1))
    }
}

impl<S: Scoring> Default for SolverOf<S> {
    fn default() -> Self {
        SolverOf::new()
    }
}

impl<S: Scoring> SolverOf<S> {
    pub fn new() -> SolverOf<S> {
        SolverOf {
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            aborted: false,
            scoring: std::marker::PhantomData,
        }
    }

    /// Positions in the table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The position's key, the same for all eight symmetric images: each cell is 0 (empty)
    /// or 1–12 (side × pips), read in base 13, smallest over the symmetries.
    fn key(game: &Cephalopod) -> u64 {
        let n = game.size() as usize;
        let mut cells = [0u64; 25];
        for (i, c) in cells.iter_mut().enumerate().take(n * n) {
            *c = match game.die(i) {
                None => 0,
                Some((seat, pips)) => (seat.index() * 6 + pips as usize) as u64,
            };
        }
        let mut best = u64::MAX;
        for sym in 0..8 {
            let mut k = 0u64;
            for r in 0..n {
                for c in 0..n {
                    let (mut x, mut y) = (c, r);
                    if sym & 1 != 0 {
                        x = n - 1 - x;
                    }
                    if sym & 2 != 0 {
                        y = n - 1 - y;
                    }
                    if sym & 4 != 0 {
                        std::mem::swap(&mut x, &mut y);
                    }
                    k = k.wrapping_mul(13).wrapping_add(cells[y * n + x]);
                }
            }
            best = best.min(k);
        }
        best.wrapping_mul(2) + game.to_move().map_or(0, |s| s.index() as u64)
    }

    /// The value for the side to move in `game` (which must not be over): [`Solver`]'s is the
    /// margin, [`PlySolver`]'s is read by [`MarginPlies::decode`].
    pub fn margin(&mut self, game: &mut Cephalopod) -> i16 {
        self.search(game, -S::OPEN, S::OPEN)
    }

    /// Fail-soft alpha-beta: the exact margin when it lies inside `(alpha, beta)`, otherwise a
    /// bound on the right side of the window.
    fn search(&mut self, game: &mut Cephalopod, mut alpha: i16, mut beta: i16) -> i16 {
        self.nodes += 1;
        if self.nodes & 4095 == 0
            && let Some(deadline) = self.deadline
            && std::time::Instant::now() >= deadline
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let key = Self::key(game);
        let (mut low, mut high) = self.table.get(&key).copied().unwrap_or((-S::OPEN, S::OPEN));
        if low == high || low >= beta {
            return low;
        }
        if high <= alpha {
            return high;
        }
        alpha = alpha.max(low);
        beta = beta.min(high);
        let (alpha_in, beta_in) = (alpha, beta);
        let me = game
            .to_move()
            .expect("the solver is only asked about live positions");
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        CephalopodEval.order_moves(game, &mut moves);
        let mut best = -S::OPEN;
        for mv in moves {
            let undo = game.make(mv);
            let value = if game.is_over() {
                S::last_move(Self::final_margin(game, me))
            } else {
                let (low, high) = S::child_window(alpha, beta);
                S::parent(self.search(game, low, high))
            };
            game.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if best <= alpha_in {
            high = high.min(best);
        } else if best >= beta_in {
            low = low.max(best);
        } else {
            (low, high) = (best, best);
        }
        self.table.insert(key, (low, high));
        best
    }

    fn final_margin(game: &Cephalopod, me: Seat) -> i16 {
        game.dice_count(me) as i16 - game.dice_count(me.other()) as i16
    }

    /// Every legal move with its exact value for the mover.
    pub fn rate_moves(&mut self, game: &Cephalopod) -> Vec<(Move, i16)> {
        let Some(me) = game.to_move() else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut scratch = game.clone();
        moves
            .into_iter()
            .map(|mv| {
                let undo = scratch.make(mv);
                let value = if scratch.is_over() {
                    S::last_move(Self::final_margin(&scratch, me))
                } else {
                    S::parent(self.margin(&mut scratch))
                };
                scratch.unmake(mv, undo);
                (mv, value)
            })
            .collect()
    }

    /// A perfect move found before `deadline`, or `None` when the solution did not finish in
    /// time (what was proved stays in the table for the next call).
    pub fn perfect_move_within(
        &mut self,
        game: &Cephalopod,
        rng: &mut Rng,
        deadline: std::time::Instant,
    ) -> Option<Move> {
        self.deadline = Some(deadline);
        self.aborted = false;
        let mv = self.perfect_move(game, rng);
        let finished = !self.aborted;
        self.deadline = None;
        self.aborted = false;
        mv.filter(|_| finished)
    }

    /// A move of best margin, chosen at random among equals.
    pub fn perfect_move(&mut self, game: &Cephalopod, rng: &mut Rng) -> Option<Move> {
        let rated = self.rate_moves(game);
        let best = rated.iter().map(|&(_, v)| v).max()?;
        let top: Vec<Move> = rated
            .into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(m, _)| m)
            .collect();
        Some(top[rng.below(top.len())])
    }
}
