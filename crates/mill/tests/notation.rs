//! Move and position notation: round trips and every kind of malformed input.

mod common;

use common::{play, pos};
use game::{Error, Game};
use mill::{Mill, Move, Point, Variant};

fn p(name: &str) -> Point {
    Point::from_name(name).unwrap()
}

#[test]
fn moves_are_written_as_the_spec_shows() {
    let g = Mill::new(Variant::Troika, 0);
    assert_eq!(g.format_move(Move::place(p("d2"))), "d2");
    assert_eq!(
        g.format_move(Move::place(p("d2")).removing(p("g7"))),
        "d2xg7"
    );
    let mv = Move::shift(p("a1"), p("a4"))
        .removing(p("g7"))
        .removing(p("b6"));
    assert_eq!(g.format_move(mv), "a1-a4xb6xg7");
    assert_eq!(g.parse_move("a1-a4xb6xg7"), Ok(mv));
    assert_eq!(mv.from(), Some(p("a1")));
    assert_eq!(mv.to(), p("a4"));
    assert_eq!(
        mv.removed().map(|q| q.name()).collect::<Vec<_>>(),
        ["b6", "g7"]
    );
}

#[test]
fn every_point_name_round_trips() {
    let g = Mill::new(Variant::Troika, 0);
    let mut n = 0;
    for col in 'a'..='g' {
        for row in '1'..='7' {
            let name = format!("{col}{row}");
            if let Some(q) = Point::from_name(&name) {
                n += 1;
                assert_eq!(q.name(), name);
                assert_eq!(g.format_move(g.parse_move(&name).unwrap()), name);
            } else {
                assert!(
                    matches!(g.parse_move(&name), Err(Error::BadMove { .. })),
                    "{name}"
                );
            }
        }
    }
    assert_eq!(n, 24);
}

#[test]
fn malformed_moves_are_refused_with_a_reason() {
    let g = Mill::new(Variant::Troika, 0);
    for (text, reason) in [
        ("", "empty move"),
        ("x", "a point is missing"),
        ("-", "a point is missing"),
        ("a1-", "a point is missing"),
        ("-a1", "a point is missing"),
        ("a1x", "a point is missing"),
        ("xa1", "a point is missing"),
        ("a1--a4", "-a4 is not a point"),
        ("a1-a4-a7", "a4-a7 is not a point"),
        ("b1", "b1 is not a point"),
        ("d4", "d4 is not a point"),
        ("h1", "h1 is not a point"),
        ("a8", "a8 is not a point"),
        ("A1", "A1 is not a point"),
        ("a1 ", "a1  is not a point"),
        ("a1-a1", "a token must leave its point"),
        ("a1xb2xb2", "b2 is removed twice"),
        ("a1xb2xb4xb6xd2", "a move removes at most three tokens"),
        ("я1", "я1 is not a point"),
    ] {
        assert_eq!(
            g.parse_move(text),
            Err(Error::bad_move(text, reason)),
            "{text:?}"
        );
    }
}

#[test]
fn removals_out_of_order_are_not_canonical() {
    let mut g = pos(
        Variant::Troika,
        "a4 a7 d1 g1",
        "b2 b4 d2 f4",
        "a 5 5 0000 0000 8",
    );
    let before = g.position();
    let err = g.play_text("a1xd2xb2").unwrap_err();
    assert_eq!(
        err,
        Error::bad_move("a1xd2xb2", "not the canonical spelling (write a1xb2xd2)")
    );
    assert_eq!(g.position(), before);
    play(&mut g, "a1xb2xd2");
}

