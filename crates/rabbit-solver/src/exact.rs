//! Exact mode: the lexicographic optimal values over a whole within-turn state space.
//!
//! For each green level `g = 1, 2, …` in turn, every configuration of the model is a turn
//! start; the within-turn graph (swaps, rerolls with their banned-swap states) is explored from
//! all of them, and the values are the least fixed point of the optimality equations, computed
//! by Gauss–Seidel value iteration in three passes:
//! 1. `P` = the greatest probability of winning (iteration from 0 converges to the least fixed
//!    point, so endless swapping is worth nothing);
//! 2. `S` = the greatest expected score among the actions that keep `P` optimal;
//! 3. `A` = the least expected number of actions until the game ends among the actions that
//!    keep `P` and `S` optimal (every action costs 1, so iteration from 0 converges).
//!
//! `end` at level `g` leads to the rolls of the hand at level `g - 1`, whose values are already
//! known; at `g = 1` it loses. The graph code is generic over the state type so that the tests
//! can run the very same equations over *labelled* dice (no symmetry reduction) and compare.

use std::collections::HashMap;
use std::hash::Hash;

use crate::model::{Act, Config, Model, State, all_configs, hand_rolls};

/// Values as `[win probability, expected score, expected actions]`.
pub type Vals = [f64; 3];

/// Tolerance for "equally good" in the lexicographic comparison.
pub const EPS: f64 = 1e-9;

/// `Less` when `a` is better than `b`: more wins, then more score, then fewer actions.
pub fn rank(a: &Vals, b: &Vals) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    for k in 0..2 {
        if a[k] > b[k] + EPS {
            return Less;
        }
        if a[k] < b[k] - EPS {
            return Greater;
        }
    }
    if a[2] < b[2] - EPS {
        Less
    } else if a[2] > b[2] + EPS {
        Greater
    } else {
        Equal
    }
}

/// Where an action may lead.
/// A state's actions, each with its outcomes and their probabilities.
pub type Expansion<S, L> = Vec<(L, Vec<(Succ<S>, f64)>)>;

pub enum Succ<S> {
    /// The game is won by this action.
    Win,
    /// The turn ends (value given by the caller's end function).
    End,
    To(S),
}

const WIN: u32 = u32::MAX;
const END: u32 = u32::MAX - 1;

/// An explicit within-turn graph for one green level, with its values once solved.
pub struct Graph<S, L> {
    pub states: Vec<S>,
    pub index: HashMap<S, u32>,
    act_start: Vec<u32>,
    acts: Vec<(L, u32, u32)>,
    succ: Vec<(u32, f64)>,
    end_val: Vec<Vals>,
    pub v: Vec<Vals>,
    green: f64,
}

impl<S: Clone + Eq + Hash, L: Copy> Graph<S, L> {
    /// Explores everything reachable from `starts`. `expand` lists a state's actions with their
    /// outcomes; `end` gives the value of the next turn's start (without the `end` action).
    pub fn build(
        starts: impl IntoIterator<Item = S>,
        green: u8,
        mut expand: impl FnMut(&S) -> Expansion<S, L>,
        mut end: impl FnMut(&S) -> Vals,
    ) -> Self {
        let mut g = Graph {
            states: Vec::new(),
            index: HashMap::new(),
            act_start: vec![0],
            acts: Vec::new(),
            succ: Vec::new(),
            end_val: Vec::new(),
            v: Vec::new(),
            green: green as f64,
        };
        for s in starts {
            g.intern(s);
        }
        let mut i = 0;
        while i < g.states.len() {
            let s = g.states[i].clone();
            g.end_val.push(end(&s));
            for (label, outs) in expand(&s) {
                let s0 = g.succ.len() as u32;
                for (o, p) in outs {
                    let j = match o {
                        Succ::Win => WIN,
                        Succ::End => END,
                        Succ::To(t) => g.intern(t),
                    };
                    g.succ.push((j, p));
                }
                g.acts.push((label, s0, g.succ.len() as u32));
            }
            g.act_start.push(g.acts.len() as u32);
            i += 1;
        }
        g
    }

    fn intern(&mut self, s: S) -> u32 {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.states.len() as u32;
        self.index.insert(s.clone(), i);
        self.states.push(s);
        i
    }

    fn q(&self, i: usize, a: usize, v: &[Vals]) -> Vals {
        let (_, s0, s1) = self.acts[a];
        let mut out = [0.0, 0.0, 1.0];
        for &(j, p) in &self.succ[s0 as usize..s1 as usize] {
            let x = match j {
                WIN => [1.0, self.green, 0.0],
                END => self.end_val[i],
                j => v[j as usize],
            };
            for k in 0..3 {
                out[k] += p * x[k];
            }
        }
        out
    }

    fn acts_of(&self, i: usize) -> std::ops::Range<usize> {
        self.act_start[i] as usize..self.act_start[i + 1] as usize
    }

