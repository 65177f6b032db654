//! One test per rule of `docs/spec/mill.md`, on small hand-made positions.

mod common;

use common::{has, legal, play, pos, refusal};
use game::{Error, Game, Outcome, Seat};
use mill::{Mill, Variant};

// ---------------------------------------------------------------------------------------------
// Placing and moving

#[test]
fn the_game_starts_with_24_placements_for_side_a() {
    let g = Mill::new(Variant::Troika, 0);
    assert_eq!(
        g.position(),
        ".../.../.../....../.../.../... a 9 9 0000 0000 0"
    );
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(legal(&g).len(), 24);
    assert!(legal(&g).iter().all(|m| m.len() == 2));
}

#[test]
fn placements_alternate_and_take_tokens_from_hand() {
    let mut g = Mill::new(Variant::Troika, 0);
    play(&mut g, "d2 b2");
    assert_eq!(
        g.position(),
        ".../.../.../....../.../ba./... a 8 8 0000 0000 2"
    );
    assert_eq!(legal(&g).len(), 22);
}

#[test]
fn a_side_with_tokens_in_hand_must_place() {
    let mut g = Mill::new(Variant::Troika, 0);
    play(&mut g, "d2 b2");
    assert_eq!(
        refusal(&g, "d2-d1"),
        "d2-d1: tokens in hand must be placed first"
    );
    assert_eq!(refusal(&g, "d2"), "d2: d2 is occupied");
    assert_eq!(refusal(&g, "b2-b4"), "b2-b4: b2 holds none of your tokens");
}

#[test]
fn after_placing_a_token_steps_to_an_adjacent_empty_point() {
    // Hands are empty: a1's neighbours are a4 and d1; d1 is free.
    let g = pos(
        Variant::Troika,
        "a1 c4 d6 e3",
        "d2 f4 g7 a4",
        "a 0 0 001f 1f00 3",
    );
    assert!(has(&g, "a1-d1"));
    assert!(!has(&g, "a1-g1"));
    assert!(!has(&g, "a1-a7"));
    assert!(!has(&g, "c4-e4"), "the centre is not a line");
    assert_eq!(refusal(&g, "a1-g1"), "a1-g1: g1 is not next to a1");
    assert_eq!(refusal(&g, "a1-a4"), "a1-a4: a4 is occupied");
    assert_eq!(
        refusal(&g, "b2"),
        "b2: no tokens left in hand: move a token instead"
    );
    // a1: d1; c4: c3 c5 b4; d6: b6 f6 d5 d7; e3: d3 e4 f2 is not adjacent (no diagonals).
    let mut expected = vec![
        "a1-d1", "c4-b4", "c4-c3", "c4-c5", "d6-b6", "d6-d5", "d6-d7", "d6-f6", "e3-d3", "e3-e4",
    ];
    expected.sort();
    assert_eq!(legal(&g), expected);
}

#[test]
fn a_side_with_three_tokens_and_none_in_hand_flies_anywhere() {
    let g = pos(
        Variant::Troika,
        "a1 d5 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 5",
    );
    // Three tokens, 16 empty points, no line within reach.
    assert_eq!(legal(&g).len(), 48);
    assert!(has(&g, "a1-g1"));
    assert!(has(&g, "g7-c3"));
    assert_eq!(g.count_legal(), 48);
}

#[test]
fn a_side_with_more_than_three_tokens_does_not_fly() {
    let mut g = pos(
        Variant::Troika,
        "a1 d5 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 5",
    );
    play(&mut g, "d5-d6");
    // Side b has five tokens: steps only.
    assert!(
        legal(&g)
            .iter()
            .all(|m| m.starts_with(['b', 'd', 'f', 'g']))
    );
    assert!(!has(&g, "b2-g1"));
    assert!(has(&g, "b4-b6"));
    assert_eq!(refusal(&g, "d2-a7"), "d2-a7: a7 is not next to d2");
}

// ---------------------------------------------------------------------------------------------
// Rows and removals

