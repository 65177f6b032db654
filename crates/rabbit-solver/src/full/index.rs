//! Dense ranks of configurations: a mixed radix over the ranks of the six per-colour multisets
//! (black table and hand, red…, white…), so that a neighbour's rank is a few additions and
//! look-ups; and the ids of swaps.

// Values are small fixed arrays indexed in step with other arrays; index loops read clearest.
#![allow(clippy::needless_range_loop)]

use std::sync::{Arc, OnceLock};

use super::symmetry::{Orbits, PerModel, per_model};
use crate::model::{Class, Config, MAXF, Model, table_splits, value_counts};

/// Radix of the per-colour value codes (a colour has at most 5 dice, so counts fit).
pub(super) const BASE: u32 = 6;
/// The action id of `end` (swaps are `0..72`).
pub const END_ID: u8 = 255;

/// Dense ranks of configurations and of tables (the table part alone).
#[derive(Debug, Clone)]
pub struct Index {
    pub m: Model,
    pub(super) pw: [u32; MAXF],
    /// Rank of a multiset among those of its size, by code.
    idx: Vec<u32>,
    /// Multisets of each size as counts, in rank order.
    msets: Vec<Vec<[u8; MAXF]>>,
    /// Per split `(wt, bt)`: offset and the six radices (black table, black hand, red…, white…).
    splits: Vec<Split>,
    split_of: [[u8; 7]; 2],
    pub total: usize,
    pub tables: usize,
    /// The symmetry classes, built on first use (seconds for the full game) and shared by
    /// clones and by every index of the model.
    orbits: Arc<OnceLock<Arc<Orbits>>>,
}

#[derive(Debug, Clone, Copy)]
struct Split {
    wt: u8,
    bt: u8,
    offset: usize,
    dims: [u32; 6],
    table_offset: usize,
}

const NO_SPLIT: u8 = u8::MAX;

impl Index {
    pub fn new(m: Model) -> Index {
        assert!((3..=MAXF as u8).contains(&m.faces) && m.blacks <= 5 && m.reds <= 5);
        let f = m.faces as usize;
        let mut pw = [0u32; MAXF];
        for (v, p) in pw.iter_mut().enumerate() {
            *p = BASE.pow(v as u32);
        }
        let mut msets: Vec<Vec<[u8; MAXF]>> = vec![Vec::new(); 6];
        let mut idx = vec![u32::MAX; BASE.pow(f as u32) as usize];
        for (k, list) in msets.iter_mut().enumerate() {
            *list = value_counts(k as u8, m.faces);
            for (i, c) in list.iter().enumerate() {
                idx[code(&pw, c) as usize] = i as u32;
            }
        }
        let mut msize = [0u32; 7];
        for k in 0..6 {
            msize[k] = msets[k].len() as u32;
        }
        let mut splits = Vec::new();
        let mut split_of = [[NO_SPLIT; 7]; 2];
        let (mut total, mut tables) = (0usize, 0usize);
        for (wt, bt, rt) in table_splits(&m) {
            let dims = [
                msize[bt as usize],
                msize[(m.blacks - bt) as usize],
                msize[rt as usize],
                msize[(m.reds - rt) as usize],
                msize[wt as usize],
                msize[(1 - wt) as usize],
            ];
            split_of[wt as usize][bt as usize] = splits.len() as u8;
            splits.push(Split {
                wt,
                bt,
                offset: total,
                dims,
                table_offset: tables,
            });
            total += dims.iter().map(|&d| d as usize).product::<usize>();
            tables += (dims[0] * dims[2] * dims[4]) as usize;
        }
        Index {
            m,
            pw,
            idx,
            msets,
            splits,
            split_of,
            total,
            tables,
            orbits: Arc::default(),
        }
    }

    /// The configurations grouped by the symmetries of the rules ([`Orbits`]).
    pub fn orbits(&self) -> &Orbits {
        static ORBITS: PerModel<Orbits> = OnceLock::new();
        self.orbits
            .get_or_init(|| per_model(&ORBITS, self.m, || Orbits::new(self)))
    }

    /// How many symmetry classes there are: the length of every per-class array.
    pub fn classes(&self) -> usize {
        self.orbits().reps.len()
    }

    /// The rank from per-colour codes (table, hand) and the black and white table counts.
    #[inline]
    pub(super) fn rank_codes(&self, ct: &[u32; 3], ch: &[u32; 3], bt: u8, wt: u8) -> usize {
        let s = &self.splits[self.split_of[wt as usize][bt as usize] as usize];
        let d = &s.dims;
        let mut r = self.idx[ct[0] as usize] as usize;
        r = r * d[1] as usize + self.idx[ch[0] as usize] as usize;
        r = r * d[2] as usize + self.idx[ct[1] as usize] as usize;
        r = r * d[3] as usize + self.idx[ch[1] as usize] as usize;
        r = r * d[4] as usize + self.idx[ct[2] as usize] as usize;
        r = r * d[5] as usize + self.idx[ch[2] as usize] as usize;
        s.offset + r
    }

    #[inline]
    pub(super) fn table_rank_codes(&self, ct: &[u32; 3], bt: u8, wt: u8) -> usize {
        let s = &self.splits[self.split_of[wt as usize][bt as usize] as usize];
        let d = &s.dims;
        let mut r = self.idx[ct[0] as usize] as usize;
        r = r * d[2] as usize + self.idx[ct[1] as usize] as usize;
        r = r * d[4] as usize + self.idx[ct[2] as usize] as usize;
        s.table_offset + r
    }

    pub fn rank(&self, c: &Config) -> usize {
        let k = Cursor::of(self, c);
        self.rank_codes(&k.ct, &k.ch, k.kt[0], k.kt[2])
    }

