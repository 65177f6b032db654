//! The schedule a server runs when it is given none: from the catalogue, so that a new game
//! has its events without a change here. Each hour of the evening (UTC) one game holds a
//! 45-minute arena, the two-player games taking the hours in turn; and every Monday each
//! game opens a correspondence round robin. docs/tournaments.md shows it as a file.

use catalog::GameId;
use tournament::PlyMinimums;

use super::Schedule;
use super::entry::{Entry, EntryText, Kind};
use super::recurrence::Weekday;

/// The evening hours (UTC) — the busiest hours of the site's players, from Western Europe to
/// Moscow — each holding one game's arena.
const EVENING: std::ops::RangeInclusive<u8> = 15..=21;

fn arena(game: GameId, hours: Vec<u8>) -> EntryText {
    EntryText {
        id: format!("arena-{}", game.as_str()),
        kind: Kind::Arena,
        game: game.as_str().to_string(),
        variant: None,
        initial: Some(180),
        increment: Some(2),
        days: None,
        minutes: Some(45),
        max_players: None,
        rated: true,
        berserk: None,
        // A small arena still plays: a player alone is given a house bot after half a minute.
        house_bots_after: Some(30),
        vacation: None,
        hours,
        minute: 0,
        weekdays: None,
        ahead_hours: None,
    }
}

fn round_robin(game: GameId) -> EntryText {
    EntryText {
        id: format!("weekly-round-robin-{}", game.as_str()),
        kind: Kind::RoundRobin,
        initial: None,
        increment: None,
        days: Some(3),
        minutes: None,
        max_players: Some(8),
        house_bots_after: None,
        vacation: None,
        hours: vec![18],
        weekdays: Some(vec![Weekday::Mon]),
        // Open for entries three days before.
        ahead_hours: Some(72),
        ..arena(game, Vec::new())
    }
}

/// The built-in schedule.
pub fn schedule() -> Schedule {
    let games: Vec<GameId> = GameId::ALL
        .into_iter()
        .filter(|game| PlyMinimums::for_variant(game.default_variant()).is_some())
        .collect();
    let mut texts = Vec::new();
    for (turn, &game) in games.iter().enumerate() {
        let hours = EVENING
            .filter(|hour| usize::from(hour - EVENING.start()) % games.len() == turn)
            .collect();
        texts.push(arena(game, hours));
    }
    texts.extend(games.iter().map(|&game| round_robin(game)));
    Schedule {
        entries: texts
            .into_iter()
            .map(|text| Entry::check(text).expect("the built-in schedule is valid"))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_evening_hour_holds_one_arena_and_every_game_has_its_events() {
        let schedule = schedule();
        let arenas: Vec<&Entry> = schedule
            .entries
            .iter()
            .filter(|e| e.text.kind == Kind::Arena)
            .collect();
        let mut hours: Vec<u8> = arenas.iter().flat_map(|e| e.text.hours.clone()).collect();
        hours.sort_unstable();
        assert_eq!(hours, EVENING.collect::<Vec<_>>());
        assert!(arenas.iter().all(|e| !e.text.hours.is_empty()));
        let round_robins = schedule.entries.len() - arenas.len();
        assert_eq!(round_robins, arenas.len());
    }
}
