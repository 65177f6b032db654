//! Hint mode: fast estimates of the three values of every action, with no tables.
//!
//! **The playing policy** ([`policy`], [`action_scores`]). Within a turn the dice only change
//! value by rerolls; between rerolls the player can only move dice between hand and table. So
//! for the dice as they are, a breadth-first search over the partitions of the dice between
//! table and hand reachable by swaps alone ([`closure`]: at most C(11,6) = 462 partitions, a few
//! microseconds with bit masks) says whether a win is reachable without any luck, and how many
//! swaps it takes. The policy
//! - plays the first swap of a shortest swaps-only way to a win when there is one (an
//!   immediate win first of all);
//! - otherwise scores each swap by the mean, over the die's six faces, of [`closure_value`]
//!   after rerolling the die the swap brings into the hand, and `reroll` by the same mean for
//!   the die waiting to be rerolled; [`closure_value`] is large when a win is reachable by
//!   swaps alone, 0 when no swap is left (the turn is over), and otherwise counts the most
//!   table dice showing one value over the reachable partitions, the dice showing that value,
//!   the partitions reachable and the dice a swap could bring into the hand (to be rerolled);
//! - without the 6–1 wrap, also walks: a swap without reroll toward a partition from which a
//!   reroll is worth more (`walk`);
//! - ends the turn only when no swap and no reroll is left.
//!
//! **The values.** A swap that wins now is `(1, green, 1)` and `end` at green 1 is `(0, 0, 1)`,
//! exactly. Every other action is followed by rollouts of the policy to the end of the turn
//! (common random numbers across actions, seeded from the position): a won turn gives
//! `(1, green, actions)`, a lost turn (or a rollout cut at `LEADER_CAP` / `OTHER_CAP`
//! actions) continues with the [`Continuation`] formula (turns won with the policy's measured
//! share). Every action gets one rollout; the `LEADERS` best by one-step score get the rest
//! of the budget (`STEP_BUDGET` simulated actions, or the deadline).
//!
//! **The order.** Rollouts are few, so two actions whose estimated win and score are within
//! two standard errors of each other are taken as equal and the one-step score decides
//! (`order`); the listed values are the estimates. They are the values *of the policy*
//! after the action (a lower bound on the optimum for win and score in expectation).

mod closure;
mod continuation;
mod dice;
mod greedy;
mod policy;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

pub use crate::rng::{Rng, mix};
pub use closure::{Closure, Scratch, closure, closure_value};
pub use continuation::{Continuation, continuation, measure_turns};
pub use dice::{Dice, random_start};
pub use greedy::greedy;
pub use policy::{Look, action_scores, play_turn, policy, policy_looking};

use crate::exact::{EPS, Vals, rank};
use crate::model::{Act, Class, Model, State};

/// Fewer rollouts than this per action are never used, whatever the deadline.
pub const MIN_ROLLOUTS: u32 = 1;

/// How much work the hint mode may do.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Rollouts per action (the most).
    pub rollouts: u32,
    /// Stop starting new rounds of rollouts after this long.
    pub deadline: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            rollouts: 32,
            deadline: Duration::from_millis(45),
        }
    }
}

