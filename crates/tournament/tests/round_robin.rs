//! The round robin's director, event by event, and whole round robins played to their end.

use game::{Outcome, Seat};
use proptest::prelude::*;
use tournament::round_robin::{
    GameStatus, Pace, Phase, RoundRobin, RoundRobinSettings, Withdrawal, schedule,
};
use tournament::{Decision, Error, Event, PairingId, PlayerId};

const DAY: u64 = 86_400_000;
const START: u64 = 20_000 * DAY;

fn id(name: &str) -> PlayerId {
    PlayerId::new(name)
}

fn settings(pace: Pace) -> RoundRobinSettings {
    RoundRobinSettings {
        starts_at: START,
        both_sides: true,
        pace,
        min_players: 3,
        max_players: 10,
        rated: true,
    }
}

fn join(name: &str, rating: i32) -> Event {
    Event::Join {
        player: id(name),
        rating,
    }
}

/// Applies an event that must be accepted (and that `accepts` says is).
fn ok(rr: &mut RoundRobin, at: u64, event: Event) -> Vec<Decision> {
    assert_eq!(rr.accepts(at, &event), Ok(()), "{event:?}");
    rr.apply(at, &event)
        .unwrap_or_else(|e| panic!("{event:?} refused: {e}"))
}

/// Applies an event that must be refused with `error` (as `accepts` says beforehand), and
/// checks it changed nothing.
fn refused(rr: &mut RoundRobin, at: u64, event: Event, error: Error) {
    let before = rr.clone();
    assert_eq!(rr.accepts(at, &event), Err(error.clone()));
    assert_eq!(rr.apply(at, &event), Err(error));
    assert_eq!(*rr, before);
}

fn paired(decisions: &[Decision]) -> Vec<PairingId> {
    decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Pair { pairing, .. } => Some(*pairing),
            _ => None,
        })
        .collect()
}

/// Starts and finishes a game with `outcome`.
fn play(rr: &mut RoundRobin, at: u64, pairing: PairingId, outcome: Outcome) -> Vec<Decision> {
    let game = format!("g{}", pairing.0);
    ok(rr, at, Event::GameStarted { pairing, game });
    let finished = Event::GameFinished {
        pairing,
        outcome,
        plies: 40,
        berserk: [false; 2],
    };
    ok(rr, at + DAY, finished)
}

fn four(pace: Pace) -> (RoundRobin, Vec<Decision>) {
    let mut rr = RoundRobin::new(settings(pace)).unwrap();
    for (name, rating) in [("ann", 1500), ("bob", 1600), ("cat", 1700), ("dan", 1800)] {
        ok(&mut rr, START - DAY, join(name, rating));
    }
    let decisions = ok(&mut rr, START, Event::Tick);
    (rr, decisions)
}

#[test]
fn a_correspondence_round_robin_of_four_starts_every_game_and_ends_with_the_last() {
    let (mut rr, decisions) = four(Pace::AllAtOnce);
    assert_eq!(decisions[0], Decision::Start);
    let games = paired(&decisions);
    assert_eq!(games.len(), 12, "each pair twice, once from each seat");
    // The higher rated seat A wins every game; the standings follow the ratings.
    let mut at = START;
    let mut last = Vec::new();
    for pairing in games {
        at += DAY;
        let seats = rr.game(pairing).unwrap().seats.clone();
        let rating = |p: &PlayerId| {
            ["ann", "bob", "cat", "dan"]
                .iter()
                .position(|n| id(n) == *p)
        };
        let winner = if rating(&seats[0]) > rating(&seats[1]) {
            Seat::A
        } else {
            Seat::B
        };
        last = play(&mut rr, at, pairing, Outcome::Win(winner));
    }
    assert_eq!(
        last,
        [
            Decision::Finish { uncounted: vec![] },
            Decision::FreezeStandings
        ]
    );
    let table = rr.standings();
    let order: Vec<(&str, f64)> = table
        .iter()
        .map(|l| (l.player.as_str(), l.points()))
        .collect();
    assert_eq!(
        order,
        [("dan", 6.0), ("cat", 4.0), ("bob", 2.0), ("ann", 0.0)]
    );
    refused(
        &mut rr,
        at + DAY,
        Event::Withdraw { player: id("ann") },
        Error::Over,
    );
}

