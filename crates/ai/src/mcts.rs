//! Monte Carlo tree search (UCT) against the `Game` trait, with pluggable playouts.
//!
//! Rewards are in `[0, 1]` for seat A; each node keeps the total for the seat that moved into
//! it, which is what its parent maximises when it selects.

use std::time::Instant;

use game::{Game, Outcome, Seat};

use crate::eval::Evaluator;
use crate::rng::Rng;

/// How a playout finishes a simulated game.
pub enum Playout<'e, G: Game> {
    /// Uniformly random moves to the end (or `max_plies`, scored as a draw).
    Random { max_plies: usize },
    /// The evaluator's playout moves (see `Evaluator::playout_move`) to the end.
    Guided {
        max_plies: usize,
        eval: &'e dyn Evaluator<G>,
    },
    /// Random moves for `plies` plies, then the evaluation turned into a win probability by a
    /// logistic curve of width `scale`.
    EvalCutoff {
        plies: usize,
        eval: &'e dyn Evaluator<G>,
        scale: f64,
    },
}

struct Node<M> {
    /// The move into this node (none at the root) and who played it.
    mv: Option<M>,
    mover: Seat,
    children: Vec<u32>,
    untried: Vec<M>,
    visits: f64,
    /// Reward total for `mover`.
    total: f64,
}

/// Runs UCT from `root` until `deadline` (or `max_iterations`) and returns the most visited
/// move. `None` when the game is over.
pub fn uct<G: Game>(
    root: &G,
    playout: &Playout<'_, G>,
    exploration: f64,
    deadline: Instant,
    max_iterations: u64,
    rng: &mut Rng,
) -> Option<G::Move> {
    let root_mover = root.to_move()?;
    let mut untried = Vec::new();
    root.legal_moves(&mut untried);
    if untried.len() <= 1 {
        return untried.first().copied();
    }
    let mut nodes = vec![Node {
        mv: None,
        mover: root_mover.other(),
        children: Vec::new(),
        untried,
        visits: 0.0,
        total: 0.0,
    }];
    let mut game = root.clone();
    let mut path: Vec<u32> = Vec::new();
    let mut undos: Vec<(G::Move, G::Undo)> = Vec::new();
    let mut buffer = Vec::new();
    let mut iterations = 0u64;
    while iterations == 0
        || (iterations < max_iterations && (iterations & 63 != 0 || Instant::now() < deadline))
    {
        iterations += 1;
        path.clear();
        path.push(0);
        let mut at = 0usize;
        // Selection: descend while the node is fully expanded.
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            let log_n = nodes[at].visits.ln();
            let mut best = 0u32;
            let mut best_value = f64::NEG_INFINITY;
            for &c in &nodes[at].children {
                let child = &nodes[c as usize];
                let value =
                    child.total / child.visits + exploration * (log_n / child.visits).sqrt();
                if value > best_value {
                    best_value = value;
                    best = c;
                }
            }
            at = best as usize;
            let mv = nodes[at].mv.expect("a child has a move");
            let undo = game.make(mv);
            undos.push((mv, undo));
            path.push(at as u32);
        }
        // Expansion: one untried move, picked at random.
        if !nodes[at].untried.is_empty() {
            let pick = rng.below(nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(pick);
            let mover = game.to_move().expect("a node with moves has a mover");
            let undo = game.make(mv);
            undos.push((mv, undo));
            let mut untried = Vec::new();
            game.legal_moves(&mut untried);
            nodes.push(Node {
                mv: Some(mv),
                mover,
                children: Vec::new(),
                untried,
                visits: 0.0,
                total: 0.0,
            });
            let child = (nodes.len() - 1) as u32;
            nodes[at].children.push(child);
            path.push(child);
        }
        let depth_in_tree = undos.len();
        let reward_a = simulate(&mut game, playout, rng, &mut undos, &mut buffer);
        while undos.len() > depth_in_tree {
            let (mv, undo) = undos.pop().expect("a playout move to take back");
            game.unmake(mv, undo);
        }
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1.0;
            node.total += if node.mover == Seat::A {
                reward_a
            } else {
                1.0 - reward_a
            };
        }
        while let Some((mv, undo)) = undos.pop() {
            game.unmake(mv, undo);
        }
    }
    let root_node = &nodes[0];
    root_node
        .children
        .iter()
        .max_by(|&&x, &&y| {
            nodes[x as usize]
                .visits
                .total_cmp(&nodes[y as usize].visits)
        })
        .and_then(|&c| nodes[c as usize].mv)
}