    /// Solves the three passes; afterwards `v` holds every state's values.
    pub fn solve(&mut self) {
        let n = self.states.len();
        let mut v = vec![[0.0; 3]; n];
        // allowed[a]: the action is still optimal for the passes done so far.
        let mut allowed = vec![true; self.acts.len()];
        for pass in 0..3 {
            loop {
                let mut delta = 0.0f64;
                for i in 0..n {
                    let mut best = if pass == 2 { f64::INFINITY } else { 0.0f64 };
                    for a in self.acts_of(i) {
                        if !allowed[a] {
                            continue;
                        }
                        let q = self.q(i, a, &v)[pass];
                        best = if pass == 2 { best.min(q) } else { best.max(q) };
                    }
                    delta = delta.max((best - v[i][pass]).abs());
                    v[i][pass] = best;
                }
                if delta < 1e-13 {
                    break;
                }
            }
            if pass < 2 {
                for i in 0..n {
                    for a in self.acts_of(i) {
                        if allowed[a] && self.q(i, a, &v)[pass] < v[i][pass] - EPS {
                            allowed[a] = false;
                        }
                    }
                }
            }
        }
        self.v = v;
    }

    /// Every action of a state with its values, best first.
    pub fn action_values(&self, s: &S) -> Option<Vec<(L, Vals)>> {
        let i = *self.index.get(s)? as usize;
        let mut out: Vec<(L, Vals)> = self
            .acts_of(i)
            .map(|a| (self.acts[a].0, self.q(i, a, &self.v)))
            .collect();
        out.sort_by(|a, b| rank(&a.1, &b.1));
        Some(out)
    }

    pub fn value(&self, s: &S) -> Option<Vals> {
        self.index.get(s).map(|&i| self.v[i as usize])
    }
}

/// The compact expansion of a state: its class actions and their outcomes.
pub fn expand(m: &Model, s: &State) -> Expansion<State, Act> {
    let mut acts = Vec::new();
    s.actions(m, &mut acts);
    acts.into_iter()
        .map(|a| {
            let outs = match a {
                Act::Swap { hand, table } => {
                    let t = s.swap(hand, table);
                    if t.cfg.won(m) {
                        vec![(Succ::Win, 1.0)]
                    } else {
                        vec![(Succ::To(t), 1.0)]
                    }
                }
                Act::Reroll => (0..m.faces)
                    .map(|v| (Succ::To(s.rerolled(m, v)), 1.0 / m.faces as f64))
                    .collect(),
                Act::End => vec![(Succ::End, 1.0)],
            };
            (a, outs)
        })
        .collect()
}

/// Exact values of a model for green levels `1..=greens`.
pub struct Exact {
    pub model: Model,
    levels: Vec<Graph<State, Act>>,
}

impl Exact {
    /// Solves every level. The work grows with the model's whole state space: fine for reduced
    /// models, far too large for the explicit graph of the full game (see docs/white-rabbit.md).
    pub fn solve(model: Model, greens: u8) -> Exact {
        let starts: Vec<State> = all_configs(&model)
            .into_iter()
            .filter(|c| !c.won(&model))
            .map(State::free)
            .collect();
        let mut levels: Vec<Graph<State, Act>> = Vec::new();
        for g in 1..=greens {
            let below = levels.last();
            let mut cache: HashMap<Config, Vals> = HashMap::new();
            let mut graph = Graph::build(
                starts.iter().copied(),
                g,
                |s| expand(&model, s),
                |s| match below {
                    None => [0.0; 3],
                    Some(prev) => *cache
                        .entry(s.cfg.table_key())
                        .or_insert_with(|| turn_start(&model, prev, &s.cfg, g - 1)),
                },
            );
            graph.solve();
            levels.push(graph);
        }
        Exact { model, levels }
    }

    /// The values of a state at a green level (`None` for an unknown level or state).
    pub fn value(&self, s: &State, green: u8) -> Option<Vals> {
        if s.cfg.won(&self.model) {
            return Some([1.0, green as f64, 0.0]);
        }
        self.levels.get(green.checked_sub(1)? as usize)?.value(s)
    }

    /// Every class action at a state, with values, best first.
    pub fn action_values(&self, s: &State, green: u8) -> Option<Vec<(Act, Vals)>> {
        self.levels
            .get(green.checked_sub(1)? as usize)?
            .action_values(s)
    }

    /// The expected values at the start of a turn at `green` with this table (over the rolls).
    pub fn turn_start(&self, table: &Config, green: u8) -> Vals {
        turn_start(&self.model, &self.levels[green as usize - 1], table, green)
    }

    pub fn states(&self, green: u8) -> usize {
        self.levels[green as usize - 1].states.len()
    }
}

fn turn_start(m: &Model, level: &Graph<State, Act>, cfg: &Config, green: u8) -> Vals {
    let mut out = [0.0; 3];
    for (c, p) in hand_rolls(m, cfg) {
        let x = if c.won(m) {
            [1.0, green as f64, 0.0]
        } else {
            level
                .value(&State::free(c))
                .expect("every turn start is in the graph")
        };
        for k in 0..3 {
            out[k] += p * x[k];
        }
    }
    out
}

impl Exact {
    /// The states of a level's graph (for sampling).
    pub fn level_states(&self, green: u8) -> &[State] {
        &self.levels[green as usize - 1].states
    }
}
