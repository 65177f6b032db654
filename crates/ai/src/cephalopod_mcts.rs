//! Cephalopod 5×5 Hard: UCT with RAVE on a compact board of its own, with short playouts
//! scored by a fitted evaluation.
//!
//! Plain UCT and Hard share the engine, so Hard's edge comes from its search:
//! - its playouts run on a copy of two bitboards and a pips array, pick a random empty cell and
//!   then one of that cell's moves (one table look-up a ply instead of generating every move),
//!   and never take moves back;
//! - a random game of Cephalopod lasts about 140 plies and captures make its end a lottery, so
//!   a playout stops after a few plies and the position is scored by a logistic model of what
//!   the rest of a random game would give (docs/bots.md measures these choices).

use cephalopod::{Cephalopod, Move};
use game::{Game, Seat};

use crate::rng::Rng;

const SIZE: usize = 5;
const CELLS: usize = SIZE * SIZE;
/// The off-board sentinel cell: its pips are always 0.
const OFF: u8 = CELLS as u8;
const FULL: u32 = (1 << CELLS) - 1;

/// Neighbours in the engine's direction order (left, below, above, right), so that capture
/// masks mean the same as `Move::capture_mask`.
static NBR: [[u8; 4]; CELLS] = neighbours();

const fn neighbours() -> [[u8; 4]; CELLS] {
    let mut nbr = [[OFF; 4]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (row, col) = (i / SIZE, i % SIZE);
        if col > 0 {
            nbr[i][0] = (i - 1) as u8;
        }
        if row > 0 {
            nbr[i][1] = (i - SIZE) as u8;
        }
        if row + 1 < SIZE {
            nbr[i][2] = (i + SIZE) as u8;
        }
        if col + 1 < SIZE {
            nbr[i][3] = (i + 1) as u8;
        }
        i += 1;
    }
    nbr
}

/// For the four neighbours' pips (3 bits each, direction order), the set of legal capture
/// masks: bit `m` when mask `m` captures, bit 0 alone when nothing can be captured.
static OPTIONS: [u16; 4096] = options_table();

const fn options_table() -> [u16; 4096] {
    let mut table = [0u16; 4096];
    let mut key = 0;
    while key < 4096 {
        let mut set = 0u16;
        let mut mask = 3;
        while mask < 16 {
            let (mut count, mut sum, mut present) = (0, 0, true);
            let mut d = 0;
            while d < 4 {
                if mask & (1 << d) != 0 {
                    let p = (key >> (3 * d)) & 7;
                    count += 1;
                    sum += p;
                    present &= p != 0;
                }
                d += 1;
            }
            if present && count >= 2 && sum <= 6 {
                set |= 1 << mask;
            }
            mask += 1;
        }
        table[key] = if set == 0 { 1 } else { set };
        key += 1;
    }
    table
}

/// The evaluation's weights: a logistic regression of the mover's winning chance in random
/// play on the dice lead counted by pips (a six can never be captured, so it weighs most)
/// and the best capture on offer. Fitted on 11,692 positions reached by random play, each
/// labelled with the mean of 64 random playouts (docs/bots.md).
const BIAS: f32 = -0.113;
const PIPS_WEIGHT: [f32; 6] = [0.138, 0.101, 0.088, 0.087, 0.163, 0.547];
const GAIN_WEIGHT: f32 = 0.084;

/// A 5×5 position: who owns which cell, the pips, and the side to move.
#[derive(Clone, Copy)]
struct Board {
    pips: [u8; CELLS + 1],
    dice: [u32; 2],
    turn: usize,
}

impl Board {
    fn from_game(game: &Cephalopod) -> Board {
        let mut board = Board {
            pips: [0; CELLS + 1],
            dice: [0; 2],
            turn: game.to_move().unwrap_or(Seat::A).index(),
        };
        for cell in 0..CELLS {
            if let Some((seat, pips)) = game.die(cell) {
                board.pips[cell] = pips;
                board.dice[seat.index()] |= 1 << cell;
            }
        }
        board
    }

    #[inline(always)]
    fn empty(&self) -> u32 {
        FULL & !(self.dice[0] | self.dice[1])
    }

