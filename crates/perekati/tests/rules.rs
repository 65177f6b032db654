//! One test per rule of `docs/spec/perekati.md`, on small hand-made positions.

use game::{Error, Game, Outcome, Seat};
use perekati::{Cell, Hat, Perekati, Variant};

fn at(variant: Variant, position: &str) -> Perekati {
    Perekati::from_position(variant, position, 0).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn malysh(position: &str) -> Perekati {
    at(Variant::Malysh, position)
}

fn play(game: &mut Perekati, moves: &[&str]) {
    for text in moves {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} at {}: {e}", game.position()));
    }
}

fn cell(name: &str) -> Cell {
    let b = name.as_bytes();
    Cell::new(b[0] - b'a', b[1] - b'1').expect("cell name")
}

fn legal(game: &Perekati) -> Vec<String> {
    game.legal_texts()
}

fn reason(game: &Perekati, text: &str) -> String {
    let mv = game.parse_move(text).expect("well-formed move");
    match game.check_move(mv) {
        Err(Error::IllegalMove { reason, .. }) => reason,
        other => panic!(
            "{text} at {}: expected an illegal move, got {other:?}",
            game.position()
        ),
    }
}

// --- The start -------------------------------------------------------------------------------

#[test]
fn every_variant_starts_with_full_rows_hat_up_and_side_a_to_move() {
    let starts = [
        (Variant::Malysh, "uuuuu/...../...../...../...../UUUUU a"),
        (Variant::Long, "uuuuu/...../...../...../...../...../UUUUU a"),
        (
            Variant::Large,
            "uuuuuu/....../....../....../....../....../....../UUUUUU a",
        ),
        (
            Variant::Printed,
            "uuuuuu/....../....../....../....../UUUUUU a",
        ),
    ];
    for (variant, position) in starts {
        let game = Perekati::new(variant, 0);
        assert_eq!(game.position(), position);
        assert_eq!(game.to_move(), Some(Seat::A));
        assert_eq!(game.turn_label(), "a");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.count_legal() as u8, variant.columns());
    }
}

#[test]
fn the_first_moves_roll_cubes_forward_off_the_start_row() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(legal(&game), ["a1a2", "b1b2", "c1c2", "d1d2", "e1e2"]);
}

#[test]
fn sides_alternate_and_labels_are_a_and_b() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    play(&mut game, &["c1c2"]);
    assert_eq!(game.to_move(), Some(Seat::B));
    assert_eq!(game.turn_label(), "b");
    assert_eq!(game.seat_label(Seat::A), "a");
    assert_eq!(game.seat_label(Seat::B), "b");
    assert_eq!(legal(&game), ["a6a5", "b6b5", "c6c5", "d6d5", "e6e5"]);
}

// --- Rolling the hat -------------------------------------------------------------------------

const CENTRE: &str = "uuuuu/...../...../..U../...../UU.UU a";

#[test]
fn rolling_north_turns_the_top_hat_to_face_north() {
    let mut game = malysh(CENTRE);
    play(&mut game, &["c3c4"]);
    assert_eq!(game.cube(cell("c4")), Some((Seat::A, Hat::North)));
    assert_eq!(game.cube(cell("c3")), None);
}

#[test]
fn rolling_south_turns_the_top_hat_to_face_south() {
    let mut game = malysh(CENTRE);
    play(&mut game, &["c3c2"]);
    assert_eq!(game.cube(cell("c2")), Some((Seat::A, Hat::South)));
}

#[test]
fn rolling_east_turns_the_top_hat_to_face_east() {
    let mut game = malysh(CENTRE);
    play(&mut game, &["c3d3"]);
    assert_eq!(game.cube(cell("d3")), Some((Seat::A, Hat::East)));
}

#[test]
fn rolling_west_turns_the_top_hat_to_face_west() {
    let mut game = malysh(CENTRE);
    play(&mut game, &["c3b3"]);
    assert_eq!(game.cube(cell("b3")), Some((Seat::A, Hat::West)));
}