#[test]
fn a_live_round_robin_starts_a_round_when_the_last_one_is_over() {
    let mut rr = RoundRobin::new(RoundRobinSettings {
        both_sides: false,
        ..settings(Pace::ByRound)
    })
    .unwrap();
    for (i, name) in ["ann", "bob", "cat", "dan", "eve"].iter().enumerate() {
        ok(&mut rr, START - 1, join(name, 1500 + i as i32));
    }
    let mut due = paired(&ok(&mut rr, START, Event::Tick));
    let mut rounds = 0;
    let mut at = START;
    while !due.is_empty() {
        rounds += 1;
        assert_eq!(due.len(), 2, "five players: two games and a bye each round");
        let round = rr.game(due[0]).unwrap().round;
        assert!(due.iter().all(|&g| rr.game(g).unwrap().round == round));
        let mut next = Vec::new();
        for (i, &pairing) in due.iter().enumerate() {
            at += 1_000;
            let decisions = play(&mut rr, at, pairing, Outcome::Draw);
            if i == 0 {
                assert!(paired(&decisions).is_empty(), "the round is not over yet");
            }
            next = paired(&decisions);
        }
        due = next;
    }
    assert_eq!(rounds, 5);
    assert_eq!(rr.phase(), Phase::Finished);
}

#[test]
fn too_few_players_call_it_off() {
    let mut rr = RoundRobin::new(settings(Pace::AllAtOnce)).unwrap();
    ok(&mut rr, START - 1, join("ann", 1500));
    ok(&mut rr, START - 1, join("bob", 1500));
    refused(&mut rr, START, join("cat", 1500), Error::Over);
    assert_eq!(ok(&mut rr, START, Event::Tick), [Decision::Cancel]);
}

#[test]
fn bad_events_are_refused_and_change_nothing() {
    let mut rr = RoundRobin::new(RoundRobinSettings {
        max_players: 4,
        ..settings(Pace::AllAtOnce)
    })
    .unwrap();
    for name in ["ann", "bob", "cat", "dan"] {
        ok(&mut rr, START - 1, join(name, 1500));
    }
    refused(
        &mut rr,
        START - 1,
        join("ann", 1500),
        Error::AlreadyJoined(id("ann")),
    );
    refused(&mut rr, START - 1, join("eve", 1500), Error::Full(4));
    refused(
        &mut rr,
        START - 1,
        Event::Pause { player: id("ann") },
        Error::NotHere("pause", "round robin"),
    );
    refused(
        &mut rr,
        START - 1,
        Event::Withdraw { player: id("zed") },
        Error::NotJoined(id("zed")),
    );
    let first = paired(&ok(&mut rr, START, Event::Tick))[0];
    refused(&mut rr, START, join("eve", 1500), Error::Started);
    let finished = |outcome, berserk| Event::GameFinished {
        pairing: first,
        outcome,
        plies: 9,
        berserk,
    };
    refused(
        &mut rr,
        START,
        finished(Outcome::Draw, [false; 2]),
        Error::GameNotRunning(first),
    );
    ok(
        &mut rr,
        START,
        Event::GameStarted {
            pairing: first,
            game: "g".into(),
        },
    );
    refused(
        &mut rr,
        START,
        finished(Outcome::Draw, [true, false]),
        Error::BerserkOff,
    );
    refused(
        &mut rr,
        START,
        finished(Outcome::SoloWon { score: 3 }, [false; 2]),
        Error::NotTwoPlayers(Outcome::SoloWon { score: 3 }),
    );
    refused(
        &mut rr,
        START,
        Event::GameAborted {
            pairing: PairingId(99),
        },
        Error::UnknownPairing(PairingId(99)),
    );
    assert!(
        RoundRobin::new(RoundRobinSettings {
            min_players: 1,
            ..settings(Pace::ByRound)
        })
        .is_err()
    );
}

#[test]
fn an_aborted_game_is_asked_for_again() {
    let (mut rr, decisions) = four(Pace::ByRound);
    let first = paired(&decisions)[0];
    ok(
        &mut rr,
        START,
        Event::GameStarted {
            pairing: first,
            game: "g".into(),
        },
    );
    assert_eq!(
        paired(&ok(
            &mut rr,
            START + 1,
            Event::GameAborted { pairing: first }
        )),
        [first]
    );
    assert_eq!(rr.game(first).unwrap().status, GameStatus::Created);
}

