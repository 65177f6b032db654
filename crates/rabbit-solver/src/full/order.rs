//! The order of a sweep: classes nearest to a win first.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use super::index::{Cursor, Index, for_each_swap};
use super::level::Level;
use super::symmetry::{PerModel, per_model};
use super::values::MAX_ACTS;

/// The sweep order of a model.
pub(super) fn cached_order(
    ix: &Index,
    threads: usize,
    log: &mut impl FnMut(&str),
) -> Arc<Vec<u32>> {
    static ORDERS: PerModel<Vec<u32>> = OnceLock::new();
    per_model(&ORDERS, ix.m, || sweep_order(ix, threads, log))
}

/// Classes closest to a win first, so that one Gauss–Seidel sweep carries a win back along a
/// whole chain of swaps. The distance is optimistic: swaps to a win, where a reroll may show
/// any value and bans are ignored (computed by in-place Bellman–Ford sweeps).
fn sweep_order(ix: &Index, threads: usize, log: &mut impl FnMut(&str)) -> Vec<u32> {
    const FAR: u8 = u8::MAX;
    let t0 = std::time::Instant::now();
    let m = &ix.m;
    let orb = ix.orbits();
    let classes = orb.reps.len();
    let dist: Vec<AtomicU8> = (0..classes).map(|_| AtomicU8::new(FAR)).collect();
    for r in 0..classes {
        if ix.config(orb.reps[r] as usize).won(m) {
            dist[r].store(0, Relaxed);
        }
    }
    // A level's successor look-ups, batched as in a Bellman sweep ([`Level::actions`]).
    let lv = Level {
        ix,
        orb,
        green: 1.0,
        below: None,
    };
    let relax = |lo: usize, hi: usize| {
        let mut changed = false;
        let mut steps = Vec::with_capacity(MAX_ACTS);
        for r in lo..hi {
            let c = ix.config(orb.reps[r] as usize);
            if c.won(m) {
                continue;
            }
            let k = Cursor::of(ix, &c);
            steps.clear();
            for_each_swap(m, &k, |h, t| steps.push(lv.step(&k, h, t)));
            for s in &mut steps {
                lv.locate(s);
            }
            let mut best = dist[r].load(Relaxed);
            for s in &steps {
                best = best.min(s.distance(m, |cls| dist[cls].load(Relaxed)));
            }
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
        log(&format!(
            "sweep order: distance round {round} ({:.1} s)",
            t0.elapsed().as_secs_f64()
        ));
        if !changed {
            break;
        }
    }
    let mut order: Vec<u32> = (0..classes as u32).collect();
    order.sort_by_key(|&r| dist[r as usize].load(Relaxed));
    order
}