#[test]
fn completing_a_line_removes_one_opponent_token_of_the_movers_choice() {
    let g = pos(
        Variant::Troika,
        "a1 a4 d7 c3 e3 d5",
        "b2 b4 d2 f4 g1 g4",
        "a 0 0 0007 3800 10",
    );
    let with_a7: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("d7-a7"))
        .collect();
    assert_eq!(
        with_a7,
        [
            "d7-a7xb2", "d7-a7xb4", "d7-a7xd2", "d7-a7xf4", "d7-a7xg1", "d7-a7xg4"
        ]
    );
    assert_eq!(
        refusal(&g, "d7-a7"),
        "d7-a7: one opponent token must be removed"
    );
    assert_eq!(
        refusal(&g, "d7-a7xa1"),
        "d7-a7xa1: a1 holds no opponent token"
    );
    assert_eq!(
        refusal(&g, "d7-a7xc5"),
        "d7-a7xc5: c5 holds no opponent token"
    );
    let mut g = g;
    play(&mut g, "d7-a7xg4");
    assert_eq!(
        g.position(),
        "a../.../.a./ab..b./a.a/bb./a.b b 0 0 0107 3800 0"
    );
}

#[test]
fn a_line_already_paid_removes_nothing_when_formed_again() {
    // Line 8 (a1 a4 a7) is among a's paid lines.
    let g = pos(
        Variant::Troika,
        "a1 a4 d7 c3 e3 d5",
        "b2 b4 d2 f4 g1 g4",
        "a 0 0 0103 3800 10",
    );
    assert!(has(&g, "d7-a7"));
    assert!(!legal(&g).iter().any(|m| m.starts_with("d7-a7x")));
    assert_eq!(
        refusal(&g, "d7-a7xb2"),
        "d7-a7xb2: that line has already paid once: nothing is removed"
    );
    let mut g = g;
    play(&mut g, "d7-a7");
    assert!(g.position().ends_with("b 0 0 0103 3800 11"));
}

#[test]
fn a_line_pays_once_per_game_even_after_being_broken_and_rebuilt() {
    let mut g = pos(
        Variant::Troika,
        "a1 a4 d7 c3 e3 d5",
        "b2 b4 d2 f4 g1 g4",
        "a 0 0 0007 3800 10",
    );
    play(&mut g, "d7-a7xb2 d2-b2 a7-d7 b2-d2");
    assert!(has(&g, "d7-a7"));
    assert!(!legal(&g).iter().any(|m| m.starts_with("d7-a7x")));
    play(&mut g, "d7-a7");
    assert!(g.position().ends_with("b 0 0 0107 3800 4"));
}

#[test]
fn completing_two_lines_at_once_removes_two_tokens() {
    let g = pos(
        Variant::Troika,
        "a4 a7 d1 g1",
        "b2 b4 d2 f4",
        "a 5 5 0000 0000 8",
    );
    let with_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(
        with_a1,
        [
            "a1xb2xb4", "a1xb2xd2", "a1xb2xf4", "a1xb4xd2", "a1xb4xf4", "a1xd2xf4"
        ]
    );
    assert_eq!(
        refusal(&g, "a1xb2"),
        "a1xb2: 2 opponent tokens must be removed"
    );
    assert_eq!(refusal(&g, "a1"), "a1: 2 opponent tokens must be removed");
    // 15 plain placements plus the six double removals.
    assert_eq!(g.count_legal(), 15 + 6);
    let mut g = g;
    play(&mut g, "a1xb2xf4");
    assert_eq!(
        g.position(),
        "a../.../.../ab..../.../.b./aaa b 4 5 0180 0000 0"
    );
}

#[test]
fn removal_may_take_a_token_standing_in_a_line() {
    // b's line b2 b4 b6 is complete (and paid); its tokens may still be taken.
    let g = pos(
        Variant::Troika,
        "a4 a7 d1 g1",
        "b2 b4 b6 f4",
        "a 5 5 0000 0200 8",
    );
    assert!(has(&g, "a1xb2xb4"));
    assert!(has(&g, "a1xb6xf4"));
}

#[test]
fn with_fewer_opponent_tokens_than_due_all_of_them_go() {
    let g = pos(Variant::Troika, "a4 a7 d1 g1", "b2", "a 5 5 0007 0000 2");
    let with_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(with_a1, ["a1xb2"]);
    assert_eq!(g.count_legal(), legal(&g).len());
    let mut g = g;
    play(&mut g, "a1xb2");
    assert_eq!(
        g.position(),
        "a../.../.../a...../.../.../aaa b 4 5 0187 0000 0"
    );
}

#[test]
fn a_completed_line_is_paid_even_when_nothing_can_be_removed() {
    let mut g = pos(Variant::Troika, "a4 a7 d1 g1", "", "a 5 5 000f 0000 1");
    assert!(has(&g, "a1"));
    assert!(!legal(&g).iter().any(|m| m.contains('x')));
    play(&mut g, "a1");
    // Lines 7 and 8 are now paid; the counter runs on since nothing was removed.
    assert_eq!(
        g.position(),
        "a../.../.../a...../.../.../aaa b 4 5 018f 0000 2"
    );
}

