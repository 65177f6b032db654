//! Modified policy iteration's cheap half: the greedy policy of the last Bellman sweep written
//! out as sparse equations, and Gauss–Seidel sweeps of those equations alone.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::index::Cursor;
use super::level::Level;
use super::steps::{Buf, Steps};
use super::sweep::share;
use super::values::{NO_ACT, Values, Work};
use crate::exact::Vals;
use crate::model::MAXF;

/// One equation of the fixed policy recorded by the last [`sweep`], for the `F` or `G` of a
/// class in one phase: `x = b + w · Σ x[e]` over the entries, where an entry is `2 · class`
/// for an `F` and `2 · class + 1` for a `G`. A swap that stays has one entry (`w = 1`), one
/// followed by its reroll one per face (`w = 1 / faces`), a win or `end` none.
#[derive(Clone, Copy, Default)]
pub(super) struct Row {
    pub(super) b: f64,
    pub(super) w: f64,
    pub(super) n: u8,
    pub(super) e: [u32; MAXF],
}

/// One thread's share of the policy's equations: each class with the rows of its `F` and
/// `G`, in sweep order.
pub(super) type Rows = Vec<(u32, [Row; 2])>;

/// A row that is not there (`G` of a state whose only action is `end`).
pub(super) const NO_ROW: u8 = u8::MAX;

/// A [`Values`] that records which `F`s and `G`s an evaluation reads (all read as 0), so
/// that one evaluation of a fixed action by [`Level::policy_value`] yields its [`Row`]: the
/// rows come from the same code as the values.
struct Recorder<'a> {
    work: &'a Work,
    row: std::cell::Cell<Row>,
}

impl Recorder<'_> {
    /// The row recorded, with its constant `b`.
    fn row(&self, b: f64) -> Row {
        let mut row = self.row.get();
        row.b = b;
        row.w = if row.n == 0 { 0.0 } else { 1.0 / row.n as f64 };
        row
    }

    fn read(&self, e: u32) -> Vals {
        let mut row = self.row.get();
        row.e[row.n as usize] = e;
        row.n += 1;
        self.row.set(row);
        [0.0; 3]
    }
}

impl Values for Recorder<'_> {
    fn f(&self, cls: usize) -> Vals {
        self.read(2 * cls as u32)
    }
    fn g(&self, cls: usize) -> Vals {
        self.read(2 * cls as u32 + 1)
    }
    fn best(&self, cls: usize) -> u8 {
        self.work.best(cls)
    }
    fn ws_best(&self, cls: usize) -> u8 {
        self.work.ws_best(cls)
    }
    /// The entry the equation's component reads: the phase's own best decides (in the win
    /// and score passes `ws_best` is `best`).
    fn banned(&self, cls: usize, _ws_g: bool, act_g: bool) -> Vals {
        self.read(2 * cls as u32 + act_g as u32)
    }
}

/// The equations of the policy recorded by the last [`sweep`] in `phase`: for every class of
/// thread `me`'s share of a sweep, the rows of its `F` and `G`.
#[allow(clippy::too_many_arguments)]
pub(super) fn policy_rows(
    lv: &Level,
    work: &Work,
    order: &[u32],
    steps: &Steps,
    rows: &[std::sync::Mutex<Rows>],
    me: usize,
    threads: usize,
    phase: usize,
) {
    let mut mine = rows[me].lock().expect("rows");
    mine.clear();
    let mut buf = Buf::default();
    for p in share(order.len(), me, threads) {
        let cls = order[p] as usize;
        let Some(k) = steps.of(lv, p, cls, &mut buf) else {
            continue;
        };
        let mut out = [Row {
            n: NO_ROW,
            ..Row::default()
        }; 2];
        let cell = &work.cells[cls];
        let rerolls = cell.rerolls.load(Relaxed);
        let (best, second) = (cell.best.load(Relaxed), cell.second.load(Relaxed));
        for (i, (id, reroll)) in [(best, rerolls & 1 != 0), (second, rerolls & 2 != 0)]
            .into_iter()
            .enumerate()
        {
            if id == NO_ACT {
                continue;
            }
            let rec = Recorder {
                work,
                row: Default::default(),
            };
            let b = lv.policy_value_of(&rec, &k, id, reroll, phase)[phase];
            out[i] = rec.row(b);
        }
        mine.push((cls as u32, out));
    }
}

