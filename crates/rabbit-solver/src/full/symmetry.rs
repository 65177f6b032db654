//! The symmetries of the rules (black and red exchanged, faces turned or mirrored) and the
//! classes of configurations they group, one entry per class in every per-level array.

use std::sync::{Arc, OnceLock};

use super::index::{BASE, Cursor, Index, swap_id};
use super::values::Values;
#[cfg(test)]
use crate::model::Config;
use crate::model::{Class, Model, WHITE};

/// A symmetry of the rules: the values, the adjacency of swaps, the win (six equal values with
/// the white die in the hand) and the hand's rolls look the same after it. Black and red trade
/// places when they have as many dice; values map by `v -> ±v + shift` around the wrap
/// (the dihedral group of the faces' cycle), or by the mirror `v -> faces - 1 - v` without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sym {
    colours: bool,
    flip: bool,
    shift: u8,
}

impl Sym {
    /// Every symmetry of a model, the identity first: 24 with the wrap, 4 without (full game).
    fn all(m: &Model) -> Vec<Sym> {
        let mut out = Vec::new();
        for colours in [false, true] {
            if colours && m.blacks != m.reds {
                continue;
            }
            for flip in [false, true] {
                for shift in 0..if m.wrap { m.faces } else { 1 } {
                    out.push(Sym {
                        colours,
                        flip,
                        shift,
                    });
                }
            }
        }
        out
    }

    fn value(&self, m: &Model, v: u8) -> u8 {
        let f = m.faces;
        match (m.wrap, self.flip) {
            (true, flip) => ((if flip { (f - v) % f } else { v }) + self.shift) % f,
            (false, true) => f - 1 - v,
            (false, false) => v,
        }
    }

    fn colour(&self, c: u8) -> u8 {
        if self.colours && c != WHITE { 1 - c } else { c }
    }

    fn class(&self, m: &Model, k: Class) -> Class {
        Class {
            c: self.colour(k.c),
            v: self.value(m, k.v),
        }
    }

    /// The image of a configuration (the class map finds images' ranks from code tables; the
    /// tests check those against this).
    #[cfg(test)]
    fn config(&self, m: &Model, c: &Config) -> Config {
        let mut out = Config::EMPTY;
        for col in 0..3u8 {
            for v in 0..m.faces {
                let to = self.class(m, Class { c: col, v });
                out.t[to.c as usize][to.v as usize] = c.t[col as usize][v as usize];
                out.h[to.c as usize][to.v as usize] = c.h[col as usize][v as usize];
            }
        }
        out
    }
}

/// Bits of [`Orbits::of`] that name the symmetry.
const SYM_BITS: u32 = 5;

/// The configurations grouped into classes of configurations that are images of one another
/// under a [`Sym`]. Their values are equal (a symmetry maps optimal play to optimal play), so
/// the solver keeps one entry per class: 1/24 of the configurations with the wrap, 1/4
/// without. Each class is represented by its configuration of least rank.
#[derive(Debug)]
pub struct Orbits {
    /// Per configuration rank: its class, shifted left by [`SYM_BITS`], and the symmetry that
    /// maps the class's representative onto it.
    of: Vec<u32>,
    /// Per class: the rank of its representative.
    pub reps: Vec<u32>,
    /// Per symmetry: an action id of the representative mapped to the configuration's.
    acts: Vec<[u8; 256]>,
}

impl Orbits {
    pub(super) fn new(ix: &Index) -> Orbits {
        let m = &ix.m;
        let syms = Sym::all(m);
        assert!(syms.len() <= 1 << SYM_BITS && ix.total < 1 << (32 - SYM_BITS));
        // Per symmetry, the code of a colour's multiset after it (`Index`'s codes): an image's
        // rank is then a few look-ups, not a configuration built and ranked.
        let codes = (BASE as usize).pow(m.faces as u32);
        let maps: Vec<Vec<u32>> = syms
            .iter()
            .map(|s| {
                let to = |v: u8| ix.pw[s.value(m, v) as usize];
                (0..codes)
                    .map(|code| {
                        (0..m.faces)
                            .map(|v| (code as u32 / ix.pw[v as usize]) % BASE * to(v))
                            .sum()
                    })
                    .collect()
            })
            .collect();
        let mut of = vec![u32::MAX; ix.total];
        let mut reps = Vec::new();
        for r in 0..ix.total {
            if of[r] != u32::MAX {
                continue;
            }
            // The least rank not yet seen: its whole orbit is unseen.
            let cls = reps.len() as u32;
            reps.push(r as u32);
            let k = Cursor::of(ix, &ix.config(r));
            for (e, (s, map)) in syms.iter().zip(&maps).enumerate() {
                let (mut ct, mut ch, mut kt) = ([0u32; 3], [0u32; 3], [0u8; 3]);
                for col in 0..3 {
                    let to = s.colour(col as u8) as usize;
                    ct[to] = map[k.ct[col] as usize];
                    ch[to] = map[k.ch[col] as usize];
                    kt[to] = k.kt[col];
                }
                let image = ix.rank_codes(&ct, &ch, kt[0], kt[2]);
                if of[image] == u32::MAX {
                    of[image] = cls << SYM_BITS | e as u32;
                }
            }
        }
        let acts = syms
            .iter()
            .map(|s| {
                let mut a: [u8; 256] = std::array::from_fn(|i| i as u8);
                for hc in 0..3u8 {
                    for hv in 0..m.faces {
                        for tc in (0..3u8).filter(|&tc| tc != hc) {
                            for tv in (0..m.faces).filter(|&tv| m.adjacent(hv, tv)) {
                                let (h, t) = (Class { c: hc, v: hv }, Class { c: tc, v: tv });
                                a[swap_id(m, h, t) as usize] =
                                    swap_id(m, s.class(m, h), s.class(m, t));
                            }
                        }
                    }
                }
                a
            })
            .collect();
        Orbits { of, reps, acts }
    }