/// The hint values of every class action at `s` (green `green`), best first.
pub fn hint_values(m: &Model, s: &State, green: u8, budget: Budget) -> Vec<(Act, Vals)> {
    let start = Instant::now();
    let mut sc = Scratch::default();
    let scored = action_scores(m, s, &mut sc);
    // Actions whose value is known exactly, and the ones to simulate (in the order of the
    // one-step scores, best first).
    let mut out: Vec<(Act, Vals)> = Vec::with_capacity(scored.len());
    let mut sims: Vec<Sim> = Vec::new();
    for &(a, score) in &scored {
        match a {
            Act::Swap { hand, table } if s.swap(hand, table).cfg.won(m) => {
                out.push((a, [1.0, green as f64, 1.0]))
            }
            Act::End if green == 1 => out.push((a, [0.0, 0.0, 1.0])),
            _ => sims.push(Sim {
                act: a,
                score,
                sum: [0.0; 3],
                sq: [0.0; 2],
                n: 0,
            }),
        }
    }
    let seed = position_seed(s, green);
    let won_now = !out.is_empty() && out.iter().any(|(_, v)| v[0] == 1.0);
    // A win now is the best anything can do (the most score, one action): the rest is then
    // estimated by one rollout each, which only orders them.
    let (rounds, leaders) = if won_now {
        (1, 0)
    } else {
        (budget.rollouts.max(1), LEADERS)
    };
    let mut steps = 0u64;
    let cont = continuation(m);
    for k in 0..rounds {
        if k >= MIN_ROLLOUTS && (start.elapsed() > budget.deadline || steps > STEP_BUDGET) {
            break;
        }
        for (i, sim) in sims.iter_mut().enumerate() {
            // After the first rounds only the leaders by one-step score keep being simulated,
            // and the deadline may stop a round midway (a long no-wrap rollout takes ~15 ms).
            if k >= MIN_ROLLOUTS && (i >= leaders || start.elapsed() > budget.deadline) {
                break;
            }
            // Common random numbers: rollout k of every action uses the same generator.
            let mut rng = Rng::new(mix(seed ^ mix(k as u64 + 1)));
            let cap = if i < leaders { LEADER_CAP } else { OTHER_CAP };
            let (r, n) = rollout_after(m, s, green, sim.act, (&cont, cap), &mut rng, &mut sc);
            steps += n as u64;
            for (acc, x) in sim.sum.iter_mut().zip(r) {
                *acc += x;
            }
            sim.sq[0] += r[0] * r[0];
            sim.sq[1] += r[1] * r[1];
            sim.n += 1;
        }
    }
    let mut ranked: Vec<Ranked> = out
        .iter()
        .map(|&(act, v)| Ranked {
            act,
            v,
            se: [0.0; 2],
            // A win now, or `end` at green 1 (which loses): their one-step scores.
            score: if act == Act::End { -1.0 } else { f64::INFINITY },
        })
        .collect();
    for sim in sims {
        let n = sim.n.max(1) as f64;
        let v = [sim.sum[0] / n, sim.sum[1] / n, sim.sum[2] / n];
        let se = |k: usize, floor: f64| {
            let var = (sim.sq[k] / n - v[k] * v[k]).max(floor);
            (var / n).sqrt()
        };
        ranked.push(Ranked {
            act: sim.act,
            v,
            se: [se(0, WIN_VAR_FLOOR), se(1, SCORE_VAR_FLOOR)],
            score: sim.score,
        });
    }
    order(ranked)
}

/// An action with its estimated values, their standard errors (win, score) and its one-step
/// score.
struct Ranked {
    act: Act,
    v: Vals,
    se: [f64; 2],
    score: f64,
}

/// The least variance assumed for one rollout's win and score (a few rollouts cannot show
/// that two actions really differ).
const WIN_VAR_FLOOR: f64 = 0.05;
const SCORE_VAR_FLOOR: f64 = 1.0;

