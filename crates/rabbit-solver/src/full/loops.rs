//! Endless loops of the actions pass's greedy policy (cycles of swaps that never end the
//! game): found, left by a way out as good in win and score, or held; a loop held too long is
//! stuck, and its win and score are solved again from below.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::index::Cursor;
use super::level::Level;
use super::policy::{NO_ROW, Row, Rows, policy_row};
use super::values::{MAX_ACTS, Values, Work, ban_index, combine};
use crate::exact::{EPS, Vals};

/// Every endless loop of the policy in its equations: a cycle of rows of one entry (swaps
/// that stay), which never ends the game. Values indexed as in [`super::policy::policy_sweep`]'s `x`.
pub(super) fn endless_loops(next: &[u32]) -> Vec<Vec<u32>> {
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
pub(super) const NONE: u32 = u32::MAX;

/// Per value, the one value its row reads if it is a swap that stays, else [`NONE`].
pub(super) fn successors<R: std::ops::Deref<Target = Rows>>(rows: &[R], values: usize) -> Vec<u32> {
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
pub(super) struct LoopExits {
    /// Loops left by a second-best action (`G`'s row).
    pub(super) to_second: usize,
    /// Loops left by another action as good in win and score.
    pub(super) to_other: usize,
    /// Values held, on loops with no way out.
    pub(super) held: usize,
    /// The loops held (their values).
    pub(super) held_loops: Vec<Vec<u32>>,
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
pub(super) fn leave_endless_loops<R: std::ops::DerefMut<Target = Rows>>(
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

impl Level<'_> {
    /// The actions of the class's `F` (`at = 2·class`) or `G` (`at = 2·class + 1`) in the
    /// actions pass, with the indices of those as good in win and score as the best of them
    /// (for `G`, the best action of the last sweep excluded).
    #[allow(clippy::type_complexity)]
    pub(super) fn choices(
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
    pub(super) fn resolve_loop(
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
    pub(super) fn describe(&self, work: &Work, at: u32) -> String {
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
}

#[cfg(test)]
mod tests {
    use super::super::policy::{Packed, pack, policy_sweep};
    use super::super::values::NO_ACT;
    use super::super::{TIGHT, solve_all};
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
        let mut packed = Packed::default();
        pack(&x, &rows, &mut packed);
        let swept = policy_sweep(&x, &packed);
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
