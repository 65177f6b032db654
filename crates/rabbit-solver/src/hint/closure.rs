//! The partitions of the dice between table and hand reachable by swaps alone, and how
//! promising they are.

use super::dice::Dice;
use crate::model::Model;

/// The partitions of the dice between table and hand reachable by swaps alone.
pub struct Closure {
    /// Visited masks in breadth-first order, with their first swap `(hand, table)` from the
    /// start and distance.
    pub nodes: Vec<(u16, u8, u8, u16)>,
    /// The first win found (nearest), as an index into `nodes`.
    pub win: Option<usize>,
}

impl Closure {
    /// The swaps to the nearest win found, if any.
    pub fn win_distance(&self) -> Option<u16> {
        self.win.map(|w| self.nodes[w].3)
    }
}

/// Breadth-first search over the swaps from `start` (the ban applies to the first swap only).
pub fn closure(
    d: &Dice,
    start: u16,
    ban: Option<(usize, usize)>,
    cap: usize,
    seen: &mut Vec<u32>,
    stamp: u32,
) -> Closure {
    if seen.len() < 1 << d.n {
        seen.resize(1 << d.n, 0);
    }
    let all = ((1u32 << d.n) - 1) as u16;
    let mut nodes: Vec<(u16, u8, u8, u16)> = Vec::with_capacity(64);
    nodes.push((start, 255, 255, 0));
    seen[start as usize] = stamp;
    let mut k = 0;
    while k < nodes.len() && nodes.len() < cap {
        let (mask, f_h, f_t, dist) = nodes[k];
        let mut hand = all & !mask;
        while hand != 0 {
            let h = hand.trailing_zeros() as usize;
            hand &= hand - 1;
            let mut ts = d.compat[h] & mask;
            while ts != 0 {
                let t = ts.trailing_zeros() as usize;
                ts &= ts - 1;
                if k == 0 && ban == Some((h, t)) {
                    continue;
                }
                let next = mask ^ (1 << h) ^ (1 << t);
                if seen[next as usize] == stamp {
                    continue;
                }
                seen[next as usize] = stamp;
                let (fh, ft) = if k == 0 {
                    (h as u8, t as u8)
                } else {
                    (f_h, f_t)
                };
                nodes.push((next, fh, ft, dist + 1));
                if d.won(next) {
                    let w = nodes.len() - 1;
                    return Closure {
                        nodes,
                        win: Some(w),
                    };
                }
            }
        }
        k += 1;
    }
    Closure { nodes, win: None }
}
/// Scratch space for the searches of [`policy`].
#[derive(Default)]
pub struct Scratch {
    seen: Vec<u32>,
    stamp: u32,
}

impl Scratch {
    pub(super) fn closure(
        &mut self,
        d: &Dice,
        start: u16,
        ban: Option<(usize, usize)>,
        cap: usize,
    ) -> Closure {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        closure(d, start, ban, cap, &mut self.seen, self.stamp)
    }
}

/// How promising the dice are from the partition `start` right after a reroll: a win reachable
/// by swaps alone is worth the most (nearer is better), a hand that cannot swap at all ends
/// the turn (worth 0); otherwise the most table dice showing one value over the reachable
/// partitions, and the dice showing that value.
pub fn closure_value(m: &Model, d: &Dice, start: u16, sc: &mut Scratch) -> f64 {
    let sw = SW;
    let cl = sc.closure(d, start, None, VALUE_CAP);
    if let Some(w) = cl.win {
        return 1000.0 - cl.nodes[w].3 as f64;
    }
    if cl.nodes.len() == 1 {
        return 0.0;
    }
    let mut best = 0i32;
    for v in 0..m.faces as usize {
        let vm = d.by_val[v] & !d.white;
        let nv = (vm.count_ones() as i32).min(m.table as i32);
        let mut tv = 0;
        for &(mask, ..) in &cl.nodes {
            tv = tv.max((mask & vm).count_ones() as i32);
        }
        best = best.max(sw[0] * tv + sw[1] * nv);
    }
    // Dice that some reachable swap brings into the hand (so they can be rerolled).
    let all = ((1u32 << d.n) - 1) as u16;
    let mut movable = 0u16;
    for &(mask, ..) in &cl.nodes {
        let mut hand = all & !mask;
        while hand != 0 {
            let h = hand.trailing_zeros() as usize;
            hand &= hand - 1;
            movable |= d.compat[h] & mask;
        }
    }
    100.0
        + best as f64
        + (cl.nodes.len().min(sw[2] as usize)) as f64
        + (sw[3] * movable.count_ones() as i32) as f64
}

/// The most partitions [`closure_value`] visits.
pub(super) const VALUE_CAP: usize = 24;

/// Weights of [`closure_value`]: most table dice of one value, dice of that value, reachable
/// partitions (a cap, not a weight), dice that can be brought into the hand. The last was
/// raised from 15 to 45 by a search over 2,000 classic turns per setting (turns won with
/// [`Look::One`] 0.69 → 0.78, with [`Look::Two`] 0.85 → 0.93): keeping dice free to reroll is
/// what keeps a turn from running out of swaps.
const SW: [i32; 4] = [30, 10, 20, 45];