fn reward_for_a(outcome: Outcome) -> f64 {
    outcome.score_for(Seat::A)
}

/// Plays a simulated game on from `game` and returns seat A's reward. The moves stay on
/// `undos` for the caller to take back.
fn simulate<G: Game>(
    game: &mut G,
    playout: &Playout<'_, G>,
    rng: &mut Rng,
    undos: &mut Vec<(G::Move, G::Undo)>,
    buffer: &mut Vec<G::Move>,
) -> f64 {
    let limit = match playout {
        Playout::Random { max_plies } | Playout::Guided { max_plies, .. } => *max_plies,
        Playout::EvalCutoff { plies, .. } => *plies,
    };
    for _ in 0..limit {
        if let Some(outcome) = game.outcome() {
            return reward_for_a(outcome);
        }
        game.legal_moves(buffer);
        if buffer.is_empty() {
            return 0.5;
        }
        let guided = match playout {
            Playout::Guided { eval, .. } => eval.playout_move(game, buffer, rng.unit()),
            _ => None,
        };
        let mv = guided.unwrap_or_else(|| buffer[rng.below(buffer.len())]);
        let undo = game.make(mv);
        undos.push((mv, undo));
    }
    if let Some(outcome) = game.outcome() {
        return reward_for_a(outcome);
    }
    match playout {
        Playout::Random { .. } | Playout::Guided { .. } => 0.5,
        Playout::EvalCutoff { eval, scale, .. } => {
            let score = eval.evaluate(game) as f64;
            let p = 1.0 / (1.0 + (-score / scale).exp());
            if game.to_move() == Some(Seat::A) {
                p
            } else {
                1.0 - p
            }
        }
    }
}

/// A node of the RAVE tree: every child is created when the node is first expanded, so that
/// untried moves are ranked by their all-moves-as-first statistics from the start.
struct RaveNode<M> {
    mv: Option<M>,
    /// Who played `mv` into this node.
    mover: Seat,
    children: Vec<u32>,
    expanded: bool,
    visits: f64,
    total: f64,
    /// All-moves-as-first: playouts through the parent in which `mover` played this move's
    /// key later on, and `mover`'s reward in them.
    amaf_visits: f64,
    amaf_total: f64,
}

/// Tuning of [`rave`].
pub struct RaveParams {
    /// UCB exploration weight (small: the AMAF values already spread the search).
    pub exploration: f64,
    /// Visits at which a child's own mean and its AMAF mean weigh the same
    /// (β = √(k / (3n + k))).
    pub equivalence: f64,
}

