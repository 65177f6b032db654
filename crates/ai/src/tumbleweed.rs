//! Tumbleweed's knowledge: territory estimated from sight counts, and the setup and colour
//! choice (the pie rule), which every level plays the same sensible way.

use game::Game;
use tumbleweed::{Colour, Move, Owner, Phase, Tumbleweed};

use crate::alphabeta::AlphaBeta;
use crate::eval::Evaluator;
use crate::rng::Rng;

pub struct TumbleweedEval;

fn owner_colour(owner: Owner) -> Option<Colour> {
    match owner {
        Owner::Red => Some(Colour::Red),
        Owner::White => Some(Colour::White),
        Owner::Neutral => None,
    }
}

impl Evaluator<Tumbleweed> for TumbleweedEval {
    fn evaluate(&self, game: &Tumbleweed) -> i32 {
        let Some(me) = game.colour_to_move() else {
            return 0;
        };
        let them = me.other();
        let mut territory = 0i32;
        let mut pressure = 0i32;
        for cell in game.cells() {
            let (mine, theirs) = (game.sight(cell, me) as i32, game.sight(cell, them) as i32);
            match game.stack(cell) {
                None => {
                    territory += (mine - theirs).signum();
                    // Sight margins beyond one make a cell safer to hold later.
                    pressure += (mine - theirs).clamp(-2, 2);
                }
                Some(stack) => match owner_colour(stack.owner) {
                    Some(c) if c == me => {
                        territory += 1;
                        // A stack the opponent can overtop is only half ours.
                        if theirs > stack.height as i32 {
                            pressure -= 3;
                        }
                    }
                    Some(_) => {
                        territory -= 1;
                        if mine > stack.height as i32 {
                            pressure += 3;
                        }
                    }
                    None => {}
                },
            }
        }
        100 * territory + 10 * pressure
    }

    fn order_moves(&self, _game: &Tumbleweed, moves: &mut [Move]) {
        // Passing is rarely right mid-game: search it last.
        if let Some(at) = moves.iter().position(|&m| m == Move::Pass) {
            let last = moves.len() - 1;
            moves.swap(at, last);
        }
    }
}

/// Red's advantage after the setup: red to move, searched `depth` plies with the evaluation.
fn red_advantage(after_setup: &Tumbleweed, depth: i32, deadline: std::time::Instant) -> i32 {
    let mut game = after_setup.clone();
    game.make(Move::Choose(Colour::Red));
    let eval = TumbleweedEval;
    let mut search = AlphaBeta::new(&eval, deadline);
    let scored = search.score_moves(&game, depth);
    scored.iter().map(|&(_, s)| s).max().unwrap_or(0)
}

/// The host's setup: among sampled placements, one that leaves red and white as even as the
/// evaluation can tell, so that the chooser gains nothing from the pie rule. `spread` > 1
/// picks at random among that many of the most even setups (the easier levels).
pub fn setup(
    game: &Tumbleweed,
    rng: &mut Rng,
    deadline: std::time::Instant,
    spread: usize,
) -> Move {
    let mut all = Vec::new();
    game.legal_moves(&mut all);
    rng.shuffle(&mut all);
    // Setups near the centre matter most; far corners are weak for both and tell little.
    let mut rated: Vec<(i32, Move)> = Vec::new();
    for &mv in all.iter().take(150) {
        if std::time::Instant::now() >= deadline && !rated.is_empty() {
            break;
        }
        let mut after = game.clone();
        after.make(mv);
        let advantage = red_advantage(&after, 1, deadline);
        rated.push((advantage.abs(), mv));
    }
    rated.sort_by_key(|&(a, _)| a);
    let pick = rng.below(spread.clamp(1, rated.len().max(1)));
    rated.get(pick).map(|&(_, m)| m).unwrap_or(all[0])
}

/// The chooser's colour: the one the evaluation prefers after a short search.
pub fn choose(game: &Tumbleweed, deadline: std::time::Instant) -> Move {
    let advantage = red_advantage(game, 2, deadline);
    Move::Choose(if advantage >= 0 {
        Colour::Red
    } else {
        Colour::White
    })
}

/// Whether the game is in its setup or choice phase (handled by [`setup`] and [`choose`]).
pub fn in_pie_phase(game: &Tumbleweed) -> Option<Phase> {
    match game.phase() {
        p @ (Phase::Setup | Phase::Choose) => Some(p),
        Phase::Play(_) => None,
    }
}