    /// The legal capture masks on empty `cell` (see [`OPTIONS`]).
    #[inline(always)]
    fn options(&self, cell: usize) -> u16 {
        let n = &NBR[cell];
        let key = self.pips[n[0] as usize] as usize
            | (self.pips[n[1] as usize] as usize) << 3
            | (self.pips[n[2] as usize] as usize) << 6
            | (self.pips[n[3] as usize] as usize) << 9;
        OPTIONS[key]
    }

    /// Every legal move as `(cell, capture mask)`, cells in order, masks ascending (the
    /// engine's order).
    fn moves(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        bits(self.empty()).flat_map(move |cell| {
            bits(self.options(cell as usize) as u32).map(move |mask| (cell as usize, mask as u8))
        })
    }

    /// Places the mover's die on `cell`, capturing the neighbours in `mask`.
    #[inline(always)]
    fn play(&mut self, cell: usize, mask: u8) {
        let n = &NBR[cell];
        let mut sum = 0;
        let mut m = mask;
        while m != 0 {
            let c = n[m.trailing_zeros() as usize] as usize;
            m &= m - 1;
            sum += self.pips[c];
            self.pips[c] = 0;
            self.dice[0] &= !(1 << c);
            self.dice[1] &= !(1 << c);
        }
        self.pips[cell] = sum.max(1);
        self.dice[self.turn] |= 1 << cell;
        self.turn ^= 1;
    }

    /// Side a's winning chance: 0 or 1 on a full board, otherwise the fitted logistic model.
    fn value_for_a(&self) -> f32 {
        let empty = self.empty();
        if empty == 0 {
            return f32::from(self.dice[0].count_ones() > self.dice[1].count_ones());
        }
        let me = self.turn;
        let mut z = BIAS;
        for cell in 0..CELLS {
            let pips = self.pips[cell] as usize;
            if pips > 0 {
                let sign = if self.dice[me] >> cell & 1 != 0 {
                    1.0
                } else {
                    -1.0
                };
                z += sign * PIPS_WEIGHT[pips - 1];
            }
        }
        // The mover's best capture: dice it would gain (its placed die, plus the opponent's
        // captured, minus its own), 0 when no capture gains.
        let mut gain = 0;
        let mut bits = empty;
        while bits != 0 {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut options = self.options(cell);
            if options == 1 {
                continue;
            }
            let mut theirs = 0u8;
            for (d, &c) in NBR[cell].iter().enumerate() {
                theirs |= ((self.dice[me ^ 1] >> c & 1) as u8) << d;
            }
            while options != 0 {
                let mask = options.trailing_zeros() as u8;
                options &= options - 1;
                let gained = 2 * (mask & theirs).count_ones() as i32 - mask.count_ones() as i32;
                gain = gain.max(gained + 1);
            }
        }
        z += GAIN_WEIGHT * gain as f32;
        let mover = 1.0 / (1.0 + (-z).exp());
        if me == 0 { mover } else { 1.0 - mover }
    }

    /// Up to `plies` random moves (a uniformly random empty cell, then a uniformly random one
    /// of its moves), calling `seen` with (mover, cell) for each; then side a's winning chance.
    #[inline]
    fn playout(mut self, plies: u32, rng: &mut Rng, mut seen: impl FnMut(usize, usize)) -> f32 {
        for _ in 0..plies {
            let empty = self.empty();
            if empty == 0 {
                break;
            }
            let mut bits = empty;
            for _ in 0..rng.below(empty.count_ones() as usize) {
                bits &= bits - 1;
            }
            let cell = bits.trailing_zeros() as usize;
            let mut options = self.options(cell);
            for _ in 0..rng.below(options.count_ones() as usize) {
                options &= options - 1;
            }
            seen(self.turn, cell);
            self.play(cell, options.trailing_zeros() as u8);
        }
        self.value_for_a()
    }
}

/// A node of the tree. A node's children are contiguous in the node array, all created when
/// it is first expanded, so that RAVE ranks untried moves from the start.
struct Node {
    cell: u8,
    mask: u8,
    /// Who played the move into this node (0 or 1).
    mover: u8,
    expanded: bool,
    first_child: u32,
    children: u32,
    visits: f32,
    /// Reward total of `mover`.
    total: f32,
    /// All-moves-as-first: playouts through the parent in which `mover` played `cell` later.
    amaf_visits: f32,
    amaf_total: f32,
    /// Breaks ties among equal children without drawing a random number per child.
    jitter: f32,
}

