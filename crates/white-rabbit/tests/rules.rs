//! The rules of `docs/spec/white-rabbit.md`, one test per rule or edge case, on small
//! hand-made positions.

use game::{Error, Game, GameRng, Outcome, Seat};
use white_rabbit::{Die, Move, Variant, WhiteRabbit};

/// The spec's example: the position after setup.
const SPEC_START: &str = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -";

/// A position with a bit of everything: a wrap-around swap (r4=1 for k1=6), plain swaps and
/// non-neighbours.
const MIXED: &str = "k1=6,k2=2,k3=4,r1=3,r2=5,r3=1 k4=1,k5=5,r4=1,r5=3,w=2 6 - -";

fn at(variant: Variant, position: &str) -> WhiteRabbit {
    at_seeded(variant, position, 0)
}

fn at_seeded(variant: Variant, position: &str, seed: u64) -> WhiteRabbit {
    WhiteRabbit::from_position(variant, position, seed)
        .unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn play(game: &mut WhiteRabbit, moves: &str) {
    for mv in moves.split(' ') {
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} at {}: {e}", game.position()));
    }
}

fn legal(game: &WhiteRabbit) -> String {
    game.legal_texts().join(" ")
}

fn refusal(game: &WhiteRabbit, mv: &str) -> String {
    let mut copy = game.clone();
    let err = copy
        .play_text(mv)
        .expect_err(&format!("{mv} should be refused at {}", game.position()));
    assert_eq!(&copy, game, "a refused move changed the state");
    err.to_string()
}

/// The first seed whose generator's first `rolls.len()` dice satisfy `want`.
fn seed_where(n: usize, want: impl Fn(&[u8]) -> bool) -> u64 {
    (0..100_000u64)
        .find(|&s| {
            let mut rng = GameRng::seeded(s);
            let rolls: Vec<u8> = (0..n).map(|_| rng.die()).collect();
            want(&rolls)
        })
        .expect("some seed rolls that")
}

fn rolls(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = GameRng::seeded(seed);
    (0..n).map(|_| rng.die()).collect()
}

// --- the catalogue entry and the solo seat ---

#[test]
fn the_game_is_a_solo_dice_game_with_two_variants() {
    let info = WhiteRabbit::INFO;
    assert_eq!(info.id, "white-rabbit");
    assert_eq!(info.names.en, "White Rabbit");
    assert_eq!(info.names.ru, "Белый кролик");
    assert_eq!(info.names.uk, "Білий кролик");
    assert_eq!(info.seats, 1);
    assert!(info.has_dice);
    let ids: Vec<&str> = info.variants.iter().map(|v| v.id).collect();
    assert_eq!(ids, ["classic", "no-wrap"]);
    assert_eq!(
        <Variant as game::Variant>::default_variant(),
        Variant::Classic
    );
}

#[test]
fn the_only_seat_is_a_and_the_turn_label_is_empty() {
    let g = at(Variant::Classic, SPEC_START);
    assert_eq!(g.turn_label(), "");
    assert_eq!(g.seat_label(Seat::A), "a");
    assert_eq!(g.to_move(), Some(Seat::A));
    assert_eq!(g.outcome(), None);
}

#[test]
fn perft_is_not_defined_for_a_dice_game() {
    let g = WhiteRabbit::new(Variant::Classic, 1);
    assert_eq!(game::perft(&g, 1), Err(Error::Chance));
}

// --- setup ---

