//! Solving one level: the three passes, each of Bellman sweeps over the classes in the
//! sweep order on up to eight threads, with rounds of policy sweeps in between.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::index::{Cursor, END_ID, Index};
use super::level::Level;
use super::loops::{LoopExits, leave_endless_loops, successors};
use super::order::cached_order;
use super::policy::{Packed, Row, Rows, pack, policy_row, policy_rows, policy_sweep};
use super::setup_value;
use super::steps::{Buf, Steps};
use super::values::{MAX_ACTS, NO_ACT, Values, Work, combine};
use crate::exact::{EPS, Vals};
use crate::model::Model;

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
/// `actions_from`: where the actions pass starts, the expected actions of every class's `F`
/// and `G` (the level below's: a turn more changes them little), or 1 everywhere when `None`.
/// After every Bellman sweep that is not the last, up to `policy_sweeps` cheap sweeps of its
/// greedy policy (`policy_sweep`).
#[allow(clippy::too_many_arguments)]
pub fn solve_level(
    ix: &Index,
    green: u8,
    below: Option<&[Vals]>,
    actions_from: Option<&[[f32; 2]]>,
    threads: usize,
    tol: [f64; 3],
    policy_sweeps: u32,
    log: impl FnMut(&str),
) -> (Work, Report) {
    solve_level_until(
        ix,
        green,
        below,
        actions_from,
        threads,
        tol,
        policy_sweeps,
        &|| true,
        log,
    )
    .expect("a solve that is never stopped ends")
}

