//! Move and position notation: round trips and every kind of malformed input.

use cephalopod::{Cephalopod, Variant};
use game::{Error, Game};

fn five() -> Cephalopod {
    Cephalopod::new(Variant::FiveByFive, 0)
}

fn three() -> Cephalopod {
    Cephalopod::new(Variant::ThreeByThree, 0)
}

fn bad_move(game: &Cephalopod, text: &str) -> String {
    match game.parse_move(text) {
        Err(Error::BadMove { text: t, reason }) => {
            assert_eq!(t, text);
            reason
        }
        other => panic!("{text:?}: expected a bad move, got {other:?}"),
    }
}

fn bad_position(variant: Variant, text: &str) -> String {
    match Cephalopod::from_position(variant, text, 0) {
        Err(Error::BadPosition(reason)) => reason,
        other => panic!("{text:?}: expected a bad position, got {other:?}"),
    }
}

#[test]
fn every_cell_of_both_boards_round_trips_as_a_plain_placement() {
    for game in [five(), three()] {
        let n = game.size();
        for row in 1..=n {
            for col in 0..n {
                let text = format!("{}{row}", (b'a' + col) as char);
                let mv = game.parse_move(&text).unwrap();
                assert!(!mv.is_capture());
                assert_eq!(mv.cell(), ((row - 1) * n + col) as usize);
                assert_eq!(game.format_move(mv), text);
            }
        }
    }
}

#[test]
fn captures_round_trip_and_list_their_cells_by_column_then_row() {
    let g = five();
    for text in [
        "c3:b3,c4",
        "c3:b3,c2",
        "c3:c2,c4",
        "c3:b3,c2,c4,d3",
        "a1:a2,b1",
        "e5:d5,e4",
        "e3:d3,e2,e4",
    ] {
        let canonical = {
            let mv = g.parse_move(text).unwrap();
            g.format_move(mv)
        };
        let mut cells: Vec<&str> = text.split_once(':').unwrap().1.split(',').collect();
        cells.sort();
        let expected = format!("{}:{}", &text[..2], cells.join(","));
        assert_eq!(canonical, expected, "{text}");
    }
}

#[test]
fn a_capture_listed_out_of_order_parses_but_play_asks_for_the_canonical_spelling() {
    let mut g =
        Cephalopod::from_position(Variant::FiveByFive, "...../..a1../...../..b1../..... a", 0)
            .unwrap();
    // c3 touches c4 and c2.
    let mv = g.parse_move("c3:c4,c2").unwrap();
    assert_eq!(g.format_move(mv), "c3:c2,c4");
    let err = g.play_text("c3:c4,c2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "c3:c4,c2: not the canonical spelling (write c3:c2,c4)"
    );
    g.play_text("c3:c2,c4").unwrap();
    assert_eq!(g.position(), "...../...../..a2../...../..... b");
}

#[test]
fn malformed_moves_are_refused_with_a_reason() {
    let g = five();
    for text in [
        "",
        " ",
        "c",
        "3",
        "c33",
        "c3 ",
        " c3",
        "C3",
        "3c",
        "c0",
        "f1",
        "a6",
        "z99",
        "я1",
        ":",
        "c3:",
        "c3:,",
        "c3:b3,",
        "c3:b3,,c4",
        "c3::b3,c4",
        "c3;b3,c4",
        "c3-b3",
        "pass",
    ] {
        let reason = bad_move(&g, text);
        assert!(!reason.is_empty(), "{text:?}");
    }
    assert_eq!(bad_move(&g, "c3:b3"), "a capture takes at least two dice");
    assert_eq!(bad_move(&g, "c3:b3,b3"), "b3 is listed twice");
    assert_eq!(bad_move(&g, "c3:b3,d4"), "d4 is not next to c3");
    assert_eq!(bad_move(&g, "c3:c3,c4"), "c3 is not next to c3");
    assert_eq!(
        bad_move(&g, "f1"),
        "\"f1\" is not a cell of the 5x5 board (a1 to e5)"
    );
    assert_eq!(
        bad_move(&three(), "d1"),
        "\"d1\" is not a cell of the 3x3 board (a1 to c3)"
    );
    assert_eq!(bad_move(&three(), "a2:a1,a3,b2,b3"), "b3 is not next to a2");
}

