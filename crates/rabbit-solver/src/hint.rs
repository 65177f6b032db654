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

use std::time::{Duration, Instant};

use crate::exact::{EPS, Vals, rank};
use crate::model::{Act, Class, Config, MAXF, Model, State, WHITE};

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

/// The values after the turn is lost at a green level above 1: the policy's turns from
/// `green` on, each won with probability `q` (the turn-start tables are taken as typical).
#[derive(Debug, Clone, Copy)]
pub struct Continuation {
    /// The share of turns won.
    pub q: f64,
    /// Mean actions of a won turn and of a lost turn.
    pub won_actions: f64,
    pub lost_actions: f64,
}

impl Continuation {
    /// `[win, score, actions]` of the turns from a fresh roll at `green`.
    pub fn from_green(&self, green: u8) -> Vals {
        let (mut win, mut score, mut actions, mut alive) = (0.0, 0.0, 0.0, 1.0);
        for g in (1..=green).rev() {
            actions += alive * (self.q * self.won_actions + (1.0 - self.q) * self.lost_actions);
            win += alive * self.q;
            score += alive * self.q * g as f64;
            alive *= 1.0 - self.q;
        }
        [win, score, actions]
    }
}

/// The continuation figures of a model: measured once for the full game (see
/// `docs/white-rabbit.md`), estimated on first use for a reduced model (400 simulated turns).
pub fn continuation(m: &Model) -> Continuation {
    use std::sync::Mutex;
    static CACHE: Mutex<Vec<(Model, Continuation)>> = Mutex::new(Vec::new());
    if *m == Model::of(white_rabbit::Variant::Classic) {
        return CLASSIC;
    }
    if *m == Model::of(white_rabbit::Variant::NoWrap) {
        return NO_WRAP;
    }
    if let Some(c) = CACHE.lock().expect("cache").iter().find(|x| x.0 == *m) {
        return c.1;
    }
    let c = measure_turns(m, 400, Look::One, 0xC0DE);
    CACHE.lock().expect("cache").push((*m, c));
    c
}

/// The rollouts' policy ([`Look::One`]), measured by `measure_turns(m, 2000, Look::One,
/// 0xC0DE)` (`TURNS=2000` with the ignored test
/// `turn_figures`).
const CLASSIC: Continuation = Continuation {
    q: 0.781,
    won_actions: 119.5,
    lost_actions: 190.4,
};
const NO_WRAP: Continuation = Continuation {
    q: 0.5195,
    won_actions: 115.2,
    lost_actions: 272.0,
};