#[test]
fn setup_puts_k1_to_r3_on_the_table_and_the_rest_in_the_hand_with_six_on_the_counter() {
    for seed in [0, 1, 2, 99] {
        let g = WhiteRabbit::new(Variant::Classic, seed);
        let r = rolls(seed, 11);
        let table: Vec<(Die, u8)> = g.table().to_vec();
        let want: Vec<(Die, u8)> = [Die::K1, Die::K2, Die::K3, Die::R1, Die::R2, Die::R3]
            .into_iter()
            .zip(r[..6].iter().copied())
            .collect();
        assert_eq!(table, want, "table, seed {seed}");
        let hand: Vec<(Die, u8)> = g.hand().to_vec();
        let want: Vec<(Die, u8)> = [Die::K4, Die::K5, Die::R4, Die::R5, Die::W]
            .into_iter()
            .zip(r[6..].iter().copied())
            .collect();
        assert_eq!(hand, want, "hand, seed {seed}");
        assert_eq!(g.green(), 6);
        assert_eq!(g.banned_swap(), None);
        assert_eq!(g.rerollable(), None);
    }
}

#[test]
fn the_same_seed_gives_the_same_setup_in_both_variants() {
    let a = WhiteRabbit::new(Variant::Classic, 7);
    let b = WhiteRabbit::new(Variant::NoWrap, 7);
    assert_eq!(a.position(), b.position());
    assert_eq!(
        a.position(),
        WhiteRabbit::new(Variant::Classic, 7).position()
    );
}

// --- swaps ---

#[test]
fn swaps_need_different_colours_and_values_one_apart_with_6_and_1_neighbours() {
    let g = at(Variant::Classic, MIXED);
    assert_eq!(legal(&g), "end r4~k1 r4~k2 r5~k2 r5~k3 w~r1 w~r3");
}

#[test]
fn in_no_wrap_6_and_1_are_not_neighbours() {
    let g = at(Variant::NoWrap, MIXED);
    assert_eq!(legal(&g), "end r4~k2 r5~k2 r5~k3 w~r1 w~r3");
    assert_eq!(
        refusal(&g, "r4~k1"),
        "r4~k1: r4 shows 1 and k1 shows 6: the values must differ by one (6 and 1 are not neighbours in no-wrap)"
    );
    // Also the other way round: a 6 in the hand and a 1 on the table.
    let g = at(
        Variant::NoWrap,
        "k1=1,k2=2,k3=4,r1=3,r2=5,r3=1 k4=1,k5=5,r4=6,r5=3,w=2 6 - -",
    );
    assert!(g.check_move(g.parse_move("r4~k1").unwrap()).is_err());
    let g = at(
        Variant::Classic,
        "k1=1,k2=2,k3=4,r1=3,r2=5,r3=1 k4=1,k5=5,r4=6,r5=3,w=2 6 - -",
    );
    assert!(g.check_move(g.parse_move("r4~k1").unwrap()).is_ok());
}

#[test]
fn equal_values_and_values_two_apart_cannot_be_swapped() {
    let g = at(Variant::Classic, MIXED);
    assert_eq!(
        refusal(&g, "k4~r3"),
        "k4~r3: k4 shows 1 and r3 shows 1: the values must differ by one"
    );
    assert_eq!(
        refusal(&g, "k4~r1"),
        "k4~r1: k4 shows 1 and r1 shows 3: the values must differ by one"
    );
}

#[test]
fn dice_of_the_same_colour_are_never_swapped() {
    let g = at(Variant::Classic, MIXED);
    // k4=1 and k2=2 are neighbours but both black.
    assert_eq!(refusal(&g, "k4~k2"), "k4~k2: k4 and k2 are the same colour");
    let g = at(
        Variant::Classic,
        "k1=6,k2=2,k3=4,r1=4,r2=5,r3=1 k4=1,k5=5,r4=1,r5=3,w=2 6 - -",
    );
    // r5=3 and r1=4: neighbours, both red.
    assert_eq!(refusal(&g, "r5~r1"), "r5~r1: r5 and r1 are the same colour");
}

#[test]
fn the_white_die_swaps_with_black_and_red_and_both_swap_with_it_on_the_table() {
    let g = at(
        Variant::Classic,
        "k1=3,k2=5,k3=1,r1=2,r2=2,w=4 k4=3,k5=6,r3=5,r4=1,r5=2 6 - -",
    );
    // k4=3 and r3=5 are neighbours of w=4 on the table.
    assert_eq!(legal(&g), "end k4~r1 k4~r2 k4~w r3~w r5~k1 r5~k3");
    let g = at(Variant::Classic, SPEC_START);
    assert_eq!(legal(&g), "end w~k1 w~k3");
}