/// [`solve_level`] with a checkpoint: `go_on` is called before every Bellman sweep and every
/// policy sweep (a few seconds apart at most on the full game), and the solve gives up
/// (`None`) when it answers `false`. A caller may also do other work in it before answering
/// (a server runs its more urgent jobs there): the solve waits for it.
#[allow(clippy::too_many_arguments)]
pub fn solve_level_until(
    ix: &Index,
    green: u8,
    below: Option<&[Vals]>,
    actions_from: Option<&[[f32; 2]]>,
    threads: usize,
    tol: [f64; 3],
    policy_sweeps: u32,
    go_on: &dyn Fn() -> bool,
    mut log: impl FnMut(&str),
) -> Option<(Work, Report)> {
    let t0 = std::time::Instant::now();
    let orb = ix.orbits();
    log(&format!(
        "{} classes ({:.1} s)",
        orb.reps.len(),
        t0.elapsed().as_secs_f64()
    ));
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
    let t1 = std::time::Instant::now();
    let steps = Steps::new(&lv, &order, threads);
    log(&format!(
        "{} swaps of the classes located, {} MB kept ({:.1} s)",
        steps.swaps,
        steps.bytes() / 1_000_000,
        t1.elapsed().as_secs_f64()
    ));
    // Each thread's policy equations, in the order of its share of a sweep.
    let rows: Vec<std::sync::Mutex<Rows>> = (0..threads).map(|_| Default::default()).collect();
    let packed: Vec<std::sync::Mutex<Packed>> = (0..threads).map(|_| Default::default()).collect();
    let candidates: Vec<std::sync::Mutex<Candidates>> =
        (0..threads).map(|_| Default::default()).collect();
    let mut listed = false;
    for phase in 0..3 {
        // Start the score pass from a lower bound of its least fixed point: every win scores
        // at least 1, so the score is at least the win probability (and equal to it at level
        // 1). The actions pass has one fixed point (a policy that loops forever costs
        // infinitely many actions), so any start converges to it: the level below's expected
        // actions if given (a turn more changes them by a fraction of an action, so the pass
        // needs fewer sweeps), else 1 (every unfinished state takes at least one more action).
        if phase > 0 {
            for r in 0..classes {
                if work.f(r)[0] == 1.0
                    && work.best(r) == END_ID
                    && ix.config(orb.reps[r] as usize).won(&ix.m)
                {
                    continue;
                }
                for (fg, base) in [0, 3].into_iter().enumerate() {
                    let x = match (phase, actions_from) {
                        (1, _) => work.get(r, base),
                        (_, Some(a)) => (a[r][fg] as f64).max(1.0),
                        (_, None) => 1.0,
                    };
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
            if !go_on() {
                return None;
            }
            // The actions pass evaluates only the actions it can choose, listed by its first
            // sweep (and again after win and score were solved again on a stuck loop).
            let listing = phase == 2 && !listed;
            let (delta, total_change) = on_threads(threads, |i| {
                let mut c = candidates[i].lock().expect("candidates");
                let among = match phase {
                    2 if listing => Among::Record(&mut c),
                    2 => Among::Use(&c),
                    _ => Among::All,
                };
                sweep(&lv, &work, &order, &steps, i, threads, phase, among)
            })
            .into_iter()
            .fold((0.0f64, 0.0f64), |a, b| (a.0.max(b.0), a.1 + b.1));
            if listing {
                let (n, of) = candidates.iter().fold((0, 0), |a, c| {
                    let c = c.lock().expect("candidates");
                    (a.0 + c.ids.len(), a.1 + c.of)
                });
                log(&format!(
                    "  the actions pass evaluates {n} of the {of} actions of its classes"
                ));
            }
            listed |= listing;
            rep.sweeps[phase] += 1;
            log(&format!(
                "level {green} phase {phase} sweep {} delta {delta:.3e} mean {:.3e} ({:.1} s)",
                rep.sweeps[phase],
                total_change / classes as f64,
                t0.elapsed().as_secs_f64()
            ));
            if delta < tol[phase] {
                // (The setup value reads millions of configurations: once a pass, not a sweep.)
                log(&format!(
                    "level {green} phase {phase} done: setup {:?}",
                    setup_value(ix, &work, green)
                ));
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
                    policy_rows(&lv, &work, &order, &steps, &rows, i, threads, phase)
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
                        listed = false;
                        for cycle in stuck {
                            let (n, from, to) = lv.resolve_loop(&work, cycle, &next, tol);
                            log(&format!(
                                "  loop of {} values stuck: win and score solved again on {n} values, highest {from:?} before, {to:?} after",
                                cycle.len()
                            ));
                        }
                    }
                }
                on_threads(threads, |i| {
                    pack(&x, &rows[i], &mut packed[i].lock().expect("packed"))
                });
                let packed: Vec<_> = packed.iter().map(|p| p.lock().expect("packed")).collect();
                while n < cap {
                    if !go_on() {
                        return None;
                    }
                    d = on_threads(threads, |i| policy_sweep(&x, &packed[i]))
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

/// Blocks of the sweep order handed out round-robin to the threads.
const BLOCK: usize = 4096;

/// Runs `f(i)` for `i` in `0..threads`, each on its own scoped thread (one share of a sweep
/// each), and returns the results in order.
pub(super) fn on_threads<T: Send>(threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    std::thread::scope(|sc| {
        let f = &f;
        let handles: Vec<_> = (0..threads).map(|i| sc.spawn(move || f(i))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sweep thread"))
            .collect()
    })
}

/// Thread `me`'s share of a sweep: blocks of [`BLOCK`] positions of an order of `n` classes
/// dealt round-robin.
pub(super) fn share(n: usize, me: usize, threads: usize) -> impl Iterator<Item = usize> {
    (me * BLOCK..n)
        .step_by(threads * BLOCK)
        .flat_map(move |s| s..(s + BLOCK).min(n))
}

/// Which actions a Bellman sweep evaluates.
enum Among<'a> {
    /// Every action.
    All,
    /// Every action, noting for the later sweeps of the actions pass those that can be
    /// chosen there ([`choosable`]).
    Record(&'a mut Candidates),
    /// Only the actions noted by the first sweep of the actions pass.
    Use(&'a Candidates),
}

/// One thread's actions that can be chosen in the actions pass, per class of its share of a
/// sweep in order: how many, then their ids (in the order of [`Level::actions`]).
#[derive(Default)]
struct Candidates {
    n: Vec<u8>,
    ids: Vec<u8>,
    /// The actions of the classes listed, for the log.
    of: usize,
}

/// The actions among `q` (a class's, with their values) that the actions pass can choose for
/// `F` or `G`: those as good in win and score as the best ([`combine`]'s thresholds), and for
/// each of them the same with it left out (`G` leaves out `F`'s choice). In the actions pass
/// win probability and score of every action stay fixed (that pass changes only expected
/// actions; `ws_best`, which picks `F` or `G` for a ban's win and score, is the score pass's),
/// so every other action is passed over by [`combine`] in every sweep, and evaluating these
/// alone gives the same values, choices and ties. (A stuck loop solved again changes win and
/// score: the next sweep then lists the actions anew.)
fn choosable(q: &[Vals]) -> [bool; MAX_ACTS] {
    let mut keep = [false; MAX_ACTS];
    let within = |skip: usize, keep: &mut [bool; MAX_ACTS]| {
        let (top, _) = combine(q, 1, skip);
        for (i, x) in q.iter().enumerate() {
            if i != skip && x[0] >= top[0] - EPS && x[1] >= top[1] - EPS {
                keep[i] = true;
            }
        }
    };
    within(usize::MAX, &mut keep);
    let first = keep;
    for j in (0..q.len()).filter(|&j| first[j]) {
        within(j, &mut keep);
    }
    keep
}

/// One Gauss–Seidel sweep of the Bellman operator (every action) over this thread's blocks of
/// `order`, which also records the policy it is greedy for; returns the largest change and the
/// sum of changes.
#[allow(clippy::too_many_arguments)]
fn sweep(
    lv: &Level,
    work: &Work,
    order: &[u32],
    steps: &Steps,
    me: usize,
    threads: usize,
    phase: usize,
    mut among: Among,
) -> (f64, f64) {
    let mut buf = Buf::default();
    let mut q = [[0.0; 3]; MAX_ACTS];
    let mut ids = [0u8; MAX_ACTS];
    let mut rr = [false; MAX_ACTS];
    let mut delta = 0.0f64;
    let mut total = 0.0f64;
    let mut listed = 0;
    if let Among::Record(c) = &mut among {
        c.n.clear();
        c.ids.clear();
        c.of = 0;
    }
    // The classes in turn, won ones (nothing to decide) left out.
    let mut j = 0;
    for p in share(order.len(), me, threads) {
        let r = order[p] as usize;
        let Some(k) = steps.of(lv, p, r, &mut buf) else {
            continue;
        };
        j += 1;
        let j = j - 1;
        let na = match &mut among {
            Among::Use(c) => {
                let n = c.n[j] as usize;
                let list = &c.ids[listed..listed + n];
                listed += n;
                lv.actions_of(work, &k, Some(list), phase, &mut q, &mut ids, &mut rr)
            }
            Among::Record(c) => {
                let na = lv.actions_of(work, &k, None, phase, &mut q, &mut ids, &mut rr);
                let keep = choosable(&q[..na]);
                let before = c.ids.len();
                c.ids.extend((0..na).filter(|&i| keep[i]).map(|i| ids[i]));
                c.n.push((c.ids.len() - before) as u8);
                c.of += na;
                na
            }
            Among::All => lv.actions_of(work, &k, None, phase, &mut q, &mut ids, &mut rr),
        };
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
