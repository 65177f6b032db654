//! Which of the spec's end rules ended a game (`Perekati::end_rule`): the table names it, so
//! that a score of home cubes says whether a side was blocked or a position came round again.

use game::{Game, Outcome, Seat};
mod common;

use common::{malysh, play};
use perekati::{EndRule, Perekati, Variant};

#[test]
fn a_game_going_on_has_no_end_rule() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(game.end_rule(), None);
    play(&mut game, &["a1a2", "a6a5"]);
    assert_eq!(game.end_rule(), None);
}

#[test]
fn the_last_cube_rolling_home_is_rule_one() {
    // Four of a's cubes are home on row 6; the fifth, hat south, rolls north onto e6 hat up.
    let mut game = malysh("UUUU./....S/...../uuuuu/...../..... a");
    assert_eq!(game.end_rule(), None);
    play(&mut game, &["e5e6"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::A)));
    assert_eq!(game.end_rule(), Some(EndRule::AllHome));
}

#[test]
fn a_side_to_move_with_no_move_is_blocked() {
    // b's cubes stand on row 1 hat down (not home), a's fill row 2 above them: b, to move,
    // has no move, and rule 2 scores the home cubes, none to none.
    let game = malysh("...../...../...../...../UUUUU/ddddd b");
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.end_rule(), Some(EndRule::Blocked));
}

#[test]
fn the_start_coming_round_a_third_time_is_rule_three() {
    // One cube of each side steps out and back twice: the start's third occurrence.
    let mut game = Perekati::new(Variant::Malysh, 0);
    play(
        &mut game,
        &["a1a2", "a6a5", "a2a1", "a5a6", "a1a2", "a6a5", "a2a1"],
    );
    assert_eq!(game.end_rule(), None);
    play(&mut game, &["a5a6"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.end_rule(), Some(EndRule::Repetition));
}
