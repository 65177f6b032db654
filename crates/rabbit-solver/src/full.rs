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
//! (When two actions are within [`EPS`] of each other without being equal, banning the one
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

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use crate::exact::{EPS, Vals};
use crate::model::{Act, BLACK, Class, Config, MAXF, Model, RED, State, WHITE, hand_rolls};

/// Radix of the per-colour value codes (a colour has at most 5 dice, so counts fit).
const BASE: u32 = 6;
/// The action id of `end` (swaps are `0..72`).
pub const END_ID: u8 = 255;

/// Dense ranks of configurations and of tables (the table part alone).
#[derive(Debug, Clone)]
pub struct Index {
    pub m: Model,
    pw: [u32; MAXF],
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
            gen_msets(k as u8, f, 0, &mut [0; MAXF], list);
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
        for wt in 0..=1u8 {
            for bt in 0..=m.blacks.min(m.table) {
                let Some(rt) = m.table.checked_sub(bt + wt) else {
                    continue;
                };
                if rt > m.reds {
                    continue;
                }
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
    fn rank_codes(&self, ct: &[u32; 3], ch: &[u32; 3], bt: u8, wt: u8) -> usize {
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
    fn table_rank_codes(&self, ct: &[u32; 3], bt: u8, wt: u8) -> usize {
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

fn gen_msets(left: u8, f: usize, v: usize, cur: &mut [u8; MAXF], out: &mut Vec<[u8; MAXF]>) {
    if v + 1 == f {
        cur[v] = left;
        out.push(*cur);
        cur[v] = 0;
        return;
    }
    for k in 0..=left {
        cur[v] = k;
        gen_msets(left - k, f, v + 1, cur, out);
    }
    cur[v] = 0;
}

/// A configuration with its per-colour codes, for cheap ranks of its neighbours.
#[derive(Debug, Clone, Copy)]
struct Cursor {
    c: Config,
    ct: [u32; 3],
    ch: [u32; 3],
    kt: [u8; 3],
}

impl Cursor {
    fn of(ix: &Index, c: &Config) -> Cursor {
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
}

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

/// A symmetry of the rules: the values, the adjacency of swaps, the win (six equal values with
/// the white die in the hand) and the hand's rolls look the same after it. Black and red trade
/// places when they have as many dice; values map by `v -> ±v + shift` around the wrap
/// (the dihedral group of the faces' cycle), or by the mirror `v -> faces - 1 - v` without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sym {
    colours: bool,
    flip: bool,
    shift: u8,
}

impl Sym {
    /// Every symmetry of a model, the identity first: 24 with the wrap, 4 without (full game).
    fn all(m: &Model) -> Vec<Sym> {
        let mut out = Vec::new();
        for colours in [false, true] {
            if colours && m.blacks != m.reds {
                continue;
            }
            for flip in [false, true] {
                for shift in 0..if m.wrap { m.faces } else { 1 } {
                    out.push(Sym {
                        colours,
                        flip,
                        shift,
                    });
                }
            }
        }
        out
    }

    fn value(&self, m: &Model, v: u8) -> u8 {
        let f = m.faces;
        match (m.wrap, self.flip) {
            (true, flip) => ((if flip { (f - v) % f } else { v }) + self.shift) % f,
            (false, true) => f - 1 - v,
            (false, false) => v,
        }
    }

    fn colour(&self, c: u8) -> u8 {
        if self.colours && c != WHITE { 1 - c } else { c }
    }

    fn class(&self, m: &Model, k: Class) -> Class {
        Class {
            c: self.colour(k.c),
            v: self.value(m, k.v),
        }
    }

    fn config(&self, m: &Model, c: &Config) -> Config {
        let mut out = Config::EMPTY;
        for col in 0..3u8 {
            for v in 0..m.faces {
                let to = self.class(m, Class { c: col, v });
                out.t[to.c as usize][to.v as usize] = c.t[col as usize][v as usize];
                out.h[to.c as usize][to.v as usize] = c.h[col as usize][v as usize];
            }
        }
        out
    }
}

/// Bits of [`Orbits::of`] that name the symmetry.
const SYM_BITS: u32 = 5;

/// The configurations grouped into classes of configurations that are images of one another
/// under a [`Sym`]. Their values are equal (a symmetry maps optimal play to optimal play), so
/// the solver keeps one entry per class: 1/24 of the configurations with the wrap, 1/4
/// without. Each class is represented by its configuration of least rank.
#[derive(Debug)]
pub struct Orbits {
    /// Per configuration rank: its class, shifted left by [`SYM_BITS`], and the symmetry that
    /// maps the class's representative onto it.
    of: Vec<u32>,
    /// Per class: the rank of its representative.
    pub reps: Vec<u32>,
    /// Per symmetry: an action id of the representative mapped to the configuration's.
    acts: Vec<[u8; 256]>,
}

impl Orbits {
    fn new(ix: &Index) -> Orbits {
        let m = &ix.m;
        let syms = Sym::all(m);
        assert!(syms.len() <= 1 << SYM_BITS && ix.total < 1 << (32 - SYM_BITS));
        let mut of = vec![u32::MAX; ix.total];
        let mut reps = Vec::new();
        for r in 0..ix.total {
            if of[r] != u32::MAX {
                continue;
            }
            // The least rank not yet seen: its whole orbit is unseen.
            let cls = reps.len() as u32;
            reps.push(r as u32);
            let c = ix.config(r);
            for (e, s) in syms.iter().enumerate() {
                let image = ix.rank(&s.config(m, &c));
                if of[image] == u32::MAX {
                    of[image] = cls << SYM_BITS | e as u32;
                }
            }
        }
        let acts = syms
            .iter()
            .map(|s| {
                let mut a: [u8; 256] = std::array::from_fn(|i| i as u8);
                for hc in 0..3u8 {
                    for hv in 0..m.faces {
                        for tc in (0..3u8).filter(|&tc| tc != hc) {
                            for tv in (0..m.faces).filter(|&tv| m.adjacent(hv, tv)) {
                                let (h, t) = (Class { c: hc, v: hv }, Class { c: tc, v: tv });
                                a[swap_id(m, h, t) as usize] =
                                    swap_id(m, s.class(m, h), s.class(m, t));
                            }
                        }
                    }
                }
                a
            })
            .collect();
        Orbits { of, reps, acts }
    }

    /// The class of a configuration rank, and the symmetry from its representative.
    #[inline]
    pub fn class_of(&self, r: usize) -> (usize, u8) {
        let x = self.of[r];
        ((x >> SYM_BITS) as usize, (x & ((1 << SYM_BITS) - 1)) as u8)
    }

    /// An action id of a class's representative as an action of the configuration that the
    /// symmetry `e` maps it to ([`END_ID`] and the like unchanged).
    #[inline]
    pub fn act(&self, e: u8, id: u8) -> u8 {
        self.acts[e as usize][id as usize]
    }

    /// The class of the configuration of rank `r` and, in its own frame, the actions whose ban
    /// selects `G` under `vals`: for win and score ([`Values::ws_best`]) and for actions
    /// ([`Values::best`]).
    #[inline]
    fn bests(&self, vals: &impl Values, r: usize) -> (usize, [u8; 2]) {
        let (cls, e) = self.class_of(r);
        (
            cls,
            [self.act(e, vals.ws_best(cls)), self.act(e, vals.best(cls))],
        )
    }
}

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
fn combine(q: &[Vals], phase: usize, skip: usize) -> (Vals, usize) {
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
const MAX_ACTS: usize = 80;

/// Among a class's actions `ids`, the index of the one its value `at` bans in `phase`: none
/// for an `F` (`usize::MAX`), for a `G` the best action ([`Values::ws_best`] for win and
/// score, [`Values::best`] for actions).
fn ban_index(work: &Work, at: u32, ids: &[u8], phase: usize) -> usize {
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

/// Everything one level's sweep needs besides the values themselves.
struct Level<'a> {
    ix: &'a Index,
    orb: &'a Orbits,
    green: f64,
    /// Turn-start values one level down, by table rank (`None` at level 1: `end` loses).
    below: Option<&'a [Vals]>,
}

impl Level<'_> {
    fn win(&self) -> Vals {
        [1.0, self.green, 0.0]
    }

    /// Value of `end` (the action itself not counted).
    #[inline]
    fn end_value(&self, k: &Cursor) -> Vals {
        match self.below {
            None => [0.0; 3],
            Some(b) => b[self.ix.table_rank_codes(&k.ct, k.kt[0], k.kt[2])],
        }
    }

    /// The values of the state after the swap of hand `h` for table `t` from `k` (with the
    /// reroll pending and the reverse swap banned), not counting the swap, and whether the
    /// reroll is taken there. `fixed`: evaluate only that choice (a fixed policy) instead of
    /// the better of staying and rerolling.
    #[inline]
    fn after_swap(
        &self,
        vals: &impl Values,
        k: &Cursor,
        h: Class,
        t: Class,
        phase: usize,
        fixed: Option<bool>,
    ) -> (Vals, bool) {
        let m = &self.ix.m;
        let pw = &self.ix.pw;
        let (hc, hv, tc, tv) = (h.c as usize, h.v as usize, t.c as usize, t.v as usize);
        // Won at once: white in the hand and the table all showing `hv`.
        if hc != WHITE as usize
            && (tc == WHITE as usize || k.kt[WHITE as usize] == 0)
            && k.c.t[BLACK as usize][hv] + k.c.t[RED as usize][hv] + 1 == m.table
        {
            return (self.win(), false);
        }
        let mut ct = k.ct;
        let mut ch = k.ch;
        let mut kt = k.kt;
        ch[hc] -= pw[hv];
        ct[hc] += pw[hv];
        ct[tc] -= pw[tv];
        ch[tc] += pw[tv];
        kt[hc] += 1;
        kt[tc] -= 1;
        let r = self.ix.rank_codes(&ct, &ch, kt[0], kt[2]);
        // The reverse swap is blocked only if both dice are the only ones of their class.
        let h_single_on_table = k.c.t[hc][hv] == 0;
        let value = |r: usize, tval: u8, hand_single: bool| {
            if !(hand_single && h_single_on_table && m.adjacent(tval, h.v)) {
                return vals.f(self.orb.class_of(r).0);
            }
            let (cls, bests) = self.orb.bests(vals, r);
            let reverse = swap_id(m, Class { c: t.c, v: tval }, h);
            vals.banned(cls, bests[0] == reverse, bests[1] == reverse)
        };
        let stay = || value(r, t.v, k.c.h[tc][tv] == 0);
        // The reroll: the old value lifts the ban; a new one moves it to the new value.
        let reroll = || {
            let mut sum = vals.f(self.orb.class_of(r).0);
            for v in 0..m.faces as usize {
                if v == tv {
                    continue;
                }
                let mut ch2 = ch;
                ch2[tc] = ch[tc] - pw[tv] + pw[v];
                let r2 = self.ix.rank_codes(&ct, &ch2, kt[0], kt[2]);
                let x = value(r2, v as u8, k.c.h[tc][v] == 0);
                for i in 0..3 {
                    sum[i] += x[i];
                }
            }
            let n = m.faces as f64;
            [sum[0] / n, sum[1] / n, 1.0 + sum[2] / n]
        };
        match fixed {
            Some(false) => (stay(), false),
            Some(true) => (reroll(), true),
            None => {
                let q = [stay(), reroll()];
                let (x, pick) = combine(&q, phase, usize::MAX);
                (x, pick == 1)
            }
        }
    }

    /// The values of one action of the free configuration `k` with its stay/reroll choice
    /// fixed (the action counted): one step of a fixed policy.
    #[inline]
    fn policy_value(
        &self,
        vals: &impl Values,
        k: &Cursor,
        id: u8,
        reroll: bool,
        phase: usize,
    ) -> Vals {
        if id == END_ID {
            let e = self.end_value(k);
            return [e[0], e[1], 1.0 + e[2]];
        }
        let (h, t) = swap_of(&self.ix.m, id);
        let x = self.after_swap(vals, k, h, t, phase, Some(reroll)).0;
        [x[0], x[1], 1.0 + x[2]]
    }

    /// The free configuration of a class's representative.
    fn cursor(&self, cls: usize) -> Cursor {
        Cursor::of(self.ix, &self.ix.config(self.orb.reps[cls] as usize))
    }

    /// The actions of the class's `F` (`at = 2·class`) or `G` (`at = 2·class + 1`) in the
    /// actions pass, with the indices of those as good in win and score as the best of them
    /// (for `G`, the best action of the last sweep excluded).
    #[allow(clippy::type_complexity)]
    fn choices(
        &self,
        work: &Work,
        at: u32,
    ) -> (
        Cursor,
        [Vals; MAX_ACTS],
        [u8; MAX_ACTS],
        [bool; MAX_ACTS],
        Vec<usize>,
    ) {
        let cls = (at / 2) as usize;
        let k = self.cursor(cls);
        let (mut q, mut ids, mut rr) = ([[0.0; 3]; MAX_ACTS], [0u8; MAX_ACTS], [false; MAX_ACTS]);
        let na = self.actions(work, &k, 2, &mut q, &mut ids, &mut rr);
        let skip = ban_index(work, at, &ids[..na], 2);
        let (top, _) = combine(&q[..na], 1, skip);
        let allowed = (0..na)
            .filter(|&i| i != skip && q[i][0] >= top[0] - EPS && q[i][1] >= top[1] - EPS)
            .collect();
        (k, q, ids, rr, allowed)
    }

    /// Solves win probability and score again, from below, on a stuck loop of the actions
    /// pass and the values that lead into it ([`basin`]; `next`: the policy's
    /// [`successors`]), everything else held: `F`s and `G`s that lead only round the loop,
    /// no action as good in win and score leading off it, so that the actions pass has no
    /// finite answer there and its sweeps raise the loop by its length each time. Win and
    /// score passes settle such a loop at any level its own equations keep (`x = x'` holds
    /// for every constant), and a ban switching between `F` and `G` while they run can leave
    /// it above what its ways out are worth; solved again with the bans fixed, it takes the
    /// value of its best way out. Returns the number of values and the largest win and score
    /// among them before and after.
    fn resolve_loop(
        &self,
        work: &Work,
        cycle: &[u32],
        next: &[u32],
        tol: [f64; 3],
    ) -> (usize, Vals, Vals) {
        let part = basin(next, cycle);
        let top = |work: &Work| {
            part.iter().fold([0.0f64; 3], |a, &at| {
                let base = 3 * (at % 2) as usize;
                let cls = (at / 2) as usize;
                [
                    a[0].max(work.get(cls, base)),
                    a[1].max(work.get(cls, base + 1)),
                    0.0,
                ]
            })
        };
        let from = top(work);
        let cursors: Vec<Cursor> = part
            .iter()
            .map(|&at| self.cursor((at / 2) as usize))
            .collect();
        let (mut q, mut ids, mut rr) = ([[0.0; 3]; MAX_ACTS], [0u8; MAX_ACTS], [false; MAX_ACTS]);
        for phase in 0..2 {
            // The same lower bounds as the passes start from: `end`'s win probability, and a
            // score of at least the win probability.
            for (&at, k) in part.iter().zip(&cursors) {
                let (cls, base) = ((at / 2) as usize, 3 * (at % 2) as usize);
                let x = if phase == 0 {
                    self.end_value(k)[0]
                } else {
                    work.get(cls, base)
                };
                work.set(cls, base + phase, x);
            }
            // A budget of about a minute of sweeps however large the part.
            for _ in 0..(100_000_000 / part.len().max(1)).clamp(100, 10_000) {
                let mut delta = 0.0f64;
                for (&at, k) in part.iter().zip(&cursors) {
                    let (cls, base) = ((at / 2) as usize, 3 * (at % 2) as usize);
                    let na = self.actions(work, k, phase, &mut q, &mut ids, &mut rr);
                    let x =
                        combine(&q[..na], phase, ban_index(work, at, &ids[..na], phase)).0[phase];
                    delta = delta.max((x - work.get(cls, base + phase)).abs());
                    work.set(cls, base + phase, x);
                }
                if delta < tol[phase] {
                    break;
                }
            }
        }
        (part.len(), from, top(work))
    }

    /// One line on a value of the actions pass and its choices as good in win and score
    /// (action id, expected actions, the values its equation reads), for the log.
    fn describe(&self, work: &Work, at: u32) -> String {
        use std::fmt::Write;
        let (cls, fg) = (
            (at / 2) as usize,
            if at.is_multiple_of(2) { "F" } else { "G" },
        );
        let (k, q, ids, rr, allowed) = self.choices(work, at);
        let mut line = format!(
            "class {cls} {fg} {:?} best {} (by win and score {}) second {}:",
            if at.is_multiple_of(2) {
                work.f(cls)
            } else {
                work.g(cls)
            },
            work.best(cls),
            work.ws_best(cls),
            work.cells[cls].second.load(Relaxed)
        );
        for i in allowed {
            let row = policy_row(self, work, &k, ids[i], rr[i], 2);
            let _ = write!(
                line,
                " {}{}={:.4}->{:?}",
                ids[i],
                if rr[i] { "r" } else { "" },
                q[i][2],
                &row.e[..row.n as usize]
            );
        }
        line
    }

    /// Every action of the free configuration `k` with its values (this action counted).
    fn actions(
        &self,
        vals: &impl Values,
        k: &Cursor,
        phase: usize,
        q: &mut [Vals; MAX_ACTS],
        ids: &mut [u8; MAX_ACTS],
        rr: &mut [bool; MAX_ACTS],
    ) -> usize {
        let m = &self.ix.m;
        let mut n = 0;
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
                        if k.c.t[tc as usize][tv as usize] == 0 || !m.adjacent(hv, tv) {
                            continue;
                        }
                        let h = Class { c: hc, v: hv };
                        let t = Class { c: tc, v: tv };
                        let (x, reroll) = self.after_swap(vals, k, h, t, phase, None);
                        q[n] = [x[0], x[1], 1.0 + x[2]];
                        ids[n] = swap_id(m, h, t);
                        rr[n] = reroll;
                        n += 1;
                    }
                }
            }
        }
        let e = self.end_value(k);
        q[n] = [e[0], e[1], 1.0 + e[2]];
        ids[n] = END_ID;
        rr[n] = false;
        n + 1
    }
}

/// The working arrays of one level: `F`, `G` and the best action per configuration, updated in
/// place by both threads (relaxed atomics: a sweep may read a neighbour's old or new value,
/// which Gauss–Seidel allows).
pub struct Work {
    cells: Vec<Cell>,
}

#[repr(align(64))]
#[derive(Default)]
struct Cell {
    v: [AtomicU64; 6],
    best: AtomicU8,
    /// The best action by win probability and score ([`Values::ws_best`]).
    ws_best: AtomicU8,
    /// The action of `G` ([`NO_ACT`] when `end` is the only action).
    second: AtomicU8,
    /// Bit 0: `best` rerolls after its swap; bit 1: `second` does.
    rerolls: AtomicU8,
}

/// No action (`G` of a state whose only action is `end`).
const NO_ACT: u8 = 254;

impl Work {
    fn new(n: usize) -> Work {
        Work {
            cells: (0..n).map(|_| Cell::default()).collect(),
        }
    }
    #[inline]
    fn get(&self, r: usize, i: usize) -> f64 {
        f64::from_bits(self.cells[r].v[i].load(Relaxed))
    }
    #[inline]
    fn set(&self, r: usize, i: usize, x: f64) {
        self.cells[r].v[i].store(x.to_bits(), Relaxed)
    }
}

impl Values for Work {
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

/// How a level's solve went.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Bellman sweeps per phase (win, score, actions).
    pub sweeps: [u32; 3],
    /// Policy-evaluation sweeps per phase.
    pub policy_sweeps: [u32; 3],
    pub seconds: f64,
}

/// Stopping tolerances per phase: sweeps stop once no value moved by more than this (win
/// probability, score, actions). The error of a value can exceed the last change (by the factor
/// `1 / (1 - rate)` of the geometric convergence), so the printed figures carry fewer digits.
pub const TOL: [f64; 3] = [1e-12, 1e-10, 1e-7];
/// Policy-evaluation sweeps after each Bellman sweep (modified policy iteration), at most;
/// 0 is plain value iteration. With the 6–1 wrap more did not pay.
pub const POLICY_SWEEPS: u32 = 20;
/// The same without the wrap: 20 sweeps rarely finish evaluating a policy there, and 60 take
/// fewer rounds and less time (150 more again; docs/white-rabbit.md).
pub const POLICY_SWEEPS_NO_WRAP: u32 = 60;

/// Bellman sweeps of the actions pass after which the policy's endless loops are left before
/// its equations are swept ([`leave_endless_loops`]), if going round did not switch that on
/// earlier. Levels that converged without it took 12–18; on the mid-size model leaving loops
/// from the 3rd, 5th or 8th sweep on took as many sweeps, from the 1st about 25 times as many.
const LEAVE_LOOPS_AFTER: u32 = 12;

/// Rounds in a row a loop must be held (no way out as good in win and score) before it
/// counts as stuck and its win and score are solved again ([`Level::resolve_loop`]).
const STUCK_ROUNDS: u32 = 3;

/// The default cap on policy sweeps per round for a model.
pub fn policy_sweeps(m: &Model) -> u32 {
    if m.wrap {
        POLICY_SWEEPS
    } else {
        POLICY_SWEEPS_NO_WRAP
    }
}
/// Tighter tolerances for the reduced models (cheap there), as in [`crate::exact`].
pub const TIGHT: [f64; 3] = [1e-13, 1e-13, 1e-11];

/// Solves one green level. `below`: the turn-start values of level `green - 1` by table rank.
/// After every Bellman sweep that is not the last, up to `policy_sweeps` cheap sweeps of its
/// greedy policy (`policy_sweep`).
pub fn solve_level(
    ix: &Index,
    green: u8,
    below: Option<&[Vals]>,
    threads: usize,
    tol: [f64; 3],
    policy_sweeps: u32,
    log: impl FnMut(&str),
) -> (Work, Report) {
    let never = AtomicBool::new(false);
    solve_level_until(ix, green, below, threads, tol, policy_sweeps, &never, log)
        .expect("a solve that is never stopped ends")
}

/// [`solve_level`] that gives up (`None`) soon after `stop` is set: it is looked at before
/// every Bellman sweep and every policy sweep, a few seconds apart at most on the full game.
#[allow(clippy::too_many_arguments)]
pub fn solve_level_until(
    ix: &Index,
    green: u8,
    below: Option<&[Vals]>,
    threads: usize,
    tol: [f64; 3],
    policy_sweeps: u32,
    stop: &AtomicBool,
    mut log: impl FnMut(&str),
) -> Option<(Work, Report)> {
    let t0 = std::time::Instant::now();
    let orb = ix.orbits();
    let lv = Level {
        ix,
        orb,
        green: green as f64,
        below,
    };
    let classes = orb.reps.len();
    let work = Work::new(classes);
    let mut rep = Report::default();
    // Win probability starts from the value of `end` (achievable, so below the least fixed
    // point, and every sweep only raises it); `G` starts from 0.
    for r in 0..classes {
        let c = ix.config(orb.reps[r] as usize);
        let k = Cursor::of(ix, &c);
        if c.won(&ix.m) {
            let w = lv.win();
            for i in 0..3 {
                work.set(r, i, w[i]);
                work.set(r, 3 + i, w[i]);
            }
            work.cells[r].best.store(END_ID, Relaxed);
            work.cells[r].ws_best.store(END_ID, Relaxed);
        } else {
            work.set(r, 0, lv.end_value(&k)[0]);
            work.cells[r].best.store(END_ID, Relaxed);
            work.cells[r].ws_best.store(END_ID, Relaxed);
            work.cells[r].second.store(NO_ACT, Relaxed);
        }
    }
    let threads = threads.clamp(1, 8);
    let order = cached_order(ix, threads, &mut log);
    // Each thread's policy equations, in the order of its share of a sweep.
    let rows: Vec<std::sync::Mutex<Rows>> = (0..threads).map(|_| Default::default()).collect();
    for phase in 0..3 {
        // Start each later phase from a lower bound of its least fixed point: every win scores
        // at least 1, so the score is at least the win probability (and equal to it at level
        // 1); every unfinished state takes at least one more action.
        if phase > 0 {
            for r in 0..classes {
                if work.f(r)[0] == 1.0
                    && work.best(r) == END_ID
                    && ix.config(orb.reps[r] as usize).won(&ix.m)
                {
                    continue;
                }
                for base in [0, 3] {
                    let x = if phase == 1 { work.get(r, base) } else { 1.0 };
                    work.set(r, base + phase, x);
                }
            }
        }
        // The cap on policy sweeps, and the largest changes of the last two Bellman sweeps.
        let mut cap = policy_sweeps;
        let mut earlier = [f64::NAN; 2];
        let mut leave_loops = false;
        // Values held on loops with no way out in the last round: value iteration moves them
        // by a steady step, which is not going round.
        let mut held = 0;
        // Per value held, the rounds in a row it has been held.
        let mut held_rounds = std::collections::HashMap::new();
        loop {
            if stop.load(Relaxed) {
                return None;
            }
            let (delta, total_change) =
                on_threads(threads, |i| sweep(&lv, &work, &order, i, threads, phase))
                    .into_iter()
                    .fold((0.0f64, 0.0f64), |a, b| (a.0.max(b.0), a.1 + b.1));
            rep.sweeps[phase] += 1;
            log(&format!(
                "level {green} phase {phase} sweep {} delta {delta:.3e} mean {:.3e} setup {:?} ({:.1} s)",
                rep.sweeps[phase],
                total_change / classes as f64,
                setup_value(ix, &work, green),
                t0.elapsed().as_secs_f64()
            ));
            if delta < tol[phase] {
                break;
            }
            // Modified policy iteration from below can go round for good when a greedy policy
            // loops forever: its sweeps inflate the loop's actions, the Bellman sweep leaves
            // the loop, the loop's values drop, the next Bellman sweep takes it again (no-wrap
            // level 6 with 60 sweeps: largest changes 124 and 6 in turn). The same largest
            // change (to 0.1 %) two rounds apart is that cycle's mark, where converging passes
            // shrink by a factor. In the actions pass the first mark (or a slow pass) has the
            // policy's endless loops left before its equations are swept; any further mark
            // halves the cap, down to plain value iteration, which converges. (A false alarm
            // only costs time.) A loop held for want of a way out rises by its length each
            // Bellman sweep, a steady change that is no such mark.
            let mark = (delta - earlier[0]).abs() <= 1e-3 * delta;
            if phase == 2 && !leave_loops && (mark || rep.sweeps[2] >= LEAVE_LOOPS_AFTER) {
                leave_loops = true;
                let why = if mark { "going round" } else { "slow" };
                log(&format!(
                    "  {why}: endless loops of the policy left from now on"
                ));
            } else if mark && cap > 0 && held == 0 {
                cap /= 2;
                log(&format!("  going round: policy sweeps capped at {cap}"));
            }
            earlier = [earlier[1], delta];
            // Evaluate the greedy policy further with cheap sweeps before improving it again:
            // its equations written out once, then swept on a compact copy of the values.
            let (t1, mut d, mut n) = (std::time::Instant::now(), 0.0, 0);
            if cap > 0 {
                on_threads(threads, |i| {
                    policy_rows(&lv, &work, &order, &rows, i, threads, phase)
                });
                let x: Vec<AtomicU64> = (0..2 * classes)
                    .map(|i| AtomicU64::new(work.get(i / 2, 3 * (i % 2) + phase).to_bits()))
                    .collect();
                let mut rows: Vec<_> = rows.iter().map(|r| r.lock().expect("rows")).collect();
                held = 0;
                if leave_loops {
                    let exit_ok = |r: usize| {
                        work.get(r, 3) >= work.get(r, 0) - EPS
                            && work.get(r, 4) >= work.get(r, 1) - EPS
                    };
                    let other_exit = |at: u32, leaves: &dyn Fn(&Row) -> bool| {
                        let (k, q, ids, rr, allowed) = lv.choices(&work, at);
                        allowed
                            .into_iter()
                            .map(|i| (q[i][2], policy_row(&lv, &work, &k, ids[i], rr[i], 2)))
                            .filter(|(_, row)| leaves(row))
                            .min_by(|a, b| a.0.total_cmp(&b.0))
                    };
                    let done = leave_endless_loops(&mut rows, &x, exit_ok, other_exit);
                    held = done.held;
                    if done != LoopExits::default() {
                        log(&format!(
                            "  endless loops: {} left by the second-best action, {} by another, {} values held",
                            done.to_second, done.to_other, done.held
                        ));
                    }
                    held_rounds = done
                        .held_loops
                        .iter()
                        .flatten()
                        .map(|&v| (v, held_rounds.get(&v).map_or(1, |n| n + 1)))
                        .collect();
                    let stuck: Vec<_> = done
                        .held_loops
                        .iter()
                        .filter(|cycle| cycle.iter().all(|v| held_rounds[v] >= STUCK_ROUNDS))
                        .collect();
                    if !stuck.is_empty() {
                        let next = successors(&rows, x.len());
                        for &at in stuck[0].iter().take(8) {
                            log(&format!("    stuck {}", lv.describe(&work, at)));
                        }
                        for cycle in stuck {
                            let (n, from, to) = lv.resolve_loop(&work, cycle, &next, tol);
                            log(&format!(
                                "  loop of {} values stuck: win and score solved again on {n} values, highest {from:?} before, {to:?} after",
                                cycle.len()
                            ));
                        }
                    }
                }
                while n < cap {
                    if stop.load(Relaxed) {
                        return None;
                    }
                    d = on_threads(threads, |i| policy_sweep(&x, &rows[i]))
                        .into_iter()
                        .fold(0.0f64, f64::max);
                    n += 1;
                    if d < tol[phase] {
                        break;
                    }
                }
                for (i, v) in x.iter().enumerate() {
                    work.set(i / 2, 3 * (i % 2) + phase, f64::from_bits(v.load(Relaxed)));
                }
            }
            rep.policy_sweeps[phase] += n;
            log(&format!(
                "  {n} policy sweeps, last delta {d:.3e} ({:.1} s)",
                t1.elapsed().as_secs_f64()
            ));
        }
    }
    let apart = (0..classes)
        .filter(|&r| work.best(r) != work.ws_best(r))
        .count();
    log(&format!(
        "level {green}: the best action by expected actions is not the best by win and score alone in {apart} classes"
    ));
    rep.seconds = t0.elapsed().as_secs_f64();
    Some((work, rep))
}

/// Built once per model and process, shared by every user.
type PerModel<T> = OnceLock<std::sync::Mutex<std::collections::HashMap<Model, Arc<T>>>>;

/// What depends only on the model and costs seconds to minutes to build (the symmetry classes,
/// the sweep order): built on first use, then shared for the life of the process.
fn per_model<T>(cache: &'static PerModel<T>, m: Model, build: impl FnOnce() -> T) -> Arc<T> {
    let cache = cache.get_or_init(Default::default);
    if let Some(x) = cache.lock().expect("per-model cache").get(&m) {
        return x.clone();
    }
    let x = Arc::new(build());
    cache.lock().expect("per-model cache").insert(m, x.clone());
    x
}

/// The sweep order of a model.
fn cached_order(ix: &Index, threads: usize, log: &mut impl FnMut(&str)) -> Arc<Vec<u32>> {
    static ORDERS: PerModel<Vec<u32>> = OnceLock::new();
    per_model(&ORDERS, ix.m, || sweep_order(ix, threads, log))
}

/// Classes closest to a win first, so that one Gauss–Seidel sweep carries a win back along a
/// whole chain of swaps. The distance is optimistic: swaps to a win, where a reroll may show
/// any value and bans are ignored (computed by in-place Bellman–Ford sweeps).
fn sweep_order(ix: &Index, threads: usize, log: &mut impl FnMut(&str)) -> Vec<u32> {
    const FAR: u8 = u8::MAX;
    let m = &ix.m;
    let orb = ix.orbits();
    let classes = orb.reps.len();
    let dist: Vec<AtomicU8> = (0..classes).map(|_| AtomicU8::new(FAR)).collect();
    for r in 0..classes {
        if ix.config(orb.reps[r] as usize).won(m) {
            dist[r].store(0, Relaxed);
        }
    }
    let relax = |lo: usize, hi: usize| {
        let mut changed = false;
        for r in lo..hi {
            let c = ix.config(orb.reps[r] as usize);
            if c.won(m) {
                continue;
            }
            let k = Cursor::of(ix, &c);
            let mut best = dist[r].load(Relaxed);
            for_each_swap(m, &k, |h, t| {
                let (hc, hv, tc, tv) = (h.c as usize, h.v as usize, t.c as usize, t.v as usize);
                let mut ct = k.ct;
                let mut ch = k.ch;
                let mut kt = k.kt;
                ch[hc] -= ix.pw[hv];
                ct[hc] += ix.pw[hv];
                ct[tc] -= ix.pw[tv];
                ch[tc] += ix.pw[tv];
                kt[hc] += 1;
                kt[tc] -= 1;
                let r1 = orb.class_of(ix.rank_codes(&ct, &ch, kt[0], kt[2])).0;
                best = best.min(dist[r1].load(Relaxed).saturating_add(1));
                for v in 0..m.faces as usize {
                    let mut ch2 = ch;
                    ch2[tc] = ch[tc] - ix.pw[tv] + ix.pw[v];
                    let r2 = orb.class_of(ix.rank_codes(&ct, &ch2, kt[0], kt[2])).0;
                    best = best.min(dist[r2].load(Relaxed).saturating_add(2));
                }
            });
            if best < dist[r].load(Relaxed) {
                dist[r].store(best, Relaxed);
                changed = true;
            }
        }
        changed
    };
    let chunk = classes.div_ceil(threads);
    for round in 1.. {
        let changed = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..threads)
                .map(|i| {
                    let relax = &relax;
                    sc.spawn(move || relax(i * chunk, ((i + 1) * chunk).min(classes)))
                })
                .collect();
            hs.into_iter().any(|h| h.join().expect("distance thread"))
        });
        log(&format!("sweep order: distance round {round}"));
        if !changed {
            break;
        }
    }
    let mut order: Vec<u32> = (0..classes as u32).collect();
    order.sort_by_key(|&r| dist[r as usize].load(Relaxed));
    order
}

