//! One level's Bellman operator: the values of a free configuration's actions, with every
//! ban and reroll state after a swap read from the stored free states.

use super::index::{Cursor, END_ID, Index, for_each_swap, swap_id, swap_of};
use super::steps::ClassSteps;
use super::symmetry::Orbits;
use super::values::{MAX_ACTS, Values, combine};
use crate::exact::Vals;
use crate::model::{BLACK, Class, MAXF, Model, RED, WHITE};

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

    /// Where the swap of hand `h` for table `t` from `k` leads: whether it wins at once, and
    /// for every value of the die that comes into the hand (its own value: the state right
    /// after the swap, with the reroll pending; any other: a reroll's outcome) the rank of the
    /// configuration and the swap banned there, if the ban can bite. No value is read, so a
    /// class's swaps can find their classes together ([`Level::locate`]).
    #[inline]
    pub(super) fn step(&self, k: &Cursor, h: Class, t: Class) -> Step {
        let m = &self.ix.m;
        let pw = &self.ix.pw;
        let (hc, hv, tc, tv) = (h.c as usize, h.v as usize, t.c as usize, t.v as usize);
        let mut s = Step {
            tv: t.v,
            won: false,
            to: [0; MAXF],
            sym: [0; MAXF],
            ban: [NO_BAN; MAXF],
        };
        // Won at once: white in the hand and the table all showing `hv`.
        if hc != WHITE as usize
            && (tc == WHITE as usize || k.kt[WHITE as usize] == 0)
            && k.c.t[BLACK as usize][hv] + k.c.t[RED as usize][hv] + 1 == m.table
        {
            s.won = true;
            return s;
        }
        let (ct, ch, kt) = k.swapped(pw, h, t);
        // The reverse swap is blocked only if both dice are the only ones of their class.
        let h_single_on_table = k.c.t[hc][hv] == 0;
        for v in 0..m.faces as usize {
            let mut ch2 = ch;
            ch2[tc] = ch[tc] - pw[tv] + pw[v];
            s.to[v] = self.ix.rank_codes(&ct, &ch2, kt[0], kt[2]) as u32;
            if k.c.h[tc][v] == 0 && h_single_on_table && m.adjacent(v as u8, h.v) {
                s.ban[v] = swap_id(m, Class { c: t.c, v: v as u8 }, h);
            }
        }
        s
    }

    /// Turns a [`Step`]'s ranks into classes (and the symmetries from their
    /// representatives).
    #[inline]
    pub(super) fn locate(&self, s: &mut Step) {
        if s.won {
            return;
        }
        for v in 0..self.ix.m.faces as usize {
            let (cls, e) = self.orb.class_of(s.to[v] as usize);
            s.to[v] = cls as u32;
            s.sym[v] = e;
        }
    }

    /// The values of the state after a located [`Step`], not counting the swap, and whether
    /// the reroll is taken there. `fixed`: evaluate only that choice (a fixed policy) instead
    /// of the better of staying and rerolling.
    #[inline]
    pub(super) fn step_value(
        &self,
        vals: &impl Values,
        s: &Step,
        phase: usize,
        fixed: Option<bool>,
    ) -> (Vals, bool) {
        if s.won {
            return (self.win(), false);
        }
        let faces = self.ix.m.faces as usize;
        let tv = s.tv as usize;
        let value = |v: usize| {
            let cls = s.to[v] as usize;
            if s.ban[v] == NO_BAN {
                return vals.f(cls);
            }
            let e = s.sym[v];
            let bests = [vals.ws_best(cls), vals.best(cls)].map(|b| self.orb.act(e, b));
            vals.banned(cls, bests[0] == s.ban[v], bests[1] == s.ban[v])
        };
        let stay = || value(tv);
        // The reroll: the old value lifts the ban; a new one moves it to the new value.
        let reroll = || {
            let mut sum = vals.f(s.to[tv] as usize);
            for v in (0..faces).filter(|&v| v != tv) {
                let x = value(v);
                for i in 0..3 {
                    sum[i] += x[i];
                }
            }
            let n = faces as f64;
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

    /// [`Level::step_value`] of the swap of hand `h` for table `t` from `k`.
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
        let mut s = self.step(k, h, t);
        if fixed == Some(false) {
            // Staying reads the one class.
            let (cls, e) = self.orb.class_of(s.to[t.v as usize] as usize);
            (s.to[t.v as usize], s.sym[t.v as usize]) = (cls as u32, e);
        } else {
            self.locate(&mut s);
        }
        self.step_value(vals, &s, phase, fixed)
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

    /// Every action of the free configuration `k` with its values (this action counted). The
    /// swaps' classes are found first and their values asked for together, then evaluated:
    /// the look-ups miss the cache, and in a batch they overlap.
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
        let mut steps = [Step::NONE; MAX_ACTS];
        let mut n = 0;
        for_each_swap(m, k, |h, t| {
            steps[n] = self.step(k, h, t);
            ids[n] = swap_id(m, h, t);
            n += 1;
        });
        for s in &mut steps[..n] {
            self.locate(s);
        }
        for s in steps[..n].iter().filter(|s| !s.won) {
            for &cls in &s.to[..m.faces as usize] {
                vals.prefetch(cls as usize);
            }
        }
        for i in 0..n {
            let (x, reroll) = self.step_value(vals, &steps[i], phase, None);
            q[i] = [x[0], x[1], 1.0 + x[2]];
            rr[i] = reroll;
        }
        let e = self.end_value(k);
        q[n] = [e[0], e[1], 1.0 + e[2]];
        ids[n] = END_ID;
        rr[n] = false;
        n + 1
    }
}

