//! The bots play only legal moves, keep to their budget and finish games.

use std::time::{Duration, Instant};

use ai::{Level, Rng, choose_move, default_budget, plain_uct_move};
use catalog::{AnyGame, GAMES};

const TWO_PLAYER: [&str; 4] = ["perekati", "tumbleweed", "cephalopod", "mill"];

fn variants(game: &str) -> Vec<&'static str> {
    let info = GAMES.iter().find(|g| g.id == game).expect("a game");
    info.variants.iter().map(|v| v.id).collect()
}

/// A position reached by `plies` random moves from the start (history included).
fn random_position(game: &str, variant: &str, plies: usize, seed: u64) -> AnyGame {
    let mut g = AnyGame::new(game, Some(variant), seed).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Tumbleweed lists every setup pair; any will do.
        g.play(&moves[rng.below(moves.len())]).unwrap();
    }
    g
}

#[test]
fn every_level_plays_legal_moves_in_random_positions_of_every_variant() {
    let budget = Duration::from_millis(15);
    for game in TWO_PLAYER {
        for variant in variants(game) {
            for case in 0..3u64 {
                let plies = [0, 3, 25][case as usize];
                let g = random_position(game, variant, plies, case * 7 + 1);
                if g.is_over() {
                    continue;
                }
                for level in Level::ALL {
                    let mv = choose_move(&g, level, budget, case)
                        .unwrap_or_else(|| panic!("{game} {variant} {level}: no move"));
                    let mut next = g.clone();
                    next.play(&mv).unwrap_or_else(|e| {
                        panic!(
                            "{game} {variant} {level} played {mv} in {}: {e}",
                            g.position()
                        )
                    });
                }
                let mv = plain_uct_move(&g, budget, case).expect("uct finds a move");
                g.clone().play(&mv).unwrap();
            }
        }
    }
}

#[test]
fn hard_keeps_to_its_budget() {
    let budget = Duration::from_millis(60);
    for game in TWO_PLAYER {
        let variant = variants(game)[0];
        let g = random_position(game, variant, 4, 3);
        let began = Instant::now();
        choose_move(&g, Level::Hard, budget, 1).unwrap();
        let spent = began.elapsed();
        // Slack for an unoptimised test build and a busy machine.
        assert!(
            spent < budget + Duration::from_millis(250),
            "{game}: {spent:?}"
        );
    }
}

#[test]
fn bots_finish_games() {
    for (game, variant) in [
        ("perekati", "malysh"),
        ("tumbleweed", "hex6"),
        ("cephalopod", "5x5"),
        ("cephalopod", "3x3"),
        ("mill", "troika"),
    ] {
        let mut g = AnyGame::new(game, Some(variant), 5).unwrap();
        let mut plies = 0;
        while let Some(seat) = g.to_move() {
            let level = if seat.index() == 0 {
                Level::Easy
            } else {
                Level::Medium
            };
            let mv = choose_move(&g, level, Duration::from_millis(10), plies).unwrap();
            g.play(&mv).unwrap();
            plies += 1;
            assert!(plies < 3000, "{game} {variant} does not end");
        }
        assert!(g.outcome().is_some());
        assert_eq!(
            choose_move(&g, Level::Hard, Duration::from_millis(10), 0),
            None
        );
    }
}

#[test]
fn white_rabbit_has_no_bot() {
    let g = AnyGame::new("white-rabbit", None, 1).unwrap();
    assert_eq!(
        choose_move(&g, Level::Hard, Duration::from_millis(10), 0),
        None
    );
}

#[test]
fn levels_parse_and_print() {
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>().unwrap(), level);
    }
    assert!("grandmaster".parse::<Level>().is_err());
    assert_eq!(default_budget(Level::Hard), Duration::from_secs(2));
    assert!(default_budget(Level::Medium) < default_budget(Level::Hard));
}

#[test]
fn hard_takes_a_winning_capture_on_3x3() {
    // b to move; late position: the solver answers at once from a small subtree.
    let g = AnyGame::from_position("cephalopod", "3x3", "a1a1./b1.b1/a1a1. b", 0).unwrap();
    let mv = choose_move(&g, Level::Hard, Duration::from_secs(5), 0).unwrap();
    g.clone().play(&mv).unwrap();
}
