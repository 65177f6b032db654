//! Hint mode's playing policy: a one-step score for every action, from the swaps-only
//! closure of the dice after a reroll (looking one or two rerolls ahead).

use super::Rng;
use super::closure::{Closure, Scratch, VALUE_CAP, closure_value};
use super::dice::Dice;
use crate::model::{Act, Class, Model, State};

/// The most actions a simulated turn takes before giving up and ending.
const TURN_CAP: u32 = 400;

/// The playing policy: the action with the best [`action_scores`] (`end` only when nothing
/// else is legal, or after `TURN_CAP` actions in a turn).
pub fn policy(m: &Model, s: &State, in_turn: u32, sc: &mut Scratch) -> Act {
    policy_looking(m, s, in_turn, Look::playing(m), sc)
}

/// The policy looking `look` past each reroll.
pub fn policy_looking(m: &Model, s: &State, in_turn: u32, look: Look, sc: &mut Scratch) -> Act {
    if in_turn >= TURN_CAP {
        return Act::End;
    }
    let scored = scores(m, s, look, sc);
    scored.first().map_or(Act::End, |x| x.0)
}

/// Every legal class action with its one-step score, best first (ties in action order):
/// - a swap that wins now: `f64::INFINITY`; a swap on a shortest way to a win by swaps alone:
///   `2000 - swaps still needed`;
/// - any other swap: the mean value ([`Look::playing`]) after rerolling the die it brings into the
///   hand (the reroll itself is decided at the next step);
/// - `reroll`: the mean value after it;
/// - `end`: `-1` (the worst).
pub fn action_scores(m: &Model, s: &State, sc: &mut Scratch) -> Vec<(Act, f64)> {
    scores(m, s, Look::playing(m), sc)
}

/// [`action_scores`], looking `look` past each reroll.
fn scores(m: &Model, s: &State, look: Look, sc: &mut Scratch) -> Vec<(Act, f64)> {
    let mut acts = Vec::new();
    s.actions(m, &mut acts);
    let (d, start, ban, pending) = Dice::of(m, s);
    let cl = sc.closure(&d, start, ban, 600);
    let win_reachable = cl.win.is_some();
    let mut out = Vec::with_capacity(acts.len());
    for a in acts {
        let score = match a {
            Act::Swap { hand, table } => {
                let h = d.find(hand, !start);
                let t = d.find(table, start);
                let next = start ^ (1 << h) ^ (1 << t);
                if d.won(next) {
                    f64::INFINITY
                } else if win_reachable
                    && let Some(w) = sc.closure(&d, next, Some((t, h)), 600).win_distance()
                {
                    2000.0 - w as f64
                } else {
                    look.reroll_value(m, &d, t, next, sc)
                }
            }
            Act::Reroll => look.reroll_value(m, &d, pending.expect("reroll is legal"), start, sc),
            Act::End => -1.0,
        };
        out.push((a, score));
    }
    if !win_reachable && walks(m) {
        walk(m, &d, &cl, look, &mut out, sc);
    }
    // Ties go to the reroll (the swap before it was played for it), then in action order.
    out.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then((b.0 == Act::Reroll).cmp(&(a.0 == Act::Reroll)))
            .then(a.0.cmp(&b.0))
    });
    out
}

/// Whether the policy walks through swaps (without rerolling) to a better reroll: measured to
/// help without the 6–1 wrap (turns won 0.19 → 0.42) and to hurt with it (0.70 → 0.62).
fn walks(m: &Model) -> bool {
    !m.wrap
}