/// ann plays her first `results` games (each ending as `outcome` says, given her seat),
/// starts the next, and withdraws: the round robin, her games, and the withdrawal's decisions.
fn ann_leaves_after(
    results: usize,
    outcome: fn(Seat) -> Outcome,
) -> (RoundRobin, Vec<PairingId>, Vec<Decision>) {
    let (mut rr, decisions) = four(Pace::AllAtOnce);
    let ann_games: Vec<PairingId> = paired(&decisions)
        .into_iter()
        .filter(|&g| rr.game(g).unwrap().seats.contains(&id("ann")))
        .collect();
    assert_eq!(ann_games.len(), 6);
    for &pairing in &ann_games[..results] {
        let ann = seat_of(&rr, pairing, "ann");
        play(&mut rr, START, pairing, outcome(ann));
    }
    let pairing = ann_games[results];
    let game = "g".to_string();
    ok(&mut rr, START, Event::GameStarted { pairing, game });
    let decisions = ok(&mut rr, START + DAY, Event::Withdraw { player: id("ann") });
    (rr, ann_games, decisions)
}

#[test]
fn an_early_withdrawal_annuls_every_game_of_the_player() {
    // ann wins two of six (fewer than half), and one is under way.
    let (mut rr, ann_games, decisions) = ann_leaves_after(2, Outcome::Win);
    // Every table of hers is stopped: in correspondence all her games were under way.
    let annulled: Vec<Decision> = ann_games[2..]
        .iter()
        .map(|&pairing| Decision::Annul { pairing })
        .collect();
    assert_eq!(decisions, annulled);
    assert!(
        ann_games
            .iter()
            .all(|&g| rr.game(g).unwrap().status == GameStatus::Annulled)
    );
    let table = rr.standings();
    assert_eq!(table.len(), 3, "ann is struck out");
    assert!(table.iter().all(|line| line.points() == 0.0));
    refused(
        &mut rr,
        START + DAY,
        Event::Withdraw { player: id("ann") },
        Error::Withdrew(id("ann")),
    );
}

#[test]
fn a_late_withdrawal_forfeits_what_is_left() {
    // ann draws three of six (half), and one is under way.
    let (rr, ann_games, decisions) = ann_leaves_after(3, |_| Outcome::Draw);
    let forfeited: Vec<Decision> = ann_games[3..]
        .iter()
        .map(|&pairing| Decision::Forfeit {
            pairing,
            loser: id("ann"),
        })
        .collect();
    assert_eq!(decisions, forfeited);
    for &g in &ann_games[3..] {
        assert_eq!(
            rr.game(g).unwrap().status,
            GameStatus::Forfeited { loser: id("ann") }
        );
    }
    let table = rr.standings();
    let ann = table.iter().find(|line| line.player == id("ann")).unwrap();
    assert!(ann.withdrawn);
    assert_eq!((ann.points(), ann.draws, ann.losses), (1.5, 3, 3));
    // Each opponent drew one game with ann and won one by forfeit.
    assert_eq!(table.iter().map(|l| l.half_points).sum::<u32>(), 12);
}

#[test]
fn games_annulled_by_anothers_strike_out_do_not_count_towards_half() {
    // dan leaves at once: struck out. Of bob's four games left, he draws two (half of them,
    // though a third of the six first drawn) and leaves: his two results stand.
    let (mut rr, decisions) = four(Pace::AllAtOnce);
    ok(&mut rr, START, Event::Withdraw { player: id("dan") });
    let bobs: Vec<PairingId> = paired(&decisions)
        .into_iter()
        .filter(|&g| {
            let game = rr.game(g).unwrap();
            game.seats.contains(&id("bob")) && game.status != GameStatus::Annulled
        })
        .collect();
    assert_eq!(bobs.len(), 4);
    for &pairing in &bobs[..2] {
        play(&mut rr, START, pairing, Outcome::Draw);
    }
    ok(
        &mut rr,
        START + 2 * DAY,
        Event::Withdraw { player: id("bob") },
    );
    assert_eq!(rr.withdrawal(&id("bob")), Some(Withdrawal::Forfeited));
    let bob = rr.standings().into_iter().find(|l| l.player == id("bob"));
    assert_eq!(bob.map(|l| (l.draws, l.losses)), Some((2, 2)));
}

fn seat_of(rr: &RoundRobin, pairing: PairingId, name: &str) -> Seat {
    let seats = &rr.game(pairing).unwrap().seats;
    Seat::from_index(seats.iter().position(|p| *p == id(name)).unwrap()).unwrap()
}