/// Calls `f(hand, table)` for every swap of a free configuration (bans aside).
#[inline]
fn for_each_swap(m: &Model, k: &Cursor, mut f: impl FnMut(Class, Class)) {
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

/// Blocks of the sweep order handed out round-robin to the threads.
const BLOCK: usize = 4096;

/// Runs `f(i)` for `i` in `0..threads`, each on its own scoped thread (one share of a sweep
/// each), and returns the results in order.
fn on_threads<T: Send>(threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    std::thread::scope(|sc| {
        let f = &f;
        let handles: Vec<_> = (0..threads).map(|i| sc.spawn(move || f(i))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sweep thread"))
            .collect()
    })
}

/// Thread `me`'s share of a sweep: blocks of [`BLOCK`] classes of `order` dealt round-robin,
/// won configurations (nothing to decide) left out; each with its representative's cursor.
fn share<'a>(
    ix: &'a Index,
    order: &'a [u32],
    me: usize,
    threads: usize,
) -> impl Iterator<Item = (usize, Cursor)> + 'a {
    let reps = &ix.orbits().reps;
    order
        .chunks(BLOCK)
        .skip(me)
        .step_by(threads)
        .flatten()
        .filter_map(move |&r| {
            let c = ix.config(reps[r as usize] as usize);
            (!c.won(&ix.m)).then(|| (r as usize, Cursor::of(ix, &c)))
        })
}