impl Node {
    fn new(cell: u8, mask: u8, mover: u8, jitter: f32) -> Node {
        Node {
            cell,
            mask,
            mover,
            expanded: false,
            first_child: 0,
            children: 0,
            visits: 0.0,
            total: 0.0,
            amaf_visits: 0.0,
            amaf_total: 0.0,
            jitter,
        }
    }
}

/// Tuning of [`search`].
pub struct Params {
    /// UCB exploration weight (small: the AMAF values already spread the search).
    pub exploration: f32,
    /// Visits at which a child's own mean and its AMAF mean weigh the same
    /// (β = √(k / (3n + k))).
    pub equivalence: f32,
    /// Random moves a playout makes before the evaluation scores it.
    pub playout_plies: u32,
}

/// Hard's tuning, measured in docs/bots.md.
pub const HARD: Params = Params {
    exploration: 0.1,
    equivalence: 100.0,
    playout_plies: 5,
};

/// UCT with RAVE (Gelly & Silver 2007) from `game` (a 5×5 position) until `deadline`: the
/// most visited move, `None` when the game is over.
pub fn search(
    game: &Cephalopod,
    params: &Params,
    deadline: std::time::Instant,
    rng: &mut Rng,
) -> Option<Move> {
    search_within(game, params, deadline, u64::MAX, rng).map(|(m, _)| m)
}

/// [`search`] stopped after `max_iterations` playouts as well (a reproducible budget), with
/// the chosen move's mean reward for the mover (0 to 1: its estimated chance to win).
pub fn search_within(
    game: &Cephalopod,
    params: &Params,
    deadline: std::time::Instant,
    max_iterations: u64,
    rng: &mut Rng,
) -> Option<(Move, f32)> {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    if legal.len() <= 1 {
        return legal.first().map(|&m| (m, 0.5));
    }
    let root = Board::from_game(game);
    TREE.with_borrow_mut(|nodes| {
        nodes.clear();
        nodes.push(Node::new(0, 0, root.turn as u8 ^ 1, 0.0));
        grow(nodes, root, params, deadline, max_iterations, rng);
        let root_node = &nodes[0];
        let first = root_node.first_child as usize;
        let best = nodes[first..first + root_node.children as usize]
            .iter()
            .max_by(|x, y| x.visits.total_cmp(&y.visits))?;
        let value = best.total / best.visits.max(1.0);
        legal
            .into_iter()
            .find(|m| m.cell() == best.cell as usize && m.capture_mask() == best.mask)
            .map(|m| (m, value))
    })
}

thread_local! {
    /// The node array of this thread's last search, kept for its next one. A Hard search grows
    /// it to millions of nodes; allocated afresh for every move, each of its pages would be
    /// faulted in (and zeroed) again and unmapped after, memory-map work that stalls every
    /// other thread of the process — the server's tables among them. The price is that each
    /// thread that ever searched keeps its largest tree's memory (the server searches on one
    /// thread per core).
    static TREE: std::cell::RefCell<Vec<Node>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs iterations of the search from `root` until `deadline` or `max_iterations`, growing
/// `nodes`.
fn grow(
    nodes: &mut Vec<Node>,
    root: Board,
    params: &Params,
    deadline: std::time::Instant,
    max_iterations: u64,
    rng: &mut Rng,
) {
    let mut path: Vec<u32> = Vec::new();
    let mut iterations = 0u64;
    while iterations == 0
        || (iterations < max_iterations
            && (iterations & 63 != 0 || std::time::Instant::now() < deadline))
    {
        iterations += 1;
        let mut board = root;
        path.clear();
        path.push(0);
        let mut at = 0usize;
        // Selection and expansion: stop at a child never visited (or at the full board).
        while board.empty() != 0 {
            if !nodes[at].expanded {
                expand(nodes, at, &board, rng);
            }
            at = select(nodes, at, params);
            board.play(nodes[at].cell as usize, nodes[at].mask);
            path.push(at as u32);
            if nodes[at].visits == 0.0 {
                break;
            }
        }
        // The cells each side played in the playout, then, walking up, from each depth on.
        let mut seen = [0u32; 2];
        let reward_a = board.playout(params.playout_plies, rng, |seat, cell| {
            seen[seat] |= 1 << cell
        });
        let reward = |mover: u8| if mover == 0 { reward_a } else { 1.0 - reward_a };
        for &n in path.iter().rev() {
            let node = &mut nodes[n as usize];
            node.visits += 1.0;
            node.total += reward(node.mover);
            let (first, count) = (node.first_child as usize, node.children as usize);
            for child in &mut nodes[first..first + count] {
                if seen[child.mover as usize] >> child.cell & 1 != 0 {
                    child.amaf_visits += 1.0;
                    child.amaf_total += reward(child.mover);
                }
            }
            if n != 0 {
                let node = &nodes[n as usize];
                seen[node.mover as usize] |= 1 << node.cell;
            }
        }
    }
}

/// The indices of the set bits of `x`, lowest first.
fn bits(mut x: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros();
            x &= x - 1;
            i
        })
    })
}