/// Best first: repeatedly, among the actions whose estimated win and score are not
/// significantly below (two standard errors of the difference) those of the best estimate,
/// the one with the best one-step score.
fn order(mut left: Vec<Ranked>) -> Vec<(Act, Vals)> {
    let mut out = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let best = (0..left.len())
            .min_by(|&i, &j| {
                rank(&left[i].v, &left[j].v)
                    .then(left[j].score.total_cmp(&left[i].score))
                    .then(left[i].act.cmp(&left[j].act))
            })
            .expect("not empty");
        let b = &left[best];
        let close = |x: &Ranked| {
            let tol = |k: usize| 2.0 * (x.se[k] * x.se[k] + b.se[k] * b.se[k]).sqrt();
            x.v[0] >= b.v[0] - tol(0) - EPS
                && (x.v[0] > b.v[0] + tol(0) || x.v[1] >= b.v[1] - tol(1) - EPS)
        };
        // Equal one-step scores go to the reroll: a swap scored exactly like the waiting
        // reroll leads to the same dice with another die waiting, and preferring it on its
        // rollouts would put the reroll off again at every step, round in circles.
        let pick = (0..left.len())
            .filter(|&i| close(&left[i]))
            .min_by(|&i, &j| {
                let (x, y) = (&left[i], &left[j]);
                let by_score = if (x.score - y.score).abs() <= 1e-9 {
                    (y.act == Act::Reroll).cmp(&(x.act == Act::Reroll))
                } else {
                    y.score.total_cmp(&x.score)
                };
                by_score.then(rank(&x.v, &y.v)).then(x.act.cmp(&y.act))
            })
            .unwrap_or(best);
        let r = left.remove(pick);
        out.push((r.act, r.v));
    }
    out
}

/// An action being simulated.
struct Sim {
    act: Act,
    /// Its one-step score ([`action_scores`]).
    score: f64,
    sum: Vals,
    /// Sums of squares of win and score.
    sq: [f64; 2],
    n: u32,
}

/// How many actions (best by one-step score) get all the rollouts; the others get
/// [`MIN_ROLLOUTS`].
const LEADERS: usize = 4;

/// The most actions a rollout simulates (for the leaders, and for the other actions) before
/// its turn is valued as a fresh turn at the same green level (see [`Continuation`]): bounds the
/// time of a decision.
const LEADER_CAP: u32 = 150;
const OTHER_CAP: u32 = 50;

/// The most simulated actions per decision (beyond [`MIN_ROLLOUTS`] rounds): keeps a decision
/// deterministic and well inside the deadline on an idle machine.
const STEP_BUDGET: u64 = 1000;

/// A seed for the rollouts from the position alone, so that one position always gets the same
/// hints.
fn position_seed(s: &State, green: u8) -> u64 {
    let mut h = mix(0x5EED ^ green as u64);
    for part in [&s.cfg.t, &s.cfg.h] {
        for row in part.iter() {
            for &x in row {
                h = mix(h ^ x as u64);
            }
        }
    }
    let class = |c: Option<Class>| c.map_or(0xFF, |c| (c.c as u64) << 4 | c.v as u64);
    h = mix(h ^ class(s.reroll));
    h = mix(h ^ class(s.ban.map(|b| b.0)) << 8 ^ class(s.ban.map(|b| b.1)));
    h
}

/// Plays `a` at `s` and then the search policy to the end of the turn; a lost turn above green
/// 1 is followed by the [`Continuation`]. `([won, score, actions], actions simulated)`.
fn rollout_after(
    m: &Model,
    s: &State,
    green: u8,
    a: Act,
    (cont, cap): (&Continuation, u32),
    rng: &mut Rng,
    sc: &mut Scratch,
) -> (Vals, u32) {
    let mut state = *s;
    let mut actions = 0u32;
    let mut a = a;
    loop {
        if actions >= cap {
            // A turn still going this long is taken to be worth a fresh turn at this level.
            let c = cont.from_green(green);
            return ([c[0], c[1], actions as f64 + c[2]], actions);
        }
        actions += 1;
        match a {
            Act::Swap { hand, table } => {
                state = state.swap(hand, table);
                if state.cfg.won(m) {
                    return ([1.0, green as f64, actions as f64], actions);
                }
            }
            Act::Reroll => {
                let v = rng.below(m.faces as u32) as u8;
                state = state.rerolled(m, v);
            }
            Act::End => {
                if green == 1 {
                    return ([0.0, 0.0, actions as f64], actions);
                }
                let c = cont.from_green(green - 1);
                return ([c[0], c[1], actions as f64 + c[2]], actions);
            }
        }
        a = policy_looking(m, &state, actions, Look::One, sc);
    }
}