/// One Gauss–Seidel sweep of the Bellman operator (every action) over this thread's blocks of
/// `order`, which also records the policy it is greedy for; returns the largest change and the
/// sum of changes.
fn sweep(
    lv: &Level,
    work: &Work,
    order: &[u32],
    me: usize,
    threads: usize,
    phase: usize,
) -> (f64, f64) {
    let ix = lv.ix;
    let mut q = [[0.0; 3]; MAX_ACTS];
    let mut ids = [0u8; MAX_ACTS];
    let mut rr = [false; MAX_ACTS];
    let mut delta = 0.0f64;
    let mut total = 0.0f64;
    for (r, k) in share(ix, order, me, threads) {
        let na = lv.actions(work, &k, phase, &mut q, &mut ids, &mut rr);
        let (f, pick) = combine(&q[..na], phase, usize::MAX);
        let (g, second) = combine(&q[..na], phase, pick);
        total += (f[phase] - work.get(r, phase)).abs();
        delta = delta
            .max((f[phase] - work.get(r, phase)).abs())
            .max((g[phase] - work.get(r, 3 + phase)).abs());
        work.set(r, phase, f[phase]);
        let cell = &work.cells[r];
        cell.best.store(ids[pick], Relaxed);
        // Win and score of `G` belong to the score pass's best action ([`Values`]).
        if phase < 2 {
            for i in 0..=phase {
                work.set(r, 3 + i, g[i]);
            }
            cell.ws_best.store(ids[pick], Relaxed);
        } else {
            work.set(r, 5, g[2]);
        }
        let (second, second_rr) = if second < na {
            (ids[second], rr[second])
        } else {
            (NO_ACT, false)
        };
        cell.second.store(second, Relaxed);
        cell.rerolls
            .store(rr[pick] as u8 | (second_rr as u8) << 1, Relaxed);
    }
    (delta, total)
}

