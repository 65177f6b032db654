//! The rules of the spec, one test per rule or edge case, on small hand-made positions.

mod common;

use common::{cell, game, legal, position};
use game::{Error, Game, Outcome, Seat};
use tumbleweed::{Colour, Move, Owner, Phase, Stack, Tumbleweed, Variant};

use Colour::{Red, White};
use Variant::Hex6;

fn stack(g: &Tumbleweed, name: &str) -> Option<Stack> {
    g.stack(cell(name))
}

fn sight(g: &Tumbleweed, name: &str, colour: Colour) -> u8 {
    g.sight(cell(name), colour)
}

fn illegal_reason(g: &Tumbleweed, text: &str) -> String {
    let mv = g.parse_move(text).expect("well-formed move");
    match g.check_move(mv) {
        Err(Error::IllegalMove { reason, .. }) => reason,
        other => panic!("{text} should be illegal, got {other:?}"),
    }
}

// --- Board and sight -----------------------------------------------------------------------

#[test]
fn the_start_has_only_the_neutral_stack_of_two_on_the_centre() {
    for v in [Variant::Hex8, Variant::Hex11, Hex6] {
        let g = Tumbleweed::new(v, 0);
        let stacks: Vec<_> = g
            .cells()
            .filter_map(|c| g.stack(c).map(|s| (c, s)))
            .collect();
        assert_eq!(
            stacks,
            vec![(
                v.centre(),
                Stack {
                    owner: Owner::Neutral,
                    height: 2
                }
            )]
        );
        assert_eq!(g.phase(), Phase::Setup);
        assert_eq!(g.passes(), 0);
    }
    assert_eq!(
        Tumbleweed::new(Hex6, 0).position(),
        "....../......./......../........./........../.....n2...../........../........./......../......./...... setup 0"
    );
}

#[test]
fn a_stack_is_seen_along_all_six_lines_and_nowhere_else() {
    let g = game(Hex6, &[("d5", "r1"), ("k11", "w1")], "r", 0);
    // One cell further along each of the six directions, then some way along them.
    for name in [
        "d6", "d4", "e5", "c5", "e6", "c4", "d9", "d1", "j5", "a5", "i10", "a2",
    ] {
        assert_eq!(sight(&g, name, Red), 1, "{name}");
    }
    // Off the six lines.
    for name in ["e7", "c6", "f4", "b4", "e4", "c3"] {
        assert_eq!(sight(&g, name, Red), 0, "{name}");
    }
}

