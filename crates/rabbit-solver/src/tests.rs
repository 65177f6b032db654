use game::{Game, GameRng};
use white_rabbit::{Variant, WhiteRabbit};

use crate::exact::{Exact, rank};
use crate::hint::{self, Budget};
use crate::model::{self, Act, Model, State};
use crate::tables::Effort;
use crate::{brute, full, hints_with};

pub(crate) const SMALL: [Model; 4] = [
    Model {
        blacks: 2,
        reds: 2,
        table: 2,
        faces: 3,
        wrap: true,
    },
    Model {
        blacks: 2,
        reds: 2,
        table: 2,
        faces: 4,
        wrap: false,
    },
    Model {
        blacks: 2,
        reds: 1,
        table: 3,
        faces: 4,
        wrap: true,
    },
    Model {
        blacks: 2,
        reds: 2,
        table: 3,
        faces: 3,
        wrap: false,
    },
];

fn close(a: &[f64; 3], b: &[f64; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() < 1e-7)
}

/// Exact mode (symmetry-reduced) equals the labelled brute force, state by state and action
/// by action, on small models at every green level; and the flat solver equals exact mode.
#[test]
fn exact_equals_brute_force() {
    for m in SMALL {
        let greens = 3;
        let exact = Exact::solve(m, greens);
        let brute = brute::solve(&m, greens);
        for g in 1..=greens {
            let level = &brute[g as usize - 1];
            for s in &level.states {
                let c = brute::compact(&m, s);
                let bv = level.value(s).unwrap();
                let ev = exact
                    .value(&c, g)
                    .unwrap_or_else(|| panic!("{c:?} missing"));
                assert!(
                    close(&bv, &ev),
                    "{m:?} g{g} {s:?}: brute {bv:?} exact {ev:?}"
                );
                let eacts = exact.action_values(&c, g).unwrap();
                for (a, q) in level.action_values(s).unwrap() {
                    let ca = brute::compact_act(&m, s, a);
                    let (_, eq) = eacts
                        .iter()
                        .find(|x| x.0 == ca)
                        .expect("class action exists");
                    assert!(close(&q, eq), "{m:?} g{g} {s:?} {a:?}: {q:?} vs {eq:?}");
                }
                // The class actions are exactly the images of the labelled ones.
                let images: Vec<Act> = level
                    .action_values(s)
                    .unwrap()
                    .iter()
                    .map(|x| brute::compact_act(&m, s, x.0))
                    .collect();
                assert!(eacts.iter().all(|x| images.contains(&x.0)));
            }
        }
        flat_solver_equals_explicit_graph(m, &exact, greens);
    }
}

/// The flat full-game solver equals the explicit graph on a small model: every state of every
/// level (ban and reroll states included), every action; both as plain value iteration and
/// with the policy-evaluation sweeps of modified policy iteration. Called by
/// [`exact_equals_brute_force`], which has the graph at hand already.
fn flat_solver_equals_explicit_graph(m: Model, exact: &Exact, greens: u8) {
    for policy_sweeps in [0, full::POLICY_SWEEPS] {
        let flat = full::solve_all(m, greens, 2, policy_sweeps);
        assert_eq!(flat[0].ix.total, model::all_configs(&m).len());
        for g in 1..=greens {
            let level = &flat[g as usize - 1];
            for s in exact.level_states(g) {
                let ev = exact.value(s, g).unwrap();
                let fv = level.value(s);
                assert!(
                    close(&ev, &fv),
                    "{m:?} g{g} {s:?} ({policy_sweeps}): graph {ev:?} flat {fv:?}"
                );
                let ea = exact.action_values(s, g).unwrap();
                let fa = level.action_values(s);
                assert_eq!(ea.len(), fa.len());
                for (a, q) in &ea {
                    let (_, fq) = fa.iter().find(|x| x.0 == *a).expect("same actions");
                    assert!(close(q, fq), "{m:?} g{g} {s:?} {a:?}: {q:?} vs {fq:?}");
                }
            }
        }
    }
}