#[test]
fn a_swap_moves_the_hand_die_into_the_table_dies_slot_with_both_values_kept() {
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3");
    assert_eq!(
        g.position(),
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 k3"
    );
    assert_eq!(g.slot_of(Die::R5), Some(2));
    assert_eq!(g.slot_of(Die::K3), None);
    assert!(g.in_hand(Die::K3));
    assert_eq!(g.value(Die::K3), 4);
    assert_eq!(g.value(Die::R5), 3);
    assert_eq!(g.green(), 6, "a swap does not cost a turn");
}

#[test]
fn a_die_on_the_table_cannot_be_offered_from_the_hand_and_vice_versa() {
    let g = at(Variant::Classic, MIXED);
    assert_eq!(refusal(&g, "k1~r4"), "k1~r4: k1 is not in the hand");
    assert_eq!(refusal(&g, "r4~k5"), "r4~k5: k5 is not on the table");
}

// --- the reroll ---

#[test]
fn no_reroll_at_the_start_of_a_turn() {
    let g = at(Variant::Classic, MIXED);
    assert!(refusal(&g, "reroll").starts_with("reroll: only the die a swap just brought"));
    let g = WhiteRabbit::new(Variant::Classic, 3);
    assert!(!g.legal_texts().contains(&"reroll".to_string()));
}

#[test]
fn the_reroll_follows_a_swap_once_and_rolls_only_the_die_taken() {
    let seed = seed_where(1, |r| r[0] == 6);
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3");
    assert_eq!(g.rerollable(), Some(Die::K3));
    assert!(g.legal_texts().contains(&"reroll".to_string()));
    play(&mut g, "reroll");
    assert_eq!(
        g.position(),
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=6,k4=1,k5=5,r4=1,w=2 6 k3~r5 -"
    );
    assert!(
        refusal(&g, "reroll").starts_with("reroll: "),
        "a second reroll"
    );
}

#[test]
fn no_reroll_after_another_action_than_the_swap() {
    // After end.
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3 end");
    assert_eq!(g.rerollable(), None);
    assert!(refusal(&g, "reroll").starts_with("reroll: "));
    // After a second swap, only the die that swap took may be rerolled.
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3 w~r1");
    assert_eq!(g.rerollable(), Some(Die::R1));
}

#[test]
fn the_reroll_draws_one_die_from_the_generator() {
    let seed = 12345;
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3 reroll");
    assert_eq!(g.value(Die::K3), rolls(seed, 1)[0]);
    // The next turn's roll goes on from the second draw.
    play(&mut g, "end");
    let r = rolls(seed, 6);
    let hand: Vec<u8> = g.hand().iter().map(|&(_, v)| v).collect();
    assert_eq!(hand, r[1..]);
}

// --- the reverse-swap ban ---

#[test]
fn the_two_dice_just_swapped_cannot_be_swapped_straight_back() {
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3");
    assert_eq!(g.banned_swap(), Some((Die::K3, Die::R5)));
    assert_eq!(
        refusal(&g, "k3~r5"),
        "k3~r5: the same two dice may not be swapped back at once"
    );
    assert!(!g.legal_texts().contains(&"k3~r5".to_string()));
}

#[test]
fn a_reroll_showing_the_old_value_lifts_the_ban() {
    // k3 showed 4 on the table; the reroll shows 4 again.
    let seed = seed_where(1, |r| r[0] == 4);
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3 reroll");
    assert_eq!(
        g.position(),
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 - -"
    );
    assert!(g.legal_texts().contains(&"k3~r5".to_string()));
    play(&mut g, "k3~r5");
    assert_eq!(g.banned_swap(), Some((Die::R5, Die::K3)));
}