#[test]
fn a_cell_does_not_see_its_own_stack() {
    let g = game(Hex6, &[("d5", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(sight(&g, "d5", Red), 0);
}

#[test]
fn sight_is_blocked_by_an_own_stack() {
    // c3 and c6 are red on one line: c8 sees only c6.
    let g = game(Hex6, &[("c3", "r1"), ("c6", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(sight(&g, "c8", Red), 1);
    // Between them a cell sees both.
    assert_eq!(sight(&g, "c4", Red), 2);
    // The blocking stack itself sees the one behind it.
    assert_eq!(sight(&g, "c6", Red), 1);
}

#[test]
fn sight_is_blocked_by_an_opponent_stack() {
    let g = game(Hex6, &[("c3", "r1"), ("c6", "w1"), ("k11", "w1")], "r", 0);
    assert_eq!(sight(&g, "c8", Red), 0);
    assert_eq!(sight(&g, "c8", White), 1);
    assert_eq!(sight(&g, "c5", Red), 1);
    assert_eq!(sight(&g, "c5", White), 1);
}

#[test]
fn sight_is_blocked_by_the_neutral_stack() {
    // f6 is the neutral centre; f2 is red on the same letter.
    let g = game(Hex6, &[("f2", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(sight(&g, "f5", Red), 1);
    assert_eq!(
        sight(&g, "f6", Red),
        1,
        "the neutral stack's cell sees the red stack"
    );
    assert_eq!(
        sight(&g, "f8", Red),
        0,
        "the neutral stack hides the red one"
    );
}

#[test]
fn sight_counts_one_stack_per_direction_up_to_six() {
    let stacks = [
        ("d6", "r1"),
        ("d4", "r1"),
        ("e5", "r1"),
        ("c5", "r1"),
        ("e6", "r1"),
        ("c4", "r1"),
        ("d7", "r1"), // behind d6: hidden from d5
        ("k11", "w1"),
    ];
    let g = game(Hex6, &stacks, "r", 0);
    assert_eq!(sight(&g, "d5", Red), 6);
    let mut g = g;
    g.play_text("d5").unwrap();
    assert_eq!(
        stack(&g, "d5"),
        Some(Stack {
            owner: Owner::Red,
            height: 6
        })
    );
}

// --- Placing -------------------------------------------------------------------------------

#[test]
fn a_new_stack_is_as_tall_as_the_movers_sight() {
    let mut g = game(Hex6, &[("c3", "r1"), ("c6", "r1"), ("k11", "w1")], "r", 0);
    g.play_text("c4").unwrap();
    assert_eq!(
        stack(&g, "c4"),
        Some(Stack {
            owner: Owner::Red,
            height: 2
        })
    );
    assert_eq!(g.phase(), Phase::Play(White));
}

#[test]
fn a_cell_with_no_own_stack_in_sight_cannot_be_played() {
    let g = game(Hex6, &[("c3", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(sight(&g, "k10", Red), 0);
    assert_eq!(sight(&g, "k10", White), 1);
    assert_eq!(
        illegal_reason(&g, "k10"),
        "no red stack is seen from this cell"
    );
    assert!(!legal(&g).contains(&"k10".to_string()));
    let mut copy = g.clone();
    assert!(copy.play_text("k10").is_err());
    assert_eq!(copy.position(), g.position());
}

#[test]
fn every_legal_placement_sees_an_own_stack() {
    let g = game(Hex6, &[("a1", "r1"), ("a2", "w1")], "r", 0);
    // Red's a1 is seen from b1..f1 and b2..e5; a2 and f6 see it too, but hold stacks at
    // least as tall as the stack red could place there (1).
    let mut expected: Vec<String> = ["b1", "c1", "d1", "e1", "f1", "b2", "c3", "d4", "e5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    expected.push("pass".into());
    expected.sort();
    assert_eq!(legal(&g), expected);
    assert_eq!(g.count_legal(), expected.len());
}

// The target d5 on hex6 has red neighbours d6, d4, e5 (red sight 3) and white neighbours c5,
// c4 (white sight 2).
const AROUND_D5: [(&str, &str); 5] = [
    ("d6", "r1"),
    ("d4", "r1"),
    ("e5", "r1"),
    ("c5", "w1"),
    ("c4", "w1"),
];

fn around_d5(target: &str, phase: &str) -> Tumbleweed {
    let mut stacks = AROUND_D5.to_vec();
    stacks.push(("d5", target));
    game(Hex6, &stacks, phase, 0)
}

#[test]
fn a_lower_opponent_stack_is_captured() {
    let mut g = around_d5("w2", "r");
    assert_eq!(sight(&g, "d5", Red), 3);
    assert_eq!((sight(&g, "f7", White), sight(&g, "f7", Red)), (1, 0));
    g.play_text("d5").unwrap();
    assert_eq!(
        stack(&g, "d5"),
        Some(Stack {
            owner: Owner::Red,
            height: 3
        })
    );
    // f7 looks at d5 along the diagonal: it saw white there, now it sees red.
    assert_eq!(sight(&g, "f7", White), 0);
    assert_eq!(sight(&g, "f7", Red), 1);
}

#[test]
fn an_opponent_stack_of_equal_height_cannot_be_captured() {
    let g = around_d5("w3", "r");
    assert_eq!(
        illegal_reason(&g, "d5"),
        "the stack there is not lower than the new one (height 3)"
    );
    assert!(!legal(&g).contains(&"d5".to_string()));
}

#[test]
fn a_taller_opponent_stack_cannot_be_captured() {
    let g = around_d5("w4", "r");
    assert!(g.check_move(Move::Place(cell("d5"))).is_err());
}

#[test]
fn a_lower_own_stack_is_reinforced() {
    let mut g = around_d5("r2", "r");
    g.play_text("d5").unwrap();
    assert_eq!(
        stack(&g, "d5"),
        Some(Stack {
            owner: Owner::Red,
            height: 3
        })
    );
}

#[test]
fn an_own_stack_of_equal_height_cannot_be_reinforced() {
    let g = around_d5("r3", "r");
    assert!(illegal_reason(&g, "d5").contains("not lower"));
}

#[test]
fn white_cannot_capture_a_red_stack_as_tall_as_its_sight() {
    // White sees two of its stacks from d5, where a red stack of height 2 stands.
    let g = around_d5("r2", "w");
    assert_eq!(sight(&g, "d5", White), 2);
    assert!(g.check_move(Move::Place(cell("d5"))).is_err());
    let g = around_d5("r1", "w");
    assert!(g.check_move(Move::Place(cell("d5"))).is_ok());
}

#[test]
fn the_neutral_stack_is_captured_by_a_stack_of_three() {
    let stacks = [("f7", "r1"), ("f5", "r1"), ("g6", "r1"), ("a1", "w1")];
    let mut g = game(Hex6, &stacks, "r", 0);
    assert_eq!(sight(&g, "f6", Red), 3);
    g.play_text("f6").unwrap();
    assert_eq!(
        stack(&g, "f6"),
        Some(Stack {
            owner: Owner::Red,
            height: 3
        })
    );
    assert!(g.position().contains("r3"));
    assert!(!g.position().contains('n'));
    // The position after the capture is valid notation.
    let again = Tumbleweed::from_position(Hex6, &g.position(), 0).unwrap();
    assert_eq!(again.hash_key(), g.hash_key());
}

#[test]
fn the_neutral_stack_resists_a_stack_of_two() {
    let stacks = [("f7", "r1"), ("f5", "r1"), ("a1", "w1")];
    let g = game(Hex6, &stacks, "r", 0);
    assert_eq!(sight(&g, "f6", Red), 2);
    assert!(illegal_reason(&g, "f6").contains("not lower"));
}

// --- The pie rule --------------------------------------------------------------------------

#[test]
fn setup_cells_must_be_two_different_empty_cells() {
    let g = Tumbleweed::new(Hex6, 0);
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(g.turn_label(), "setup");
    assert_eq!(
        g.check_move(g.parse_move("f6,a1").unwrap()),
        Err(Error::illegal("f6", "the cell is occupied")),
        "the centre holds the neutral stack"
    );
    assert!(g.check_move(g.parse_move("a1,f6").unwrap()).is_err());
    assert_eq!(
        illegal_reason(&g, "a1,a1"),
        "the two checkers go on two different cells"
    );
    assert!(g.check_move(g.parse_move("a1,b2").unwrap()).is_ok());
    assert_eq!(g.count_legal(), 90 * 89);
}

#[test]
fn setup_places_one_red_and_one_white_checker() {
    let mut g = Tumbleweed::new(Hex6, 0);
    g.play_text("a1,k11").unwrap();
    assert_eq!(
        stack(&g, "a1"),
        Some(Stack {
            owner: Owner::Red,
            height: 1
        })
    );
    assert_eq!(
        stack(&g, "k11"),
        Some(Stack {
            owner: Owner::White,
            height: 1
        })
    );
    assert_eq!(g.phase(), Phase::Choose);
    assert_eq!(g.turn_label(), "choose");
    assert_eq!(g.to_move(), Some(Seat::B));
    assert_eq!(legal(&g), vec!["red", "white"]);
    assert_eq!(g.seat_label(Seat::A), "a");
    assert_eq!(g.seat_label(Seat::B), "b");
}

#[test]
fn only_setup_moves_are_legal_at_the_start() {
    let g = Tumbleweed::new(Hex6, 0);
    for text in ["pass", "red", "white", "a1"] {
        let mv = g.parse_move(text).unwrap();
        assert!(g.check_move(mv).is_err(), "{text}");
    }
}

#[test]
fn only_a_colour_choice_is_legal_after_the_setup() {
    let mut g = Tumbleweed::new(Hex6, 0);
    g.play_text("a1,k11").unwrap();
    for text in ["pass", "b1", "b1,b2"] {
        let mv = g.parse_move(text).unwrap();
        assert!(g.check_move(mv).is_err(), "{text}");
    }
}

#[test]
fn choosing_red_makes_side_b_move_first() {
    let mut g = Tumbleweed::new(Hex6, 0);
    g.play_text("a1,k11").unwrap();
    g.play_text("red").unwrap();
    assert_eq!(g.phase(), Phase::Play(Red));
    assert_eq!(g.turn_label(), "r");
    assert_eq!(g.to_move(), Some(Seat::B));
    assert_eq!(g.seat_of(Red), Some(Seat::B));
    assert_eq!(g.seat_label(Seat::B), "r");
    assert_eq!(g.seat_label(Seat::A), "w");
    assert_eq!(g.passes(), 0);
    g.play_text("b1").unwrap();
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(g.turn_label(), "w");
}

#[test]
fn choosing_white_makes_side_a_move_first_with_red() {
    let mut g = Tumbleweed::new(Hex6, 0);
    g.play_text("a1,k11").unwrap();
    g.play_text("white").unwrap();
    assert_eq!(g.phase(), Phase::Play(Red));
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(g.seat_of(Red), Some(Seat::A));
    assert_eq!(g.seat_label(Seat::A), "r");
    assert_eq!(g.seat_label(Seat::B), "w");
    assert_eq!(
        g.position(),
        position(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0)
    );
}

#[test]
fn setup_and_choice_are_refused_once_play_has_begun() {
    let g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(illegal_reason(&g, "b1,b2"), "the setup is already done");
    assert_eq!(illegal_reason(&g, "red"), "the colours are already chosen");
}

#[test]
fn a_position_read_after_the_choice_gives_red_to_side_b() {
    let g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    assert_eq!(g.to_move(), Some(Seat::B));
    assert_eq!(g.seat_label(Seat::B), "r");
    let mut g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "w", 0);
    assert_eq!(g.to_move(), Some(Seat::A));
    let hash = g.hash_key();
    g.set_red_seat(Seat::A);
    assert_eq!(g.to_move(), Some(Seat::B));
    assert_eq!(g.hash_key(), hash);
}

// --- Passing and the end -------------------------------------------------------------------

#[test]
fn two_passes_in_a_row_end_the_game() {
    let mut g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    g.play_text("pass").unwrap();
    assert_eq!(g.passes(), 1);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.to_move(), Some(Seat::A));
    g.play_text("pass").unwrap();
    assert_eq!(g.passes(), 2);
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert_eq!(g.count_legal(), 0);
    assert!(legal(&g).is_empty());
    assert!(g.position().ends_with(" r 2"));
    assert_eq!(g.play_text("b1"), Err(Error::GameOver));
    assert_eq!(g.play_text("pass"), Err(Error::GameOver));
}

#[test]
fn a_placement_after_a_pass_resets_the_count() {
    let mut g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    g.play_text("pass").unwrap();
    g.play_text("k10").unwrap();
    assert_eq!(g.passes(), 0);
    assert!(g.position().ends_with(" r 0"));
    g.play_text("pass").unwrap();
    assert!(!g.is_over());
    g.play_text("pass").unwrap();
    assert!(g.is_over());
}

#[test]
fn pass_is_always_legal_during_play() {
    let g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "w", 1);
    assert!(legal(&g).contains(&"pass".to_string()));
}

// --- Scoring -------------------------------------------------------------------------------

#[test]
fn the_score_counts_owned_and_controlled_cells() {
    // Red a1 is seen from b1..f1 and b2, c3, d4, e5 (then the neutral f6); white a2 from
    // a3..a6, b2..g2 and b3, c4, …, j11. b2 sees one of each: nobody controls it.
    let g = game(Hex6, &[("a1", "r1"), ("a2", "w1")], "r", 0);
    assert_eq!(sight(&g, "b2", Red), 1);
    assert_eq!(sight(&g, "b2", White), 1);
    assert_eq!(g.score(), (1 + 5 + 3, 1 + 4 + 5 + 9));
}

#[test]
fn controlling_needs_more_stacks_in_sight_than_the_opponent() {
    // c4 sees red c3 and c6 (2) and white a4 and e4 (2): a tie, controlled by nobody.
    let g = game(
        Hex6,
        &[("c3", "r1"), ("c6", "r1"), ("a4", "w1"), ("e4", "w1")],
        "r",
        0,
    );
    assert_eq!((sight(&g, "c4", Red), sight(&g, "c4", White)), (2, 2));
    let (red, white) = g.score();
    // Recount by hand from the engine's sight: owned + strictly-more.
    let (mut r, mut w) = (0, 0);
    for c in g.cells() {
        match g.stack(c).map(|s| s.owner) {
            Some(Owner::Red) => r += 1,
            Some(Owner::White) => w += 1,
            Some(Owner::Neutral) => {}
            None => {
                let (sr, sw) = (g.sight(c, Red), g.sight(c, White));
                r += u32::from(sr > sw);
                w += u32::from(sw > sr);
            }
        }
    }
    assert_eq!((red, white), (r, w));
}

#[test]
fn the_neutral_stack_scores_for_nobody() {
    // Red and white mirror each other through the centre; the neutral centre is seen by both
    // and counts for neither.
    let g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
    let (red, white) = g.score();
    assert_eq!(red, white);
    let occupied_or_controlled = red + white;
    assert!(occupied_or_controlled < 91);
}

#[test]
fn equal_scores_are_a_draw() {
    let g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 2);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_higher_score_wins() {
    // White scores 19 against red's 9 (see the first scoring test); red is side b.
    let g = game(Hex6, &[("a1", "r1"), ("a2", "w1")], "w", 2);
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::A)));
    let mut g = g;
    g.set_red_seat(Seat::A);
    assert_eq!(g.outcome(), Some(Outcome::Win(Seat::B)));
    assert_eq!(g.seat_label(Seat::B), "w");
}

#[test]
fn the_game_reaches_its_end_by_passes_from_the_start() {
    let mut g = Tumbleweed::new(Hex6, 0);
    for text in ["a1,k11", "white", "pass", "pass"] {
        g.play_text(text).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

// --- make / unmake and hashing -------------------------------------------------------------

#[test]
fn unmake_restores_a_capture_of_the_neutral_stack() {
    let stacks = [("f7", "r1"), ("f5", "r1"), ("g6", "r1"), ("a1", "w1")];
    let g = game(Hex6, &stacks, "r", 1);
    let mut copy = g.clone();
    let mv = Move::Place(cell("f6"));
    let undo = copy.make(mv);
    assert_ne!(copy.hash_key(), g.hash_key());
    copy.unmake(mv, undo);
    assert_eq!(copy.position(), g.position());
    assert_eq!(copy.hash_key(), g.hash_key());
    assert_eq!(legal(&copy), legal(&g));
}

#[test]
fn transposed_move_orders_give_the_same_hash() {
    let play = |moves: &[&str]| {
        let mut g = game(Hex6, &[("a1", "r1"), ("k11", "w1")], "r", 0);
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    };
    // No two of these cells share a line, so each new stack is a single checker.
    let a = play(&["b1", "k10", "c3", "j11"]);
    let b = play(&["c3", "j11", "b1", "k10"]);
    assert_eq!(a.position(), b.position());
    assert_eq!(a.hash_key(), b.hash_key());
    let c = play(&["b1", "k10", "c3", "pass"]);
    assert_ne!(a.hash_key(), c.hash_key());
}

#[test]
fn the_pass_counter_and_phase_are_part_of_the_hash() {
    let stacks = [("a1", "r1"), ("k11", "w1")];
    let keys: Vec<u64> = [("r", 0), ("r", 1), ("r", 2), ("w", 0), ("w", 1)]
        .iter()
        .map(|&(p, n)| game(Hex6, &stacks, p, n).hash_key())
        .collect();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len());
}