#[test]
fn the_counter_counts_moves_since_the_last_removal_placements_included() {
    let mut g = Mill::new(Variant::Troika, 0);
    play(&mut g, "a1 b2 a4 b4");
    assert!(g.position().ends_with(" 4"));
    play(&mut g, "a7xb2");
    assert!(g.position().ends_with("b 6 7 0100 0000 0"));
    play(&mut g, "g7");
    assert!(g.position().ends_with("a 6 6 0100 0000 1"));
}

// ---------------------------------------------------------------------------------------------
// The end of the game

#[test]
fn taking_the_opponent_down_to_two_tokens_wins() {
    let mut g = pos(
        Variant::Troika,
        "a1 a4 d7 f6",
        "b2 b4 d2",
        "a 0 0 003f 1f00 4",
    );
    play(&mut g, "d7-a7xb2");
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
    assert_eq!(g.to_move(), None);
    assert!(legal(&g).is_empty());
    assert_eq!(g.count_legal(), 0);
    assert_eq!(
        g.check_move(g.parse_move("b4-b6").unwrap()),
        Err(Error::GameOver)
    );
}

#[test]
fn two_tokens_left_counts_hand_and_board_together() {
    // b has one token on the board and two in hand: three left, the game goes on.
    let g = pos(
        Variant::Troika,
        "a1 a4 d7 d5 c5 e5",
        "b2",
        "b 1 2 00ff 0007 0",
    );
    assert_eq!(g.outcome(), None);
    // Two in total (one on the board, one in hand) is a lost game.
    let g = pos(
        Variant::Troika,
        "a1 a4 d7 d5 c5 e5",
        "b2",
        "b 0 1 00ff 0007 0",
    );
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
}