/// One equation of the fixed policy recorded by the last [`sweep`], for the `F` or `G` of a
/// class in one phase: `x = b + w · Σ x[e]` over the entries, where an entry is `2 · class`
/// for an `F` and `2 · class + 1` for a `G`. A swap that stays has one entry (`w = 1`), one
/// followed by its reroll one per face (`w = 1 / faces`), a win or `end` none.
#[derive(Clone, Copy, Default)]
struct Row {
    b: f64,
    w: f64,
    n: u8,
    e: [u32; MAXF],
}

/// One thread's share of the policy's equations: each class with the rows of its `F` and
/// `G`, in sweep order.
type Rows = Vec<(u32, [Row; 2])>;

/// A row that is not there (`G` of a state whose only action is `end`).
const NO_ROW: u8 = u8::MAX;

/// A [`Values`] that records which `F`s and `G`s an evaluation reads (all read as 0), so
/// that one evaluation of a fixed action by [`Level::policy_value`] yields its [`Row`]: the
/// rows come from the same code as the values.
struct Recorder<'a> {
    work: &'a Work,
    row: std::cell::Cell<Row>,
}

impl Recorder<'_> {
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
fn policy_rows(
    lv: &Level,
    work: &Work,
    order: &[u32],
    rows: &[std::sync::Mutex<Rows>],
    me: usize,
    threads: usize,
    phase: usize,
) {
    let mut mine = rows[me].lock().expect("rows");
    mine.clear();
    for (cls, k) in share(lv.ix, order, me, threads) {
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
            out[i] = policy_row(lv, work, &k, id, reroll, phase);
        }
        mine.push((cls as u32, out));
    }
}