#[test]
fn positions_round_trip_including_five_digit_line_masks() {
    for (v, text) in [
        (
            Variant::Troika,
            ".../.../.../....../.../.../... a 9 9 0000 0000 0",
        ),
        (
            Variant::Troika,
            "aaa/aab/ab./b.ab.b/a../.bb/... b 0 0 0401 0040 0",
        ),
        (
            Variant::Troika,
            "aaa/baa/bb./aab..b/b../b../a.. a 0 0 0101 0400 2",
        ),
        (
            Variant::TroikaDiagonal,
            ".../.../.b./....../a../a../a.. b 6 7 10000 0000 0",
        ),
        (
            Variant::TroikaDiagonal,
            ".../.b./b../b....b/aba/a.a/a.a a 0 0 f0000 f000 7",
        ),
        (
            Variant::TroikaFree,
            "a../.../.../....../.../.../... b 8 9 0000 0000 1",
        ),
    ] {
        let g = Mill::from_position(v, text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.position(), text);
    }
}

fn refused(v: Variant, text: &str) -> String {
    match Mill::from_position(v, text, 0) {
        Ok(g) => panic!("{text} accepted as {}", g.position()),
        Err(Error::BadPosition(reason)) => reason,
        Err(e) => panic!("{text}: wrong error kind {e:?}"),
    }
}

#[test]
fn malformed_positions_are_refused() {
    let t = Variant::Troika;
    for text in [
        "",
        " ",
        ".../.../.../....../.../.../...",
        ".../.../.../....../.../.../... a 9 9 0000 0000",
        ".../.../.../....../.../.../... a 9 9 0000 0000 0 0",
        ".../.../.../....../.../.../... a 9 9 0000 0000 0 ",
        ".../.../.../....../.../.../...  a 9 9 0000 0000 0",
        ".../.../.../....../.../.../... a  9 9 0000 0000 0",
        // Rows.
        ".../.../....../.../.../... a 9 9 0000 0000 0",
        ".../.../.../....../.../.../.../... a 9 9 0000 0000 0",
        "..../.../.../....../.../.../... a 9 9 0000 0000 0",
        ".../.../.../...../.../.../... a 9 9 0000 0000 0",
        ".../.../.../.......  /.../.../... a 9 9 0000 0000 0",
        ".../.../.../....../.../.../..c a 9 9 0000 0000 0",
        ".../.../.../....../.../.../..A a 9 9 0000 0000 0",
        ".../.../.../....../.../.../..я a 9 9 0000 0000 0",
        ".../.../.../....../.../.../.я a 9 9 0000 0000 0",
        // Side to move.
        ".../.../.../....../.../.../... c 9 9 0000 0000 0",
        ".../.../.../....../.../.../... A 9 9 0000 0000 0",
        ".../.../.../....../.../.../... ab 9 9 0000 0000 0",
        // Hands.
        ".../.../.../....../.../.../... a 10 9 0000 0000 0",
        ".../.../.../....../.../.../... a 09 9 0000 0000 0",
        ".../.../.../....../.../.../... a -1 9 0000 0000 0",
        ".../.../.../....../.../.../... a +9 9 0000 0000 0",
        ".../.../.../....../.../.../... a 9 x 0000 0000 0",
        ".../.../.../....../.../.../... a 9 99999999999 0000 0000 0",
        // Paid lines.
        ".../.../.../....../.../.../... a 9 9 000 0000 0",
        ".../.../.../....../.../.../... a 9 9 00000 0000 0",
        ".../.../.../....../.../.../... a 9 9 0000 000A 0",
        ".../.../.../....../.../.../... a 9 9 0000 000g 0",
        ".../.../.../....../.../.../... a 9 9 0000 -001 0",
        ".../.../.../....../.../.../... a 9 9 0000 100000 0",
        // Counter.
        ".../.../.../....../.../.../... a 9 9 0000 0000 -1",
        ".../.../.../....../.../.../... a 9 9 0000 0000 00",
        ".../.../.../....../.../.../... a 9 9 0000 0000 x",
        ".../.../.../....../.../.../... a 9 9 0000 0000 101",
        ".../.../.../....../.../.../... a 9 9 0000 0000 1000",
    ] {
        refused(t, text);
    }
}