#[test]
fn both_sides_down_to_three_tokens_is_a_draw() {
    let mut g = pos(
        Variant::Troika,
        "a1 a4 d5",
        "b2 b4 d2 f4",
        "a 0 0 001f 3f00 3",
    );
    play(&mut g, "d5-a7xb2");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert!(legal(&g).is_empty());
    // The same when read from notation.
    let g = pos(Variant::Troika, "a1 a4 a7", "b4 d2 f4", "b 0 0 013f 3f00 0");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn three_tokens_counts_the_hand_too() {
    // b: two on the board and one in hand, a: three on the board: a draw already.
    let g = pos(Variant::Troika, "a1 a4 a7", "b4 d2", "b 0 1 013f 3f00 0");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_side_left_without_a_move_loses() {
    let mut g = pos(
        Variant::Troika,
        "b4 d7 g1 d3 f6",
        "a1 a4 a7 d1",
        "a 0 0 001f 0f00 7",
    );
    assert_eq!(g.outcome(), None);
    play(&mut g, "d3-d2");
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
    // Read from notation, the blocked side to move has lost as well.
    let again = Mill::from_position(Variant::Troika, &g.position(), 0).unwrap();
    assert_eq!(again.outcome(), Some(Outcome::Win(Seat::A)));
}

#[test]
fn a_side_with_three_tokens_is_never_blocked() {
    let g = pos(
        Variant::Troika,
        "b4 d7 g1 d2 f6",
        "a1 a4 a7",
        "b 0 0 003f 0f00 7",
    );
    assert_eq!(g.outcome(), None);
    assert!(has(&g, "a1-g7"));
}

#[test]
fn one_hundred_moves_without_a_removal_draw() {
    let start = pos(
        Variant::Troika,
        "a1 a4 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 99",
    );
    let mut g = start.clone();
    play(&mut g, "g7-g1");
    assert!(g.position().ends_with(" 100"));
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    // A removal on the hundredth move resets the counter instead.
    let mut g = start.clone();
    play(&mut g, "g7-a7xb2");
    assert_eq!(g.outcome(), None);
    assert!(g.position().ends_with(" 0"));
    // At 98 one quiet move is not enough.
    let mut g = pos(
        Variant::Troika,
        "a1 a4 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 98",
    );
    play(&mut g, "g7-g1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "g4-g7");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_position_read_with_the_counter_at_100_is_drawn() {
    let g = pos(
        Variant::Troika,
        "a1 a4 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 100",
    );
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_third_occurrence_of_a_position_draws_counting_the_start_as_first() {
    let mut g = pos(
        Variant::Troika,
        "a1 d5 g7 c4",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 1f00 0",
    );
    play(&mut g, "d5-e5 g4-g1 e5-d5 g1-g4");
    assert_eq!(g.outcome(), None, "second occurrence");
    play(&mut g, "d5-e5 g4-g1 e5-d5");
    assert_eq!(g.outcome(), None);
    // Unmaking and remaking the last move keeps the history straight.
    let mv = g.parse_move("g1-g4").unwrap();
    let undo = g.make(mv);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    g.unmake(mv, undo);
    assert_eq!(g.outcome(), None);
    play(&mut g, "g1-g4");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_side_to_move_is_part_of_the_position() {
    let a = pos(
        Variant::Troika,
        "a1 d5 g7 c4",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 1f00 0",
    );
    let b = pos(
        Variant::Troika,
        "a1 d5 g7 c4",
        "b2 b4 d2 f4 g4",
        "b 0 0 000f 1f00 0",
    );
    assert_ne!(a.hash_key(), b.hash_key());
}

#[test]
fn a_position_read_from_notation_has_no_history() {
    let mut g = pos(
        Variant::Troika,
        "a1 d5 g7 c4",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 1f00 0",
    );
    play(&mut g, "d5-e5 g4-g1 e5-d5 g1-g4");
    // Second occurrence here; re-read, the same position is a first occurrence again.
    let mut again = Mill::from_position(Variant::Troika, &g.position(), 0).unwrap();
    play(&mut again, "d5-e5 g4-g1 e5-d5 g1-g4");
    assert_eq!(again.outcome(), None);
    play(&mut g, "d5-e5 g4-g1 e5-d5 g1-g4");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

// ---------------------------------------------------------------------------------------------
// troika-long

#[test]
fn long_moves_slide_over_one_or_two_empty_points_along_a_line() {
    // a4 is b's, so a1 cannot slide to a7.
    let g = pos(
        Variant::TroikaLong,
        "a1 c4 d6 e3",
        "d2 f4 g7 a4",
        "a 0 0 001f 1f00 3",
    );
    let from_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(from_a1, ["a1-b2", "a1-c3", "a1-d1", "a1-g1"]);
    assert_eq!(
        refusal(&g, "a1-a7"),
        "a1-a7: no free slide along a line from a1 to a7"
    );
    // c4 ends a4 b4 c4 (b4, then a4 is taken) and is the middle of c3 c4 c5.
    let from_c4: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("c4"))
        .collect();
    assert_eq!(from_c4, ["c4-b4", "c4-c3", "c4-c5"]);
    // e3 slides along c3 d3 e3, e3 e4 e5 and the diagonal g1 f2 e3.
    let from_e3: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("e3"))
        .collect();
    assert_eq!(
        from_e3,
        ["e3-c3", "e3-d3", "e3-e4", "e3-e5", "e3-f2", "e3-g1"]
    );
}

#[test]
fn long_moves_go_to_the_far_end_when_the_line_is_empty() {
    let g = pos(
        Variant::TroikaLong,
        "a1 c4 d6 e3",
        "d2 f4 g7 b6",
        "a 0 0 001f 1f00 3",
    );
    assert!(has(&g, "a1-a7"));
    assert!(has(&g, "a1-a4"));
}

#[test]
fn long_diagonals_carry_tokens_but_make_no_rows() {
    let g = pos(
        Variant::TroikaLong,
        "b2 c3 d1 f6",
        "d2 f4 g7 b6",
        "a 0 0 001f 1f00 3",
    );
    assert!(has(&g, "d1-a1"));
    assert!(!legal(&g).iter().any(|m| m.starts_with("d1-a1x")));
    // The same move on troika-diagonal completes a1 b2 c3.
    let d = pos(
        Variant::TroikaDiagonal,
        "b2 c3 d1 f6",
        "d2 f4 g7 b6",
        "a 0 0 001f 1f00 3",
    );
    assert!(!has(&d, "d1-a1"));
    assert!(has(&d, "d1-a1xb6"));
}

#[test]
fn long_moves_keep_flying_at_three() {
    let g = pos(
        Variant::TroikaLong,
        "a1 d5 g7",
        "b2 b4 d2 f4 g4",
        "a 0 0 000f 3f00 5",
    );
    assert_eq!(legal(&g).len(), 48);
}

// ---------------------------------------------------------------------------------------------
// troika-free

#[test]
fn free_play_lets_a_side_with_tokens_in_hand_place_or_step() {
    let mut g = Mill::new(Variant::TroikaFree, 0);
    play(&mut g, "d2 b2");
    // 22 placements plus d2's steps to d1, d3 and f2 (b2 is taken).
    assert_eq!(legal(&g).len(), 25);
    assert!(has(&g, "d2-d1") && has(&g, "d2-d3") && has(&g, "d2-f2"));
    assert!(!has(&g, "d2-b2"));
    play(&mut g, "d2-d1");
    assert_eq!(
        g.position(),
        ".../.../.../....../.../b../.a. b 8 8 0000 0000 3"
    );
}

#[test]
fn free_play_steps_but_never_flies_while_tokens_are_in_hand() {
    let g = pos(
        Variant::TroikaFree,
        "a1 d5 g7",
        "b2 b4 d2",
        "a 6 6 0000 0000 10",
    );
    // 18 placements; steps: a1-a4 a1-d1, d5-c5 d5-e5 d5-d6, g7-d7 g7-g4.
    assert_eq!(legal(&g).len(), 18 + 7);
    assert_eq!(
        refusal(&g, "a1-g1"),
        "a1-g1: g1 is not next to a1 (with tokens in hand a token only steps)"
    );
}

#[test]
fn free_play_steps_can_complete_lines() {
    let g = pos(
        Variant::TroikaFree,
        "a1 a4 d7",
        "b2 b4 d2",
        "a 6 6 0000 0000 10",
    );
    assert!(has(&g, "d7-a7xb2"));
    assert!(has(&g, "a7xd2"));
}

// ---------------------------------------------------------------------------------------------
// troika-diagonal

#[test]
fn diagonal_rows_count_and_a_corner_can_complete_three_lines_at_once() {
    let rest = "a 3 3 0000 0000 12";
    let (a, b) = ("a4 a7 d1 g1 b2 c3", "d2 f4 g4 e5 f6 b6");
    let g = pos(Variant::TroikaDiagonal, a, b, rest);
    let with_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(with_a1.len(), 20, "six tokens choose three");
    assert!(has(&g, "a1xb6xd2xe5"));
    assert_eq!(
        refusal(&g, "a1xb6xd2"),
        "a1xb6xd2: 3 opponent tokens must be removed"
    );
    let mut g = g;
    play(&mut g, "a1xb6xd2xe5");
    assert!(g.position().ends_with("b 2 3 10180 0000 0"));
    // On the plain board the same placement completes two lines only.
    let plain = pos(Variant::Troika, a, b, rest);
    let with_a1: Vec<String> = legal(&plain)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(with_a1.len(), 15);
}

#[test]
fn a_triple_against_two_tokens_removes_both() {
    let g = pos(
        Variant::TroikaDiagonal,
        "a4 a7 d1 g1 b2 c3",
        "d2 f4",
        "a 3 3 000f 0000 2",
    );
    let with_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(with_a1, ["a1xd2xf4"]);
}

#[test]
fn diagonal_tokens_step_along_diagonals_and_jump_over_a_lines_middle() {
    let g = pos(
        Variant::TroikaDiagonal,
        "a1 g1 g4 d5 e4",
        "a4 b2 d1 c5",
        "a 0 0 001f 0f00 3",
    );
    // a1 is boxed in by steps, but jumps over a4 and over b2; not over d1 onto its own g1.
    let from_a1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(from_a1, ["a1-a7", "a1-c3"]);
    // g1 steps along its diagonal to f2 and jumps over its own g4 to g7.
    let from_g1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("g1"))
        .collect();
    assert_eq!(from_g1, ["g1-f2", "g1-g7"]);
    assert_eq!(
        refusal(&g, "g1-e3"),
        "g1-e3: e3 is neither a step nor a jump from g1"
    );
    assert_eq!(refusal(&g, "g1-a1"), "g1-a1: a1 is occupied");
}

#[test]
fn a_side_that_can_only_jump_is_not_blocked() {
    // b's tokens have no empty neighbour; on troika-diagonal a4 still jumps over a's b4.
    let (a, b) = ("g1 b4 d2 c3 a7 d3 b6 f2", "a1 d1 a4 b2");
    let plain = pos(Variant::Troika, a, b, "b 0 0 003f 0f00 4");
    assert_eq!(plain.outcome(), Some(Outcome::Win(Seat::A)));
    let diagonal = pos(Variant::TroikaDiagonal, a, b, "b 0 0 003f 0f00 4");
    assert_eq!(diagonal.outcome(), None);
    assert_eq!(legal(&diagonal), ["a4-c4"]);
}