#[test]
fn positions_round_trip() {
    for (variant, text) in [
        (Variant::FiveByFive, "...../...../...../...../..... a"),
        (
            Variant::FiveByFive,
            ".b1.b1./a1.a1.a1/.b1.b1./a1.a1.a1/.b1.b1. a",
        ),
        (
            Variant::FiveByFive,
            ".a1.a1./a1.a1.b2/.b1.a1./b1a1a1../...b1. b",
        ),
        (
            Variant::FiveByFive,
            "a6b5a4b3a2/b1..../...../...../....a1 b",
        ),
        (Variant::ThreeByThree, ".../.a1./b1.. a"),
        (Variant::ThreeByThree, "a1b2a3/b4a5b6/a1a1a1 b"),
    ] {
        let g = Cephalopod::from_position(variant, text, 0).unwrap();
        assert_eq!(g.position(), text);
        assert_eq!(g.variant(), variant);
    }
}

#[test]
fn the_side_to_move_must_be_a_or_b_after_a_single_space() {
    let reason = bad_position(Variant::ThreeByThree, ".../.../... c");
    assert_eq!(reason, "the side to move must be a or b, found \"c\"");
    for text in [
        ".../.../...",
        ".../.../... ",
        ".../.../...  a",
        ".../.../... a ",
        ".../.../... A",
        ".../.../... ab",
        " .../.../... a",
        ".../.../...\ta",
        "a",
        "",
    ] {
        bad_position(Variant::ThreeByThree, text);
    }
}

#[test]
fn wrong_row_and_cell_counts_are_refused() {
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../... a"),
        "the 3x3 board has 3 rows, found 2"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, "...../...../...../...../..... a"),
        "the 3x3 board has 3 rows, found 5"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../../... a"),
        "row 2 has 2 cells, expected 3"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, "..../.../... a"),
        "row 3 has more than 3 cells"
    );
    assert_eq!(
        bad_position(Variant::FiveByFive, ".../.../... a"),
        "the 5x5 board has 5 rows, found 3"
    );
    bad_position(Variant::ThreeByThree, ".../.../.../ a");
    bad_position(Variant::ThreeByThree, "/.../... a");
    bad_position(Variant::ThreeByThree, ".a1a1a1/.../... a");
}

#[test]
fn dice_need_an_owner_and_pips_from_one_to_six() {
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../a7../... a"),
        "row 2: a die needs its pips, 1 to 6, after a"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../.b0./... a"),
        "row 2: a die needs its pips, 1 to 6, after b"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../..a/... a"),
        "row 2: a die needs its pips, 1 to 6, after a"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, ".../c1../... a"),
        "row 2: unexpected character 'c'"
    );
    assert_eq!(
        bad_position(Variant::ThreeByThree, "..я/.../... a"),
        "row 3: unexpected character 'я'"
    );
    for text in [
        ".../1../... a",
        ".../A1../... a",
        ".../a12./... a",
        ".../a1 ../... a",
        ".../-../... a",
        ".../a+1../... a",
    ] {
        bad_position(Variant::ThreeByThree, text);
    }
}

#[test]
fn an_empty_board_with_side_b_to_move_cannot_occur() {
    for (variant, empty) in [
        (Variant::ThreeByThree, ".../.../..."),
        (Variant::FiveByFive, "...../...../...../...../....."),
    ] {
        assert_eq!(
            bad_position(variant, &format!("{empty} b")),
            "an empty board is the start of the game, where side a moves"
        );
        let start = Cephalopod::from_position(variant, &format!("{empty} a"), 0).unwrap();
        assert_eq!(start.position(), Cephalopod::new(variant, 0).position());
    }
}
