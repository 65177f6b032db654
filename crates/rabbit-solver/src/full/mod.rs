//! Exact mode for the full game: flat per-configuration arrays instead of an explicit graph.
//!
//! Every configuration (counts per place, colour and value) gets a dense index from a mixed
//! radix over the ranks of its six per-colour multisets ([`Index`]), and configurations that
//! the rules cannot tell apart (black and red exchanged, faces turned or mirrored) share a
//! class ([`Orbits`]). For each class and green level the solver stores only the free state
//! (no ban, no pending reroll): its values `F`, its best action, and the values `G` of the
//! same state with that best action banned (for win probability and score, the best by those
//! two alone: [`Values`]).
//! Every ban/reroll state is then evaluated on the fly: a ban blocks at most one action, and
//! only matters when it blocks the best one (then `G` applies). So the swap into `c'` with
//! reroll pending is worth the better of `F`/`G` of `c'` and the mean over the six rerolls.
//!
//! (When two actions are within [`EPS`](crate::exact::EPS) of each other without being equal, banning the one
//! that is not "best" can change a value by less than `EPS`; the explicit graph is exact there.)
//!
//! The values are the same three-pass least fixed point as [`crate::exact`]: win probability,
//! then expected score among the win-optimal actions, then least expected actions among those,
//! each by modified policy iteration with in-place Gauss–Seidel sweeps on up to two threads, in
//! order of distance to a win: a Bellman sweep (every action) records its greedy policy, then
//! up to [`POLICY_SWEEPS`] sweeps of that fixed policy (its equations written out as sparse
//! rows) carry values around the slow swap-and-reroll loops at a fraction of the cost; a pass
//! ends on a Bellman sweep that moves nothing by its tolerance. Starting points are lower bounds (the value of
//! `end`; the win probability; 1), so win probability and score only rise towards the least
//! fixed point. Tests check it against the explicit graph on reduced models, state by state
//! (ban and reroll states included), with and without the policy sweeps.

// Values are small fixed arrays indexed in step with other arrays; index loops read clearest.
#![allow(clippy::needless_range_loop)]

mod index;
mod level;
mod loops;
mod order;
mod policy;
mod steps;
mod sweep;
mod symmetry;
mod values;

pub use index::{END_ID, Index, swap_id, swap_of};
pub use sweep::{
    POLICY_SWEEPS, POLICY_SWEEPS_NO_WRAP, Report, TIGHT, TOL, policy_sweeps, solve_level,
    solve_level_until,
};
pub use symmetry::Orbits;
pub use values::{Values, Work};

use crate::exact::Vals;
use crate::model::{Act, Config, Model, State, hand_rolls, setup_tables};
use index::Cursor;
use level::Level;
use values::combine;

/// The expected values at the start of a turn at `green` for every table composition (the
/// hand rolled), from that level's values, on `threads` threads (tens of millions of rolls
/// for the full game).
pub fn turn_starts(
    ix: &Index,
    vals: &(impl Values + Sync),
    green: u8,
    threads: usize,
) -> Vec<Vals> {
    let start = |tr: usize| {
        let mut out = [0.0; 3];
        for (c, p) in hand_rolls(&ix.m, &ix.table_config(tr)) {
            let x = rolled_value(ix, vals, &c, green);
            for i in 0..3 {
                out[i] += p * x[i];
            }
        }
        out
    };
    let chunk = ix.tables.div_ceil(threads.max(1));
    sweep::on_threads(threads.max(1), |i| {
        (i * chunk..((i + 1) * chunk).min(ix.tables))
            .map(start)
            .collect::<Vec<_>>()
    })
    .concat()
}

/// The expected values at the start of a turn at `green` from a freshly rolled setup table
/// ([`crate::model::setup_tables`]; then the hand rolled).
pub fn setup_value(ix: &Index, vals: &impl Values, green: u8) -> Vals {
    let mut out = [0.0; 3];
    for (table, p) in setup_tables(&ix.m) {
        for (c, q) in hand_rolls(&ix.m, &table) {
            let x = rolled_value(ix, vals, &c, green);
            for k in 0..3 {
                out[k] += p * q * x[k];
            }
        }
    }
    out
}