#[test]
fn four_rolls_east_bring_the_hat_back_on_top_through_every_face() {
    let mut game = malysh("uuuuu/...../...../U..../...../.UUUU a");
    let steps = [
        ("a3b3", "b3", Hat::East),
        ("b3c3", "c3", Hat::Down),
        ("c3d3", "d3", Hat::West),
        ("d3e3", "e3", Hat::Up),
    ];
    let replies = ["a6a5", "b6b5", "c6c5"];
    for (i, (mv, to, hat)) in steps.into_iter().enumerate() {
        play(&mut game, &[mv]);
        assert_eq!(game.cube(cell(to)), Some((Seat::A, hat)), "after {mv}");
        if let Some(reply) = replies.get(i) {
            play(&mut game, &[reply]);
        }
    }
}

#[test]
fn four_rolls_north_bring_the_hat_back_on_top_through_every_face() {
    let mut game = malysh("uuuu./....u/...../...../...../UUUUU a");
    let steps = [
        ("a1a2", "a2", Hat::North),
        ("a2a3", "a3", Hat::Down),
        ("a3a4", "a4", Hat::South),
        ("a4a5", "a5", Hat::Up),
    ];
    let replies = ["e5e4", "e4e3", "e3e2", "d6d5"];
    for ((mv, to, hat), reply) in steps.into_iter().zip(replies) {
        play(&mut game, &[mv]);
        assert_eq!(game.cube(cell(to)), Some((Seat::A, hat)), "after {mv}");
        play(&mut game, &[reply]);
    }
}

#[test]
fn side_faces_stay_put_when_rolling_across_them() {
    // Hat facing east, rolled north: the east face is a side face of that roll.
    let mut game = malysh("uuuuu/...../...../..E../...../UU.UU a");
    play(&mut game, &["c3c4"]);
    assert_eq!(game.cube(cell("c4")), Some((Seat::A, Hat::East)));
}

#[test]
fn a_hat_on_the_bottom_comes_up_on_the_far_side_of_the_roll() {
    let mut game = malysh("uuuuu/...../...../..D../...../UU.UU a");
    play(&mut game, &["c3c4"]);
    assert_eq!(game.cube(cell("c4")), Some((Seat::A, Hat::South)));
}

#[test]
fn side_b_cubes_roll_the_same_way() {
    let mut game = malysh("uu.uu/..u../...../...../...../UUUUU b");
    play(&mut game, &["c5c4"]);
    assert_eq!(game.cube(cell("c4")), Some((Seat::B, Hat::South)));
    assert_eq!(game.position(), "uu.uu/...../..s../...../...../UUUUU a");
}

// --- Home cubes ------------------------------------------------------------------------------

#[test]
fn a_cube_on_its_goal_row_hat_up_never_moves_again() {
    let game = malysh("..U../...../uuuuu/...../...../UU.UU a");
    assert!(game.is_home(cell("c6")));
    assert_eq!(game.home_count(Seat::A), 1);
    assert!(legal(&game).iter().all(|m| !m.starts_with("c6")));
    assert_eq!(
        reason(&game, "c6c5"),
        "the cube on c6 is home and never moves again"
    );
}

#[test]
fn a_cube_on_its_goal_row_with_the_hat_elsewhere_moves_as_usual() {
    let game = malysh("..N../...../uuuuu/...../...../UU.UU a");
    assert!(!game.is_home(cell("c6")));
    assert_eq!(game.home_count(Seat::A), 0);
    let moves = legal(&game);
    for mv in ["c6b6", "c6c5", "c6d6"] {
        assert!(moves.contains(&mv.to_string()), "{mv} in {moves:?}");
    }
}

#[test]
fn a_cube_of_side_a_on_row_1_hat_up_is_not_home() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(game.home_count(Seat::A), 0);
    assert!(!game.is_home(cell("c1")));
    assert!(legal(&game).contains(&"c1c2".to_string()));
}

