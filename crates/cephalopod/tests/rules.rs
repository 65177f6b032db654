//! One test per rule of `docs/spec/cephalopod.md`, on small hand-made positions.

use cephalopod::{Cephalopod, Variant};
use game::{Error, Game, Outcome, Seat};

fn three(position: &str) -> Cephalopod {
    Cephalopod::from_position(Variant::ThreeByThree, position, 0).expect("test position")
}

fn five(position: &str) -> Cephalopod {
    Cephalopod::from_position(Variant::FiveByFive, position, 0).expect("test position")
}

/// The legal moves on one cell, in canonical text, sorted.
fn moves_on(game: &Cephalopod, cell: &str) -> Vec<String> {
    game.legal_texts()
        .into_iter()
        .filter(|m| m == cell || m.starts_with(&format!("{cell}:")))
        .collect()
}

fn illegal_reason(game: &Cephalopod, text: &str) -> String {
    let mv = game.parse_move(text).expect("well-formed move");
    match game.check_move(mv) {
        Err(Error::IllegalMove { text: t, reason }) => {
            assert_eq!(t, text);
            reason
        }
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

#[test]
fn the_start_is_an_empty_board_with_a_to_move_and_every_cell_open() {
    let g = Cephalopod::new(Variant::FiveByFive, 0);
    assert_eq!(g.position(), "...../...../...../...../..... a");
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(g.turn_label(), "a");
    assert_eq!(g.legal_texts().len(), 25);
    let g = Cephalopod::new(Variant::ThreeByThree, 0);
    assert_eq!(g.position(), ".../.../... a");
    assert_eq!(g.legal_texts().len(), 9);
}

#[test]
fn seats_are_labelled_a_and_b_and_a_moves_first() {
    let mut g = Cephalopod::new(Variant::ThreeByThree, 0);
    assert_eq!(g.seat_label(Seat::A), "a");
    assert_eq!(g.seat_label(Seat::B), "b");
    g.play_text("a1").unwrap();
    assert_eq!(g.to_move(), Some(Seat::B));
    assert_eq!(g.turn_label(), "b");
    assert_eq!(g.position(), ".../.../a1.. b");
}

#[test]
fn four_neighbours_showing_one_give_all_eleven_capturing_sets() {
    let g = three(".a1./a1.b1/.b1. a");
    assert_eq!(
        moves_on(&g, "b2"),
        [
            "b2:a2,b1",
            "b2:a2,b1,b3",
            "b2:a2,b1,b3,c2",
            "b2:a2,b1,c2",
            "b2:a2,b3",
            "b2:a2,b3,c2",
            "b2:a2,c2",
            "b2:b1,b3",
            "b2:b1,b3,c2",
            "b2:b1,c2",
            "b2:b3,c2",
        ]
    );
}

#[test]
fn only_sets_summing_to_six_or_less_are_listed_among_one_two_three_four() {
    // b2's neighbours: a2 = 1, b1 = 2, b3 = 3, c2 = 4.
    let g = three(".a3./a1.b4/.b2. a");
    assert_eq!(
        moves_on(&g, "b2"),
        [
            "b2:a2,b1",
            "b2:a2,b1,b3",
            "b2:a2,b3",
            "b2:a2,c2",
            "b2:b1,b3",
            "b2:b1,c2",
        ]
    );
    assert_eq!(
        illegal_reason(&g, "b2:b3,c2"),
        "the captured dice add up to 7, more than 6"
    );
    assert_eq!(
        illegal_reason(&g, "b2:a2,b1,c2"),
        "the captured dice add up to 7, more than 6"
    );
}

#[test]
fn a_pair_summing_to_seven_is_no_capture_and_the_die_shows_one() {
    let mut g = three(".../a3.b4/... b");
    assert_eq!(moves_on(&g, "b2"), ["b2"]);
    g.play_text("b2").unwrap();
    assert_eq!(g.position(), ".../a3b1b4/... a");
}

#[test]
fn a_single_neighbour_is_never_captured() {
    let g = three(".../a1../... b");
    assert_eq!(moves_on(&g, "b2"), ["b2"]);
    assert_eq!(moves_on(&g, "a1"), ["a1"]);
}

#[test]
fn a_six_can_never_be_captured() {
    let g = three(".a1./a6.a1/.a1. b");
    let listed = moves_on(&g, "b2");
    assert_eq!(listed.len(), 4, "{listed:?}");
    assert!(listed.iter().all(|m| !m.contains("a2")), "{listed:?}");
}

#[test]
fn a_capture_takes_dice_of_either_colour_and_the_placed_die_shows_their_sum() {
    // a2 is b's, b1 is a's, b3 is a's; a places on b2 and takes all three.
    let mut g = three(".a3./b1../.a2. a");
    g.play_text("b2:a2,b1,b3").unwrap();
    assert_eq!(g.position(), ".../.a6./... b");
    assert_eq!(g.dice_count(Seat::A), 1);
    assert_eq!(g.dice_count(Seat::B), 0);

    // Capturing only the opponent's dice, or only one's own, is just as good.
    let mut g = three("b2../..a1/b1.. a");
    g.play_text("a2:a1,a3").unwrap();
    assert_eq!(g.position(), ".../a3.a1/... b");
    let mut g = three("b2../..a1/b1.. b");
    g.play_text("a2:a1,a3").unwrap();
    assert_eq!(g.position(), ".../b3.a1/... a");
}

#[test]
fn a_capture_is_compulsory_only_on_a_cell_that_allows_one() {
    let mut g = three(".../a1../.b1. a");
    // a1 touches a2 and b1 (1 + 1): placing there must capture.
    assert_eq!(moves_on(&g, "a1"), ["a1:a2,b1"]);
    assert_eq!(
        illegal_reason(&g, "a1"),
        "a capture is compulsory on this cell (for example a1:a2,b1)"
    );
    let before = g.clone();
    let err = g.play_text("a1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "a1: a capture is compulsory on this cell (for example a1:a2,b1)"
    );
    assert_eq!(g, before);
    // ... yet a cell with no capturing set is free to use, captures elsewhere notwithstanding.
    g.play_text("c3").unwrap();
    assert_eq!(g.position(), "..a1/a1../.b1. b");
}

#[test]
fn an_occupied_cell_is_refused() {
    let g = three(".../.a1./... b");
    assert_eq!(illegal_reason(&g, "b2"), "the cell is occupied");
}

#[test]
fn a_capture_naming_an_empty_cell_is_refused() {
    let g = three(".../a1../.b1. a");
    assert_eq!(illegal_reason(&g, "b2:a2,c2"), "c2 holds no die");
    assert_eq!(g.check_move(g.parse_move("b2:a2,b1").unwrap()), Ok(()));
}

#[test]
fn corner_cells_see_two_neighbours_and_edge_cells_three() {
    let g = three("a1a1a1/a1.a1/.a1a1 b");
    assert_eq!(moves_on(&g, "a1"), ["a1:a2,b1"]);
    // a3, b2, a1, b1 and d1 hold 1s.
    let g = five("...../...../a1..../.a1.../a1a1.a1. b");
    assert_eq!(moves_on(&g, "c1"), ["c1:b1,d1"]);
    assert_eq!(moves_on(&g, "e1"), ["e1"]);
    assert_eq!(
        moves_on(&g, "a2"),
        ["a2:a1,a3", "a2:a1,a3,b2", "a2:a1,b2", "a2:a3,b2"]
    );
}

#[test]
fn filling_the_board_ends_the_game_and_more_dice_wins_for_a() {
    // One empty cell left with no capture on it; each side has 4 dice.
    let mut g = three("a1b5a1/b5.b5/a1b5a1 a");
    assert_eq!(g.outcome(), None);
    g.play_text("b2").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
    assert_eq!(g.to_move(), None);
    assert!(g.legal_texts().is_empty());
    assert_eq!(g.count_legal(), 0);
    assert_eq!(g.dice_count(Seat::A), 5);
    assert_eq!(g.dice_count(Seat::B), 4);
}

#[test]
fn filling_the_board_ends_the_game_and_more_dice_wins_for_b() {
    let mut g = three("a1b5a1/b5.b5/a1b5a1 b");
    g.play_text("b2").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::B)));
    // The position keeps the side-to-move field even though nobody moves any more.
    assert_eq!(g.position(), "a1b5a1/b5b1b5/a1b5a1 a");
    assert_eq!(g.turn_label(), "a");
}

