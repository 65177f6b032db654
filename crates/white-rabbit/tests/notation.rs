//! Action and position notation: round trips, and every kind of malformed input refused.

use game::{Error, Game};
use white_rabbit::{Die, Move, Variant, WhiteRabbit};

const SPEC_START: &str = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -";

fn start() -> WhiteRabbit {
    WhiteRabbit::from_position(Variant::Classic, SPEC_START, 0).unwrap()
}

#[test]
fn actions_round_trip_through_their_notation() {
    let g = start();
    let mut all = vec![Move::Reroll, Move::End];
    for hand in Die::ALL {
        for table in Die::ALL {
            if hand != table {
                all.push(Move::Swap { hand, table });
            }
        }
    }
    for mv in all {
        let text = g.format_move(mv);
        assert_eq!(g.parse_move(&text), Ok(mv), "{text}");
    }
    assert_eq!(
        g.format_move(Move::Swap {
            hand: Die::K4,
            table: Die::R2
        }),
        "k4~r2"
    );
    assert_eq!(g.format_move(Move::Reroll), "reroll");
    assert_eq!(g.format_move(Move::End), "end");
}

#[test]
fn malformed_actions_are_refused_as_bad_moves() {
    let g = start();
    for text in [
        "", " ", "end ", " end", "END", "End", "ende", "reroll1", "re roll", "~", "k4~", "~r2",
        "k4~r2 ", " k4~r2", "K4~r2", "k4~R2", "k4-r2", "k4~~r2", "k4~r2~r3", "k6~r1", "k0~r1",
        "r6~k1", "w1~k1", "g~k1", "k4~k4", "w~w", "k4r2", "k4 ~ r2", "я~k1", "pass",
    ] {
        match g.parse_move(text) {
            Err(Error::BadMove { .. }) => {}
            other => panic!("{text:?} gave {other:?}"),
        }
        let mut copy = g.clone();
        assert!(copy.play_text(text).is_err(), "{text:?} played");
        assert_eq!(copy, g, "{text:?} changed the state");
    }
}

#[test]
fn a_die_swapped_with_itself_is_named_as_such() {
    assert_eq!(
        start().parse_move("k4~k4").unwrap_err().to_string(),
        "k4~k4: a die cannot be swapped with itself"
    );
    assert_eq!(
        start().parse_move("k6~r1").unwrap_err().to_string(),
        "k6~r1: unknown die \"k6\" (k1…k5, r1…r5, w)"
    );
}

#[test]
fn positions_round_trip() {
    for pos in [
        SPEC_START,
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=3,k4=4,k5=6,r4=1,r5=5 6 k1~w k1",
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=6,k4=4,k5=6,r4=1,r5=5 6 k1~w -",
        "k1=4,k2=4,k3=4,r1=4,r2=4,w=5 k4=4,k5=6,r3=3,r4=1,r5=5 2 - -",
        "r5=1,r4=2,r3=3,k5=4,k4=5,w=6 k1=1,k2=2,k3=3,r1=4,r2=5 1 - -",
        "k1=4,k2=4,k3=4,r1=4,r2=4,r3=3 k4=1,k5=6,r4=1,r5=5,w=2 0 - -",
        "k1=4,k2=4,k3=4,r1=4,r2=4,r3=4 k4=1,k5=6,r4=1,r5=5,w=2 2 - -",
    ] {
        for variant in [Variant::Classic, Variant::NoWrap] {
            let g = WhiteRabbit::from_position(variant, pos, 5)
                .unwrap_or_else(|e| panic!("{pos}: {e}"));
            assert_eq!(g.position(), pos);
        }
    }
    for seed in 0..100 {
        let g = WhiteRabbit::new(Variant::Classic, seed);
        let again = WhiteRabbit::from_position(Variant::Classic, &g.position(), 0).unwrap();
        assert_eq!(again.position(), g.position());
        assert_eq!(again.hash_key(), g.hash_key());
    }
}

fn refused(variant: Variant, pos: &str) -> String {
    match WhiteRabbit::from_position(variant, pos, 0) {
        Err(Error::BadPosition(reason)) => reason,
        other => panic!("{pos:?} gave {other:?}"),
    }
}

