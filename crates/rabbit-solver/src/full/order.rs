//! The order of a sweep: classes nearest to a win first.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use super::index::{Cursor, Index, for_each_swap};
use super::symmetry::{PerModel, per_model};

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
    let m = &ix.m;
    let orb = ix.orbits();
    let classes = orb.reps.len();
    let dist: Vec<AtomicU8> = (0..classes).map(|_| AtomicU8::new(FAR)).collect();
    for r in 0..classes {
        if ix.config(orb.reps[r] as usize).won(m) {
            dist[r].store(0, Relaxed);
        }
    }
    let relax = |lo: usize, hi: usize| {
        let mut changed = false;
        for r in lo..hi {
            let c = ix.config(orb.reps[r] as usize);
            if c.won(m) {
                continue;
            }
            let k = Cursor::of(ix, &c);
            let mut best = dist[r].load(Relaxed);
            for_each_swap(m, &k, |h, t| {
                let (tc, tv) = (t.c as usize, t.v as usize);
                let (ct, ch, kt) = k.swapped(&ix.pw, h, t);
                let r1 = orb.class_of(ix.rank_codes(&ct, &ch, kt[0], kt[2])).0;
                best = best.min(dist[r1].load(Relaxed).saturating_add(1));
                for v in 0..m.faces as usize {
                    let mut ch2 = ch;
                    ch2[tc] = ch[tc] - ix.pw[tv] + ix.pw[v];
                    let r2 = orb.class_of(ix.rank_codes(&ct, &ch2, kt[0], kt[2])).0;
                    best = best.min(dist[r2].load(Relaxed).saturating_add(2));
                }
            });
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
        log(&format!("sweep order: distance round {round}"));
        if !changed {
            break;
        }
    }
    let mut order: Vec<u32> = (0..classes as u32).collect();
    order.sort_by_key(|&r| dist[r as usize].load(Relaxed));
    order
}