/// Plays `n` turns from random setups with the policy looking `look` past each reroll.
pub fn measure_turns(m: &Model, n: u32, look: Look, seed: u64) -> Continuation {
    let mut rng = Rng::new(seed);
    let mut sc = Scratch::default();
    let (mut wins, mut won_a, mut lost_a) = (0u32, 0u64, 0u64);
    for _ in 0..n {
        let s = random_start(m, &mut rng);
        let (w, a) = play_turn(m, &s, look, &mut rng, &mut sc);
        if w {
            wins += 1;
            won_a += a as u64;
        } else {
            lost_a += a as u64;
        }
    }
    Continuation {
        q: (wins as f64 / n as f64).max(1e-3),
        won_actions: won_a as f64 / wins.max(1) as f64,
        lost_actions: lost_a as f64 / (n - wins).max(1) as f64,
    }
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
/// The distance of value `x` from the target `v` (round the circle when the model wraps).
#[inline]
pub fn dist(m: &Model, x: u8, v: u8) -> u8 {
    let d = x.abs_diff(v);
    if m.wrap { d.min(m.faces - d) } else { d }
}

/// The neighbours of `y` as a bit mask over values.
#[inline]
fn neighbours(m: &Model, y: u8) -> u8 {
    let mut b = 0u8;
    if y > 0 {
        b |= 1 << (y - 1);
    } else if m.wrap {
        b |= 1 << (m.faces - 1);
    }
    if y + 1 < m.faces {
        b |= 1 << (y + 1);
    } else if m.wrap {
        b |= 1;
    }
    b
}
/// The dice one by one (at most 16), for searching the swaps that need no reroll.
#[derive(Debug, Clone, Copy)]
pub struct Dice {
    pub n: usize,
    pub col: [u8; 16],
    pub val: [u8; 16],
    /// `compat[i]`: the dice that `i` may be swapped with (other colour, neighbouring value).
    pub compat: [u16; 16],
    /// The dice showing each value.
    pub by_val: [u16; MAXF],
    pub white: u16,
}

impl Dice {
    /// The dice of a state, table dice marked in the returned mask; the banned pair of dice
    /// (hand, table) if the ban can block; the die that may be rerolled.
    pub fn of(m: &Model, s: &State) -> (Dice, u16, Option<(usize, usize)>, Option<usize>) {
        let mut d = Dice {
            n: 0,
            col: [0; 16],
            val: [0; 16],
            compat: [0; 16],
            by_val: [0; MAXF],
            white: 0,
        };
        let mut table = 0u16;
        let (mut ban, mut reroll) = (None, None);
        let (bh, bt) = match s.ban {
            Some((h, t))
                if s.cfg.h[h.c as usize][h.v as usize] == 1
                    && s.cfg.t[t.c as usize][t.v as usize] == 1 =>
            {
                (Some(h), Some(t))
            }
            _ => (None, None),
        };
        let (mut ban_h, mut ban_t) = (None, None);
        for c in 0..3u8 {
            for v in 0..m.faces {
                for (on_table, k) in [
                    (true, s.cfg.t[c as usize][v as usize]),
                    (false, s.cfg.h[c as usize][v as usize]),
                ] {
                    for _ in 0..k {
                        let i = d.n;
                        d.col[i] = c;
                        d.val[i] = v;
                        d.by_val[v as usize] |= 1 << i;
                        if c == WHITE {
                            d.white |= 1 << i;
                        }
                        let cls = Class { c, v };
                        if on_table {
                            table |= 1 << i;
                            if bt == Some(cls) {
                                ban_t = Some(i);
                            }
                        } else {
                            if bh == Some(cls) {
                                ban_h = Some(i);
                            }
                            if s.reroll == Some(cls) {
                                reroll = Some(i);
                            }
                        }
                        d.n += 1;
                    }
                }
            }
        }
        if let (Some(h), Some(t)) = (ban_h, ban_t) {
            ban = Some((h, t));
        }
        d.update(m);
        (d, table, ban, reroll)
    }

    /// Recomputes `compat` and `by_val` from the values.
    pub fn update(&mut self, m: &Model) {
        self.by_val = [0; MAXF];
        for i in 0..self.n {
            self.by_val[self.val[i] as usize] |= 1 << i;
        }
        for i in 0..self.n {
            let nb = neighbours(m, self.val[i]);
            let mut c = 0u16;
            for j in 0..self.n {
                if self.col[j] != self.col[i] && nb & (1 << self.val[j]) != 0 {
                    c |= 1 << j;
                }
            }
            self.compat[i] = c;
        }
    }

    /// Sets die `i` to value `v`.
    pub fn set(&mut self, m: &Model, i: usize, v: u8) {
        let old = self.val[i];
        self.by_val[old as usize] &= !(1 << i);
        self.by_val[v as usize] |= 1 << i;
        self.val[i] = v;
        let nb = neighbours(m, v);
        let mut c = 0u16;
        for j in 0..self.n {
            let bit = 1u16 << i;
            if self.col[j] != self.col[i] && nb & (1 << self.val[j]) != 0 {
                c |= 1 << j;
                self.compat[j] |= bit;
            } else {
                self.compat[j] &= !bit;
            }
        }
        self.compat[i] = c;
    }

    /// Every swap `(hand die, table die)` the dice allow with the table `mask`.
    pub fn swaps(&self, mask: u16) -> impl Iterator<Item = (usize, usize)> + '_ {
        let all = ((1u32 << self.n) - 1) as u16;
        bits(all & !mask).flat_map(move |h| bits(self.compat[h] & mask).map(move |t| (h, t)))
    }

    /// A die of class `c` among `mask`.
    pub fn find(&self, c: Class, mask: u16) -> usize {
        (0..self.n)
            .find(|&i| mask & (1 << i) != 0 && self.col[i] == c.c && self.val[i] == c.v)
            .expect("a die of the class is there")
    }

    /// All table dice (`mask`) show one value and the white die is in the hand.
    #[inline]
    pub fn won(&self, mask: u16) -> bool {
        if mask & self.white != 0 {
            return false;
        }
        let first = mask.trailing_zeros() as usize;
        mask & !self.by_val[self.val[first] as usize] == 0
    }
}

