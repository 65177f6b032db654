//! One level's Bellman operator: the values of a free configuration's actions, with every
//! ban and reroll state after a swap read from the stored free states.

use super::index::{Cursor, END_ID, Index, for_each_swap, swap_id, swap_of};
use super::symmetry::Orbits;
use super::values::{MAX_ACTS, Values, combine};
use crate::exact::Vals;
use crate::model::{BLACK, Class, RED, WHITE};

/// Everything one level's sweep needs besides the values themselves.
pub(super) struct Level<'a> {
    pub(super) ix: &'a Index,
    pub(super) orb: &'a Orbits,
    pub(super) green: f64,
    /// Turn-start values one level down, by table rank (`None` at level 1: `end` loses).
    pub(super) below: Option<&'a [Vals]>,
}

impl Level<'_> {
    pub(super) fn win(&self) -> Vals {
        [1.0, self.green, 0.0]
    }

    /// Value of `end` (the action itself not counted).
    #[inline]
    pub(super) fn end_value(&self, k: &Cursor) -> Vals {
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
    pub(super) fn after_swap(
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
        let (ct, ch, kt) = k.swapped(pw, h, t);
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
    pub(super) fn policy_value(
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
    pub(super) fn cursor(&self, cls: usize) -> Cursor {
        Cursor::of(self.ix, &self.ix.config(self.orb.reps[cls] as usize))
    }

    /// Every action of the free configuration `k` with its values (this action counted).
    pub(super) fn actions(
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
        for_each_swap(m, k, |h, t| {
            let (x, reroll) = self.after_swap(vals, k, h, t, phase, None);
            q[n] = [x[0], x[1], 1.0 + x[2]];
            ids[n] = swap_id(m, h, t);
            rr[n] = reroll;
            n += 1;
        });
        let e = self.end_value(k);
        q[n] = [e[0], e[1], 1.0 + e[2]];
        ids[n] = END_ID;
        rr[n] = false;
        n + 1
    }
}