/// The equation of one action of the free configuration `k` with its stay/reroll choice fixed.
fn policy_row(lv: &Level, work: &Work, k: &Cursor, id: u8, reroll: bool, phase: usize) -> Row {
    let rec = Recorder {
        work,
        row: Default::default(),
    };
    let b = lv.policy_value(&rec, k, id, reroll, phase)[phase];
    let mut row = rec.row.get();
    row.b = b;
    row.w = if row.n == 0 { 0.0 } else { 1.0 / row.n as f64 };
    row
}

/// Every endless loop of the policy in its equations: a cycle of rows of one entry (swaps
/// that stay), which never ends the game. Values indexed as in [`policy_sweep`]'s `x`.
fn endless_loops(next: &[u32]) -> Vec<Vec<u32>> {
    let values = next.len();
    // Walk on from every value not yet seen; a walk that comes back to itself found a cycle.
    // `seen[v]`: 0 unseen, else the number of the walk that passed it.
    let mut seen = vec![0u32; values];
    let mut loops = Vec::new();
    for (walk, start) in (1..).zip(0..values) {
        if seen[start] != 0 || next[start] == NONE {
            continue;
        }
        let mut v = start as u32;
        while v != NONE && seen[v as usize] == 0 {
            seen[v as usize] = walk;
            v = next[v as usize];
        }
        if v != NONE && seen[v as usize] == walk {
            let mut cycle = vec![v];
            let mut u = next[v as usize];
            while u != v {
                cycle.push(u);
                u = next[u as usize];
            }
            loops.push(cycle);
        }
    }
    loops
}

