//! Move and position notation: round trips and every kind of malformed input.

use game::{Error, Game, Variant as _};
use perekati::{Cell, Move, Perekati, Variant};

fn malysh() -> Perekati {
    Perekati::new(Variant::Malysh, 0)
}

fn bad_position(variant: Variant, text: &str) -> String {
    match Perekati::from_position(variant, text, 0) {
        Err(Error::BadPosition(reason)) => reason,
        other => panic!("{text:?}: expected a bad position, got {other:?}"),
    }
}

#[test]
fn a_move_is_from_cell_then_to_cell() {
    let game = malysh();
    let mv = game.parse_move("c1c2").expect("move");
    assert_eq!(mv.from(), Cell::new(2, 0).expect("c1"));
    assert_eq!(mv.to(), Cell::new(2, 1).expect("c2"));
    assert_eq!(game.format_move(mv), "c1c2");
    assert_eq!(mv.from().to_string(), "c1");
}

#[test]
fn every_cell_pair_of_every_board_round_trips() {
    for &variant in Variant::ALL {
        let game = Perekati::new(variant, 0);
        for (fc, fr, tc, tr) in [(0, 0, 0, 1), (5, 7, 4, 7), (2, 3, 2, 2)] {
            let (Some(from), Some(to)) = (Cell::new(fc, fr), Cell::new(tc, tr)) else {
                unreachable!()
            };
            let mv = Move::new(from, to);
            let text = game.format_move(mv);
            let parsed = game.parse_move(&text);
            if variant.contains(from) && variant.contains(to) {
                assert_eq!(parsed, Ok(mv), "{text} on {}", variant.id());
            } else {
                assert!(parsed.is_err(), "{text} is off the {} board", variant.id());
            }
        }
    }
}

#[test]
fn malformed_moves_are_refused_as_bad_moves() {
    let game = malysh();
    for text in [
        "", "c", "c1", "c1c", "c1c2 ", " c1c2", "c1 c2", "c1-c2", "C1C2", "c1C2", "c0c1", "c1c0",
        "f1f2", "c7c6", "a9a8", "c10c9", "11c2", "cc12", "c1c2c3", "с1с2", "c½c2", "\u{0}",
    ] {
        match game.parse_move(text) {
            Err(Error::BadMove { text: t, .. }) => assert_eq!(t, text),
            other => panic!("{text:?}: expected a bad move, got {other:?}"),
        }
    }
}

#[test]
fn a_well_formed_move_that_is_not_a_roll_parses_but_is_illegal() {
    let game = malysh();
    for text in ["c1c1", "c1c3", "c1d2", "a1e6"] {
        let mv = game.parse_move(text).expect("well-formed");
        assert!(
            matches!(game.check_move(mv), Err(Error::IllegalMove { .. })),
            "{text}"
        );
    }
}

#[test]
fn cells_off_a_smaller_board_are_refused_but_exist_on_a_larger_one() {
    let small = malysh();
    let large = Perekati::new(Variant::Large, 0);
    assert!(small.parse_move("f1f2").is_err());
    assert!(large.parse_move("f1f2").is_ok());
    assert!(small.parse_move("a7a8").is_err());
    assert!(large.parse_move("a7a8").is_ok());
    assert!(Perekati::new(Variant::Long, 0).parse_move("a6a7").is_ok());
}

#[test]
fn an_illegal_move_message_names_the_move_first() {
    let game = malysh();
    let mv = game.parse_move("c1d1").expect("move");
    let err = game.check_move(mv).expect_err("occupied");
    assert_eq!(err.to_string(), "c1d1: d1: the cell is occupied");
}

