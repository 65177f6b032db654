//! The arena's director, event by event (whole arenas are in `arena_simulation.rs`).

mod common;

use common::{MINUTE, START, finished, id, join, settings};
use game::{Outcome, Seat};
use tournament::arena::scoring::GameResult;
use tournament::arena::{Arena, ArenaSettings, HouseBot, PairingStatus, Phase};
use tournament::{Decision, Error, Event, PairingId};

/// The pairings among `decisions`, as (id, seat A, seat B).
fn pairs(decisions: &[Decision]) -> Vec<(PairingId, String, String)> {
    decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Pair { pairing, seats, .. } => {
                Some((*pairing, seats[0].to_string(), seats[1].to_string()))
            }
            _ => None,
        })
        .collect()
}

/// Applies an event that must be accepted (and that `accepts` says is), and checks that the
/// standings without marks are the standings less their marks.
fn ok(arena: &mut Arena, at: u64, event: Event) -> Vec<Decision> {
    assert_eq!(arena.accepts(at, &event), Ok(()), "{event:?}");
    let decisions = arena
        .apply(at, &event)
        .unwrap_or_else(|e| panic!("{event:?} refused: {e}"));
    let mut unmarked = arena.standings();
    for line in &mut unmarked {
        line.scores.clear();
    }
    assert_eq!(arena.standings_unmarked(), unmarked);
    decisions
}

/// Applies an event that must be refused with `error` (as `accepts` says beforehand), and
/// checks it changed nothing.
fn refused(arena: &mut Arena, at: u64, event: Event, error: Error) {
    let before = arena.clone();
    assert_eq!(arena.accepts(at, &event), Err(error.clone()));
    assert_eq!(arena.apply(at, &event), Err(error));
    assert_eq!(*arena, before);
}

#[test]
fn an_arena_starts_on_time_and_pairs_those_who_joined() {
    let mut arena = Arena::new(settings()).unwrap();
    for (name, rating) in [("ann", 1500), ("bob", 1600), ("cat", 1700), ("dan", 1800)] {
        assert!(ok(&mut arena, START - MINUTE, join(name, rating)).is_empty());
    }
    ok(
        &mut arena,
        START - MINUTE,
        Event::Withdraw { player: id("dan") },
    );
    assert_eq!(
        arena.standings().len(),
        3,
        "a withdrawal before the start leaves no trace"
    );
    assert!(ok(&mut arena, START - 1, Event::Tick).is_empty());
    assert_eq!(arena.phase(), Phase::Upcoming);
    let decisions = ok(&mut arena, START, Event::Tick);
    assert_eq!(decisions[0], Decision::Start);
    // Three waiting, none playing: the two best rated pair at once, the third waits.
    let made = pairs(&decisions);
    assert_eq!(made.len(), 1);
    let (_, a, b) = &made[0];
    let mut names = [a.as_str(), b.as_str()];
    names.sort();
    assert_eq!(names, ["bob", "cat"]);
}

#[test]
fn two_players_alone_play_each_other_again_and_again() {
    let mut arena = Arena::new(settings()).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    let made = pairs(&ok(&mut arena, START + 1, join("bob", 1500)));
    assert_eq!(made.len(), 1, "a duel the moment two are waiting");
    let mut seats_a = Vec::new();
    let mut pairing = made[0].0;
    for game in 0..4u64 {
        let at = START + (game + 1) * MINUTE;
        ok(
            &mut arena,
            at,
            Event::GameStarted {
                pairing,
                game: format!("g{game}"),
            },
        );
        let next = pairs(&ok(
            &mut arena,
            at + 1,
            finished(pairing, Outcome::Win(Seat::A), 40),
        ));
        assert_eq!(next.len(), 1, "nobody else is here: a rematch at once");
        seats_a.push(next[0].1.clone());
        pairing = next[0].0;
    }
    // Seats alternate.
    assert_ne!(seats_a[0], seats_a[1]);
    assert_ne!(seats_a[1], seats_a[2]);
}