#[test]
fn a_cube_of_side_b_on_its_start_row_hat_up_is_not_home() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(game.home_count(Seat::B), 0);
    assert!(!game.is_home(cell("c6")));
}

#[test]
fn a_cube_of_side_b_on_row_1_hat_up_is_home() {
    let game = malysh("uNuuu/...../...../...../...../UuUUU a");
    assert!(game.is_home(cell("b1")));
    assert_eq!(game.home_count(Seat::B), 1);
}

#[test]
fn rolling_onto_the_goal_row_hat_up_makes_a_cube_home() {
    // Hat south, rolled north: the back face comes on top.
    let mut game = malysh("uu.uu/..S../...../..u../...../UU.UU a");
    play(&mut game, &["c5c6"]);
    assert_eq!(game.cube(cell("c6")), Some((Seat::A, Hat::Up)));
    assert!(game.is_home(cell("c6")));
    assert_eq!(game.home_count(Seat::A), 1);
    play(&mut game, &["a6a5"]);
    assert!(legal(&game).iter().all(|m| !m.starts_with("c6")));
}

#[test]
fn rolling_onto_the_goal_row_hat_elsewhere_does_not_make_a_cube_home() {
    let mut game = malysh("uu.uu/..U../...../..u../...../UU.UU a");
    play(&mut game, &["c5c6"]);
    assert_eq!(game.cube(cell("c6")), Some((Seat::A, Hat::North)));
    assert_eq!(game.home_count(Seat::A), 0);
    play(&mut game, &["a6a5"]);
    assert!(legal(&game).contains(&"c6c5".to_string()));
}

#[test]
fn a_cube_that_passes_over_its_goal_row_stays_movable_until_it_stands_hat_up() {
    // c6 with the hat west is not home; rolling east turns the hat up: home.
    let mut game = malysh("uuW../...../...u./..uu./...../UU.UU a");
    play(&mut game, &["c6d6"]);
    assert!(game.is_home(cell("d6")));
}

// --- Moves: one cell, orthogonal, onto an empty cell ----------------------------------------

#[test]
fn a_cube_cannot_jump_over_another_cube() {
    let game = malysh("uu.uu/...../...../..u../..U../UU.UU a");
    assert!(!legal(&game).contains(&"c2c4".to_string()));
    assert_eq!(
        reason(&game, "c2c4"),
        "c4 is not next to c2 (a cube rolls one cell, never diagonally)"
    );
}

#[test]
fn a_cube_cannot_move_diagonally() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(
        reason(&game, "c1d2"),
        "d2 is not next to c1 (a cube rolls one cell, never diagonally)"
    );
}

#[test]
fn a_cube_cannot_roll_two_cells() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert!(reason(&game, "c1c3").contains("not next to"));
}

#[test]
fn a_cube_cannot_capture_an_enemy_cube() {
    let game = malysh("uu.uu/...../...../..u../..U../UU.UU a");
    assert!(!legal(&game).contains(&"c2c3".to_string()));
    assert_eq!(reason(&game, "c2c3"), "c3: the cell is occupied");
}

#[test]
fn a_cube_cannot_roll_onto_its_own_side_cube() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(reason(&game, "c1d1"), "d1: the cell is occupied");
}

#[test]
fn a_cube_cannot_roll_off_the_board_or_wrap_round_an_edge() {
    // e3 on the east edge: no roll east (it would wrap to the next row's a-cell).
    let game = malysh("uuuuu/...../...../....U/...../UUUU. a");
    let moves = legal(&game);
    assert_eq!(
        moves.iter().filter(|m| m.starts_with("e3")).count(),
        3,
        "{moves:?}"
    );
    assert!(game.parse_move("e3f3").is_err());
}