/// The dense rank is a bijection onto `0..total`.
#[test]
fn ranks_are_dense() {
    for m in SMALL {
        let ix = full::Index::new(m);
        let all = model::all_configs(&m);
        let mut seen = vec![false; ix.total];
        for c in &all {
            let r = ix.rank(c);
            assert!(!seen[r]);
            seen[r] = true;
            assert_eq!(ix.config(r), *c);
        }
        assert!(seen.iter().all(|&x| x));
    }
    let ix = full::Index::new(Model::of(Variant::Classic));
    assert_eq!(ix.total, 45_468_864);
}

/// A hand-made position where the values are known by hand: one swap wins, at green 2.
#[test]
fn exact_hand_made() {
    let m = SMALL[0];
    let exact = Exact::solve(m, 2);
    // Table: black 0, red 1; hand: black 0, red 2, white 0.
    let mut cfg = model::Config::EMPTY;
    cfg.t[0][0] = 1;
    cfg.t[1][1] = 1;
    cfg.h[0][0] = 1;
    cfg.h[1][2] = 1;
    cfg.h[2][0] = 1;
    let s = State::free(cfg);
    let acts = exact.action_values(&s, 2).unwrap();
    // Black 0 for red 1 wins at once: (1, 2, 1).
    assert_eq!(acts[0].1, [1.0, 2.0, 1.0]);
    assert_eq!(exact.value(&s, 2).unwrap(), [1.0, 2.0, 1.0]);
    // `end` at green 1 loses in one action.
    let a1 = exact.action_values(&s, 1).unwrap();
    let end = a1.iter().find(|x| x.0 == Act::End).unwrap();
    assert_eq!(end.1, [0.0, 0.0, 1.0]);
}

/// The compact rules agree with the engine along random games: the same actions (as classes)
/// and the same successors.
#[test]
fn compact_rules_follow_the_engine() {
    for variant in [Variant::Classic, Variant::NoWrap] {
        let m = Model::of(variant);
        let mut pick = GameRng::seeded(7);
        for seed in 0..40 {
            let mut g = WhiteRabbit::new(variant, seed);
            let mut buf = Vec::new();
            for _ in 0..200 {
                if g.is_over() {
                    break;
                }
                let s = model::from_game(&g);
                let mut legal = Vec::new();
                g.legal_moves(&mut legal);
                s.actions(&m, &mut buf);
                let mut from_engine: Vec<Act> =
                    legal.iter().map(|&mv| model::act_of(&g, mv)).collect();
                from_engine.sort();
                from_engine.dedup();
                let mut mine = buf.clone();
                mine.sort();
                assert_eq!(from_engine, mine, "{}", g.position());
                let mv = legal[pick.below(legal.len() as u32) as usize];
                let a = model::act_of(&g, mv);
                g.play(mv).unwrap();
                let next = model::from_game(&g);
                match a {
                    Act::Swap { hand, table } => assert_eq!(next, s.swap(hand, table)),
                    Act::Reroll => {
                        assert!(
                            (0..6).any(|v| next == s.rerolled(&m, v)),
                            "{}",
                            g.position()
                        );
                    }
                    Act::End => assert_eq!(next.cfg.table_key(), s.cfg.table_key()),
                }
            }
        }
    }
}

fn quick() -> Budget {
    Budget {
        rollouts: 6,
        deadline: std::time::Duration::from_millis(50),
    }
}

/// Hint mode lists exactly the legal actions, and takes a win whenever one is there.
#[test]
fn hints_are_legal_and_take_wins() {
    let mut pick = GameRng::seeded(11);
    for variant in [Variant::Classic, Variant::NoWrap] {
        for seed in 0..4 {
            let mut g = WhiteRabbit::new(variant, seed);
            for _ in 0..25 {
                if g.is_over() {
                    break;
                }
                let h = hints_with(&g, quick());
                let mut names: Vec<String> = h.iter().map(|x| x.action.clone()).collect();
                names.sort();
                assert_eq!(names, g.legal_texts());
                let win_now = g.legal_texts().into_iter().any(|t| {
                    let mut x = g.clone();
                    x.play_text(&t).unwrap();
                    matches!(x.outcome(), Some(game::Outcome::SoloWon { .. }))
                });
                if win_now {
                    let mut x = g.clone();
                    x.play_text(&h[0].action).unwrap();
                    assert!(matches!(x.outcome(), Some(game::Outcome::SoloWon { .. })));
                    assert_eq!((h[0].win, h[0].actions), (1.0, 1.0));
                }
                let legal = g.legal_texts();
                let t = &legal[pick.below(legal.len() as u32) as usize];
                g.play_text(t).unwrap();
            }
        }
    }
    let g = WhiteRabbit::from_position(
        Variant::Classic,
        "k1=3,k2=3,k3=3,r1=3,r2=3,r3=2 k4=3,k5=1,r4=5,r5=6,w=1 4 - -",
        0,
    )
    .unwrap();
    let h = hints_with(&g, quick());
    assert_eq!(h[0].action, "k4~r3");
    assert_eq!((h[0].win, h[0].score, h[0].actions), (1.0, 4.0, 1.0));
}