#[test]
fn malformed_positions_are_refused() {
    let t = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6";
    let h = "k4=4,k5=6,r4=1,r5=5,w=2";
    let cases = [
        // Fields and spacing.
        String::new(),
        " ".to_string(),
        format!("{t} {h} 6 -"),
        format!("{t} {h} 6 - - -"),
        format!("{t}  {h} 6 - -"),
        format!("{t} {h} 6 - - "),
        format!(" {t} {h} 6 - -"),
        format!("{t}\t{h} 6 - -"),
        format!("{t} {h}\n6 - -"),
        // Table entries.
        format!("k1=3,k2=5,k3=1,r1=2,r2=2 r3=6,{h} 6 - -"),
        format!("{t},k4=4 k5=6,r4=1,r5=5,w=2 6 - -"),
        format!("k1=3,k2=5,k3=1,r1=2,r2=2,r3=6, {h} 6 - -"),
        format!("k1=3,,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=3;k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1:3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=0,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=7,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=33,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=a,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=+3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k6=3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("K1=3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("g=3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("k1=3=3,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        // Each die exactly once.
        format!("k1=3,k1=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -"),
        format!("{t} k1=4,k5=6,r4=1,r5=5,w=2 6 - -"),
        format!("{t} k4=4,k4=6,r4=1,r5=5,w=2 6 - -"),
        // The hand: five dice in the fixed order.
        format!("{t} k4=4,k5=6,r4=1,r5=5 6 - -"),
        format!("{t} k4=4,k5=6,r4=1,r5=5,w=2,w=2 6 - -"),
        format!("{t} k5=6,k4=4,r4=1,r5=5,w=2 6 - -"),
        format!("{t} w=2,k4=4,k5=6,r4=1,r5=5 6 - -"),
        format!("{t} - 6 - -"),
        // The green counter.
        format!("{t} {h} 7 - -"),
        format!("{t} {h} 06 - -"),
        format!("{t} {h} -1 - -"),
        format!("{t} {h} x - -"),
        format!("{t} {h} 10 - -"),
        // The banned swap.
        format!("{t} {h} 6 k1 -"),
        format!("{t} {h} 6 k4~ -"),
        format!("{t} {h} 6 k4~k9 -"),
        format!("{t} {h} 6 k1~w -"),
        format!("{t} {h} 6 k4~r4 -"),
        format!("{t} {h} 6 k4~k1 -"),
        format!("{t} {h} 6 w~w -"),
        format!("{t} {h} 6 k4~r1~r2 -"),
        // The rerollable die.
        format!("{t} {h} 6 - k4"),
        format!("{t} {h} 6 - x"),
        format!("{t} {h} 6 - k1"),
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=3,k4=4,k5=6,r4=1,r5=5 6 k1~w k4".to_string(),
        // Just swapped, so the two dice must still be neighbours.
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=5,k4=4,k5=6,r4=1,r5=5 6 k1~w k1".to_string(),
        // A lost game: no ban, no reroll, and a table that was never won.
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=3,k4=4,k5=6,r4=1,r5=5 0 k1~w -".to_string(),
        "w=2,k2=5,k3=1,r1=2,r2=2,r3=6 k1=3,k4=4,k5=6,r4=1,r5=5 0 k1~w k1".to_string(),
        "k1=4,k2=4,k3=4,r1=4,r2=4,r3=4 k4=1,k5=6,r4=1,r5=5,w=2 0 - -".to_string(),
    ];
    for pos in &cases {
        let reason = refused(Variant::Classic, pos);
        assert!(!reason.is_empty());
    }
}

#[test]
fn the_neighbour_check_of_a_fresh_swap_follows_the_variant() {
    // k1=1 was just swapped for w=6: neighbours only when 6 and 1 wrap.
    let pos = "w=6,k2=5,k3=1,r1=2,r2=2,r3=6 k1=1,k4=4,k5=6,r4=1,r5=5 6 k1~w k1";
    assert!(WhiteRabbit::from_position(Variant::Classic, pos, 0).is_ok());
    refused(Variant::NoWrap, pos);
}

#[test]
fn position_errors_name_the_problem() {
    let t = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6";
    let h = "k4=4,k5=6,r4=1,r5=5,w=2";
    assert_eq!(
        refused(Variant::Classic, &format!("{t} {h} 6 -")),
        "expected five fields separated by single spaces: table, hand, green counter, banned swap, rerollable die"
    );
    assert_eq!(
        refused(
            Variant::Classic,
            &format!("k1=7,k2=5,k3=1,r1=2,r2=2,r3=6 {h} 6 - -")
        ),
        "table: k1 shows \"7\", a die shows 1 to 6"
    );
    assert_eq!(
        refused(
            Variant::Classic,
            &format!("{t} k1=4,k5=6,r4=1,r5=5,w=2 6 - -")
        ),
        "k1 is listed twice"
    );
    assert_eq!(
        refused(
            Variant::Classic,
            &format!("{t} k5=6,k4=4,r4=1,r5=5,w=2 6 - -")
        ),
        "the hand lists its dice in the order k1…k5, r1…r5, w"
    );
    assert_eq!(
        refused(Variant::Classic, &format!("{t} {h} 6 k1~w -")),
        "banned swap k1~w: k1 is not in the hand"
    );
    assert_eq!(
        refused(
            Variant::Classic,
            "k1=4,k2=4,k3=4,r1=4,r2=4,r3=4 k4=1,k5=6,r4=1,r5=5,w=2 0 - -"
        ),
        "the table is won, so the game cannot have been lost"
    );
    let err = WhiteRabbit::from_position(Variant::Classic, "", 0).unwrap_err();
    assert!(err.to_string().starts_with("bad position: "));
}