/// No successor (in [`successors`]).
const NONE: u32 = u32::MAX;

/// Per value, the one value its row reads if it is a swap that stays, else [`NONE`].
fn successors<R: std::ops::Deref<Target = Rows>>(rows: &[R], values: usize) -> Vec<u32> {
    let mut next = vec![NONE; values];
    for (cls, r) in rows.iter().flat_map(|share| share.iter()) {
        for (fg, row) in r.iter().enumerate() {
            if row.n == 1 {
                next[(2 * cls + fg as u32) as usize] = row.e[0];
            }
        }
    }
    next
}

/// The values whose swaps that stay ([`successors`]) lead into `cycle`, the cycle's own
/// included, sorted.
fn basin(next: &[u32], cycle: &[u32]) -> Vec<u32> {
    const UNKNOWN: u8 = 0;
    const IN: u8 = 1;
    const OUT: u8 = 2;
    const WALKING: u8 = 3;
    let mut state = vec![UNKNOWN; next.len()];
    for &v in cycle {
        state[v as usize] = IN;
    }
    let mut path = Vec::new();
    for start in 0..next.len() as u32 {
        let mut v = start;
        while v != NONE && state[v as usize] == UNKNOWN {
            state[v as usize] = WALKING;
            path.push(v);
            v = next[v as usize];
        }
        // A walk that ends on itself found another cycle.
        let found = if v != NONE && state[v as usize] == IN {
            IN
        } else {
            OUT
        };
        for u in path.drain(..) {
            state[u as usize] = found;
        }
    }
    (0..next.len() as u32)
        .filter(|&v| state[v as usize] == IN)
        .collect()
}

/// What [`leave_endless_loops`] did to a policy.
#[derive(Debug, Default, PartialEq)]
struct LoopExits {
    /// Loops left by a second-best action (`G`'s row).
    to_second: usize,
    /// Loops left by another action as good in win and score.
    to_other: usize,
    /// Values held, on loops with no way out.
    held: usize,
    /// The loops held (their values).
    held_loops: Vec<Vec<u32>>,
}

