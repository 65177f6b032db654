//! Whole arenas played by a simulated server: what must hold after every event, and that a
//! replay of the events, or a copy stored half-way, gives the same arena.

mod common;

use common::{MINUTE, START, id, join, settings};
use game::{Outcome, Seat};
use proptest::prelude::*;
use tournament::arena::scoring::{GameResult, Played, Sheet};
use tournament::arena::{Arena, HouseBot, PairingStatus, Phase};
use tournament::{Decision, Event, PairingId, PlayerId};

/// A little generator for the simulations (xorshift).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// A server that plays an arena: it starts every game it is asked for at once, and each
/// step finishes or aborts a game, lets time pass, or has a player join, pause, come back
/// or withdraw. Returns the accepted events and every decision.
fn simulate(seed: u64, players: usize, bots: bool) -> (Arena, Vec<(u64, Event)>, Vec<Decision>) {
    let mut settings = settings();
    if bots {
        settings.pairing.bot_after_ms = Some(30_000);
        settings.house_bots = vec![
            HouseBot {
                id: id("bot-1"),
                rating: 1300,
            },
            HouseBot {
                id: id("bot-2"),
                rating: 1900,
            },
        ];
    }
    let ends_at = settings.ends_at;
    let mut arena = Arena::new(settings).unwrap();
    let mut dice = Dice(seed | 1);
    let mut log = Vec::new();
    let mut all = Vec::new();
    let mut running: Vec<PairingId> = Vec::new();
    let mut now = START - 2 * MINUTE;
    let name = |i: u64| format!("p{i:02}");
    let mut step = |arena: &mut Arena, at: u64, event: Event, running: &mut Vec<PairingId>| {
        let before = arena.clone();
        match arena.apply(at, &event) {
            Ok(decisions) => {
                check_pairings(arena, &decisions);
                if log.len() % 16 == 0 {
                    check_standings(arena);
                }
                log.push((at, event));
                for decision in &decisions {
                    if let Decision::Pair { pairing, .. } = decision {
                        running.push(*pairing);
                    }
                    if let Decision::Finish { .. } = decision {
                        running.clear();
                    }
                }
                all.extend(decisions);
            }
            Err(_) => assert_eq!(*arena, before, "a refused event changed the arena"),
        }
    };
    while now < ends_at + 2 * MINUTE {
        now += dice.below(4_000);
        let roll = dice.below(100);
        if roll < 12 {
            let rating = 1000 + dice.below(1200) as i32;
            step(
                &mut arena,
                now,
                join(&name(dice.below(players as u64)), rating),
                &mut running,
            );
        } else if roll < 50 && !running.is_empty() {
            let pairing = running.remove(dice.below(running.len() as u64) as usize);
            let game = format!("g{}", pairing.0);
            step(
                &mut arena,
                now,
                Event::GameStarted { pairing, game },
                &mut running,
            );
            let outcome = match dice.below(3) {
                0 => Outcome::Win(Seat::A),
                1 => Outcome::Win(Seat::B),
                _ => Outcome::Draw,
            };
            let event = if dice.below(20) == 0 {
                Event::GameAborted { pairing }
            } else {
                let berserk = [dice.below(4) == 0, dice.below(4) == 0];
                Event::GameFinished {
                    pairing,
                    outcome,
                    plies: dice.below(60) as u32,
                    berserk,
                }
            };
            step(&mut arena, now, event, &mut running);
        } else if roll < 58 {
            let player = id(&name(dice.below(players as u64)));
            let event = match dice.below(5) {
                0 | 1 => Event::Pause { player },
                2 | 3 => Event::Resume { player },
                _ => Event::Withdraw { player },
            };
            step(&mut arena, now, event, &mut running);
        } else {
            step(&mut arena, now, Event::Tick, &mut running);
        }
    }
    check_standings(&arena);
    (arena, log, all)
}