#[test]
fn a_capture_on_the_last_empty_cell_does_not_end_the_game() {
    let mut g = three("a1a1b5/b1.b5/b5b5b5 a");
    g.play_text("b2:a2,b3").unwrap();
    assert_eq!(g.position(), "a1.b5/.a2b5/b5b5b5 b");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.to_move(), Some(Seat::B));
}

#[test]
fn a_full_board_from_a_position_is_over_and_refuses_moves() {
    let mut g = five("a1a1a1a1a1/b1b1b1b1b1/a1a1a1a1a1/b1b1b1b1b1/a1a1a1a1a1 b");
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
    assert!(g.is_over());
    let mv = g.parse_move("c3").unwrap();
    assert_eq!(g.check_move(mv), Err(Error::GameOver));
    assert_eq!(g.play_text("c3"), Err(Error::GameOver));
    let g = five("b1b1b1b1b1/a1a1a1a1a1/b1b1b1b1b1/a1a1a1a1a1/b1b1b1b1b1 a");
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::B)));
}

#[test]
fn passing_is_not_a_move() {
    let mut g = Cephalopod::new(Variant::FiveByFive, 0);
    assert!(g.play_text("pass").is_err());
    assert!(g.play_text("").is_err());
}

#[test]
fn dice_count_follows_placements_and_captures() {
    let mut g = Cephalopod::new(Variant::ThreeByThree, 0);
    for text in ["a2", "b1", "c3"] {
        g.play_text(text).unwrap();
    }
    assert_eq!(g.dice_count(Seat::A), 2);
    assert_eq!(g.dice_count(Seat::B), 1);
    g.play_text("a1:a2,b1").unwrap();
    assert_eq!(g.dice_count(Seat::A), 1);
    assert_eq!(g.dice_count(Seat::B), 1);
    assert_eq!(g.position(), "..a1/.../b2.. a");
}