/// The indices of the set bits of `x`, lowest first.
fn bits(mut x: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

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
    fn closure(
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
const VALUE_CAP: usize = 24;

/// Weights of [`closure_value`]: most table dice of one value, dice of that value, reachable
/// partitions (a cap, not a weight), dice that can be brought into the hand. The last was
/// raised from 15 to 45 by a search over 2,000 classic turns per setting (turns won with
/// [`Look::One`] 0.69 → 0.78, with [`Look::Two`] 0.85 → 0.93): keeping dice free to reroll is
/// what keeps a turn from running out of swaps.
const SW: [i32; 4] = [30, 10, 20, 45];

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

/// A random turn start like the setup: every die rolled, the first `table` black and red dice
/// (blacks first) on the table.
pub fn random_start(m: &Model, rng: &mut Rng) -> State {
    let mut c = Config::EMPTY;
    let on_b = m.blacks.min(m.table.div_ceil(2));
    let on_r = m.table - on_b;
    for (col, n, on) in [(0usize, m.blacks, on_b), (1, m.reds, on_r), (2, 1, 0)] {
        for i in 0..n {
            let y = rng.below(m.faces as u32) as usize;
            if i < on {
                c.t[col][y] += 1;
            } else {
                c.h[col][y] += 1;
            }
        }
    }
    State::free(c)
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
#[cfg(test)]
mod experiments {
    use super::*;

    /// `TURNS=4000 cargo test -p rabbit-solver --release turn_figures -- --ignored
    /// --nocapture`: the policy's share of single turns won from random setups, per variant,
    /// with the mean actions of won and lost turns (the [`Continuation`] constants).
    #[test]
    #[ignore]
    fn turn_figures() {
        let n: u32 = std::env::var("TURNS")
            .ok()
            .and_then(|x| x.parse().ok())
            .unwrap_or(1000);
        for variant in [
            white_rabbit::Variant::Classic,
            white_rabbit::Variant::NoWrap,
        ] {
            for look in [Look::One, Look::Two] {
                let m = Model::of(variant);
                let t = Instant::now();
                let c = measure_turns(&m, n, look, 0xC0DE);
                println!(
                    "{variant:?} {look:?}: {c:?} over {n} turns ({:.1} s)",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use game::{Game, GameRng};
    use white_rabbit::{Variant, WhiteRabbit};

    use super::*;
    use crate::model;

    fn small() -> Budget {
        // A deadline far away: the step budget alone stops the rollouts, so that the hints
        // are reproducible even on a slow machine.
        Budget {
            rollouts: 2,
            deadline: Duration::from_secs(30),
        }
    }

    /// Positions along random games of both variants (random legal moves from seeded deals).
    fn positions(games: u64, moves: usize) -> Vec<WhiteRabbit> {
        let mut pick = GameRng::seeded(99);
        let mut out = Vec::new();
        for variant in [Variant::Classic, Variant::NoWrap] {
            for seed in 0..games {
                let mut g = WhiteRabbit::new(variant, seed);
                for _ in 0..moves {
                    if g.is_over() {
                        break;
                    }
                    out.push(g.clone());
                    let legal = g.legal_texts();
                    let t = &legal[pick.below(legal.len() as u32) as usize];
                    g.play_text(t).unwrap();
                }
            }
        }
        out
    }

    fn wins_now(g: &WhiteRabbit) -> bool {
        g.legal_texts().into_iter().any(|t| {
            let mut x = g.clone();
            x.play_text(&t).unwrap();
            matches!(x.outcome(), Some(game::Outcome::SoloWon { .. }))
        })
    }

    /// The policy only names legal actions, and takes an immediate win whenever there is one.
    #[test]
    fn policy_is_legal_and_takes_wins() {
        let mut sc = Scratch::default();
        let mut acts = Vec::new();
        for g in positions(30, 60) {
            let m = Model::of(g.variant());
            let s = model::from_game(&g);
            s.actions(&m, &mut acts);
            let a = policy(&m, &s, 0, &mut sc);
            assert!(acts.contains(&a), "{}: {a:?}", g.position());
            let mv = crate::deals::engine_move(&g, a);
            let mut x = g.clone();
            x.play(mv).unwrap();
            if wins_now(&g) {
                assert!(
                    matches!(x.outcome(), Some(game::Outcome::SoloWon { .. })),
                    "{}",
                    g.position()
                );
            }
        }
    }

    /// Following the best hint ends every turn: deal 1002 used to go round in circles (a
    /// swap scored like the waiting reroll, then the same again with another die waiting).
    #[test]
    fn following_the_hints_never_goes_round_in_circles() {
        for seed in [1002, 1003] {
            let mut g = WhiteRabbit::new(Variant::Classic, seed);
            let mut in_turn = 0;
            while !g.is_over() {
                assert!(in_turn < 1000, "deal {seed}: a turn of 1000 actions");
                let best = &crate::hints(&g)[0].action;
                let mv = g.parse_move(best).expect("a legal hint");
                g.play(mv).expect("a legal hint");
                in_turn = if mv == white_rabbit::Move::End {
                    0
                } else {
                    in_turn + 1
                };
            }
        }
    }

    /// Hint mode: every legal engine move exactly once, an immediate win first, and the same
    /// position always gets the same hints.
    #[test]
    fn hints_are_legal_deterministic_and_take_wins() {
        for g in positions(2, 12) {
            let h = crate::hints_with(&g, small());
            let mut names: Vec<String> = h.iter().map(|x| x.action.clone()).collect();
            names.sort();
            assert_eq!(names, g.legal_texts());
            if wins_now(&g) {
                let mut x = g.clone();
                x.play_text(&h[0].action).unwrap();
                assert!(matches!(x.outcome(), Some(game::Outcome::SoloWon { .. })));
                assert_eq!(
                    (h[0].win, h[0].score, h[0].actions),
                    (1.0, g.green() as f64, 1.0)
                );
            }
            assert_eq!(h, crate::hints_with(&g, small()), "{}", g.position());
        }
    }

    /// A win two swaps away with no reroll needed is found and played the short way: the red 4
    /// takes the white 3 off the table, then the black 3 replaces the red 4.
    #[test]
    fn a_win_by_swaps_alone_is_played() {
        let g = WhiteRabbit::from_position(
            Variant::Classic,
            "k1=3,k2=3,k3=3,r1=3,r2=3,w=3 k4=3,k5=5,r3=4,r4=6,r5=6 2 - -",
            0,
        )
        .unwrap();
        assert!(!wins_now(&g));
        let m = Model::of(Variant::Classic);
        let s = model::from_game(&g);
        let mut sc = Scratch::default();
        let (d, start, ban, _) = Dice::of(&m, &s);
        assert_eq!(sc.closure(&d, start, ban, 600).win_distance(), Some(2));
        assert_eq!(
            play_turn(&m, &s, Look::Two, &mut Rng::new(1), &mut sc),
            (true, 2)
        );
        let h = crate::hints_with(&g, small());
        assert_eq!(h[0].action, "r3~w");
        assert_eq!((h[0].win, h[0].score, h[0].actions), (1.0, 2.0, 2.0));
    }

    #[test]
    fn continuation_adds_up() {
        let c = Continuation {
            q: 0.5,
            won_actions: 10.0,
            lost_actions: 20.0,
        };
        let v = c.from_green(2);
        assert!((v[0] - 0.75).abs() < 1e-12);
        assert!((v[1] - (0.5 * 2.0 + 0.25 * 1.0)).abs() < 1e-12);
        assert!((v[2] - (15.0 + 0.5 * 15.0)).abs() < 1e-12);
    }
}