#[test]
fn only_the_side_to_move_may_roll_its_cubes() {
    let game = Perekati::new(Variant::Malysh, 0);
    assert_eq!(reason(&game, "c6c5"), "the cube on c6 is not yours");
    assert_eq!(reason(&game, "c3c4"), "there is no cube on c3");
}

#[test]
fn a_cube_boxed_in_on_all_sides_has_no_moves() {
    let game = malysh("uuuuu/...../..U../.UUU./..U../..... a");
    let moves = legal(&game);
    assert!(moves.iter().all(|m| !m.starts_with("c3")), "{moves:?}");
}

// --- No rocking back and forth ---------------------------------------------------------------

/// Side b's replies that never repeat a cube's path, so b is never held by the rule.
const B_REPLIES: [&str; 5] = ["a6a5", "b6b5", "d6d5", "e6e5", "a5a4"];

fn rock(game: &mut Perekati, a_moves: &[&str]) {
    for (i, mv) in a_moves.iter().enumerate() {
        play(game, &[mv, B_REPLIES[i]]);
    }
}

#[test]
fn rolling_back_and_forth_twice_is_allowed() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2"]);
    assert!(legal(&game).contains(&"c2c1".to_string()));
    play(&mut game, &["c2c1"]);
}

#[test]
fn the_third_back_and_forth_is_refused() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2", "c2c1"]);
    assert!(!legal(&game).contains(&"c1c2".to_string()));
    assert_eq!(
        reason(&game, "c1c2"),
        "the same cube may not roll back and forth more than twice"
    );
    assert!(game.play_text("c1c2").is_err());
}

#[test]
fn other_cubes_may_still_move_while_one_is_held_by_the_rocking_rule() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2", "c2c1"]);
    assert_eq!(legal(&game), ["a1a2", "b1b2", "d1d2", "e1e2"]);
    assert_eq!(game.count_legal(), 4);
    play(&mut game, &["a1a2"]);
}

#[test]
fn a_different_move_in_between_resets_the_rocking_count() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2", "a1a2", "c2c1"]);
    // Own last four: c2c1 c1c2 a1a2 c2c1: not the forbidden pattern.
    assert!(legal(&game).contains(&"c1c2".to_string()));
}

#[test]
fn the_held_move_is_free_again_after_one_other_move() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2", "c2c1", "a1a2"]);
    assert!(legal(&game).contains(&"c1c2".to_string()));
}

#[test]
fn the_opponents_moves_in_between_do_not_reset_the_rocking_count() {
    // Side b's replies between side a's rolls are always there; only a's own moves count.
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["e1e2", "e2e1", "e1e2", "e2e1"]);
    assert!(!legal(&game).contains(&"e1e2".to_string()));
}

#[test]
fn the_rocking_rule_binds_each_side_separately() {
    // b rocks e6/e5 while a moves a different cube each time: b is held, a is not.
    let mut game = Perekati::new(Variant::Malysh, 0);
    let a = ["a1a2", "b1b2", "c1c2", "d1d2", "e1e2"];
    let b = ["e6e5", "e5e6", "e6e5", "e5e6"];
    for (x, y) in a.iter().zip(b) {
        play(&mut game, &[x, y]);
    }
    play(&mut game, &[a[4]]);
    assert!(!legal(&game).contains(&"e6e5".to_string()));
    assert!(legal(&game).contains(&"d6d5".to_string()));
}

#[test]
fn rocking_a_cube_sideways_is_held_the_same_way() {
    let mut game = malysh("uuuuu/...../...../..U../...../UU.UU a");
    rock(&mut game, &["c3d3", "d3c3", "c3d3", "d3c3"]);
    assert!(!legal(&game).contains(&"c3d3".to_string()));
    assert!(legal(&game).contains(&"c3b3".to_string()));
}

#[test]
fn a_position_set_up_from_notation_carries_no_rocking_history() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    rock(&mut game, &["c1c2", "c2c1", "c1c2", "c2c1"]);
    let fresh = malysh(&game.position());
    assert!(legal(&fresh).contains(&"c1c2".to_string()));
}