    /// The class of a configuration rank, and the symmetry from its representative.
    #[inline]
    pub fn class_of(&self, r: usize) -> (usize, u8) {
        let x = self.of[r];
        ((x >> SYM_BITS) as usize, (x & ((1 << SYM_BITS) - 1)) as u8)
    }

    /// An action id of a class's representative as an action of the configuration that the
    /// symmetry `e` maps it to ([`END_ID`](super::END_ID) and the like unchanged).
    #[inline]
    pub fn act(&self, e: u8, id: u8) -> u8 {
        self.acts[e as usize][id as usize]
    }

    /// The class of the configuration of rank `r` and, in its own frame, the actions whose ban
    /// selects `G` under `vals`: for win and score ([`Values::ws_best`]) and for actions
    /// ([`Values::best`]).
    #[inline]
    pub(super) fn bests(&self, vals: &impl Values, r: usize) -> (usize, [u8; 2]) {
        let (cls, e) = self.class_of(r);
        (
            cls,
            [self.act(e, vals.ws_best(cls)), self.act(e, vals.best(cls))],
        )
    }
}

/// Built once per model and process, shared by every user.
pub(super) type PerModel<T> = OnceLock<std::sync::Mutex<std::collections::HashMap<Model, Arc<T>>>>;

/// What depends only on the model and costs seconds to minutes to build (the symmetry classes,
/// the sweep order): built on first use, then shared for the life of the process.
pub(super) fn per_model<T>(
    cache: &'static PerModel<T>,
    m: Model,
    build: impl FnOnce() -> T,
) -> Arc<T> {
    let cache = cache.get_or_init(Default::default);
    if let Some(x) = cache.lock().expect("per-model cache").get(&m) {
        return x.clone();
    }
    let x = Arc::new(build());
    cache.lock().expect("per-model cache").insert(m, x.clone());
    x
}

#[cfg(test)]
mod tests {
    use super::super::index::swap_of;
    use super::*;
    use white_rabbit::Variant;

    /// Every configuration is the image of its class's representative under the symmetry
    /// recorded for it, the representative has the least rank of its class, and a symmetry
    /// keeps swaps swaps (so mapped action ids are swaps of the image).
    #[test]
    fn orbits_map_representatives_onto_their_class() {
        for m in crate::tests::SMALL {
            let ix = Index::new(m);
            let orb = ix.orbits();
            let syms = Sym::all(&m);
            for r in 0..ix.total {
                let (cls, e) = orb.class_of(r);
                let rep = orb.reps[cls] as usize;
                assert!(rep <= r);
                let image = syms[e as usize].config(&m, &ix.config(rep));
                assert_eq!(image, ix.config(r), "{m:?} rank {r}");
            }
            for (e, s) in syms.iter().enumerate() {
                for id in 0..72u8 {
                    let (h, t) = swap_of(&m, id);
                    if h.v < m.faces && t.v < m.faces && m.adjacent(h.v, t.v) {
                        let (h2, t2) = swap_of(&m, orb.act(e as u8, id));
                        assert_eq!((h2, t2), (s.class(&m, h), s.class(&m, t)));
                    }
                }
            }
        }
    }

    /// The full game's classes: the wrap's 24 symmetries and the mirror's 4 leave this many.
    #[test]
    fn full_game_classes() {
        let classic = Index::new(Model::of(Variant::Classic));
        let no_wrap = Index::new(Model::of(Variant::NoWrap));
        assert_eq!(
            (classic.classes(), no_wrap.classes()),
            (1_897_756, 11_368_980),
            "of {}",
            classic.total
        );
    }
}
