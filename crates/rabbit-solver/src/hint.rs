//! Hint mode: fast estimates of the three values of every action, with no tables.
//!
//! For each class action the hint mode
//! - returns exact values when they are obvious: a swap that wins now is `(1, green, 1)`, and
//!   `end` at green 1 is `(0, 0, 1)`;
//! - otherwise plays `rollouts` simulated continuations to the end of the game with a fixed
//!   playing policy ([`policy`]), using the same random numbers for every action (common random
//!   numbers make the comparison between actions much less noisy than the values themselves),
//!   and averages win, score and actions. A deadline stops the rounds early (never below
//!   [`MIN_ROLLOUTS`] per action).
//!
//! The estimates are therefore the values *of the rollout policy* after the action, a lower
//! bound on the optimum for win and score in expectation and an upper bound for actions.

use std::time::{Duration, Instant};

use crate::exact::{Vals, rank};
use crate::model::{Act, Class, Config, Model, State, WHITE};

/// Fewer rollouts than this per action are never used, whatever the deadline.
pub const MIN_ROLLOUTS: u32 = 4;

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
            rollouts: 48,
            deadline: Duration::from_millis(70),
        }
    }
}

/// A small deterministic generator (splitmix64) for the rollouts.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// The splitmix64 finaliser.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hint values of every class action at `s` (green `green`), best first.
pub fn hint_values(m: &Model, s: &State, green: u8, budget: Budget) -> Vec<(Act, Vals)> {
    let start = Instant::now();
    let mut acts = Vec::new();
    s.actions(m, &mut acts);
    // Actions whose value is known exactly, and the ones to simulate.
    let mut out: Vec<(Act, Vals)> = Vec::with_capacity(acts.len());
    let mut sims: Vec<(Act, [f64; 3], u32)> = Vec::new();
    for &a in &acts {
        match a {
            Act::Swap { hand, table } if s.swap(hand, table).cfg.won(m) => {
                out.push((a, [1.0, green as f64, 1.0]))
            }
            Act::End if green == 1 => out.push((a, [0.0, 0.0, 1.0])),
            _ => sims.push((a, [0.0; 3], 0)),
        }
    }
    let won_now = out.iter().any(|(_, v)| v[0] == 1.0);
    if !won_now {
        let mut buf = Vec::new();
        for k in 0..budget.rollouts.max(1) {
            if k >= MIN_ROLLOUTS && start.elapsed() > budget.deadline {
                break;
            }
            for (a, sum, n) in sims.iter_mut() {
                let mut rng = Rng::new(mix(k as u64 ^ 0x5EED));
                let r = rollout_after(m, s, green, *a, &mut rng, &mut buf);
                for i in 0..3 {
                    sum[i] += r[i];
                }
                *n += 1;
            }
        }
        for (a, sum, n) in sims {
            let n = n as f64;
            out.push((a, [sum[0] / n, sum[1] / n, sum[2] / n]));
        }
    } else {
        // A win now is the best anything can do (the most score, one action): the rest is
        // estimated by one rollout each, which only orders them.
        let mut buf = Vec::new();
        for (a, _, _) in sims {
            let mut rng = Rng::new(0x5EED);
            out.push((a, rollout_after(m, s, green, a, &mut rng, &mut buf)));
        }
    }
    out.sort_by(|a, b| rank(&a.1, &b.1).then(a.0.cmp(&b.0)));
    out
}

/// Plays `a` at `s` and then the rollout policy to the end: `[won, score, actions]`.
fn rollout_after(
    m: &Model,
    s: &State,
    green: u8,
    a: Act,
    rng: &mut Rng,
    buf: &mut Vec<Act>,
) -> Vals {
    let mut state = *s;
    let mut green = green;
    let mut actions = 0.0;
    let mut in_turn = 0u32;
    let mut a = a;
    loop {
        actions += 1.0;
        in_turn += 1;
        match a {
            Act::Swap { hand, table } => {
                state = state.swap(hand, table);
                if state.cfg.won(m) {
                    return [1.0, green as f64, actions];
                }
            }
            Act::Reroll => {
                let v = rng.below(m.faces as u32) as u8;
                state = state.rerolled(m, v);
            }
            Act::End => {
                green -= 1;
                if green == 0 {
                    return [0.0, 0.0, actions];
                }
                state = State::free(roll(m, &state.cfg, rng));
                in_turn = 0;
            }
        }
        a = policy(m, &state, green, in_turn, rng, buf);
    }
}

/// A fresh roll of the hand.
pub fn roll(m: &Model, cfg: &Config, rng: &mut Rng) -> Config {
    let mut c = *cfg;
    for col in 0..3 {
        let n: u8 = c.h[col].iter().sum();
        c.h[col] = [0; crate::model::MAXF];
        for _ in 0..n {
            c.h[col][rng.below(m.faces as u32) as usize] += 1;
        }
    }
    c
}

/// How close a configuration looks to a win: for the best target value `v`, 8 per table die
/// showing `v`, 2 per other table die one off `v` (one swap from showing it), 1 per hand die
/// showing `v` (up to what is missing), less 12 while the white die lies on the table.
pub fn potential(m: &Model, c: &Config) -> i32 {
    let mut best = i32::MIN;
    for v in 0..m.faces {
        let on = (c.t[0][v as usize] + c.t[1][v as usize]) as i32;
        let mut ready = 0;
        for col in 0..3 {
            for u in 0..m.faces {
                if u != v && m.adjacent(u, v) {
                    ready += c.t[col][u as usize] as i32;
                }
            }
        }
        let spare = ((c.h[0][v as usize] + c.h[1][v as usize]) as i32).min(m.table as i32 - on);
        best = best.max(8 * on + 2 * ready + spare);
    }
    best - if c.white_on_table() { 12 } else { 0 }
}

