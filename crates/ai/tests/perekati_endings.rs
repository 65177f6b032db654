//! How Perekati-pole's bots end games (`ai::decide`, `ai::accepts_draw`): on constructed
//! positions, a lost race is resigned, a won one is played on, and a fortress where nothing
//! has come home for long is offered and accepted as a draw.

use ai::perekati_verdict::{self, OFFER_EVERY_PLIES, STALLED_PLIES, Verdict};
use ai::{Budget, Decision, Level, accepts_draw, decide};
use catalog::AnyGame;
use game::{Game, Seat};
use perekati::{Perekati, Variant};

const BUDGET: Budget = Budget::Nodes(20_000);

fn position(text: &str) -> Perekati {
    Perekati::from_position(Variant::Malysh, text, 0).unwrap()
}

/// a's last cube is one roll from home (hat south, under its free goal cell); b's last cube is
/// far from its own.
const A_WINS_NEXT: &str = "UUUU./....S/...../..n../...../uuuu.";

#[test]
fn a_lost_race_is_resigned_and_a_won_one_played_on() {
    let lost = AnyGame::Perekati(position(&format!("{A_WINS_NEXT} b")));
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(
            decide(&lost, level, BUDGET, 1, false),
            Some(Decision::Resign),
            "{level}"
        );
    }
    // The random bot judges nothing.
    assert!(matches!(
        decide(&lost, Level::Random, BUDGET, 1, false),
        Some(Decision::Play(_))
    ));
    let won = AnyGame::Perekati(position(&format!("{A_WINS_NEXT} a")));
    assert_eq!(
        decide(&won, Level::Hard, BUDGET, 1, false),
        Some(Decision::Play("e5e6".into()))
    );
    // Offered a draw, the loser takes it (better than resigning) and the winner plays on.
    assert_eq!(
        decide(&lost, Level::Hard, BUDGET, 1, true),
        Some(Decision::AcceptDraw)
    );
    assert_eq!(
        decide(&won, Level::Hard, BUDGET, 1, true),
        Some(Decision::Play("e5e6".into()))
    );
    // The same on the other side's turn.
    assert!(!accepts_draw(&lost, Level::Hard, Seat::A));
    assert!(accepts_draw(&won, Level::Hard, Seat::B));
}

#[test]
fn a_race_far_from_its_end_is_played_on() {
    let start = AnyGame::Perekati(Perekati::new(Variant::Large, 0));
    for level in Level::ALL {
        assert!(matches!(
            decide(&start, level, BUDGET, 3, false),
            Some(Decision::Play(_))
        ));
        assert!(!accepts_draw(&start, level, Seat::A));
        assert!(!accepts_draw(&start, level, Seat::B));
    }
}

/// The fortress: four cubes home a side; each side's last goal cell is held by the other
/// side's last cube, and neither can force its way in (the exact endings prove the draw).
const FORTRESS: &str = "UUUUu/...../...../...../...../Uuuuu a";

#[test]
fn a_fortress_is_offered_and_accepted_as_a_draw() {
    let fortress = position(FORTRESS);
    assert_eq!(
        perekati_verdict::judge_for(&fortress, Seat::A),
        Verdict::Stalled
    );
    assert_eq!(
        perekati_verdict::judge_for(&fortress, Seat::B),
        Verdict::Stalled
    );
    let any = AnyGame::Perekati(fortress);
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert!(
            matches!(
                decide(&any, level, BUDGET, 2, false),
                Some(Decision::PlayAndOfferDraw(_))
            ),
            "{level}"
        );
        assert_eq!(
            decide(&any, level, BUDGET, 2, true),
            Some(Decision::AcceptDraw),
            "{level}"
        );
        assert!(accepts_draw(&any, level, Seat::B), "{level}");
    }
}

/// `game` after `plies` random moves that end nothing and bring nothing home.
fn shuffle(mut game: Perekati, plies: usize, seed: u64) -> Perekati {
    for mv in ai::testing::quiet_moves(&game, plies, seed) {
        game.make(mv);
    }
    game
}

#[test]
fn a_game_without_progress_is_offered_as_a_draw_now_and_then() {
    let start = Perekati::new(Variant::Large, 0);
    // Just short of the threshold nothing is offered.
    let early = shuffle(start, STALLED_PLIES - 1, 5);
    assert_eq!(perekati_verdict::judge(&early), Verdict::PlayOn);
    assert!(!accepts_draw(
        &AnyGame::Perekati(early.clone()),
        Level::Hard,
        Seat::A
    ));
    // At the threshold both sides are stalled: the mover offers with its move, the other
    // side accepts.
    let stalled = shuffle(early, 1, 6);
    assert_eq!(stalled.plies_since_home(), STALLED_PLIES);
    assert_eq!(perekati_verdict::judge(&stalled), Verdict::Stalled);
    assert_eq!(
        perekati_verdict::judge_for_waiting_side(&stalled),
        Verdict::Stalled
    );
    let any = AnyGame::Perekati(stalled.clone());
    assert!(matches!(
        decide(&any, Level::Hard, BUDGET, 2, false),
        Some(Decision::PlayAndOfferDraw(_))
    ));
    assert_eq!(
        decide(&any, Level::Medium, BUDGET, 2, true),
        Some(Decision::AcceptDraw)
    );
    // A declined offer is not repeated on the next turns, only after OFFER_EVERY_PLIES.
    let later = shuffle(stalled.clone(), 2, 7);
    assert!(matches!(
        decide(&AnyGame::Perekati(later), Level::Hard, BUDGET, 2, false),
        Some(Decision::Play(_))
    ));
    let again = shuffle(stalled, OFFER_EVERY_PLIES, 8);
    assert!(matches!(
        decide(&AnyGame::Perekati(again), Level::Hard, BUDGET, 2, false),
        Some(Decision::PlayAndOfferDraw(_))
    ));
}

#[test]
fn a_leader_in_a_stalled_game_plays_on_to_end_it() {
    // a has five cubes home on the large board and b four; b's cube on f8 holds a's last
    // goal cell. Nothing has come home for long.
    let text = "UUUUUu/....../....../.n..../....../....N./....../uuuu.. a";
    let leader = Perekati::from_position(Variant::Large, text, 0).unwrap();
    let stalled = shuffle(leader, STALLED_PLIES, 9);
    let a = perekati_verdict::judge_for(&stalled, Seat::A);
    let b = perekati_verdict::judge_for(&stalled, Seat::B);
    assert_eq!(a, Verdict::PlayOn, "{}", stalled.position());
    assert_ne!(b, Verdict::PlayOn, "{}", stalled.position());
    let any = AnyGame::Perekati(stalled);
    assert!(!accepts_draw(&any, Level::Hard, Seat::A));
    assert!(accepts_draw(&any, Level::Hard, Seat::B));
}