#[test]
fn a_side_whose_only_move_is_held_by_the_rocking_rule_is_blocked() {
    // b's one free cube can only go e3-e2-e3; its fifth roll is refused, so b cannot move and
    // the game ends: b has four cubes home, a none.
    let mut game = malysh("...../UU.../....U/...Us/...U./.uuuu b");
    let a_moves = ["a5a4", "a4a3", "b5b4", "b4b3"];
    let b_moves = ["e3e2", "e2e3", "e3e2", "e2e3"];
    for (i, (b, a)) in b_moves.iter().zip(a_moves).enumerate() {
        assert_eq!(legal(&game), [*b]);
        play(&mut game, &[b]);
        assert_eq!(game.outcome(), None);
        play(&mut game, &[a]);
        if i < 3 {
            assert_eq!(game.outcome(), None);
        }
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::B)));
    assert_eq!(game.to_move(), None);
    assert!(legal(&game).is_empty());
}

// --- End: all home ---------------------------------------------------------------------------

#[test]
fn bringing_the_last_cube_home_wins() {
    let mut game = malysh("UU.UU/..S../...../...../uuuuu/..... a");
    play(&mut game, &["c5c6"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::A)));
    assert_eq!(game.to_move(), None);
    assert!(legal(&game).is_empty());
    assert_eq!(game.count_legal(), 0);
    let mv = game.parse_move("a2a3").expect("well-formed");
    assert_eq!(game.check_move(mv), Err(Error::GameOver));
}

#[test]
fn side_b_wins_by_bringing_its_last_cube_home_on_row_1() {
    let mut game = malysh("...../UUUUU/...../...../..n../uu.uu b");
    play(&mut game, &["c2c1"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::B)));
}

#[test]
fn the_last_cube_arriving_hat_elsewhere_does_not_win() {
    let mut game = malysh("UU.UU/..U../...../...../uuuuu/..... a");
    play(&mut game, &["c5c6"]);
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_set_up_position_where_the_side_not_to_move_has_every_cube_home_is_won() {
    let game = malysh("UUUUU/...../...../...../uuuuu/..... b");
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::A)));
    assert_eq!(game.to_move(), None);
    assert!(legal(&game).is_empty());
}

#[test]
fn a_set_up_position_where_the_side_to_move_has_every_cube_home_is_refused() {
    let err = Perekati::from_position(Variant::Malysh, "UUUUU/...../...../...../uuuuu/..... a", 0)
        .expect_err("impossible position");
    assert!(matches!(err, Error::BadPosition(_)), "{err}");
}

// --- End: blocked ----------------------------------------------------------------------------

#[test]
fn a_blocked_side_with_more_home_cubes_wins() {
    // a blocks b's last free cubes; b has three home, a two: b wins though it cannot move.
    let mut game = malysh("UU.../...../..U../...U./....U/uuunn a");
    play(&mut game, &["d3d2"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::B)));
    assert_eq!(game.to_move(), None);
}

#[test]
fn a_blocked_side_with_fewer_home_cubes_loses() {
    // e4e3 shuts in b's three free cubes (d1, e1, e2); a has three home, b two.
    let mut game = malysh("UUU../...../....U/...../...Un/.uunn a");
    assert_eq!(game.outcome(), None);
    play(&mut game, &["e4e3"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::A)));
}