/// What must hold of the pairings after every accepted event.
fn check_pairings(arena: &Arena, decisions: &[Decision]) {
    // Nobody is in two unfinished games.
    let mut busy: Vec<&PlayerId> = arena
        .pairings()
        .filter(|(_, p)| matches!(p.status, PairingStatus::Created | PairingStatus::Playing))
        .flat_map(|(_, p)| p.seats.iter().filter(|s| Some(*s) != p.house_bot.as_ref()))
        .collect();
    busy.sort();
    let count = busy.len();
    busy.dedup();
    assert_eq!(busy.len(), count, "a player in two games");
    // Never the same opponent twice in a row, but for two players alone in the arena.
    for (pairing, seats, bot) in decisions.iter().filter_map(|d| match d {
        Decision::Pair {
            pairing,
            seats,
            house_bot,
        } => Some((pairing, seats, house_bot)),
        _ => None,
    }) {
        if bot.is_some() {
            continue;
        }
        let last = |player: &PlayerId| {
            arena
                .pairings()
                .filter(|(id, p)| id < pairing && p.seats.contains(player))
                .last()
                .map(|(_, p)| p.seats.clone())
        };
        if last(&seats[0]).is_some_and(|s| s.contains(&seats[1])) {
            let present = arena
                .standings()
                .iter()
                .filter(|line| !line.paused && !line.withdrawn)
                .count();
            assert_eq!(
                present, 2,
                "{seats:?} paired twice in a row among {present}"
            );
        }
    }
}

/// The standings are a recomputation from the games: each player's finished pairings,
/// scored from scratch.
fn check_standings(arena: &Arena) {
    let standings = arena.standings();
    for line in &standings {
        let games = arena.pairings().filter_map(|(_, p)| match p.status {
            PairingStatus::Finished { outcome, plies } if p.seats.contains(&line.player) => {
                let index = p.seats.iter().position(|s| *s == line.player).unwrap();
                let result = match outcome {
                    Outcome::Win(seat) if seat.index() == index => GameResult::Win,
                    Outcome::Win(_) => GameResult::Loss,
                    _ => GameResult::Draw,
                };
                Some((result, plies))
            }
            _ => None,
        });
        let results: Vec<(GameResult, u32)> = games.collect();
        assert_eq!(results.len(), line.games());
        let played = results
            .iter()
            .zip(&line.scores)
            .map(|(&(result, plies), score)| Played {
                result,
                plies,
                berserk: score.played.berserk,
            });
        let (sheet, scores) = Sheet::fold(played, arena.settings().minimums);
        assert_eq!(sheet.points, line.points);
        assert_eq!(scores, line.scores);
    }
    let ranks: Vec<u32> = standings.iter().map(|l| l.rank).collect();
    assert_eq!(ranks, (1..=standings.len() as u32).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn simulated_arenas_keep_their_invariants_and_replay_exactly(
        seed in any::<u64>(),
        players in 2usize..24,
        bots in any::<bool>(),
    ) {
        let (arena, log, decisions) = simulate(seed, players, bots);
        prop_assert_eq!(arena.phase(), Phase::Finished);
        let settled = arena.pairings().all(|(_, p)| {
            matches!(
                p.status,
                PairingStatus::Finished { .. } | PairingStatus::Aborted | PairingStatus::Uncounted
            )
        });
        prop_assert!(settled, "a game left unsettled");
        // A replay of the accepted events gives the same arena and the same decisions…
        let mut replayed = Arena::new(arena.settings().clone()).unwrap();
        let mut again = Vec::new();
        for (at, event) in &log {
            again.extend(replayed.apply(*at, event).unwrap());
        }
        prop_assert_eq!(&replayed, &arena);
        prop_assert_eq!(&again, &decisions);
        // …and so does one stored half-way and read back.
        let mut stored = Arena::new(arena.settings().clone()).unwrap();
        let half = log.len() / 2;
        for (at, event) in &log[..half] {
            stored.apply(*at, event).unwrap();
        }
        let json = serde_json::to_string(&stored).unwrap();
        let mut restored: Arena = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&restored, &stored);
        for (at, event) in &log[half..] {
            restored.apply(*at, event).unwrap();
        }
        prop_assert_eq!(&restored, &arena);
        // The event log itself is stored as JSON.
        let log_json = serde_json::to_string(&log).unwrap();
        let read: Vec<(u64, Event)> = serde_json::from_str(&log_json).unwrap();
        prop_assert_eq!(read, log);
    }
}