/// Hint mode on a small model picks an exact-optimal action most of the time.
#[test]
fn hint_mode_is_close_to_exact_on_a_small_model() {
    let m = SMALL[2];
    let exact = Exact::solve(m, 3);
    let mut good = 0;
    let mut total = 0;
    let mut buf = Vec::new();
    for (i, s) in exact.level_states(3).iter().enumerate().step_by(37) {
        s.actions(&m, &mut buf);
        if buf.len() < 2 || i > 40_000 {
            continue;
        }
        let h = hint::hint_values(&m, s, 3, quick());
        let e = exact.action_values(s, 3).unwrap();
        let chosen = e.iter().find(|x| x.0 == h[0].0).unwrap().1;
        total += 1;
        good += (rank(&chosen, &e[0].1) == std::cmp::Ordering::Equal) as u32;
    }
    assert!(total > 20);
    assert!(good as f64 >= 0.5 * total as f64, "{good}/{total}");
}

/// The cache round-trips a reduced model's levels, and a damaged file is recomputed.
#[test]
fn tables_cache_round_trips_and_rejects_damage() {
    use crate::full::Values;
    use crate::tables;
    let m = SMALL[2];
    let dir = std::env::temp_dir().join(format!("rabbit-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut log = |_: &str| {};
    let flat = full::solve_all(m, 3, 1, full::POLICY_SWEEPS);
    let l3 = tables::level(&dir, m, 3, Effort::new(&m, 1), &mut log).unwrap();
    let loaded = tables::level(&dir, m, 3, Effort::new(&m, 1), &mut log).unwrap();
    for r in 0..flat[2].ix.classes() {
        for (a, b) in [
            (flat[2].vals.f(r), loaded.solved.vals.f(r)),
            (l3.solved.vals.g(r), loaded.solved.vals.g(r)),
        ] {
            assert!((a[0] - b[0]).abs() < 1e-12);
            // (`G` of a state whose only action is `end` has infinitely many actions.)
            let near = |x: f64, y: f64, tol: f64| x == y || (x - y).abs() < tol;
            assert!(
                near(a[1], b[1], 1e-5) && near(a[2], b[2], 1e-4),
                "{r} {a:?} {b:?}"
            );
        }
    }
    let ws_best = |t: &tables::Level| {
        (0..flat[2].ix.classes())
            .map(|r| t.solved.vals.ws_best(r))
            .collect::<Vec<_>>()
    };
    assert_eq!(ws_best(&l3), ws_best(&loaded));
    // A file of an earlier format is refused, saying so, and solved again.
    let file = tables::path(&dir, &m, 3);
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let why = tables::open(&dir, m, 3).err().expect("format 4 refused");
    assert!(why.to_string().contains("format 4"), "{why}");
    let mut heard = Vec::new();
    let again = tables::level(&dir, m, 3, Effort::new(&m, 1), &mut |s: &str| {
        heard.push(s.to_string())
    })
    .unwrap();
    assert!(
        heard
            .iter()
            .any(|s| s.contains("format 4") && s.contains("solved again")),
        "{heard:?}"
    );
    assert_eq!(again.starts, loaded.starts);
    let starts = tables::starts(&dir, m, 2, Effort::new(&m, 1), &mut log).unwrap();
    let setup = tables::from_setup(&flat[1].ix, &starts);
    let direct = full::setup_value(&flat[1].ix, &flat[1].vals, 2);
    assert!(close(&setup, &direct), "{setup:?} {direct:?}");
    // Truncate level 3: it is rejected and solved again.
    let file = tables::path(&dir, &m, 3);
    let len = std::fs::metadata(&file).unwrap().len();
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..len as usize - 9]).unwrap();
    let mut solved_again = false;
    let again = tables::level(&dir, m, 3, Effort::new(&m, 1), &mut |s: &str| {
        solved_again |= s.starts_with("solving")
    })
    .unwrap();
    assert!(solved_again);
    assert_eq!(again.solved.vals.f(5), loaded.solved.vals.f(5));
    // A flipped byte fails the checksum.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let mut solved_again = false;
    tables::level(&dir, m, 3, Effort::new(&m, 1), &mut |s: &str| {
        solved_again |= s.starts_with("solving")
    })
    .unwrap();
    assert!(solved_again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Playing the exact policy from cached tables (saved and loaded, as `--deals --exact` and
/// `--compare --exact` use them) ends turns as the tables predict: over many level-1 turns
/// from random starts, the mean number of actions matches the tables' expected actions and no
/// turn goes round in circles. (Scores rounded to `f32` in the files once made the policy
/// circle: rounding noise above the ranking's tolerance picked a swap whose score only looked
/// higher, again and again.)
#[test]
fn the_exact_policy_from_the_tables_plays_as_predicted() {
    use crate::tables;
    let m = Model {
        blacks: 3,
        reds: 3,
        table: 4,
        faces: 6,
        wrap: true,
    };
    let dir = std::env::temp_dir().join(format!("rabbit-policy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    tables::level(&dir, m, 1, Effort::new(&m, 2), &mut |_: &str| {}).unwrap();
    let lv = tables::cached(&dir, m, 1).expect("cached").solved;
    let mut rng = hint::Rng::new(7);
    let (mut predicted, mut played, turns) = (0.0, 0.0, 400);
    for _ in 0..turns {
        let mut s = State::free(lv.ix.config(rng.below(lv.ix.total as u32) as usize));
        predicted += if s.cfg.won(&m) { 0.0 } else { lv.value(&s)[2] };
        let mut n = 0;
        while !s.cfg.won(&m) {
            n += 1;
            assert!(n < 5000, "a turn went round in circles at {s:?}");
            s = match lv.action_values(&s)[0].0 {
                Act::Swap { hand, table } => s.swap(hand, table),
                Act::Reroll => s.rerolled(&m, rng.below(m.faces as u32) as u8),
                Act::End => break,
            };
        }
        played += n as f64;
    }
    let (predicted, played) = (predicted / turns as f64, played / turns as f64);
    assert!(
        (played - predicted).abs() < 0.15 * predicted,
        "played {played} actions a turn, the tables expect {predicted}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finished positions of every kind in both variants: lost (the green counter at 0, also with
/// six equal values but the white die among them) and won (at the lowest and highest level).
pub(crate) fn finished_positions() -> Vec<(Variant, &'static str, game::Outcome)> {
    use game::Outcome::{SoloLost, SoloWon};
    let mut out = Vec::new();
    for variant in [Variant::Classic, Variant::NoWrap] {
        out.extend([
            (
                variant,
                "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 0 - -",
                SoloLost,
            ),
            (
                variant,
                "k1=3,k2=3,k3=3,r1=3,r2=3,w=3 k4=4,k5=6,r3=1,r4=5,r5=2 0 - -",
                SoloLost,
            ),
            (
                variant,
                "k1=3,k2=3,k3=3,r1=3,r2=3,r3=3 k4=4,k5=6,r4=1,r5=5,w=2 1 - -",
                SoloWon { score: 1 },
            ),
            (
                variant,
                "k1=6,k4=6,k3=6,r1=6,r5=6,r3=6 k2=1,k5=2,r2=5,r4=5,w=1 6 - -",
                SoloWon { score: 6 },
            ),
        ]);
    }
    out
}

/// A finished game answers at once in both modes: no hints, and no level asked for. The
/// directory stays empty and the solve is pre-stopped, so a regression that tried to load or
/// solve a level fails (an error, or a file) instead of running for minutes.
#[test]
fn a_finished_game_has_no_hints_and_asks_for_no_level() {
    use crate::tables;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let dir = std::env::temp_dir().join(format!("rabbit-over-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (variant, position, outcome) in finished_positions() {
        let g = WhiteRabbit::from_position(variant, position, 1).unwrap();
        assert_eq!(g.outcome(), Some(outcome), "{position}");
        assert!(
            hints_with(&g, quick()).is_empty(),
            "hint mode at {position}"
        );
        let m = Model::of(variant);
        let mut effort = Effort::new(&m, 1);
        effort.stop = Some(Arc::new(AtomicBool::new(true)));
        let mut heard = Vec::new();
        let h = tables::hints(&dir, &g, effort, &mut |s: &str| heard.push(s.to_string()));
        assert!(h.unwrap().is_empty(), "exact mode at {position}");
        assert!(heard.is_empty(), "nothing loaded or solved: {heard:?}");
        assert!(!dir.exists(), "nothing written for {position}");
    }
}

/// Only levels 1–6 can be asked for: level 0 (below green 1, where the `u8` used to wrap to
/// 255) and level 7 are errors at once, whatever the model.
#[test]
fn no_level_outside_one_to_six_can_be_asked_for() {
    use crate::tables;
    let dir = std::env::temp_dir().join(format!("rabbit-levels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for m in [
        Model::of(Variant::Classic),
        Model::of(Variant::NoWrap),
        SMALL[0],
    ] {
        for green in [0, 7, 255] {
            let mut log = |s: &str| panic!("nothing to solve, but heard {s:?}");
            let e = tables::level(&dir, m, green, Effort::new(&m, 1), &mut log)
                .err()
                .expect("no such level");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
            assert!(e.to_string().contains("no green level"), "{e}");
            let e = tables::starts(&dir, m, green, Effort::new(&m, 1), &mut log)
                .expect_err("no such level");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
            assert!(tables::cached(&dir, m, green).is_none());
        }
    }
    assert!(!dir.exists());
}

/// A level is written under a temporary name and renamed: while it is being written nothing
/// is found under its name, a complete file under the temporary name is never read, and a
/// solve that is stopped writes nothing.
#[test]
fn a_level_is_read_only_once_complete_under_its_name() {
    use crate::tables;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let m = SMALL[2];
    let dir = std::env::temp_dir().join(format!("rabbit-rename-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut effort = Effort::new(&m, 1);
    effort.stop = Some(Arc::new(AtomicBool::new(true)));
    let e = tables::level(&dir, m, 1, effort, &mut |_: &str| {})
        .err()
        .expect("stopped");
    assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "{e}");
    assert!(tables::cached(&dir, m, 1).is_none());
    let lv = tables::level(&dir, m, 1, Effort::new(&m, 1), &mut |_: &str| {}).unwrap();
    let file = tables::path(&dir, &m, 1);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [file.file_name().unwrap()], "no temporary left");
    // The whole file under a temporary name (as if the rename had not happened yet).
    let tmp = file.with_file_name(format!(
        "{}.99-0.tmp",
        file.file_name().unwrap().to_str().unwrap()
    ));
    std::fs::rename(&file, &tmp).unwrap();
    assert!(
        tables::cached(&dir, m, 1).is_none(),
        "a temporary is not read"
    );
    std::fs::rename(&tmp, &file).unwrap();
    let again = tables::cached(&dir, m, 1).expect("complete under its name");
    assert_eq!(again.starts, lv.starts);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A solve calls its pause between sweeps (a server runs other work there) and ends the same
/// as one without: the pause only takes time.
#[test]
fn a_solve_pauses_between_its_sweeps_and_ends_the_same() {
    use crate::tables::{self, Pause};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};
    let m = SMALL[0];
    let base = std::env::temp_dir().join(format!("rabbit-pause-{}", std::process::id()));
    let (paused_dir, plain_dir) = (base.join("paused"), base.join("plain"));
    let _ = std::fs::remove_dir_all(&base);
    let pauses = Arc::new(AtomicU32::new(0));
    let counted = Arc::clone(&pauses);
    let effort = Effort {
        pause: Some(Pause(Arc::new(move || {
            counted.fetch_add(1, Ordering::Relaxed);
        }))),
        ..Effort::new(&m, 1)
    };
    let paused = tables::level(&paused_dir, m, 2, effort, &mut |_| {}).unwrap();
    let plain = tables::level(&plain_dir, m, 2, Effort::new(&m, 1), &mut |_| {}).unwrap();
    assert!(
        pauses.load(Ordering::Relaxed) >= 2,
        "one a sweep, two levels"
    );
    assert_eq!(paused.starts, plain.starts);
    let _ = std::fs::remove_dir_all(&base);
}