/// Plays a round robin of `players` to its end: the server starts each game it is asked
/// for and finishes one at a time, with random outcomes, aborts and withdrawals.
fn simulate(
    seed: u64,
    players: usize,
    pace: Pace,
    both_sides: bool,
) -> (RoundRobin, Vec<(u64, Event)>) {
    let mut rr = RoundRobin::new(RoundRobinSettings {
        both_sides,
        min_players: 2,
        ..settings(pace)
    })
    .unwrap();
    let mut dice = seed | 1;
    let mut roll = |n: u64| {
        dice ^= dice << 13;
        dice ^= dice >> 7;
        dice ^= dice << 17;
        dice % n
    };
    let mut log = Vec::new();
    let mut waiting: Vec<PairingId> = Vec::new();
    let mut at = START - DAY;
    let mut apply = |rr: &mut RoundRobin, at: u64, event: Event, waiting: &mut Vec<PairingId>| {
        let before = rr.clone();
        match rr.apply(at, &event) {
            Ok(decisions) => {
                log.push((at, event));
                waiting.extend(paired(&decisions));
                for decision in decisions {
                    if let Decision::Forfeit { pairing, .. } | Decision::Annul { pairing } =
                        decision
                    {
                        waiting.retain(|&g| g != pairing);
                    }
                }
            }
            Err(_) => assert_eq!(*rr, before),
        }
    };
    for i in 0..players {
        apply(
            &mut rr,
            at,
            join(&format!("p{i}"), 1400 + roll(400) as i32),
            &mut waiting,
        );
    }
    at = START;
    apply(&mut rr, at, Event::Tick, &mut waiting);
    let mut steps = 0;
    while !waiting.is_empty() {
        steps += 1;
        assert!(steps < 10_000, "the round robin does not end");
        at += roll(DAY);
        let pairing = waiting.remove(roll(waiting.len() as u64) as usize);
        apply(
            &mut rr,
            at,
            Event::GameStarted {
                pairing,
                game: "g".into(),
            },
            &mut waiting,
        );
        let event = match roll(30) {
            0 => Event::GameAborted { pairing },
            1 => Event::Withdraw {
                player: id(&format!("p{}", roll(players as u64))),
            },
            n => Event::GameFinished {
                pairing,
                outcome: [Outcome::Win(Seat::A), Outcome::Win(Seat::B), Outcome::Draw]
                    [n as usize % 3],
                plies: 30,
                berserk: [false; 2],
            },
        };
        if matches!(event, Event::Withdraw { .. }) {
            waiting.push(pairing);
        }
        apply(&mut rr, at, event, &mut waiting);
    }
    (rr, log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn simulated_round_robins_end_with_every_game_settled_and_replay_exactly(
        seed in any::<u64>(),
        players in 2usize..9,
        by_round in any::<bool>(),
        both_sides in any::<bool>(),
    ) {
        let pace = if by_round { Pace::ByRound } else { Pace::AllAtOnce };
        let (rr, log) = simulate(seed, players, pace, both_sides);
        prop_assert!(rr.games().all(|(_, g)| g.status.is_settled()));
        prop_assert_eq!(rr.games().count(), schedule::rounds(players, both_sides).iter().map(Vec::len).sum::<usize>());
        // Points: two halves for every game that counts.
        let counted = rr.games().filter(|(_, g)| g.status != GameStatus::Annulled).count() as u32;
        let table = rr.standings();
        prop_assert_eq!(table.iter().map(|l| l.half_points).sum::<u32>(), 2 * counted);
        for line in &table {
            prop_assert!(line.rank >= 1 && line.rank as usize <= table.len());
        }
        // A struck-out player's games all count for nothing.
        let struck: Vec<PlayerId> = (0..players)
            .map(|i| id(&format!("p{i}")))
            .filter(|p| !table.iter().any(|l| &l.player == p))
            .collect();
        for (_, game) in rr.games() {
            if game.seats.iter().any(|p| struck.contains(p)) {
                prop_assert_eq!(&game.status, &GameStatus::Annulled);
            }
        }
        // Replays and a stored copy give the same round robin.
        let mut replayed = RoundRobin::new(rr.settings().clone()).unwrap();
        for (at, event) in &log {
            replayed.apply(*at, event).unwrap();
        }
        prop_assert_eq!(&replayed, &rr);
        let json = serde_json::to_string(&rr).unwrap();
        prop_assert_eq!(serde_json::from_str::<RoundRobin>(&json).unwrap(), rr);
    }
}
