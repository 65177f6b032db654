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

/// Exact solver: the final dice margin (mover's dice minus the opponent's, once the board is
/// full) with perfect play, when each side maximises its own margin.
///
/// Alpha-beta over margins with a table of bounds keyed by the position up to the board's
/// eight symmetries. It terminates: a placement without capture adds one pip to the board's
/// total, a capture keeps the total and removes dice, and the total is bounded, so no
/// position recurs.
pub struct Solver {
    table: HashMap<u64, (i8, i8)>,
    pub nodes: u64,
    /// When set, the search gives up at this instant (and stores nothing it has not proved).
    deadline: Option<std::time::Instant>,
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// Beyond any margin on a 3×3 or 5×5 board.
const OPEN: i8 = 100;

impl Solver {
    pub fn new() -> Solver {
        Solver {
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            aborted: false,
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

    /// The margin for the side to move in `game` (which must not be over).
    pub fn margin(&mut self, game: &mut Cephalopod) -> i8 {
        self.search(game, -OPEN, OPEN)
    }

    /// Fail-soft alpha-beta: the exact margin when it lies inside `(alpha, beta)`, otherwise a
    /// bound on the right side of the window.
    fn search(&mut self, game: &mut Cephalopod, mut alpha: i8, mut beta: i8) -> i8 {
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
        let (mut low, mut high) = self.table.get(&key).copied().unwrap_or((-OPEN, OPEN));
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
        let mut best = -OPEN;
        for mv in moves {
            let undo = game.make(mv);
            let value = if game.is_over() {
                Self::final_margin(game, me)
            } else {
                -self.search(game, -beta, -alpha)
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

    fn final_margin(game: &Cephalopod, me: Seat) -> i8 {
        game.dice_count(me) as i8 - game.dice_count(me.other()) as i8
    }

    /// Every legal move with its exact margin for the mover.
    pub fn rate_moves(&mut self, game: &Cephalopod) -> Vec<(Move, i8)> {
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
                    Self::final_margin(&scratch, me)
                } else {
                    -self.margin(&mut scratch)
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