/// Creates the children of `nodes[at]`, whose position is `board`.
fn expand(nodes: &mut Vec<Node>, at: usize, board: &Board, rng: &mut Rng) {
    let first = nodes.len();
    for (cell, mask) in board.moves() {
        let jitter = 1e-6 * rng.unit() as f32;
        nodes.push(Node::new(cell as u8, mask, board.turn as u8, jitter));
    }
    let children = (nodes.len() - first) as u32;
    let node = &mut nodes[at];
    node.expanded = true;
    node.first_child = first as u32;
    node.children = children;
}

/// The child of `nodes[at]` with the best blend of its own mean, its AMAF mean and the
/// exploration bonus.
fn select(nodes: &[Node], at: usize, params: &Params) -> usize {
    let node = &nodes[at];
    let log_n = (node.visits + 1.0).ln();
    let first = node.first_child as usize;
    let mut best = first;
    let mut best_value = f32::NEG_INFINITY;
    for (i, child) in nodes[first..first + node.children as usize]
        .iter()
        .enumerate()
    {
        let mean = |total: f32, visits: f32| if visits > 0.0 { total / visits } else { 0.5 };
        let q = mean(child.total, child.visits);
        let qa = mean(child.amaf_total, child.amaf_visits);
        let beta = (params.equivalence / (3.0 * child.visits + params.equivalence)).sqrt();
        let value = (1.0 - beta) * q
            + beta * qa
            + params.exploration * (log_n / (child.visits + 1.0)).sqrt()
            + child.jitter;
        if value > best_value {
            best_value = value;
            best = first + i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random game, checking at every position that the compact board has the engine's
    /// moves and makes them the same way.
    #[test]
    fn the_compact_board_agrees_with_the_engine() {
        let mut rng = Rng::new(3);
        let mut game = Cephalopod::start(cephalopod::Variant::FiveByFive);
        let mut moves = Vec::new();
        while !game.is_over() {
            let board = Board::from_game(&game);
            game.legal_moves(&mut moves);
            let mine: Vec<_> = board.moves().collect();
            let theirs: Vec<_> = moves.iter().map(|m| (m.cell(), m.capture_mask())).collect();
            assert_eq!(mine, theirs);
            let mv = moves[rng.below(moves.len())];
            let mut next = board;
            next.play(mv.cell(), mv.capture_mask());
            game.make(mv);
            let again = Board::from_game(&game);
            assert_eq!(next.pips, again.pips);
            assert_eq!(next.dice, again.dice);
            if !game.is_over() {
                assert_eq!(next.turn, again.turn);
            }
        }
        let value = Board::from_game(&game).value_for_a();
        let a_won = game.outcome() == Some(game::Outcome::Win(Seat::A));
        assert_eq!(value, f32::from(a_won));
    }

    #[test]
    fn a_six_ahead_is_a_good_position() {
        let ahead = Cephalopod::from_position(
            cephalopod::Variant::FiveByFive,
            "a6..../...../...../...../..... b",
            0,
        )
        .unwrap();
        let value = Board::from_game(&ahead).value_for_a();
        assert!(value > 0.6, "{value}");
    }
}