/// Makes the actions pass's policy end the game before its equations are swept. An endless
/// loop's equations `x = 1 + x'` have no solution: sweeping them inflates the loop by its
/// length per sweep, the next Bellman sweep leaves it, and the one after, from the values
/// dropped back, can take it again — modified policy iteration from below going round for
/// good (no-wrap level 6). Each loop is left where that costs least: one state on it takes its
/// second-best action (`G`'s row), if that is as good in win and score (`exit_ok`); failing
/// that, the cheapest action of a state on the loop that is as good in win and score and
/// whose equation does not lead back into the loop by swaps that stay (`other_exit(value,
/// leaves)`: its expected actions and row, if any). A loop with no way out, or still there
/// after a few rounds, is held at the Bellman sweep's values: only Bellman sweeps move it, as
/// in value iteration. (Only the speed of the pass depends on this: it ends on a Bellman
/// sweep that moves nothing.)
fn leave_endless_loops<R: std::ops::DerefMut<Target = Rows>>(
    rows: &mut [R],
    x: &[AtomicU64],
    exit_ok: impl Fn(usize) -> bool,
    other_exit: impl Fn(u32, &dyn Fn(&Row) -> bool) -> Option<(f64, Row)>,
) -> LoopExits {
    const ROUNDS: usize = 4;
    enum Exit {
        /// The class whose `F` takes its `G`'s row.
        ToSecond(u32),
        /// The value that takes this row.
        ToOther(u32, Row),
    }
    let get = |i: u32| f64::from_bits(x[i as usize].load(Relaxed));
    let mut out = LoopExits::default();
    for round in 0..=ROUNDS {
        let next = successors(rows, x.len());
        let loops = endless_loops(&next);
        if loops.is_empty() {
            break;
        }
        let mut on = vec![u32::MAX; x.len()];
        for (i, l) in loops.iter().enumerate() {
            for &v in l {
                on[v as usize] = i as u32;
            }
        }
        // Per loop, the way out that rises least above the value it replaces.
        let mut exit: Vec<Option<(f64, Exit)>> = (0..loops.len()).map(|_| None).collect();
        if round < ROUNDS {
            for (cls, r) in rows.iter().flat_map(|share| share.iter()) {
                let l = on[2 * *cls as usize];
                if l == u32::MAX || r[1].n == NO_ROW || !exit_ok(*cls as usize) {
                    continue;
                }
                let rise = get(2 * cls + 1) - get(2 * cls);
                if exit[l as usize]
                    .as_ref()
                    .is_none_or(|(best, _)| rise < *best)
                {
                    exit[l as usize] = Some((rise, Exit::ToSecond(*cls)));
                }
            }
            for (l, cycle) in loops.iter().enumerate() {
                if exit[l].is_some() {
                    continue;
                }
                // Rolling a die or ending leaves; a swap that stays must not come back.
                let leaves = |row: &Row| {
                    let mut v = row.e[0];
                    for _ in 0..x.len() {
                        if row.n != 1 || v == NONE || on[v as usize] != u32::MAX {
                            break;
                        }
                        v = next[v as usize];
                    }
                    row.n != 1 || v == NONE || on[v as usize] != l as u32
                };
                for &v in cycle {
                    if let Some((value, row)) = other_exit(v, &leaves) {
                        let rise = value - get(v);
                        if exit[l].as_ref().is_none_or(|(best, _)| rise < *best) {
                            exit[l] = Some((rise, Exit::ToOther(v, row)));
                        }
                    }
                }
            }
        }
        for (cls, r) in rows.iter_mut().flat_map(|share| share.iter_mut()) {
            for fg in 0..2 {
                let at = 2 * *cls + fg as u32;
                let l = on[at as usize];
                if l == u32::MAX {
                    continue;
                }
                match &exit[l as usize] {
                    Some((_, Exit::ToSecond(c))) if c == cls && fg == 0 => {
                        r[0] = r[1];
                        out.to_second += 1;
                    }
                    Some((_, Exit::ToOther(v, row))) if *v == at => {
                        r[fg] = *row;
                        out.to_other += 1;
                    }
                    Some(_) => {}
                    None => {
                        r[fg] = Row {
                            b: get(at),
                            w: 0.0,
                            n: 0,
                            ..r[fg]
                        };
                        out.held += 1;
                    }
                }
            }
        }
        for (l, cycle) in loops.into_iter().enumerate() {
            if exit[l].is_none() {
                out.held_loops.push(cycle);
            }
        }
    }
    out
}

/// One Gauss–Seidel sweep of one thread's policy equations ([`policy_rows`]: class and rows,
/// in sweep order) on `x`, the `phase` component of every `F` and `G` interleaved by class.
/// Only that component changes; the policy (and so which of `F`/`G` a ban selects) stays
/// fixed. Returns the largest change.
///
/// Win probability and score start below the least fixed point and an update by a fixed
/// policy never exceeds the Bellman operator, so they stay lower bounds (modified policy
/// iteration from below); for actions the fixed point is unique, so an overshoot is
/// corrected. Either way a pass ends only on a full Bellman sweep that moves nothing by its
/// tolerance. (Over-relaxation diverged: a greedy policy can loop forever, which makes its
/// equations singular. Skipping states that had settled below the tolerance cost more
/// Bellman sweeps than it saved: the slow loops reach almost every state.)
fn policy_sweep(x: &[AtomicU64], rows: &[(u32, [Row; 2])]) -> f64 {
    let get = |i: u32| f64::from_bits(x[i as usize].load(Relaxed));
    let mut delta = 0.0f64;
    for (cls, r) in rows {
        for (fg, row) in r.iter().enumerate() {
            if row.n == NO_ROW {
                continue;
            }
            let mut sum = 0.0;
            for &e in &row.e[..row.n as usize] {
                sum += get(e);
            }
            let y = row.b + row.w * sum;
            let at = 2 * cls + fg as u32;
            delta = delta.max((y - get(at)).abs());
            x[at as usize].store(y.to_bits(), Relaxed);
        }
    }
    delta
}

/// The expected values at the start of a turn at `green` for every table composition (the
/// hand rolled), from that level's values.
pub fn turn_starts(ix: &Index, vals: &impl Values, green: u8) -> Vec<Vals> {
    (0..ix.tables)
        .map(|tr| {
            let table = ix.table_config(tr);
            let mut out = [0.0; 3];
            for (c, p) in hand_rolls(&ix.m, &table) {
                let x = if c.won(&ix.m) {
                    [1.0, green as f64, 0.0]
                } else {
                    vals.f(ix.orbits().class_of(ix.rank(&c)).0)
                };
                for i in 0..3 {
                    out[i] += p * x[i];
                }
            }
            out
        })
        .collect()
}

