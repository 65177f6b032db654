//! Where every class's swaps lead, found once per level: a Bellman sweep and the writing of a
//! policy's equations then read each swap's located [`Step`] instead of computing the
//! neighbours' ranks and looking up their classes again (a few hundred MB for the full classic
//! game; looked up anew each time when that would take more than [`BUDGET`]).
//!
//! Stored in sweep order (position `p` of the order is class `order[p]`), so that a sweep
//! reads them front to back.

use super::index::{Cursor, for_each_swap, swap_id};
use super::level::{Level, Step};
use super::sweep::on_threads;
use super::values::MAX_ACTS;

/// The most memory the located steps may take; above it they are found on the fly.
pub(super) const BUDGET: usize = 1 << 30;

/// The table rank of a won class (it has nothing to decide).
const WON: u32 = u32::MAX;

/// Every swap of every class located ([`Level::step`], [`Level::locate`]), in sweep order;
/// or nothing, when that takes more than [`BUDGET`].
pub(super) struct Steps {
    /// Per position of the order, where its swaps start (one more entry at the end).
    start: Vec<u32>,
    steps: Vec<Step>,
    ids: Vec<u8>,
    /// Per position, the rank of the table (for `end`), or [`WON`].
    table: Vec<u32>,
    /// How many swaps there are, kept or not.
    pub(super) swaps: u64,
}

/// One class's swaps and the rank of its table.
#[derive(Clone, Copy)]
pub(super) struct ClassSteps<'a> {
    pub(super) steps: &'a [Step],
    pub(super) ids: &'a [u8],
    pub(super) table: usize,
}

/// Room for one class's swaps found on the fly.
pub(super) struct Buf {
    steps: [Step; MAX_ACTS],
    ids: [u8; MAX_ACTS],
}

impl Default for Buf {
    fn default() -> Buf {
        Buf {
            steps: [Step::NONE; MAX_ACTS],
            ids: [0; MAX_ACTS],
        }
    }
}

impl Steps {
    /// Locates every swap of every class of `order` on `threads` threads, if that fits in
    /// [`BUDGET`].
    pub(super) fn new(lv: &Level, order: &[u32], threads: usize) -> Steps {
        let ix = lv.ix;
        let m = &ix.m;
        let n = order.len();
        let chunk = n.div_ceil(threads);
        let range = |i: usize| (i * chunk).min(n)..((i + 1) * chunk).min(n);
        // First how many swaps each class has, and its table.
        let counts = on_threads(threads, |i| {
            range(i)
                .map(|p| {
                    let c = ix.config(lv.orb.reps[order[p] as usize] as usize);
                    if c.won(m) {
                        return (0, WON);
                    }
                    let k = Cursor::of(ix, &c);
                    let mut swaps = 0u32;
                    for_each_swap(m, &k, |_, _| swaps += 1);
                    (swaps, ix.table_rank_codes(&k.ct, k.kt[0], k.kt[2]) as u32)
                })
                .collect::<Vec<_>>()
        });
        let mut start = Vec::with_capacity(n + 1);
        let mut table = Vec::with_capacity(n);
        let mut total = 0u64;
        start.push(0);
        for (swaps, t) in counts.into_iter().flatten() {
            total += swaps as u64;
            start.push(total as u32);
            table.push(t);
        }
        let bytes = total as usize * (std::mem::size_of::<Step>() + 1);
        if bytes > BUDGET || total > u32::MAX as u64 {
            return Steps {
                start: Vec::new(),
                steps: Vec::new(),
                ids: Vec::new(),
                table: Vec::new(),
                swaps: total,
            };
        }
        let mut steps = vec![Step::NONE; total as usize];
        let mut ids = vec![0u8; total as usize];
        std::thread::scope(|sc| {
            let (mut rest_s, mut rest_i) = (&mut steps[..], &mut ids[..]);
            for i in 0..threads {
                let r = range(i);
                let len = (start[r.end] - start[r.start]) as usize;
                let (s, more_s) = rest_s.split_at_mut(len);
                let (d, more_i) = rest_i.split_at_mut(len);
                (rest_s, rest_i) = (more_s, more_i);
                let table = &table;
                sc.spawn(move || {
                    let mut j = 0;
                    for p in r {
                        if table[p] == WON {
                            continue;
                        }
                        let c = ix.config(lv.orb.reps[order[p] as usize] as usize);
                        let k = Cursor::of(ix, &c);
                        for_each_swap(m, &k, |h, t| {
                            s[j] = lv.step(&k, h, t);
                            lv.locate(&mut s[j]);
                            d[j] = swap_id(m, h, t);
                            j += 1;
                        });
                    }
                });
            }
        });
        Steps {
            start,
            steps,
            ids,
            table,
            swaps: total,
        }
    }

    /// The memory the located swaps take (0 when they are found on the fly).
    pub(super) fn bytes(&self) -> usize {
        self.steps.len() * (std::mem::size_of::<Step>() + 1) + self.start.len() * 8
    }

    /// The swaps of the class at position `p` of the order (`cls = order[p]`), from the store
    /// or found into `buf`; `None` for a won class.
    #[inline]
    pub(super) fn of<'a>(
        &'a self,
        lv: &Level,
        p: usize,
        cls: usize,
        buf: &'a mut Buf,
    ) -> Option<ClassSteps<'a>> {
        if !self.start.is_empty() {
            let t = self.table[p];
            if t == WON {
                return None;
            }
            let (a, b) = (self.start[p] as usize, self.start[p + 1] as usize);
            return Some(ClassSteps {
                steps: &self.steps[a..b],
                ids: &self.ids[a..b],
                table: t as usize,
            });
        }
        let ix = lv.ix;
        let m = &ix.m;
        let c = ix.config(lv.orb.reps[cls] as usize);
        if c.won(m) {
            return None;
        }
        let k = Cursor::of(ix, &c);
        let mut n = 0;
        for_each_swap(m, &k, |h, t| {
            buf.steps[n] = lv.step(&k, h, t);
            lv.locate(&mut buf.steps[n]);
            buf.ids[n] = swap_id(m, h, t);
            n += 1;
        });
        Some(ClassSteps {
            steps: &buf.steps[..n],
            ids: &buf.ids[..n],
            table: ix.table_rank_codes(&k.ct, k.kt[0], k.kt[2]),
        })
    }
}