    pub fn table_rank(&self, c: &Config) -> usize {
        let k = Cursor::of(self, c);
        self.table_rank_codes(&k.ct, k.kt[0], k.kt[2])
    }

    /// The configuration of a rank.
    pub fn config(&self, r: usize) -> Config {
        let s = self
            .splits
            .iter()
            .rev()
            .find(|s| s.offset <= r)
            .expect("rank in range");
        let mut x = r - s.offset;
        let mut digit = [0usize; 6];
        for i in (0..6).rev() {
            digit[i] = x % s.dims[i] as usize;
            x /= s.dims[i] as usize;
        }
        let rt = self.m.table - s.bt - s.wt;
        let sizes = [
            s.bt,
            self.m.blacks - s.bt,
            rt,
            self.m.reds - rt,
            s.wt,
            1 - s.wt,
        ];
        let mut c = Config::EMPTY;
        for col in 0..3 {
            c.t[col] = self.msets[sizes[2 * col] as usize][digit[2 * col]];
            c.h[col] = self.msets[sizes[2 * col + 1] as usize][digit[2 * col + 1]];
        }
        c
    }

    /// Every table composition (table counts; the hand holds the rest, all showing value 0).
    pub fn table_config(&self, tr: usize) -> Config {
        let s = self
            .splits
            .iter()
            .rev()
            .find(|s| s.table_offset <= tr)
            .expect("table rank in range");
        let mut x = tr - s.table_offset;
        let d2 = x % s.dims[4] as usize;
        x /= s.dims[4] as usize;
        let d1 = x % s.dims[2] as usize;
        let d0 = x / s.dims[2] as usize;
        let rt = self.m.table - s.bt - s.wt;
        let mut c = Config::EMPTY;
        c.t[0] = self.msets[s.bt as usize][d0];
        c.t[1] = self.msets[rt as usize][d1];
        c.t[2] = self.msets[s.wt as usize][d2];
        c.h[0][0] = self.m.blacks - s.bt;
        c.h[1][0] = self.m.reds - rt;
        c.h[2][0] = 1 - s.wt;
        c
    }
}

fn code(pw: &[u32; MAXF], c: &[u8; MAXF]) -> u32 {
    c.iter().zip(pw).map(|(&n, &p)| n as u32 * p).sum()
}

/// A configuration with its per-colour codes, for cheap ranks of its neighbours.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cursor {
    pub(super) c: Config,
    /// Per colour, the codes of its table and hand multisets and its dice on the table.
    pub(super) ct: [u32; 3],
    pub(super) ch: [u32; 3],
    pub(super) kt: [u8; 3],
}

impl Cursor {
    pub(super) fn of(ix: &Index, c: &Config) -> Cursor {
        let mut k = Cursor {
            c: *c,
            ct: [0; 3],
            ch: [0; 3],
            kt: [0; 3],
        };
        for col in 0..3 {
            k.ct[col] = code(&ix.pw, &c.t[col]);
            k.ch[col] = code(&ix.pw, &c.h[col]);
            k.kt[col] = c.t[col].iter().sum();
        }
        k
    }

    /// The table codes, hand codes and table counts after the swap of hand `h` for table `t`.
    #[inline]
    pub(super) fn swapped(&self, pw: &[u32; MAXF], h: Class, t: Class) -> Codes {
        let (hc, hv, tc, tv) = (h.c as usize, h.v as usize, t.c as usize, t.v as usize);
        let (mut ct, mut ch, mut kt) = (self.ct, self.ch, self.kt);
        ch[hc] -= pw[hv];
        ct[hc] += pw[hv];
        ct[tc] -= pw[tv];
        ch[tc] += pw[tv];
        kt[hc] += 1;
        kt[tc] -= 1;
        (ct, ch, kt)
    }
}

/// Table codes, hand codes and table counts per colour, as in [`Cursor`].
pub(super) type Codes = ([u32; 3], [u32; 3], [u8; 3]);

/// The id of the swap of hand class `h` for table class `t` (they differ in colour and are
/// neighbours).
#[inline]
pub fn swap_id(m: &Model, h: Class, t: Class) -> u8 {
    let tsel = if t.c == (h.c + 1) % 3 { 0 } else { 1 };
    let up = if h.v + 1 == m.faces { 0 } else { h.v + 1 };
    let dir = if t.v == up { 0 } else { 1 };
    ((h.c * 6 + h.v) * 2 + tsel) * 2 + dir
}

/// The hand and table classes of a swap id (the inverse of [`swap_id`]).
#[inline]
pub fn swap_of(m: &Model, id: u8) -> (Class, Class) {
    let (dir, tsel, hcv) = (id & 1, (id >> 1) & 1, id >> 2);
    let h = Class {
        c: hcv / 6,
        v: hcv % 6,
    };
    let tc = (h.c + 1 + tsel) % 3;
    let tv = if dir == 0 {
        if h.v + 1 == m.faces { 0 } else { h.v + 1 }
    } else if h.v == 0 {
        m.faces - 1
    } else {
        h.v - 1
    };
    (h, Class { c: tc, v: tv })
}

/// Calls `f(hand, table)` for every swap of a free configuration (bans aside).
#[inline]
pub(super) fn for_each_swap(m: &Model, k: &Cursor, mut f: impl FnMut(Class, Class)) {
    for hc in 0..3u8 {
        for hv in 0..m.faces {
            if k.c.h[hc as usize][hv as usize] == 0 {
                continue;
            }
            for tc in 0..3u8 {
                if tc == hc {
                    continue;
                }
                for tv in 0..m.faces {
                    if k.c.t[tc as usize][tv as usize] != 0 && m.adjacent(hv, tv) {
                        f(Class { c: hc, v: hv }, Class { c: tc, v: tv });
                    }
                }
            }
        }
    }
}
