//! A level's values by symmetry class: the [`Values`] a query or a sweep reads (the solver's
//! working arrays, [`Work`], or a loaded table), and the three-pass rule that combines the
//! values of a state's actions.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::exact::{EPS, Vals};

/// Read access to one level's values by symmetry class (the solver's working arrays or a
/// loaded table); [`Orbits::class_of`] finds a configuration's class.
///
/// A ban matters only when it blocks a best action, and "best" differs by pass: the action
/// the score pass chose ([`Values::ws_best`]) decides the win probability and score of a ban,
/// the action the actions pass chose ([`Values::best`]) its expected actions. Keeping the
/// first fixed through the actions pass keeps win and score of every ban state what the
/// earlier passes solved them to, so the actions pass chooses among fixed windows. (When the
/// actions pass's best changed which ban reads `G` for win and score too, a loop of `G`s kept
/// win and score solved for a different ban — `x = x'` holds at any level — and could end up
/// above every way out: no-wrap level 6 went round for that.)
pub trait Values {
    /// `F`: the free state's values.
    fn f(&self, cls: usize) -> Vals;
    /// `G`: the free state with a best action banned — win probability and score with
    /// [`Values::ws_best`] banned, expected actions with [`Values::best`] banned.
    fn g(&self, cls: usize) -> Vals;
    /// The id of the best action of the class's representative ([`END_ID`] for `end`).
    fn best(&self, cls: usize) -> u8;
    /// The id of the best action by win probability and score alone (the score pass's choice;
    /// the same as [`Values::best`] until the actions pass).
    fn ws_best(&self, cls: usize) -> u8;
    /// A hint that `F` or `G` of `cls` is read soon: the solver's arrays load it now, so that
    /// a batch of reads that miss the cache overlaps. Nothing by default.
    #[inline]
    fn prefetch(&self, _cls: usize) {}
    /// The values of the class's free state under a ban that blocks its `ws_best` (`ws_g`)
    /// and/or its `best` (`act_g`).
    #[inline]
    fn banned(&self, cls: usize, ws_g: bool, act_g: bool) -> Vals {
        let ws = if ws_g { self.g(cls) } else { self.f(cls) };
        if ws_g == act_g {
            return ws;
        }
        let a = if act_g { self.g(cls) } else { self.f(cls) };
        [ws[0], ws[1], a[2]]
    }
}

/// Combines candidate values with the three-pass rule of [`crate::exact`]: the greatest win
/// probability; among those within [`EPS`] of it the greatest score; among those the fewest
/// actions. Components above `phase` are ignored. Returns the values and the chosen index.
#[inline]
pub(super) fn combine(q: &[Vals], phase: usize, skip: usize) -> (Vals, usize) {
    let mut out = [0.0, 0.0, 0.0];
    let mut p = 0.0f64;
    for (i, x) in q.iter().enumerate() {
        if i != skip {
            p = p.max(x[0]);
        }
    }
    out[0] = p;
    let mut pick = usize::MAX;
    if phase == 0 {
        for (i, x) in q.iter().enumerate() {
            if i != skip && x[0] >= p && pick == usize::MAX {
                pick = i;
            }
        }
        return (out, pick);
    }
    let mut s = 0.0f64;
    for (i, x) in q.iter().enumerate() {
        if i != skip && x[0] >= p - EPS {
            s = s.max(x[1]);
        }
    }
    out[1] = s;
    if phase == 1 {
        for (i, x) in q.iter().enumerate() {
            if i != skip && x[0] >= p - EPS && x[1] >= s && pick == usize::MAX {
                pick = i;
            }
        }
        return (out, pick);
    }
    let mut a = f64::INFINITY;
    for (i, x) in q.iter().enumerate() {
        if i != skip && x[0] >= p - EPS && x[1] >= s - EPS && x[2] < a {
            a = x[2];
            pick = i;
        }
    }
    out[2] = a;
    (out, pick)
}

/// The largest number of class actions in a free state (swaps and `end`).
pub(super) const MAX_ACTS: usize = 80;

/// Among a class's actions `ids`, the index of the one its value `at` bans in `phase`: none
/// for an `F` (`usize::MAX`), for a `G` the best action ([`Values::ws_best`] for win and
/// score, [`Values::best`] for actions).
pub(super) fn ban_index(work: &Work, at: u32, ids: &[u8], phase: usize) -> usize {
    let cls = (at / 2) as usize;
    let best = if phase < 2 {
        work.ws_best(cls)
    } else {
        work.best(cls)
    };
    match at % 2 {
        0 => usize::MAX,
        _ => ids.iter().position(|&id| id == best).unwrap_or(usize::MAX),
    }
}

/// The working arrays of one level: `F`, `G` and the best action per configuration, updated in
/// place by both threads (relaxed atomics: a sweep may read a neighbour's old or new value,
/// which Gauss–Seidel allows).
pub struct Work {
    pub(super) cells: Vec<Cell>,
}

#[repr(align(64))]
#[derive(Default)]
pub(super) struct Cell {
    v: [AtomicU64; 6],
    pub(super) best: AtomicU8,
    /// The best action by win probability and score ([`Values::ws_best`]).
    pub(super) ws_best: AtomicU8,
    /// The action of `G` ([`NO_ACT`] when `end` is the only action).
    pub(super) second: AtomicU8,
    /// Bit 0: `best` rerolls after its swap; bit 1: `second` does.
    pub(super) rerolls: AtomicU8,
}

/// No action (`G` of a state whose only action is `end`).
pub(super) const NO_ACT: u8 = 254;

impl Work {
    pub(super) fn new(n: usize) -> Work {
        Work {
            cells: (0..n).map(|_| Cell::default()).collect(),
        }
    }
    #[inline]
    pub(super) fn get(&self, r: usize, i: usize) -> f64 {
        f64::from_bits(self.cells[r].v[i].load(Relaxed))
    }
    #[inline]
    pub(super) fn set(&self, r: usize, i: usize, x: f64) {
        self.cells[r].v[i].store(x.to_bits(), Relaxed)
    }
}

impl Values for Work {
    #[inline]
    fn prefetch(&self, r: usize) {
        // (A cell is one cache line.)
        std::hint::black_box(self.cells[r].v[0].load(Relaxed));
    }
    #[inline]
    fn f(&self, r: usize) -> Vals {
        [self.get(r, 0), self.get(r, 1), self.get(r, 2)]
    }
    #[inline]
    fn g(&self, r: usize) -> Vals {
        [self.get(r, 3), self.get(r, 4), self.get(r, 5)]
    }
    #[inline]
    fn best(&self, r: usize) -> u8 {
        self.cells[r].best.load(Relaxed)
    }
    #[inline]
    fn ws_best(&self, r: usize) -> u8 {
        self.cells[r].ws_best.load(Relaxed)
    }
}