/// Walking: a reroll may be worth more from a partition a few swaps away. For each die that
/// some reachable swap brings into the hand, one such swap is chosen canonically (the one
/// leaving the most table dice of one value, then the lowest mask), so that every partition
/// of the closure sees the same candidates and the walk goes straight to the best; its value
/// is the mean [`closure_value`] after rerolling that die. The first swap of a shortest way
/// there gets that value when it beats every action's own score.
fn walk(m: &Model, d: &Dice, cl: &Closure, look: Look, out: &mut [(Act, f64)], sc: &mut Scratch) {
    if cl.nodes.len() < 2 {
        return;
    }
    let all = ((1u32 << d.n) - 1) as u16;
    let plain = all & !d.white;
    // Per die: (static measure, mask after the swap, index of the node it is swapped from).
    let mut cand: [Option<(u32, u16, usize)>; 16] = [None; 16];
    for (k, &(mask, ..)) in cl.nodes.iter().enumerate() {
        for (h, t) in d.swaps(mask) {
            let next = mask ^ (1 << h) ^ (1 << t);
            let tv = (0..m.faces as usize)
                .map(|v| (next & plain & d.by_val[v]).count_ones())
                .max()
                .unwrap_or(0);
            let better = match cand[t] {
                None => true,
                Some((bt, bm, _)) => tv > bt || (tv == bt && next < bm),
            };
            if better {
                cand[t] = Some((tv, next, k));
            }
        }
    }
    let best_own = out.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let mut best: Option<(f64, usize)> = None;
    for (t, c) in cand.iter().enumerate() {
        let Some((_, next, k)) = *c else { continue };
        if k == 0 {
            continue;
        }
        let v = look.reroll_value(m, d, t, next, sc);
        if v > best_own + 1e-9 && best.is_none_or(|b| v > b.0) {
            best = Some((v, k));
        }
    }
    let Some((v, k)) = best else { return };
    let (_, fh, ft, _) = cl.nodes[k];
    let (fh, ft) = (fh as usize, ft as usize);
    let first = Act::Swap {
        hand: Class {
            c: d.col[fh],
            v: d.val[fh],
        },
        table: Class {
            c: d.col[ft],
            v: d.val[ft],
        },
    };
    if let Some(x) = out.iter_mut().find(|x| x.0 == first) {
        x.1 = v;
    }
}

/// Plays one turn with [`policy`] from a state: `(won, actions)` (a lost turn's actions
/// include its `end`).
pub fn play_turn(m: &Model, s: &State, look: Look, rng: &mut Rng, sc: &mut Scratch) -> (bool, u32) {
    let mut state = *s;
    let mut n = 0;
    loop {
        let a = policy_looking(m, &state, n, look, sc);
        n += 1;
        match a {
            Act::Swap { hand, table } => {
                state = state.swap(hand, table);
                if state.cfg.won(m) {
                    return (true, n);
                }
            }
            Act::Reroll => {
                let v = rng.below(m.faces as u32) as u8;
                state = state.rerolled(m, v);
            }
            Act::End => return (false, n),
        }
    }
}

/// How far the policy looks past a reroll before valuing the dice with [`closure_value`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The dice right after the reroll: cheap, for the rollouts of hint mode.
    One,
    /// The best swap-and-reroll after it, valued at its own reroll: more classic turns won
    /// (0.78 → 0.93), at ten to twenty times the cost.
    Two,
}

impl Look {
    /// The playing policy's look-ahead. Single turns won from random setups, 2,000 each
    /// (`turn_figures`): classic 0.781 with `One`, 0.931 with `Two`; without the wrap 0.520
    /// with `One` and only 0.420 with `Two` (there the policy's walks to a better partition
    /// already look ahead, and the two do not combine well), so `Two` only with the wrap.
    pub fn playing(m: &Model) -> Look {
        if m.wrap { Look::Two } else { Look::One }
    }

    /// The mean over the faces of die `i`, rerolled with the dice on the table `mask`, of the
    /// dice's value afterwards.
    fn reroll_value(self, m: &Model, d: &Dice, i: usize, mask: u16, sc: &mut Scratch) -> f64 {
        let mut d2 = *d;
        let mut sum = 0.0;
        for v in 0..m.faces {
            d2.set(m, i, v);
            sum += match self {
                Look::One => closure_value(m, &d2, mask, sc),
                Look::Two => best_next(m, &d2, mask, sc),
            };
        }
        sum / m.faces as f64
    }
}

/// The dice after a reroll, valued by their best next swap-and-reroll: a win by swaps alone as
/// in [`closure_value`], no swap at all 0. (The ban left by the swap before the reroll is
/// ignored: it lasts only if the die came up with a new value, and blocks one swap.)
fn best_next(m: &Model, d: &Dice, mask: u16, sc: &mut Scratch) -> f64 {
    let cl = sc.closure(d, mask, None, VALUE_CAP);
    if let Some(w) = cl.win {
        return 1000.0 - cl.nodes[w].3 as f64;
    }
    if cl.nodes.len() == 1 {
        return 0.0;
    }
    let mut best: f64 = 0.0;
    for (h, t) in d.swaps(mask) {
        let next = mask ^ (1 << h) ^ (1 << t);
        best = best.max(Look::One.reroll_value(m, d, t, next, sc));
    }
    best
}