#[test]
fn a_reroll_showing_a_new_value_keeps_the_ban_even_for_a_neighbour() {
    // The reroll shows 2, still a neighbour of r5=3, but not the value k3 had.
    let seed = seed_where(1, |r| r[0] == 2);
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3 reroll");
    assert_eq!(g.value(Die::K3), 2);
    assert_eq!(g.banned_swap(), Some((Die::K3, Die::R5)));
    assert_eq!(
        refusal(&g, "k3~r5"),
        "k3~r5: the same two dice may not be swapped back at once"
    );
}

#[test]
fn the_ban_ends_with_the_next_swap() {
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3 w~r1");
    assert_eq!(g.banned_swap(), Some((Die::R1, Die::W)));
    assert!(g.legal_texts().contains(&"k3~r5".to_string()));
    // The source's "double reverse swap": swapping back after one swap in between is fine.
    play(&mut g, "k3~r5");
}

#[test]
fn the_ban_ends_with_the_turn() {
    // After end the hand is rolled: pick a seed where k3 (the first die of the hand) comes up
    // as a neighbour of r5=3 again.
    let seed = seed_where(1, |r| r[0] == 2 || r[0] == 4);
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3 end");
    assert_eq!(g.banned_swap(), None);
    assert!(g.legal_texts().contains(&"k3~r5".to_string()));
    play(&mut g, "k3~r5");
}

#[test]
fn a_position_may_carry_a_ban_without_a_rerollable_die() {
    let g = at(
        Variant::Classic,
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=6,k4=1,k5=5,r4=1,w=2 6 k3~r5 -",
    );
    assert_eq!(g.banned_swap(), Some((Die::K3, Die::R5)));
    assert_eq!(g.rerollable(), None);
}

// --- ending a turn ---

#[test]
fn end_lowers_the_counter_and_rolls_every_die_in_the_hand_in_die_order() {
    let seed = 2024;
    let mut g = at_seeded(Variant::Classic, MIXED, seed);
    play(&mut g, "r5~k3 end");
    assert_eq!(g.green(), 5);
    assert_eq!(g.banned_swap(), None);
    assert_eq!(g.rerollable(), None);
    let r = rolls(seed, 5);
    let hand: Vec<(Die, u8)> = g.hand().to_vec();
    let want: Vec<(Die, u8)> = [Die::K3, Die::K4, Die::K5, Die::R4, Die::W]
        .into_iter()
        .zip(r)
        .collect();
    assert_eq!(hand, want);
    // The table is untouched.
    assert_eq!(
        g.table(),
        at(
            Variant::Classic,
            "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 - -"
        )
        .table()
    );
}

#[test]
fn end_is_always_legal_while_the_game_goes_on() {
    for seed in 0..50 {
        let g = WhiteRabbit::new(Variant::NoWrap, seed);
        if g.outcome().is_none() {
            assert!(g.legal_texts().contains(&"end".to_string()));
        }
    }
}

#[test]
fn ending_the_turn_at_one_loses_and_leaves_the_counter_at_zero_without_a_roll() {
    let mut g = at(
        Variant::Classic,
        "k1=6,k2=2,k3=4,r1=3,r2=5,r3=1 k4=1,k5=5,r4=1,r5=3,w=2 1 - -",
    );
    play(&mut g, "r5~k3 end");
    assert_eq!(
        g.position(),
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 0 - -"
    );
    assert_eq!(g.outcome(), Some(Outcome::SoloLost));
    assert_eq!(g.to_move(), None);
    assert_eq!(legal(&g), "");
    assert_eq!(g.count_legal(), 0);
    assert_eq!(refusal(&g, "end"), "the game is over");
}

#[test]
fn a_lost_position_reads_back_as_lost() {
    let g = at(
        Variant::Classic,
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 0 - -",
    );
    assert_eq!(g.outcome(), Some(Outcome::SoloLost));
    assert_eq!(g.to_move(), None);
}