/// The values of a configuration just rolled at `green` (won, or its free state's).
fn rolled_value(ix: &Index, vals: &impl Values, c: &Config, green: u8) -> Vals {
    if c.won(&ix.m) {
        [1.0, green as f64, 0.0]
    } else {
        vals.f(ix.orbits().class_of(ix.rank(c)).0)
    }
}

/// One solved level, ready for queries: the values of every state are computed on the fly.
pub struct Solved<V> {
    pub ix: Index,
    pub green: u8,
    /// Turn-start values one level down by table rank (empty at level 1).
    pub below: Vec<Vals>,
    pub vals: V,
}

impl<V: Values> Solved<V> {
    fn level(&self) -> Level<'_> {
        Level {
            ix: &self.ix,
            orb: self.ix.orbits(),
            green: self.green as f64,
            below: (self.green > 1).then_some(&self.below[..]),
        }
    }

    /// The values of any state (ban and reroll included), from the stored free states.
    pub fn value(&self, s: &State) -> Vals {
        let m = &self.ix.m;
        if s.cfg.won(m) {
            return [1.0, self.green as f64, 0.0];
        }
        let (cls, bests) = self.ix.orbits().bests(&self.vals, self.ix.rank(&s.cfg));
        let reverse = s.live_ban(m).map(|(h, t)| swap_id(m, h, t));
        let stay = self
            .vals
            .banned(cls, reverse == Some(bests[0]), reverse == Some(bests[1]));
        match s.reroll {
            None => stay,
            Some(_) => {
                let x = self.reroll_value(s);
                combine(&[stay, x], 2, usize::MAX).0
            }
        }
    }

    /// The reroll action's values (the action counted).
    fn reroll_value(&self, s: &State) -> Vals {
        let m = &self.ix.m;
        let mut out = [0.0, 0.0, 0.0];
        for v in 0..m.faces {
            let x = self.value(&s.rerolled(m, v));
            for i in 0..3 {
                out[i] += x[i] / m.faces as f64;
            }
        }
        out[2] += 1.0;
        out
    }

    /// Every class action of a state with its values (the action counted), best first.
    pub fn action_values(&self, s: &State) -> Vec<(Act, Vals)> {
        let m = &self.ix.m;
        let mut acts = Vec::new();
        s.actions(m, &mut acts);
        let mut out: Vec<(Act, Vals)> = acts
            .into_iter()
            .map(|a| {
                let v = match a {
                    Act::Swap { hand, table } => {
                        let x = self.value(&s.swap(hand, table));
                        [x[0], x[1], 1.0 + x[2]]
                    }
                    Act::Reroll => self.reroll_value(s),
                    Act::End => {
                        let k = Cursor::of(&self.ix, &s.cfg);
                        let e = self.level().end_value(&k);
                        [e[0], e[1], 1.0 + e[2]]
                    }
                };
                (a, v)
            })
            .collect();
        out.sort_by(|a, b| crate::exact::rank(&a.1, &b.1));
        out
    }
}

/// Solves levels `1..=greens` in memory (reduced models and tests; the full game goes through
/// the cache in [`crate::tables`]), with `policy_sweeps` as in [`solve_level`].
pub fn solve_all(m: Model, greens: u8, threads: usize, policy_sweeps: u32) -> Vec<Solved<Work>> {
    let ix = Index::new(m);
    let mut out: Vec<Solved<Work>> = Vec::new();
    for g in 1..=greens {
        let below = match out.last() {
            None => Vec::new(),
            Some(prev) => turn_starts(&ix, &prev.vals, g - 1, threads),
        };
        let actions_from = out
            .last()
            .map(|prev| expected_actions(&prev.vals, ix.classes()));
        let (vals, _) = solve_level(
            &ix,
            g,
            (g > 1).then_some(&below[..]),
            actions_from.as_deref(),
            threads,
            TIGHT,
            policy_sweeps,
            |_| {},
        );
        out.push(Solved {
            ix: ix.clone(),
            green: g,
            below,
            vals,
        });
    }
    out
}

/// The expected actions of every class's `F` and `G`: where the next level's actions pass
/// starts ([`solve_level`]).
pub fn expected_actions(vals: &impl Values, classes: usize) -> Vec<[f32; 2]> {
    (0..classes)
        .map(|r| [vals.f(r)[2] as f32, vals.g(r)[2] as f32])
        .collect()
}