#[test]
fn a_side_that_still_has_one_move_is_not_blocked() {
    let mut game = malysh("UUU../...../...../....U/...Un/.uunn a");
    play(&mut game, &["e3e4"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(legal(&game), ["e2e3"]);
}

#[test]
fn a_blocked_end_with_equal_home_cubes_is_a_draw() {
    let mut game = malysh("UU.../...../...../...U./..U.U/uunnn a");
    play(&mut game, &["d3d2"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_set_up_position_whose_side_to_move_is_blocked_is_already_over() {
    let game = malysh("UU.../...../...../...../..UUU/uunnn b");
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(legal(&game).is_empty());
    assert_eq!(game.to_move(), None);
    assert_eq!(game.turn_label(), "b");
}

// --- End: threefold repetition (platform rule) -----------------------------------------------

const SHUFFLE: [&str; 4] = ["a1a2", "a6a5", "a2a1", "a5a6"];

#[test]
fn the_third_occurrence_of_a_position_ends_the_game() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    play(&mut game, &SHUFFLE);
    // The start for the second time: play goes on.
    assert_eq!(
        game.position(),
        Perekati::new(Variant::Malysh, 0).position()
    );
    assert_eq!(game.outcome(), None);
    play(&mut game, &SHUFFLE[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &SHUFFLE[3..]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(legal(&game).is_empty());
}

#[test]
fn a_repetition_end_is_scored_by_home_cubes() {
    let start = "uuUuu/...../..u../...../...../UU.UU a";
    let mut game = malysh(start);
    play(&mut game, &SHUFFLE);
    play(&mut game, &SHUFFLE);
    assert_eq!(game.position(), start);
    assert_eq!(game.outcome(), Some(Outcome::Win(Seat::A)));
}

#[test]
fn a_set_up_position_counts_as_the_first_occurrence() {
    let mut game = malysh("uuuuu/...../...../..U../...../UU.UU a");
    play(&mut game, &["c3c4", "a6a5", "c4c3", "a5a6"]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["c3c4", "a6a5", "c4c3", "a5a6"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn positions_reached_by_different_move_orders_are_the_same_position() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    // Start, then the start again twice by two different routes.
    play(&mut game, &["a1a2", "a6a5", "a2a1", "a5a6"]);
    play(&mut game, &["b1b2", "b6b5", "b2b1", "b5b6"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_same_cells_with_the_other_side_to_move_are_not_a_repetition() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    let hash = game.hash_key();
    play(&mut game, &["a1a2"]);
    assert_ne!(game.hash_key(), hash);
    // Two a-cubes swap roles: positions with b to move repeat only with b to move.
    play(&mut game, &["a6a5", "a2a1", "a5a6"]);
    assert_eq!(game.hash_key(), hash);
}

#[test]
fn a_hat_that_differs_makes_a_different_position() {
    // c3 goes round a square: same cell, hat turned, so not a repetition of the start.
    let mut game = malysh("uuuuu/...../...../..U../...../UU.UU a");
    let first = game.position();
    play(
        &mut game,
        &[
            "c3c4", "a6a5", "c4d4", "a5a4", "d4d3", "a4a5", "d3c3", "a5a6",
        ],
    );
    assert_ne!(game.position(), first);
    assert_eq!(game.cube(cell("c3")).map(|(_, h)| h), Some(Hat::West));
}

#[test]
fn unmake_takes_back_a_repetition_end() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    play(&mut game, &SHUFFLE);
    play(&mut game, &SHUFFLE[..3]);
    let before = game.clone();
    let mv = game.parse_move("a5a6").expect("move");
    let undo = game.make(mv);
    assert!(game.is_over());
    game.unmake(mv, undo);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position(), before.position());
    assert_eq!(game.hash_key(), before.hash_key());
    assert_eq!(legal(&game), legal(&before));
}

// --- Illegal moves leave the state as it was --------------------------------------------------

#[test]
fn a_refused_move_changes_nothing() {
    let mut game = Perekati::new(Variant::Malysh, 0);
    let (position, hash) = (game.position(), game.hash_key());
    for text in ["c1c3", "c6c5", "c1d1", "c1d2", "c3c4", "c1c2 ", "C1C2"] {
        assert!(game.play_text(text).is_err(), "{text}");
        assert_eq!(game.position(), position);
        assert_eq!(game.hash_key(), hash);
    }
}