/// The expected values at the start of a turn at `green` from a freshly rolled setup table
/// (as many black dice as half the table, rounded up, the rest red; then the hand rolled).
pub fn setup_value(ix: &Index, vals: &impl Values, green: u8) -> Vals {
    let m = &ix.m;
    let bt = m.blacks.min(m.table.div_ceil(2));
    let mut setup = Config::EMPTY;
    setup.h[0][0] = bt;
    setup.h[1][0] = m.table - bt;
    let mut out = [0.0; 3];
    for (t, p) in hand_rolls(m, &setup) {
        let mut table = Config::EMPTY;
        table.t = t.h;
        table.h[0][0] = m.blacks - bt;
        table.h[1][0] = m.reds - (m.table - bt);
        table.h[2][0] = 1;
        for (c, q) in hand_rolls(m, &table) {
            let x = if c.won(m) {
                [1.0, green as f64, 0.0]
            } else {
                vals.f(ix.orbits().class_of(ix.rank(&c)).0)
            };
            for k in 0..3 {
                out[k] += p * q * x[k];
            }
        }
    }
    out
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
        // The ban bites only when both its dice are single and still neighbours.
        let reverse = s
            .ban
            .filter(|(h, t)| {
                s.cfg.h[h.c as usize][h.v as usize] == 1
                    && s.cfg.t[t.c as usize][t.v as usize] == 1
                    && m.adjacent(h.v, t.v)
            })
            .map(|(h, t)| swap_id(m, h, t));
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
            Some(prev) => turn_starts(&ix, &prev.vals, g - 1),
        };
        let (vals, _) = solve_level(
            &ix,
            g,
            (g > 1).then_some(&below[..]),
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

#[cfg(test)]
mod orbit_tests {
    use super::*;
    use white_rabbit::Variant;

    /// Every configuration is the image of its class's representative under the symmetry
    /// recorded for it, the representative has the least rank of its class, and a symmetry
    /// keeps swaps swaps (so mapped action ids are swaps of the image).
    #[test]
    fn orbits_map_representatives_onto_their_class() {
        for m in crate::tests::SMALL {
            let ix = Index::new(m);
            let orb = ix.orbits();
            let syms = Sym::all(&m);
            for r in 0..ix.total {
                let (cls, e) = orb.class_of(r);
                let rep = orb.reps[cls] as usize;
                assert!(rep <= r);
                let image = syms[e as usize].config(&m, &ix.config(rep));
                assert_eq!(image, ix.config(r), "{m:?} rank {r}");
            }
            for (e, s) in syms.iter().enumerate() {
                for id in 0..72u8 {
                    let (h, t) = swap_of(&m, id);
                    if h.v < m.faces && t.v < m.faces && m.adjacent(h.v, t.v) {
                        let (h2, t2) = swap_of(&m, orb.act(e as u8, id));
                        assert_eq!((h2, t2), (s.class(&m, h), s.class(&m, t)));
                    }
                }
            }
        }
    }

    /// The full game's classes: the wrap's 24 symmetries and the mirror's 4 leave this many.
    #[test]
    fn full_game_classes() {
        let classic = Index::new(Model::of(Variant::Classic));
        let no_wrap = Index::new(Model::of(Variant::NoWrap));
        assert_eq!(
            (classic.classes(), no_wrap.classes()),
            (1_897_756, 11_368_980),
            "of {}",
            classic.total
        );
    }
}

#[cfg(test)]
mod loop_tests {
    use super::*;

    /// A row reading the values `e` (a swap that stays when there is one).
    fn row(b: f64, e: &[u32]) -> Row {
        let mut r = Row {
            b,
            w: if e.is_empty() {
                0.0
            } else {
                1.0 / e.len() as f64
            },
            n: e.len() as u8,
            ..Row::default()
        };
        r.e[..e.len()].copy_from_slice(e);
        r
    }

    /// Classes 0 and 1 swap into each other's `F` for good; class 2 leads into that loop,
    /// class 3 rerolls into it. `G` of class 0 ends the game; class 1 has no `G`.
    fn policy() -> (Rows, Vec<AtomicU64>) {
        let none = Row {
            n: NO_ROW,
            ..Row::default()
        };
        let rows = vec![
            (0, [row(1.0, &[2]), row(1.0, &[])]),
            (1, [row(1.0, &[0]), none]),
            (2, [row(1.0, &[0]), none]),
            (3, [row(1.0, &[0, 2, 4, 6, 0, 2]), none]),
        ];
        let x = [5.0, 9.0, 4.0, 0.0, 6.0, 0.0, 7.0, 0.0];
        (rows, x.map(|v: f64| AtomicU64::new(v.to_bits())).into())
    }

    #[test]
    fn endless_loops_are_the_cycles_of_swaps_that_stay() {
        let (mut rows, x) = policy();
        let mut loops = endless_loops(&successors(&[&mut rows], x.len()));
        loops.iter_mut().for_each(|l| l.sort());
        assert_eq!(loops, vec![vec![0, 2]]);
        rows[2].1[0] = row(1.0, &[]);
        rows[1].1[0] = row(1.0, &[4]);
        assert!(endless_loops(&successors(&[&mut rows], x.len())).is_empty());
    }

    #[test]
    fn the_basin_of_a_loop_is_what_leads_into_it_by_swaps_that_stay() {
        let (rows, x) = policy();
        let next = successors(&[&rows], x.len());
        assert_eq!(basin(&next, &[0, 2]), vec![0, 2, 4]);
        assert_eq!(basin(&next, &[6]), vec![6]);
    }

    #[test]
    fn a_loop_is_left_by_a_second_best_action_as_good_in_win_and_score() {
        let (mut rows, x) = policy();
        let done = leave_endless_loops(&mut [&mut rows], &x, |_| true, |_, _| None);
        assert_eq!((done.to_second, done.to_other, done.held), (1, 0, 0));
        // Class 0 is the only one with a `G` to leave by: it ends the game now.
        assert_eq!(rows[0].1[0].n, 0);
        assert_eq!(rows[1].1[0].e[0], 0);
        assert!(endless_loops(&successors(&[&mut rows], x.len())).is_empty());
    }

    #[test]
    fn a_loop_with_no_way_out_is_held_at_its_values() {
        let (mut rows, x) = policy();
        let mut done = leave_endless_loops(&mut [&mut rows], &x, |_| false, |_, _| None);
        done.held_loops.iter_mut().for_each(|l| l.sort());
        assert_eq!(
            done,
            LoopExits {
                held: 2,
                held_loops: vec![vec![0, 2]],
                ..LoopExits::default()
            }
        );
        let swept = policy_sweep(&x, &rows);
        assert_eq!(f64::from_bits(x[0].load(Relaxed)), 5.0);
        assert_eq!(f64::from_bits(x[2].load(Relaxed)), 4.0);
        // Class 2 leads into the loop: 1 + 5; class 3 rerolls: 1 + (5+4+6+7+5+4)/6.
        assert_eq!(f64::from_bits(x[4].load(Relaxed)), 6.0);
        assert!((f64::from_bits(x[6].load(Relaxed)) - (1.0 + 31.0 / 6.0)).abs() < 1e-12);
        assert!(swept > 0.0);
    }

    #[test]
    fn a_loop_with_no_second_best_way_out_is_left_by_another_action_off_the_loop() {
        let (mut rows, x) = policy();
        // Class 0's other action stays on the loop; class 1's first other action swaps into
        // class 2, which leads back, and its second into class 3, which rerolls.
        let other = |at: u32, leaves: &dyn Fn(&Row) -> bool| {
            let choices = if at == 0 {
                vec![row(1.0, &[2])]
            } else {
                vec![row(1.0, &[4]), row(1.0, &[6])]
            };
            choices.into_iter().find(|r| leaves(r)).map(|r| (8.0, r))
        };
        let done = leave_endless_loops(&mut [&mut rows], &x, |_| false, other);
        assert_eq!((done.to_second, done.to_other, done.held), (0, 1, 0));
        assert_eq!(rows[0].1[0].e[0], 2);
        assert_eq!(rows[1].1[0].e[0], 6);
        assert!(endless_loops(&successors(&[&mut rows], x.len())).is_empty());
    }

    /// Win probability and score solved again from below on a part of a solved level, the
    /// rest held, come back to the level's values, however high the part had been set.
    #[test]
    fn a_part_solved_again_from_below_loses_a_win_and_score_set_too_high() {
        for m in crate::tests::SMALL {
            let solved = solve_all(m, 2, 1, 0);
            let level = &solved[1];
            let (lv, work) = (level.level(), &level.vals);
            let classes = lv.orb.reps.len();
            let part: Vec<u32> = (0..classes)
                .filter(|&c| work.f(c)[0] < 1.0)
                .step_by(3)
                .take(6)
                .flat_map(|c| [2 * c as u32, 2 * c as u32 + 1])
                .filter(|&at| {
                    at % 2 == 0 || work.cells[(at / 2) as usize].second.load(Relaxed) != NO_ACT
                })
                .collect();
            let before: Vec<[f64; 6]> = part
                .iter()
                .map(|&at| std::array::from_fn(|i| work.get((at / 2) as usize, i)))
                .collect();
            for &at in &part {
                let base = 3 * (at % 2) as usize;
                work.set((at / 2) as usize, base, 1.0);
                work.set((at / 2) as usize, base + 1, 99.0);
            }
            let no_policy = vec![NONE; 2 * classes];
            let (n, from, _) = lv.resolve_loop(work, &part, &no_policy, TIGHT);
            assert_eq!((n, from[0], from[1]), (part.len(), 1.0, 99.0));
            for (&at, b) in part.iter().zip(before) {
                for i in [0, 1, 3, 4] {
                    let x = work.get((at / 2) as usize, i);
                    assert!(
                        (x - b[i]).abs() < 1e-9,
                        "{m:?} value {at} component {i}: {x} against {}",
                        b[i]
                    );
                }
            }
        }
    }
}
