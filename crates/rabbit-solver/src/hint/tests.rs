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
