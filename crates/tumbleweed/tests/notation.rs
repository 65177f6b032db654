//! Move and position notation: round trips and every kind of malformed input refused.

mod common;

use common::{cell, game, position};
use game::{Error, Game};
use tumbleweed::{Colour, Move, Tumbleweed, Variant};

use Variant::{Hex6, Hex8, Hex11};

#[test]
fn moves_are_read_and_written_in_the_spec_notation() {
    let g = Tumbleweed::new(Hex8, 0);
    let cases = [
        (
            "e4,f6",
            Move::Setup {
                red: cell("e4"),
                white: cell("f6"),
            },
        ),
        ("red", Move::Choose(Colour::Red)),
        ("white", Move::Choose(Colour::White)),
        ("e5", Move::Place(cell("e5"))),
        ("o15", Move::Place(cell("o15"))),
        ("pass", Move::Pass),
    ];
    for (text, mv) in cases {
        assert_eq!(g.parse_move(text), Ok(mv), "{text}");
        assert_eq!(g.format_move(mv), text);
    }
}

#[test]
fn cells_round_trip_on_every_board() {
    for v in [Hex8, Hex11, Hex6] {
        let g = Tumbleweed::new(v, 0);
        for c in g.cells() {
            let text = c.to_string();
            assert_eq!(g.parse_move(&text), Ok(Move::Place(c)));
        }
    }
}

#[test]
fn hex11_reaches_letter_u_and_number_21() {
    let g = Tumbleweed::new(Hex11, 0);
    assert!(g.parse_move("u21").is_ok());
    assert!(g.parse_move("u11").is_ok());
    assert!(g.parse_move("u10").is_err());
    assert!(g.parse_move("a12").is_err());
    assert!(g.parse_move("v1").is_err());
}

#[test]
fn malformed_moves_are_refused() {
    let g = Tumbleweed::new(Hex6, 0);
    for text in [
        "",
        " ",
        "e",
        "5",
        "E5",
        "e0",
        "e05",
        "e-1",
        "e+5",
        "z1",
        "e999",
        "e5 ",
        " e5",
        "e4,",
        ",f6",
        "e4,f6,g7",
        "e4;f6",
        "e4, f6",
        "Red",
        "RED",
        "Pass",
        "pass ",
        "passe",
        "re d",
        "k1",
        "a7",
        "l6",
        "\u{44f}1",
        "e\u{0665}",
    ] {
        match g.parse_move(text) {
            Err(Error::BadMove { .. }) => {}
            other => panic!("{text:?} gave {other:?}"),
        }
    }
}

#[test]
fn cells_off_the_board_are_named_in_the_error() {
    let g = Tumbleweed::new(Hex6, 0);
    let err = g.parse_move("k1").unwrap_err();
    assert_eq!(err.to_string(), "k1: k1 is not on the hex6 board");
}

#[test]
fn only_canonical_move_texts_are_played() {
    let mut g = Tumbleweed::new(Hex6, 0);
    assert!(g.play_text("a01,b2").is_err());
    assert!(g.play_text("a1,b2").is_ok());
}

#[test]
fn the_vector_positions_round_trip() {
    for text in [
        "....../......r1/..w1....r1/........./..w1...r1.../.....n2...../........../........./...w1..../......./...... r 0",
        ".....w1/......./.......r1/......r1r1w1/.w1w2w2..w2..w1/.....n2...r1./........../....r2.w2.r2/....r1r2.r1/......./.r1w2w1.. r 0",
    ] {
        let g = Tumbleweed::from_position(Hex6, text, 0).unwrap();
        assert_eq!(g.position(), text);
    }
}

#[test]
fn every_start_position_round_trips() {
    for v in [Hex8, Hex11, Hex6] {
        let g = Tumbleweed::new(v, 0);
        let again = Tumbleweed::from_position(v, &g.position(), 0).unwrap();
        assert_eq!(again.position(), g.position());
        assert_eq!(again.hash_key(), g.hash_key());
    }
}

#[test]
fn positions_in_each_phase_are_accepted() {
    let two = [("a1", "r1"), ("k11", "w1")];
    for (stacks, phase, passes) in [
        (&[][..], "setup", 0),
        (&two[..], "choose", 0),
        (&two[..], "r", 0),
        (&two[..], "w", 1),
        (&two[..], "r", 2),
        (&[("a1", "r6"), ("f6", "w3"), ("k11", "r2")][..], "w", 0),
    ] {
        let text = position(Hex6, stacks, phase, passes);
        let g = Tumbleweed::from_position(Hex6, &text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.position(), text);
    }
}