#[test]
fn the_referee_example_session_replays_through_the_trait() {
    let mut g = Cephalopod::new(Variant::ThreeByThree, 0);
    assert_eq!(g.position(), ".../.../... a");
    g.play_text("b2").unwrap();
    g.play_text("a1").unwrap();
    assert_eq!(g.position(), ".../.a1./b1.. a");
    assert_eq!(
        g.legal_texts().join(" "),
        "a2:a1,b2 a3 b1:a1,b2 b3 c1 c2 c3"
    );
    let err = g.play_text("b2").unwrap_err();
    assert_eq!(err.to_string(), "b2: the cell is occupied");
    assert_eq!(g.position(), ".../.a1./b1.. a");
}

#[test]
fn the_hash_is_maintained_incrementally_and_depends_on_the_side_to_move() {
    let mut g = Cephalopod::new(Variant::FiveByFive, 0);
    for text in ["c3", "c4", "b3", "a4", "b4:a4,b3,c4"] {
        g.play_text(text).unwrap();
        let fresh = Cephalopod::from_position(Variant::FiveByFive, &g.position(), 0).unwrap();
        assert_eq!(g.hash_key(), fresh.hash_key(), "after {text}");
    }
    let a = five("...../...../..a1../...../..... a");
    let b = five("...../...../..a1../...../..... b");
    assert_ne!(a.hash_key(), b.hash_key());
    let other = five("...../...../..b1../...../..... a");
    assert_ne!(a.hash_key(), other.hash_key());
    let pips = five("...../...../..a2../...../..... a");
    assert_ne!(a.hash_key(), pips.hash_key());
}

#[test]
fn make_and_unmake_restore_a_capture_of_both_colours() {
    let start = three(".a3./b1../.a2. a");
    let mut g = start.clone();
    let mv = g.parse_move("b2:a2,b1,b3").unwrap();
    let undo = g.make(mv);
    assert_eq!(g.position(), ".../.a6./... b");
    g.unmake(mv, undo);
    assert_eq!(g, start);
    assert_eq!(g.hash_key(), start.hash_key());
    assert_eq!(g.position(), start.position());
}

#[test]
fn captured_cells_and_die_accessors_describe_the_board() {
    let g = three(".a3./b1../.a2. a");
    let mv = g.parse_move("b2:a2,b1,b3").unwrap();
    assert!(mv.is_capture());
    assert_eq!(mv.cell(), 4);
    assert_eq!(g.captured_cells(mv).collect::<Vec<_>>(), [3, 1, 7]);
    assert_eq!(g.die(3), Some((Seat::B, 1)));
    assert_eq!(g.die(7), Some((Seat::A, 3)));
    assert_eq!(g.die(4), None);
    assert_eq!(g.die(99), None);
    assert_eq!(g.size(), 3);
}