#[test]
fn positions_round_trip_on_every_variant() {
    let cases = [
        (Variant::Malysh, "uuuuu/...../...../...../...../UUUUU a"),
        (Variant::Malysh, "UUUU./...../..N../...s./...../uuuu. a"),
        (Variant::Malysh, "dnsew/...../...../...../...../UDNSE b"),
        (Variant::Long, "u.u.u/.u.u./...../WE.../...../..S../..DN. b"),
        (
            Variant::Large,
            "uuuuuu/....../....../....../..WE../....../....../UUUU.. a",
        ),
        (
            Variant::Printed,
            "u...../.WsU.n/.N.e../.n.S../W..E.u/...... b",
        ),
    ];
    for (variant, text) in cases {
        let game = Perekati::from_position(variant, text, 0).expect(text);
        assert_eq!(game.position(), text);
        let again = Perekati::from_position(variant, &game.position(), 0).expect("again");
        assert_eq!(again.hash_key(), game.hash_key());
    }
}

#[test]
fn the_hash_depends_on_cells_hats_and_side_to_move() {
    let v = Variant::Malysh;
    let key = |t: &str| Perekati::from_position(v, t, 0).expect(t).hash_key();
    let base = key("uuuuu/...../...../..U../...../UU.UU a");
    assert_ne!(base, key("uuuuu/...../...../..U../...../UU.UU b"));
    assert_ne!(base, key("uuuuu/...../...../..N../...../UU.UU a"));
    assert_ne!(base, key("uuuuu/...../...../...U./...../UU.UU a"));
    assert_eq!(base, key("uuuuu/...../...../..U../...../UU.UU a"));
}

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let v = Variant::Malysh;
    let cases = [
        "",
        " ",
        "uuuuu/...../...../...../...../UUUUU",
        "uuuuu/...../...../...../...../UUUUU ",
        "uuuuu/...../...../...../...../UUUUU  a",
        "uuuuu/...../...../...../...../UUUUU a ",
        " uuuuu/...../...../...../...../UUUUU a",
        "uuuuu/...../...../...../...../UUUUU c",
        "uuuuu/...../...../...../...../UUUUU A",
        "uuuuu/...../...../...../...../UUUUU ab",
        "uuuuu/...../...../...../UUUUU a",
        "uuuuu/...../...../...../...../...../UUUUU a",
        "uuuuu/...../...../...../...../UUUUU/ a",
        "uuuuu/...../...../...../....../UUUUU a",
        "uuuuu/...../...../...../..../UUUUU a",
        "uuuuu/...../...../...../..x../UUUUU a",
        "uuuuu/...../...../...../..1../UUUUU a",
        "uuuuu/...../...../...../..я./UUUUU a",
        "uuuuu/...../...../...../..\u{0}../UUUUU a",
        "uuuuu//...../...../...../UUUUU a",
        "uuuuu\\...../...../...../...../UUUUU a",
        "uuuuu/...../...../...../...../UUUUU\ta",
    ];
    for text in cases {
        let reason = bad_position(v, text);
        assert!(!reason.is_empty(), "{text:?}");
    }
}

#[test]
fn a_position_must_hold_exactly_the_variants_number_of_cubes_per_side() {
    let v = Variant::Malysh;
    assert!(bad_position(v, "uuuu./...../...../...../...../UUUUU a").contains("side b has 4"));
    assert!(bad_position(v, "uuuuu/...../...../...../...../UUUU. a").contains("side a has 4"));
    assert!(bad_position(v, "uuuuu/...../..u../...../...../UUUUU a").contains("side b has 6"));
    assert!(bad_position(v, "uuuuu/...../..U../...../...../UUUUU a").contains("side a has 6"));
    assert!(bad_position(v, "...../...../...../...../...../..... a").contains("has 0"));
    // The six-cube boards want six.
    let p = Variant::Printed;
    assert!(
        bad_position(p, "uuuuu./....../....../....../....../UUUUUU a").contains("side b has 5")
    );
}

#[test]
fn a_position_of_one_board_is_refused_on_another() {
    let malysh_start = malysh().position();
    for v in [Variant::Long, Variant::Large, Variant::Printed] {
        bad_position(v, &malysh_start);
    }
}

#[test]
fn play_text_accepts_only_the_canonical_spelling() {
    let mut game = malysh();
    assert!(game.play_text("C1C2").is_err());
    assert!(game.play_text("c1c2 ").is_err());
    assert_eq!(
        game.play_text("c1c2").map(|m| game.format_move(m)),
        Ok("c1c2".into())
    );
}