/// UCT with rapid action value estimation (RAVE, Gelly & Silver 2007) for placement games:
/// a move is also credited with the result of every playout in which its mover played the
/// same `key` (a cell) later on. `key` must map every move to `0..128`. Returns the most
/// visited root move, `None` when the game is over.
pub fn rave<G: Game>(
    root: &G,
    playout: &Playout<'_, G>,
    params: &RaveParams,
    key: impl Fn(G::Move) -> usize,
    deadline: Instant,
    rng: &mut Rng,
) -> Option<G::Move> {
    let root_mover = root.to_move()?;
    let mut first = Vec::new();
    root.legal_moves(&mut first);
    if first.len() <= 1 {
        return first.first().copied();
    }
    let node = |mv: Option<G::Move>, mover: Seat| RaveNode {
        mv,
        mover,
        children: Vec::new(),
        expanded: false,
        visits: 0.0,
        total: 0.0,
        amaf_visits: 0.0,
        amaf_total: 0.0,
    };
    let mut nodes = vec![node(None, root_mover.other())];
    let mut game = root.clone();
    let mut path: Vec<u32> = Vec::new();
    let mut undos: Vec<(G::Move, G::Undo)> = Vec::new();
    // (mover, key) of every move from the root, tree moves and playout moves alike.
    let mut played: Vec<(Seat, usize)> = Vec::new();
    let mut buffer = Vec::new();
    let mut iterations = 0u64;
    while iterations == 0 || iterations & 63 != 0 || Instant::now() < deadline {
        iterations += 1;
        path.clear();
        path.push(0);
        played.clear();
        let mut at = 0usize;
        // Selection and expansion: stop at a child never visited (or at the end of the game).
        loop {
            if game.is_over() {
                break;
            }
            if !nodes[at].expanded {
                let mover = game.to_move().expect("a live position has a mover");
                game.legal_moves(&mut buffer);
                for &mv in buffer.iter() {
                    nodes.push(node(Some(mv), mover));
                    let child = (nodes.len() - 1) as u32;
                    nodes[at].children.push(child);
                }
                nodes[at].expanded = true;
                if nodes[at].children.is_empty() {
                    break;
                }
            }
            let log_n = (nodes[at].visits + 1.0).ln();
            let mut best = 0u32;
            let mut best_value = f64::NEG_INFINITY;
            for &c in &nodes[at].children {
                let child = &nodes[c as usize];
                let q = if child.visits > 0.0 {
                    child.total / child.visits
                } else {
                    0.5
                };
                let qa = if child.amaf_visits > 0.0 {
                    child.amaf_total / child.amaf_visits
                } else {
                    0.5
                };
                let beta = (params.equivalence / (3.0 * child.visits + params.equivalence)).sqrt();
                let value = (1.0 - beta) * q
                    + beta * qa
                    + params.exploration * (log_n / (child.visits + 1.0)).sqrt()
                    // Ties (unvisited children with no AMAF data) are broken at random.
                    + 1e-6 * rng.unit();
                if value > best_value {
                    best_value = value;
                    best = c;
                }
            }
            at = best as usize;
            let mv = nodes[at].mv.expect("a child has a move");
            played.push((nodes[at].mover, key(mv)));
            let undo = game.make(mv);
            undos.push((mv, undo));
            path.push(at as u32);
            if nodes[at].visits == 0.0 {
                break;
            }
        }
        let depth_in_tree = undos.len();
        let reward_a = simulate(&mut game, playout, rng, &mut undos, &mut buffer);
        // The playout's movers, read back while taking its moves back.
        let mut tail = Vec::with_capacity(undos.len() - depth_in_tree);
        while undos.len() > depth_in_tree {
            let (mv, undo) = undos.pop().expect("a playout move to take back");
            game.unmake(mv, undo);
            let mover = game.to_move().expect("a move was made by someone");
            tail.push((mover, key(mv)));
        }
        played.extend(tail.into_iter().rev());
        while let Some((mv, undo)) = undos.pop() {
            game.unmake(mv, undo);
        }
        let reward = |seat: Seat| {
            if seat == Seat::A {
                reward_a
            } else {
                1.0 - reward_a
            }
        };
        // Walk the sequence backwards, keeping the keys each side played from here on; the
        // node at tree depth d has its children credited with the keys played from move d on.
        let mut seen = [0u128; 2];
        let mut next = played.len();
        for (depth, &n) in path.iter().enumerate().rev() {
            while next > depth {
                next -= 1;
                let (seat, k) = played[next];
                seen[seat.index()] |= 1u128 << k;
            }
            let node = &mut nodes[n as usize];
            node.visits += 1.0;
            node.total += reward(node.mover);
            let children = std::mem::take(&mut nodes[n as usize].children);
            for &c in &children {
                let child = &mut nodes[c as usize];
                let k = key(child.mv.expect("a child has a move"));
                if seen[child.mover.index()] & (1u128 << k) != 0 {
                    child.amaf_visits += 1.0;
                    child.amaf_total += reward(child.mover);
                }
            }
            nodes[n as usize].children = children;
        }
    }
    nodes[0]
        .children
        .iter()
        .max_by(|&&x, &&y| {
            nodes[x as usize]
                .visits
                .total_cmp(&nodes[y as usize].visits)
        })
        .and_then(|&c| nodes[c as usize].mv)
}
