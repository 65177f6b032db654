//! The bots play only legal moves, stop at their deadline and finish games.

use std::time::{Duration, Instant};

use ai::alphabeta::AlphaBeta;
use ai::eval::Evaluator;
use ai::{Level, Rng, choose_move, default_budget, plain_uct_move};
use catalog::{AnyGame, GAMES, GameId, VariantId};
use game::Game;

/// The catalogue's two-player games: every one has a bot.
fn two_player() -> impl Iterator<Item = &'static str> {
    GameId::ALL
        .into_iter()
        .filter(|game| !game.is_solo())
        .map(GameId::as_str)
}

fn variants(game: &str) -> Vec<&'static str> {
    let info = GAMES.iter().find(|g| g.id == game).expect("a game");
    info.variants.iter().map(|v| v.id).collect()
}

/// A position reached by `plies` random moves from the start (history included).
fn random_position(game: &str, variant: &str, plies: usize, seed: u64) -> AnyGame {
    let mut g = AnyGame::new(VariantId::parse(game, Some(variant)).unwrap(), seed);
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let moves = g.legal_texts();
        if moves.is_empty() {
            break;
        }
        // Tumbleweed lists every setup pair; any will do.
        g.play_text(&moves[rng.below(moves.len())]).unwrap();
    }
    g
}

#[test]
fn every_level_plays_legal_moves_in_random_positions_of_every_variant() {
    let budget = Duration::from_millis(15);
    for game in two_player() {
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
                    next.play_text(&mv).unwrap_or_else(|e| {
                        panic!(
                            "{game} {variant} {level} played {mv} in {}: {e}",
                            g.position()
                        )
                    });
                }
                let mv = plain_uct_move(&g, budget, case).expect("uct finds a move");
                g.clone().play_text(&mv).unwrap();
            }
        }
    }
}

/// How a budget is kept: alpha-beta reads the clock every 1024 nodes, so a search whose
/// deadline has already passed stops at its first reading, however deep it was asked to go,
/// and still names a legal move.
#[test]
fn a_search_past_its_deadline_stops_at_its_first_clock_reading() {
    fn check<G: Game, E: Evaluator<G>>(start: G, eval: &E) {
        let mut g = start;
        // A few plies in, so that the root has several moves.
        for _ in 0..4 {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            g.play(moves[moves.len() / 2]).unwrap();
        }
        let mut search = AlphaBeta::new(eval, Instant::now());
        let found = search.best_move(&g, 64, &mut Rng::new(1)).expect("a move");
        assert!(
            search.nodes <= 1024,
            "{}: {} nodes",
            g.position(),
            search.nodes
        );
        g.check_move(found.best).unwrap();
    }
    let perekati = perekati::Variant::Malysh;
    check(
        perekati::Perekati::new(perekati, 0),
        &ai::perekati::PerekatiEval::hard(perekati),
    );
    check(
        tumbleweed::Tumbleweed::new(tumbleweed::Variant::Hex6, 0),
        &ai::tumbleweed::TumbleweedEval,
    );
    check(
        cephalopod::Cephalopod::new(cephalopod::Variant::FiveByFive, 0),
        &ai::cephalopod::CephalopodEval,
    );
    let mill = mill::Variant::Troika;
    check(mill::Mill::new(mill, 0), &ai::mill::MillEval::new(mill));
}

/// Every level of every game answers, with a legal move, when no time at all is left: each
/// search stops on its own deadline rather than at a depth or a count.
#[test]
fn every_level_answers_with_no_time_left() {
    for game in two_player() {
        for variant in variants(game) {
            let g = random_position(game, variant, 4, 3);
            for level in Level::ALL {
                let mv = choose_move(&g, level, Duration::ZERO, 1)
                    .unwrap_or_else(|| panic!("{game} {variant} {level}: no move"));
                g.clone()
                    .play_text(&mv)
                    .unwrap_or_else(|e| panic!("{game} {variant} {level}: {mv}: {e}"));
            }
        }
    }
}

/// Variants whose games bots finish quickly, at least one of every two-player game.
const QUICK_VARIANTS: [(&str, &str); 5] = [
    ("perekati", "malysh"),
    ("tumbleweed", "hex6"),
    ("cephalopod", "5x5"),
    ("cephalopod", "3x3"),
    ("mill", "troika"),
];

#[test]
fn bots_finish_games() {
    for game in two_player() {
        assert!(
            QUICK_VARIANTS.iter().any(|(quick, _)| *quick == game),
            "{game} has no variant in QUICK_VARIANTS: add its quickest"
        );
    }
    for (game, variant) in QUICK_VARIANTS {
        let mut g = AnyGame::new(VariantId::parse(game, Some(variant)).unwrap(), 5);
        let mut plies = 0;
        while let Some(seat) = g.to_move() {
            let level = if seat.index() == 0 {
                Level::Easy
            } else {
                Level::Medium
            };
            let mv = choose_move(&g, level, Duration::from_millis(10), plies).unwrap();
            g.play_text(&mv).unwrap();
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
    let g = AnyGame::new(GameId::WhiteRabbit.default_variant(), 1);
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
    let g = AnyGame::from_position(
        VariantId::parse("cephalopod", Some("3x3")).unwrap(),
        "a1a1./b1.b1/a1a1. b",
        0,
    )
    .unwrap();
    let mv = choose_move(&g, Level::Hard, Duration::from_secs(5), 0).unwrap();
    g.clone().play_text(&mv).unwrap();
}