#[test]
fn a_third_player_breaks_up_the_rematch() {
    let mut arena = Arena::new(settings()).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    let (first, _, _) = pairs(&ok(&mut arena, START, join("bob", 1500)))[0].clone();
    ok(
        &mut arena,
        START,
        Event::GameStarted {
            pairing: first,
            game: "g".into(),
        },
    );
    ok(&mut arena, START + 1_000, join("cat", 1500));
    // cat waits alone; when ann and bob finish, cat plays one of them.
    let made = pairs(&ok(
        &mut arena,
        START + MINUTE,
        finished(first, Outcome::Draw, 30),
    ));
    assert_eq!(made.len(), 1);
    let (_, a, b) = &made[0];
    assert!(a == "cat" || b == "cat", "{made:?}");
}

#[test]
fn games_running_at_the_end_do_not_count_and_the_standings_freeze() {
    let mut arena = Arena::new(settings()).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    let (one, ..) = pairs(&ok(&mut arena, START, join("bob", 1500)))[0].clone();
    ok(
        &mut arena,
        START,
        Event::GameStarted {
            pairing: one,
            game: "g1".into(),
        },
    );
    let (two, ..) = pairs(&ok(
        &mut arena,
        START + MINUTE,
        finished(one, Outcome::Win(Seat::A), 30),
    ))[0]
        .clone();
    ok(
        &mut arena,
        START + MINUTE,
        Event::GameStarted {
            pairing: two,
            game: "g2".into(),
        },
    );
    let before = arena.standings();
    let end = ok(&mut arena, settings().ends_at, Event::Tick);
    assert_eq!(
        end,
        [
            Decision::Finish {
                uncounted: vec![two]
            },
            Decision::FreezeStandings
        ]
    );
    assert_eq!(arena.phase(), Phase::Finished);
    // The late result is taken but changes nothing.
    assert!(
        ok(
            &mut arena,
            settings().ends_at + 5,
            finished(two, Outcome::Win(Seat::B), 50)
        )
        .is_empty()
    );
    assert_eq!(arena.standings(), before);
    assert_eq!(arena.pairing(two).unwrap().status, PairingStatus::Uncounted);
    refused(
        &mut arena,
        settings().ends_at + 6,
        join("cat", 1500),
        Error::Over,
    );
    refused(
        &mut arena,
        settings().ends_at + 6,
        Event::Pause { player: id("ann") },
        Error::Over,
    );
}

#[test]
fn bad_events_are_refused_and_change_nothing() {
    let mut settings = settings();
    settings.berserk = false;
    let mut arena = Arena::new(settings).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    refused(
        &mut arena,
        START,
        join("ann", 1500),
        Error::AlreadyJoined(id("ann")),
    );
    refused(
        &mut arena,
        START,
        Event::Pause { player: id("zed") },
        Error::NotJoined(id("zed")),
    );
    refused(
        &mut arena,
        START,
        Event::Resume { player: id("ann") },
        Error::NotPaused(id("ann")),
    );
    let (pairing, ..) = pairs(&ok(&mut arena, START, join("bob", 1500)))[0].clone();
    refused(
        &mut arena,
        START,
        finished(pairing, Outcome::Draw, 30),
        Error::GameNotRunning(pairing),
    );
    ok(
        &mut arena,
        START,
        Event::GameStarted {
            pairing,
            game: "g".into(),
        },
    );
    refused(
        &mut arena,
        START,
        Event::GameStarted {
            pairing,
            game: "g".into(),
        },
        Error::GameStartedAlready(pairing),
    );
    refused(
        &mut arena,
        START,
        finished(PairingId(9), Outcome::Draw, 30),
        Error::UnknownPairing(PairingId(9)),
    );
    refused(
        &mut arena,
        START,
        finished(pairing, Outcome::SoloLost, 30),
        Error::NotTwoPlayers(Outcome::SoloLost),
    );
    let berserk = Event::GameFinished {
        pairing,
        outcome: Outcome::Draw,
        plies: 30,
        berserk: [true, false],
    };
    refused(&mut arena, START, berserk, Error::BerserkOff);
    ok(
        &mut arena,
        START + MINUTE,
        finished(pairing, Outcome::Draw, 30),
    );
    refused(
        &mut arena,
        START + MINUTE,
        finished(pairing, Outcome::Draw, 30),
        Error::GameNotRunning(pairing),
    );
    // Withdrawn during the arena with a game played: for good.
    ok(
        &mut arena,
        START + MINUTE,
        Event::Withdraw { player: id("ann") },
    );
    refused(
        &mut arena,
        START + MINUTE,
        join("ann", 1500),
        Error::Withdrew(id("ann")),
    );
    assert!(
        arena
            .standings()
            .iter()
            .any(|line| line.player == id("ann") && line.withdrawn)
    );
    assert!(
        Arena::new(ArenaSettings {
            ends_at: START,
            ..self::settings()
        })
        .is_err()
    );
}