/// The equation of one action of the free configuration `k` with its stay/reroll choice fixed.
pub(super) fn policy_row(
    lv: &Level,
    work: &Work,
    k: &Cursor,
    id: u8,
    reroll: bool,
    phase: usize,
) -> Row {
    let rec = Recorder {
        work,
        row: Default::default(),
    };
    let b = lv.policy_value(&rec, k, id, reroll, phase)[phase];
    rec.row(b)
}

/// One thread's policy equations packed for sweeping ([`pack`]): the rows that read values,
/// each as its constant, the value it sets and its number of entries, and all their entries
/// in one array; in sweep order. A row that reads nothing (a win, `end`, a held value) is
/// constant and set once when packing.
#[derive(Default)]
pub(super) struct Packed {
    rows: Vec<(f64, u32, u32)>,
    e: Vec<u32>,
}

/// `1 / n` for the rows' weights ([`policy_row`]: `w = 1 / n`, the same bits).
const INV: [f64; MAXF + 1] = {
    let mut inv = [0.0; MAXF + 1];
    let mut n = 1;
    while n <= MAXF {
        inv[n] = 1.0 / n as f64;
        n += 1;
    }
    inv
};

/// Packs one thread's equations ([`policy_rows`]) into `out` for [`policy_sweep`], and sets
/// the constant rows' values in `x`.
pub(super) fn pack(x: &[AtomicU64], rows: &[(u32, [Row; 2])], out: &mut Packed) {
    out.rows.clear();
    out.e.clear();
    for (cls, r) in rows {
        for (fg, row) in r.iter().enumerate() {
            let at = 2 * cls + fg as u32;
            match row.n {
                NO_ROW => {}
                0 => x[at as usize].store(row.b.to_bits(), Relaxed),
                n => {
                    debug_assert_eq!(row.w, INV[n as usize]);
                    out.rows.push((row.b, at, n as u32));
                    out.e.extend_from_slice(&row.e[..n as usize]);
                }
            }
        }
    }
}

/// One Gauss–Seidel sweep of one thread's packed policy equations ([`pack`]) on `x`, the
/// `phase` component of every `F` and `G` interleaved by class. Only that component changes;
/// the policy (and so which of `F`/`G` a ban selects) stays fixed. Returns the largest change.
///
/// Win probability and score start below the least fixed point and an update by a fixed
/// policy never exceeds the Bellman operator, so they stay lower bounds (modified policy
/// iteration from below); for actions the fixed point is unique, so an overshoot is
/// corrected. Either way a pass ends only on a full Bellman sweep that moves nothing by its
/// tolerance. (Over-relaxation diverged: a greedy policy can loop forever, which makes its
/// equations singular. Skipping states that had settled below the tolerance cost more
/// Bellman sweeps than it saved: the slow loops reach almost every state.)
pub(super) fn policy_sweep(x: &[AtomicU64], p: &Packed) -> f64 {
    let get = |i: u32| f64::from_bits(x[i as usize].load(Relaxed));
    let mut delta = 0.0f64;
    let mut e = p.e.as_slice();
    for &(b, at, n) in &p.rows {
        let (mine, rest) = e.split_at(n as usize);
        e = rest;
        let mut sum = 0.0;
        for &v in mine {
            sum += get(v);
        }
        let y = b + INV[n as usize] * sum;
        delta = delta.max((y - get(at)).abs());
        x[at as usize].store(y.to_bits(), Relaxed);
    }
    delta
}