fn refused(variant: Variant, text: &str) -> String {
    match Tumbleweed::from_position(variant, text, 0) {
        Err(Error::BadPosition(reason)) => reason,
        other => panic!("{text:?} should be refused, got {other:?}"),
    }
}

#[test]
fn malformed_positions_are_refused() {
    let two = [("a1", "r1"), ("k11", "w1")];
    let good = position(Hex6, &two, "r", 0);
    let (board, _) = good.split_once(' ').unwrap();
    let cases: Vec<String> = vec![
        String::new(),
        " ".into(),
        board.into(),
        format!("{board} r"),
        format!("{board} r 0 "),
        format!("{board}  r 0"),
        format!(" {board} r 0"),
        format!("{board} r 0 0"),
        format!("{board} x 0"),
        format!("{board} R 0"),
        format!("{board} r 3"),
        format!("{board} r -1"),
        format!("{board} r 00"),
        format!("{board} red 0"),
        // Too few / too many columns.
        format!("{} r 0", board.rsplit_once('/').unwrap().0),
        format!("{board}/...... r 0"),
        // A column one cell short or long.
        good.replacen("....../", "...../", 1),
        good.replacen("....../", "......./", 1),
        // Bad characters and heights.
        good.replacen("r1", "x1", 1),
        good.replacen("r1", "R1", 1),
        good.replacen("r1", "r", 1),
        good.replacen("r1", "r0", 1),
        good.replacen("r1", "r7", 1),
        good.replacen("r1", "r01", 1),
        good.replacen("r1", "r99999999999999999999", 1),
        good.replacen("n2", "n1", 1),
        good.replacen("n2", "n3", 1),
        good.replacen("n2", "n", 1),
        good.replacen('.', "_", 1),
        good.replacen('.', "\u{44f}", 1),
        good.replacen('/', "|", 1),
    ];
    for text in &cases {
        refused(Hex6, text);
    }
    // The hex6 start is not a hex8 position.
    refused(Hex8, &Tumbleweed::new(Hex6, 0).position());
}

#[test]
fn impossible_positions_are_refused() {
    let cases = [
        // The neutral stack off the centre, twice, or gone with a low stack on the centre.
        position(Hex6, &[("a1", "n2"), ("f6", "r3"), ("k11", "w1")], "r", 0),
        position(Hex6, &[("a1", "n2"), ("k11", "w1"), ("k10", "r1")], "r", 0),
        position(Hex6, &[("f6", "."), ("a1", "r1"), ("k11", "w1")], "r", 0),
        position(Hex6, &[("f6", "r2"), ("a1", "r1"), ("k11", "w1")], "r", 0),
        // Setup with stacks on the board or a pass.
        position(Hex6, &[("a1", "r1")], "setup", 0),
        position(Hex6, &[], "setup", 1),
        // Choose without exactly one r1 and one w1.
        position(Hex6, &[("a1", "r1")], "choose", 0),
        position(Hex6, &[("a1", "r1"), ("a2", "r1")], "choose", 0),
        position(Hex6, &[("a1", "r2"), ("a2", "w1")], "choose", 0),
        position(
            Hex6,
            &[("a1", "r1"), ("a2", "w1"), ("a3", "w1")],
            "choose",
            0,
        ),
        position(Hex6, &[("a1", "r1"), ("a2", "w1")], "choose", 1),
        // Play with fewer than the two stacks of the setup.
        position(Hex6, &[("a1", "r1")], "r", 0),
        position(Hex6, &[], "w", 0),
    ];
    for text in &cases {
        refused(Hex6, text);
    }
}

#[test]
fn position_errors_say_what_is_wrong() {
    let text = position(Hex6, &[("a1", "r7"), ("k11", "w1")], "r", 0);
    assert_eq!(
        refused(Hex6, &text),
        "column a: a red stack cannot have height 7"
    );
    let text = position(Hex6, &[("a1", "r1"), ("k11", "w1")], "q", 0);
    assert_eq!(
        refused(Hex6, &text),
        "unknown phase \"q\" (setup, choose, r or w)"
    );
}

#[test]
fn a_refused_position_never_panics_on_truncation() {
    let text = position(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    for end in 0..text.len() {
        if text.is_char_boundary(end) {
            let _ = Tumbleweed::from_position(Hex6, &text[..end], 0);
        }
    }
}

#[test]
fn a_game_reached_by_moves_matches_its_position_text() {
    let mut g = Tumbleweed::new(Hex6, 0);
    for m in ["c3,i9", "red", "c4", "pass"] {
        g.play_text(m).unwrap();
    }
    let expected = game(Hex6, &[("c3", "r1"), ("c4", "r1"), ("i9", "w1")], "r", 1);
    assert_eq!(g.position(), expected.position());
    assert_eq!(g.hash_key(), expected.hash_key());
}