#[test]
fn a_paused_player_is_not_paired_until_back() {
    let mut arena = Arena::new(settings()).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    ok(&mut arena, START, Event::Pause { player: id("ann") });
    refused(
        &mut arena,
        START,
        Event::Pause { player: id("ann") },
        Error::AlreadyPaused(id("ann")),
    );
    assert!(pairs(&ok(&mut arena, START, join("bob", 1500))).is_empty());
    assert!(
        arena
            .standings()
            .iter()
            .any(|line| line.player == id("ann") && line.paused)
    );
    assert_eq!(
        pairs(&ok(
            &mut arena,
            START + 5,
            Event::Resume { player: id("ann") }
        ))
        .len(),
        1
    );
}

#[test]
fn a_house_bot_plays_a_player_left_alone_and_the_game_counts() {
    let mut settings = settings();
    settings.pairing.bot_after_ms = Some(20_000);
    settings.house_bots = vec![HouseBot {
        id: id("bot"),
        rating: 1500,
    }];
    let mut arena = Arena::new(settings).unwrap();
    refused(
        &mut arena,
        START,
        join("bot", 1500),
        Error::HouseBot(id("bot")),
    );
    ok(&mut arena, START, join("ann", 1500));
    assert!(pairs(&ok(&mut arena, START + 19_999, Event::Tick)).is_empty());
    let decisions = ok(&mut arena, START + 20_000, Event::Tick);
    let Decision::Pair {
        pairing,
        seats,
        house_bot,
    } = &decisions[0]
    else {
        panic!("{decisions:?}");
    };
    assert_eq!(house_bot.as_ref(), Some(&id("bot")));
    assert!(seats.contains(&id("ann")) && seats.contains(&id("bot")));
    let ann = Seat::from_index(seats.iter().position(|p| *p == id("ann")).unwrap()).unwrap();
    ok(
        &mut arena,
        START + 21_000,
        Event::GameStarted {
            pairing: *pairing,
            game: "g".into(),
        },
    );
    ok(
        &mut arena,
        START + 90_000,
        finished(*pairing, Outcome::Win(ann), 30),
    );
    let standings = arena.standings();
    assert_eq!(standings.len(), 1, "the bot is not in the standings");
    assert_eq!(standings[0].points, 2);
}

#[test]
fn berserk_and_fire_show_in_the_standings() {
    let mut arena = Arena::new(settings()).unwrap();
    ok(&mut arena, START, join("ann", 1500));
    let mut pairing = pairs(&ok(&mut arena, START, join("bob", 1500)))[0].0;
    let mut at = START;
    for _ in 0..3 {
        at += MINUTE;
        ok(
            &mut arena,
            at,
            Event::GameStarted {
                pairing,
                game: "g".into(),
            },
        );
        let seats = arena.pairing(pairing).unwrap().seats.clone();
        let ann = Seat::from_index(seats.iter().position(|p| *p == id("ann")).unwrap()).unwrap();
        let mut berserk = [false; 2];
        berserk[ann.index()] = true;
        let event = Event::GameFinished {
            pairing,
            outcome: Outcome::Win(ann),
            plies: 30,
            berserk,
        };
        pairing = pairs(&ok(&mut arena, at + 1, event))[0].0;
    }
    let ann = &arena.standings()[0];
    assert_eq!(ann.player, id("ann"));
    // 2+1, 2+1, then on fire 4+1.
    assert_eq!(ann.points, 11);
    assert!(ann.on_fire);
    assert_eq!(ann.count(GameResult::Win), 3);
}