/// The most actions a simulated turn takes before giving up and ending.
const TURN_CAP: u32 = 80;

/// The rollout policy: win now; win in two swaps; otherwise the swap that most raises the
/// [`potential`]; otherwise reroll the die just taken; otherwise a neutral swap (to reroll
/// next); otherwise end.
pub fn policy(
    m: &Model,
    s: &State,
    _green: u8,
    in_turn: u32,
    rng: &mut Rng,
    buf: &mut Vec<Act>,
) -> Act {
    s.actions(m, buf);
    let swaps: Vec<(Class, Class, State)> = buf
        .iter()
        .filter_map(|a| match *a {
            Act::Swap { hand, table } => Some((hand, table, s.swap(hand, table))),
            _ => None,
        })
        .collect();
    if let Some(&(hand, table, _)) = swaps.iter().find(|x| x.2.cfg.won(m)) {
        return Act::Swap { hand, table };
    }
    for &(hand, table, ref s1) in &swaps {
        if wins_in_one(m, s1) {
            return Act::Swap { hand, table };
        }
    }
    if in_turn >= TURN_CAP {
        return Act::End;
    }
    let p0 = potential(m, &s.cfg);
    let reroll_value = |x: &State| -> f64 {
        (0..m.faces)
            .map(|v| potential(m, &x.rerolled(m, v).cfg) as f64)
            .sum::<f64>()
            / m.faces as f64
    };
    // Each swap is judged with the reroll that may follow it.
    let mut best: Option<(f64, usize)> = None;
    let mut ties = 0;
    for (i, x) in swaps.iter().enumerate() {
        let p = (potential(m, &x.2.cfg) as f64).max(reroll_value(&x.2));
        match best {
            Some((bp, _)) if p < bp => {}
            Some((bp, _)) if p == bp => {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    best = Some((p, i));
                }
            }
            _ => {
                best = Some((p, i));
                ties = 0;
            }
        }
    }
    let pick = |i: usize| Act::Swap {
        hand: swaps[i].0,
        table: swaps[i].1,
    };
    let reroll = s.reroll.map(|_| reroll_value(s));
    match (best, reroll) {
        (Some((p, _)), Some(r)) if r >= p => Act::Reroll,
        (Some((p, i)), _) if p > p0 as f64 => pick(i),
        (_, Some(_)) => Act::Reroll,
        (Some((_, i)), None) => pick(i),
        (None, None) => Act::End,
    }
}

/// Whether some legal swap wins at once.
pub fn wins_in_one(m: &Model, s: &State) -> bool {
    // A win needs the white die in the hand afterwards and a table of one value: at most one
    // table die (not white) off the target value, swapped for a hand die showing it.
    if s.cfg.won(m) {
        return true;
    }
    let white_in_hand = s.cfg.h[WHITE as usize].iter().any(|&n| n > 0);
    for v in 0..m.faces as usize {
        let on = s.cfg.t[0][v] + s.cfg.t[1][v];
        if on + 1 != m.table {
            continue;
        }
        // The odd die out.
        for tc in 0..3u8 {
            for tv in 0..m.faces {
                if s.cfg.t[tc as usize][tv as usize] == 0 || tv as usize == v {
                    continue;
                }
                // White on the table must come off and the hand die must not be white.
                if tc != WHITE && !white_in_hand {
                    continue;
                }
                for hc in 0..2u8 {
                    if hc == tc || s.cfg.h[hc as usize][v] == 0 || !m.adjacent(v as u8, tv) {
                        continue;
                    }
                    let hand = Class { c: hc, v: v as u8 };
                    let table = Class { c: tc, v: tv };
                    let blocked = s.ban == Some((hand, table))
                        && s.cfg.h[hc as usize][v] == 1
                        && s.cfg.t[tc as usize][tv as usize] == 1;
                    if !blocked {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The greedy baseline a person might follow: win if possible; otherwise swap a hand die
/// showing the table's most common value for a table die that does not (or take the white die
/// off the table); otherwise reroll the die just taken; otherwise swap anything that keeps the
/// common value and the white die in place (to reroll next), at most 30 actions a turn;
/// otherwise end.
pub fn greedy(m: &Model, s: &State, in_turn: u32, buf: &mut Vec<Act>) -> Act {
    s.actions(m, buf);
    let mut target = 0;
    for v in 0..m.faces as usize {
        if s.cfg.t[0][v] + s.cfg.t[1][v] > s.cfg.t[0][target] + s.cfg.t[1][target] {
            target = v;
        }
    }
    let target = target as u8;
    let swaps = buf.iter().filter_map(|a| match *a {
        Act::Swap { hand, table } => Some((hand, table)),
        _ => None,
    });
    let mut neutral = None;
    for (hand, table) in swaps {
        if s.swap(hand, table).cfg.won(m) {
            return Act::Swap { hand, table };
        }
        let toward =
            hand.c != WHITE && (table.c == WHITE || (hand.v == target && table.v != target));
        if toward {
            return Act::Swap { hand, table };
        }
        if neutral.is_none() && hand.c != WHITE && table.v != target {
            neutral = Some(Act::Swap { hand, table });
        }
    }
    if s.reroll.is_some() {
        return Act::Reroll;
    }
    match neutral {
        Some(a) if in_turn < 30 => a,
        _ => Act::End,
    }
}