#[test]
fn six_ends_in_a_row_lose_a_game_that_is_not_won() {
    let mut g = at(Variant::Classic, MIXED);
    for green in (1..6).rev() {
        play(&mut g, "end");
        assert_eq!(g.green(), green);
        if g.outcome().is_some() {
            return; // A roll can never win (the table is untouched), but be safe.
        }
    }
    play(&mut g, "end");
    assert_eq!(g.outcome(), Some(Outcome::SoloLost));
}

// --- winning ---

#[test]
fn a_swap_that_evens_the_table_with_the_white_die_in_hand_wins_with_the_counter_as_score() {
    let mut g = at(
        Variant::Classic,
        "k1=4,k2=4,k3=4,r1=4,r2=4,r3=3 k4=4,k5=6,r4=1,r5=5,w=2 3 - -",
    );
    assert_eq!(g.outcome(), None);
    play(&mut g, "k4~r3");
    assert_eq!(g.outcome(), Some(Outcome::SoloWon { score: 3 }));
    assert_eq!(g.to_move(), None);
    assert_eq!(legal(&g), "");
    assert_eq!(refusal(&g, "reroll"), "the game is over");
    // The finished position keeps its last swap's fields and reads back as won.
    let pos = g.position();
    assert_eq!(
        pos,
        "k1=4,k2=4,k3=4,r1=4,r2=4,k4=4 k5=6,r3=3,r4=1,r5=5,w=2 3 r3~k4 r3"
    );
    assert_eq!(
        at(Variant::Classic, &pos).outcome(),
        Some(Outcome::SoloWon { score: 3 })
    );
}

