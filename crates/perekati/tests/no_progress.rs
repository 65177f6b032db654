//! The platform's no-progress adjudication (`Perekati::no_progress_ending`), which is not a
//! rule of the game: the engine's own outcome never applies it.

use game::{Game, Outcome, Seat};
mod common;

use common::{malysh, play};
use perekati::{Perekati, Variant};

/// Plays `plies` moves that neither end the game nor bring a cube home, each drawn from the
/// others by a seeded generator (so the game is the same on every run).
fn wander(game: &mut Perekati, plies: usize) {
    let mut rng = game::GameRng::seeded(7);
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        let home = game.home_count(Seat::A) + game.home_count(Seat::B);
        moves.retain(|&mv| {
            let mut next = game.clone();
            next.make(mv);
            !next.is_over() && next.home_count(Seat::A) + next.home_count(Seat::B) == home
        });
        assert!(!moves.is_empty(), "no quiet move at {}", game.position());
        game.make(moves[rng.below(moves.len() as u32) as usize]);
    }
}

#[test]
fn a_hundred_plies_without_a_cube_coming_home_adjudicate_a_game_to_the_leader() {
    // Side a has one cube home (c6) and b none; both have cubes free to wander.
    let mut game = malysh("uuUuu/...../..u../...../...../UU.UU a");
    wander(&mut game, perekati::NO_PROGRESS_PLIES - 1);
    assert_eq!(game.plies_since_home(), perekati::NO_PROGRESS_PLIES - 1);
    assert_eq!(game.no_progress_ending(), None);
    wander(&mut game, 1);
    assert_eq!(game.no_progress_ending(), Some(Outcome::Win(Seat::A)));
    // An adjudication, not a rule: the game itself goes on (the referee and the spec's
    // other implementations see the same).
    assert_eq!(game.outcome(), None);
    assert!(!game.legal_texts().is_empty());
}

#[test]
fn a_level_game_without_progress_is_adjudicated_a_draw() {
    // Nobody brings a cube home from the start: after 100 plies the game is drawn 0 to 0.
    let mut game = Perekati::new(Variant::Large, 0);
    wander(&mut game, perekati::NO_PROGRESS_PLIES - 1);
    assert_eq!(game.no_progress_ending(), None);
    wander(&mut game, 1);
    assert_eq!(game.no_progress_ending(), Some(Outcome::Draw));
    assert_eq!(game.outcome(), None);

    // One cube home on each side (c6 for a, c1 for b): level, so a draw too.
    let mut game = malysh("uuUuu/...../...../...../...../UUuUU a");
    assert_eq!(game.home_count(Seat::A), 1);
    assert_eq!(game.home_count(Seat::B), 1);
    wander(&mut game, perekati::NO_PROGRESS_PLIES);
    assert_eq!(game.no_progress_ending(), Some(Outcome::Draw));
}

#[test]
fn a_cube_coming_home_starts_the_no_progress_count_again() {
    // a's cube on c5 with its hat facing south comes home by rolling north.
    let mut game = malysh("uu.uu/..S../..u../...../...../UU.UU a");
    play(&mut game, &["a1a2", "a6a5"]);
    assert_eq!(game.plies_since_home(), 2);
    play(&mut game, &["c5c6"]);
    assert_eq!(game.home_count(Seat::A), 1);
    assert_eq!(game.plies_since_home(), 0);
    wander(&mut game, perekati::NO_PROGRESS_PLIES - 1);
    assert_eq!(game.no_progress_ending(), None);
    wander(&mut game, 1);
    assert_eq!(game.no_progress_ending(), Some(Outcome::Win(Seat::A)));
}