impl Level<'_> {
    /// The value of `end` from a table of rank `table` (the action itself not counted).
    #[inline]
    pub(super) fn end_at(&self, table: usize) -> Vals {
        match self.below {
            None => [0.0; 3],
            Some(b) => b[table],
        }
    }

    /// [`Level::actions`] from a class's located swaps ([`super::steps`]); with `among`, only
    /// the listed actions (in the order given; `end` as [`END_ID`]): the actions pass's
    /// Bellman sweeps evaluate only the actions that can be chosen there ([`super::sweep`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn actions_of(
        &self,
        vals: &impl Values,
        cs: &ClassSteps,
        among: Option<&[u8]>,
        phase: usize,
        q: &mut [Vals; MAX_ACTS],
        ids: &mut [u8; MAX_ACTS],
        rr: &mut [bool; MAX_ACTS],
    ) -> usize {
        let faces = self.ix.m.faces as usize;
        let n = match among {
            None => {
                ids[..cs.ids.len()].copy_from_slice(cs.ids);
                ids[cs.ids.len()] = END_ID;
                cs.ids.len() + 1
            }
            Some(list) => {
                ids[..list.len()].copy_from_slice(list);
                list.len()
            }
        };
        // Where each action's step is (`usize::MAX`: `end`).
        let mut at = [usize::MAX; MAX_ACTS];
        for i in 0..n {
            if ids[i] != END_ID {
                at[i] = match among {
                    None => i,
                    Some(_) => cs
                        .ids
                        .iter()
                        .position(|&x| x == ids[i])
                        .expect("a listed action is a swap of the class"),
                };
            }
        }
        for &j in at[..n].iter().filter(|&&j| j != usize::MAX) {
            let s = &cs.steps[j];
            if !s.won {
                for &cls in &s.to[..faces] {
                    vals.prefetch(cls as usize);
                }
            }
        }
        for i in 0..n {
            let (x, reroll) = match at[i] {
                usize::MAX => (self.end_at(cs.table), false),
                j => self.step_value(vals, &cs.steps[j], phase, None),
            };
            q[i] = [x[0], x[1], 1.0 + x[2]];
            rr[i] = reroll;
        }
        n
    }

    /// [`Level::policy_value`] from a class's located swaps.
    #[inline]
    pub(super) fn policy_value_of(
        &self,
        vals: &impl Values,
        cs: &ClassSteps,
        id: u8,
        reroll: bool,
        phase: usize,
    ) -> Vals {
        let x = if id == END_ID {
            self.end_at(cs.table)
        } else {
            let j = cs
                .ids
                .iter()
                .position(|&x| x == id)
                .expect("a policy's action is a swap of the class");
            self.step_value(vals, &cs.steps[j], phase, Some(reroll)).0
        };
        [x[0], x[1], 1.0 + x[2]]
    }
}

/// No ban can bite there (in [`Step::ban`]).
const NO_BAN: u8 = u8::MAX;

/// Where one swap of a free configuration leads ([`Level::step`]), indexed by the value of
/// the die it brings into the hand.
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The value the die comes with: the state right after the swap.
    tv: u8,
    /// Won at once (nothing else is set).
    won: bool,
    /// The configuration's rank, then (once located) its class.
    to: [u32; MAXF],
    /// The symmetry from the class's representative (once located).
    sym: [u8; MAXF],
    /// The reverse swap, banned there, when the ban can bite; else [`NO_BAN`].
    ban: [u8; MAXF],
}

impl Step {
    /// The optimistic distance to a win through this located step ([`super::order`]): one
    /// swap to the state after it, two when a reroll shows any value; bans ignored.
    #[inline]
    pub(super) fn distance(&self, m: &Model, dist: impl Fn(usize) -> u8) -> u8 {
        if self.won {
            return 1;
        }
        let mut best = dist(self.to[self.tv as usize] as usize).saturating_add(1);
        for &cls in &self.to[..m.faces as usize] {
            best = best.min(dist(cls as usize).saturating_add(2));
        }
        best
    }

    pub(super) const NONE: Step = Step {
        tv: 0,
        won: true,
        to: [0; MAXF],
        sym: [0; MAXF],
        ban: [NO_BAN; MAXF],
    };
}