#[test]
fn an_even_table_does_not_win_while_the_white_die_is_on_it() {
    let g = at(
        Variant::Classic,
        "k1=4,k2=4,k3=4,r1=4,r2=4,w=4 k4=3,k5=6,r3=3,r4=1,r5=5 2 - -",
    );
    assert_eq!(g.outcome(), None);
    assert!(!legal(&g).is_empty());
    // Taking the white die back needs a neighbour of 4, which spoils the even table.
    let mut g = g;
    play(&mut g, "k4~w");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_setup_that_is_already_won_is_over_before_any_action() {
    let seed = (0..1_000_000u64)
        .find(|&s| WhiteRabbit::new(Variant::Classic, s).outcome().is_some())
        .expect("some seed rolls six equal table dice");
    let g = WhiteRabbit::new(Variant::Classic, seed);
    assert_eq!(g.outcome(), Some(Outcome::SoloWon { score: 6 }));
    let v = g.table()[0].1;
    assert!(g.table().iter().all(|&(_, x)| x == v));
    assert_eq!(legal(&g), "");
    assert_eq!(g.to_move(), None);
    // Same in the other variant, and read back from its notation.
    assert_eq!(
        WhiteRabbit::new(Variant::NoWrap, seed).outcome(),
        Some(Outcome::SoloWon { score: 6 })
    );
    assert_eq!(
        at(Variant::Classic, &g.position()).outcome(),
        Some(Outcome::SoloWon { score: 6 })
    );
}

#[test]
fn a_won_position_is_reported_at_once() {
    let g = at(
        Variant::NoWrap,
        "k1=1,k2=1,k3=1,r1=1,r2=1,r3=1 k4=1,k5=6,r4=1,r5=5,w=2 6 - -",
    );
    assert_eq!(g.outcome(), Some(Outcome::SoloWon { score: 6 }));
}

#[test]
fn a_reroll_or_an_end_never_changes_whether_the_table_is_won() {
    // Both only touch hand dice, so the win is decided by swaps (and setup); the outcome is
    // still evaluated after them, and stays "going on".
    for seed in 0..200 {
        let mut g = at_seeded(
            Variant::Classic,
            "k1=4,k2=4,k3=4,r1=4,r2=4,r3=3 k4=3,k5=6,r4=1,r5=5,w=2 3 - -",
            seed,
        );
        play(&mut g, "w~r3");
        assert_eq!(g.outcome(), None);
        play(&mut g, "reroll");
        assert_eq!(g.outcome(), None);
        play(&mut g, "end");
        assert_eq!(g.outcome(), None);
    }
}

// --- reproducibility and undo ---

/// Plays `n` actions chosen by a generator of its own from `game`, returning every position.
fn scripted(mut game: WhiteRabbit, choice_seed: u64, n: usize) -> Vec<String> {
    let mut chooser = GameRng::seeded(choice_seed);
    let mut moves = Vec::new();
    let mut out = vec![game.position()];
    for _ in 0..n {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        // Prefer swaps and rerolls so that games last.
        let pick = if moves.len() > 1 {
            chooser.below(moves.len() as u32 - 1) as usize
        } else {
            0
        };
        game.play(moves[pick]).unwrap();
        out.push(game.position());
    }
    out
}

#[test]
fn the_same_seed_and_actions_give_the_same_positions() {
    for seed in [0, 1, 77] {
        let a = scripted(WhiteRabbit::new(Variant::Classic, seed), 5, 200);
        let b = scripted(WhiteRabbit::new(Variant::Classic, seed), 5, 200);
        assert_eq!(a, b);
        assert!(a.len() > 10);
    }
}

#[test]
fn from_position_seeds_the_generator_with_its_seed() {
    let mut a = at_seeded(Variant::Classic, SPEC_START, 31);
    let mut b = at_seeded(Variant::Classic, SPEC_START, 31);
    play(&mut a, "end");
    play(&mut b, "end");
    assert_eq!(a.position(), b.position());
    let hand: Vec<u8> = a.hand().iter().map(|&(_, v)| v).collect();
    assert_eq!(hand, rolls(31, 5));
}

#[test]
fn the_position_does_not_contain_the_generator() {
    let a = at_seeded(Variant::Classic, SPEC_START, 1);
    let b = at_seeded(Variant::Classic, SPEC_START, 2);
    assert_eq!(a.position(), b.position());
    assert_eq!(a.hash_key(), b.hash_key());
}

#[test]
fn unmake_restores_the_generator_so_the_next_roll_is_unchanged() {
    let mut g = at_seeded(Variant::Classic, MIXED, 99);
    play(&mut g, "r5~k3");
    let mut expected = g.clone();
    expected.play(Move::Reroll).unwrap();

    // make + unmake of a reroll, then the reroll for real.
    let undo = g.make(Move::Reroll);
    g.unmake(Move::Reroll, undo);
    g.play(Move::Reroll).unwrap();
    assert_eq!(g, expected);

    // The same with end, which rolls five dice.
    let mut expected_end = g.clone();
    expected_end.play(Move::End).unwrap();
    let undo = g.make(Move::End);
    g.unmake(Move::End, undo);
    g.play(Move::End).unwrap();
    assert_eq!(g, expected_end);
}

#[test]
fn make_and_unmake_restore_position_hash_and_state_for_every_action() {
    let mut g = at(Variant::Classic, MIXED);
    play(&mut g, "r5~k3");
    let before = g.clone();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    for &mv in &moves {
        let undo = g.make(mv);
        assert_ne!(g.position(), before.position(), "{mv:?} changed nothing");
        g.unmake(mv, undo);
        assert_eq!(g, before);
        assert_eq!(g.hash_key(), before.hash_key());
    }
}

// --- hashing ---

#[test]
fn the_hash_sees_every_field_of_the_position() {
    let base = at(
        Variant::Classic,
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 k3",
    );
    let variants = [
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 -",
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 - -",
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 5 k3~r5 k3",
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=3 6 k3~r5 k3",
        "k2=2,k1=6,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 k3",
    ];
    for v in variants {
        assert_ne!(at(Variant::Classic, v).hash_key(), base.hash_key(), "{v}");
    }
}

#[test]
fn the_hash_is_kept_up_to_date_by_every_action() {
    let mut g = at_seeded(Variant::Classic, MIXED, 4);
    for mv in ["r5~k3", "reroll", "w~r1", "end"] {
        play(&mut g, mv);
        let fresh = at(Variant::Classic, &g.position());
        assert_eq!(g.hash_key(), fresh.hash_key(), "after {mv}");
    }
}

// --- accessors ---

#[test]
fn the_accessors_describe_the_position() {
    let g = at(
        Variant::Classic,
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 k3",
    );
    assert_eq!(
        g.table(),
        [
            (Die::K1, 6),
            (Die::K2, 2),
            (Die::R5, 3),
            (Die::R1, 3),
            (Die::R2, 5),
            (Die::R3, 1)
        ]
    );
    assert_eq!(
        g.hand(),
        [
            (Die::K3, 4),
            (Die::K4, 1),
            (Die::K5, 5),
            (Die::R4, 1),
            (Die::W, 2)
        ]
    );
    assert_eq!(g.green(), 6);
    assert_eq!(g.banned_swap(), Some((Die::K3, Die::R5)));
    assert_eq!(g.rerollable(), Some(Die::K3));
    assert_eq!(g.slot_of(Die::R1), Some(3));
    assert!(g.in_hand(Die::W));
    assert!(!g.in_hand(Die::K1));
    assert_eq!(g.variant(), Variant::Classic);
    assert!(Variant::Classic.neighbours(6, 1));
    assert!(!Variant::NoWrap.neighbours(1, 6));
    assert!(Variant::NoWrap.neighbours(3, 4));
    assert!(!Variant::Classic.neighbours(3, 3));
}

#[test]
fn count_legal_agrees_with_the_list() {
    for seed in 0..300 {
        for variant in [Variant::Classic, Variant::NoWrap] {
            let mut g = WhiteRabbit::new(variant, seed);
            let mut moves = Vec::new();
            for _ in 0..4 {
                g.legal_moves(&mut moves);
                assert_eq!(g.count_legal(), moves.len());
                let Some(&mv) = moves.first() else { break };
                g.play(mv).unwrap();
            }
        }
    }
}

#[test]
fn the_listed_actions_are_exactly_those_check_move_accepts() {
    let mut every = vec![Move::Reroll, Move::End];
    for hand in Die::ALL {
        for table in Die::ALL {
            if hand != table {
                every.push(Move::Swap { hand, table });
            }
        }
    }
    let mut moves = Vec::new();
    for seed in 0..400 {
        for variant in [Variant::Classic, Variant::NoWrap] {
            let mut g = WhiteRabbit::new(variant, seed);
            let mut chooser = GameRng::seeded(seed + 1);
            for _ in 0..30 {
                g.legal_moves(&mut moves);
                let accepted: Vec<Move> = every
                    .iter()
                    .copied()
                    .filter(|&mv| g.check_move(mv).is_ok())
                    .collect();
                let mut listed = moves.clone();
                listed.sort_by_key(|&m| g.format_move(m));
                let mut accepted_sorted = accepted.clone();
                accepted_sorted.sort_by_key(|&m| g.format_move(m));
                assert_eq!(listed, accepted_sorted, "at {}", g.position());
                if moves.is_empty() {
                    break;
                }
                g.play(moves[chooser.below(moves.len() as u32) as usize])
                    .unwrap();
            }
        }
    }
}

#[test]
fn neighbours_are_values_one_apart_with_6_and_1_wrapping_only_in_classic() {
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let d = a.abs_diff(b);
            assert_eq!(
                Variant::Classic.neighbours(a, b),
                d == 1 || d == 5,
                "{a} {b}"
            );
            assert_eq!(Variant::NoWrap.neighbours(a, b), d == 1, "{a} {b}");
        }
    }
    assert!(!Variant::Classic.neighbours(0, 1));
    assert!(!Variant::Classic.neighbours(7, 6));
}