#[test]
fn impossible_positions_are_refused_with_a_reason() {
    let t = Variant::Troika;
    let cases = [
        // Ten tokens of a.
        (
            t,
            "aaa/aaa/aaa/a...../.../.../... a 0 0 00ff 0000 0",
            "side a has 10 tokens on the board and 0 in hand, more than 9",
        ),
        (
            t,
            "aaa/.../.../....../.../.../... a 7 0 0001 0000 0",
            "side a has 3 tokens on the board and 7 in hand, more than 9",
        ),
        // A full line that was never paid.
        (
            t,
            "aaa/.../.../....../.../bbb/... a 0 0 0000 0040 0",
            "side a holds line 0 but it is not among its paid lines",
        ),
        // Lines beyond the board's 16.
        (
            t,
            "a../.../.../....../.../.../... b 8 9 10000 0000 1",
            "side a's paid lines \"10000\" name a line this variant does not have (it has 16)",
        ),
        // Removals without paid lines.
        (
            t,
            "a../.../.../....../.../.../... b 8 8 0000 0000 1",
            "side b has lost 1 tokens but side a has only 0 paid lines",
        ),
        // A side not to move with two tokens: the game ended before.
        (
            t,
            "aa./.../.../....../.../bbb/... b 0 0 003f ff40 5",
            "side a (not to move) has 2 tokens left: the game ended before its last move",
        ),
        // Placements alternate.
        (
            t,
            "a../.../.../....../.../.../... a 8 9 0000 0000 1",
            "side b has not moved yet, so side a has 9 tokens in hand",
        ),
        (
            t,
            "aa./.../.../....../.../.../b.. a 7 8 0000 0000 3",
            "with side a to move the hands cannot be 7 and 8: placements alternate",
        ),
        (
            t,
            "a../b../.../....../.../.../... b 8 8 0000 0000 2",
            "with side b to move the hands cannot be 8 and 8: placements alternate",
        ),
        (
            t,
            ".../.../.../....../.../.../... b 9 9 0000 0000 0",
            "side a still has all its tokens in hand, so it is a's first move",
        ),
        // The counter.
        (
            t,
            "a../.../.../....../.../.../... b 8 9 0000 0000 2",
            "the counter 2 exceeds the 1 moves played so far",
        ),
        (
            t,
            "a../.../.../....../.../.../... b 8 9 0000 0000 0",
            "nothing has been removed, so the counter must be at least the 1 placements made",
        ),
        (
            t,
            "aa./.../.../....../.../.../... b 7 8 0001 0000 0",
            "side a has paid lines before placing three tokens",
        ),
    ];
    for (v, text, reason) in cases {
        assert_eq!(refused(v, text), reason, "{text}");
    }
    // A free game allows any split of the hands, but not an a with all nine in hand and b moving.
    let f = Variant::TroikaFree;
    assert!(Mill::from_position(f, "a../.../.../....../.../.../b.. a 8 8 0000 0000 3", 0).is_ok());
    assert!(Mill::from_position(f, "a../.../.../....../.../.../b.. b 8 8 0000 0000 3", 0).is_ok());
    refused(f, ".../.../.../....../.../.../b.. b 9 8 0000 0000 1");
    refused(f, "a../.../.../....../.../.../... a 8 9 0000 0000 1");
}

#[test]
fn the_vector_positions_parse() {
    let g = Mill::from_position(
        Variant::Troika,
        "aaa/aab/ab./b.ab.b/a../.bb/... b 0 0 0401 0040 0",
        0,
    )
    .unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.count_legal(), 41);
}

#[test]
fn equal_positions_hash_alike_and_the_counter_is_part_of_the_key() {
    let mut g = Mill::new(Variant::Troika, 0);
    play(&mut g, "d2 b2 d1 b4");
    let mut h = Mill::new(Variant::Troika, 0);
    play(&mut h, "d1 b4 d2 b2");
    assert_eq!(g.position(), h.position());
    assert_eq!(g.hash_key(), h.hash_key());
    let again = Mill::from_position(Variant::Troika, &g.position(), 0).unwrap();
    assert_eq!(again.hash_key(), g.hash_key());
}
