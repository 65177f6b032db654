//! A new round robin as a player asks for it, checked once: the game, the clock (days per
//! move, or a live clock for a small field), how many may enter, when it starts, rated or
//! not, and whether its games may take vacation days. The bounds here are the API
//! document's (`routes/tournaments.rs`).

use std::time::Duration;

use catalog::VariantId;
use tournament::PlyMinimums;
use tournament::round_robin::{Pace, RoundRobinSettings};

use super::super::Tournaments;
use super::super::create::{INCREMENT_SECONDS, INITIAL_SECONDS, STARTS_IN_MINUTES};
use super::KIND;
use crate::error::ApiError;
use crate::identity::UserView;
use crate::table::CORRESPONDENCE_DAYS;
use crate::unix_time::unix_ms;

/// Fewer entrants at the start call the round robin off: with two it would be a match.
pub const MIN_PLAYERS: usize = 3;
/// The most players a correspondence round robin may take (each has 2 × (n − 1) games).
pub const MAX_PLAYERS: usize = 16;
/// The most players a live round robin may take: its rounds are played one after another.
pub const MAX_LIVE_PLAYERS: usize = 10;

/// The clock a round robin's games are played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundRobinClock {
    /// Days for each move: every game starts at once.
    Days(u8),
    /// A live clock (ms): a round starts when the previous one is over.
    Live { initial_ms: u64, increment_ms: u64 },
}

/// What a player asks for.
pub struct RoundRobinRequest<'a> {
    pub game: &'a str,
    pub variant: Option<&'a str>,
    /// Correspondence: days for each move (then no live clock).
    pub days: Option<u64>,
    /// A live clock, in seconds.
    pub initial_seconds: Option<u64>,
    pub increment_seconds: Option<u64>,
    pub max_players: u64,
    pub starts_in_minutes: u64,
    pub rated: bool,
    /// Its correspondence games may take vacation days.
    pub vacation: bool,
}

/// A checked round robin.
#[derive(Debug)]
pub struct NewRoundRobin {
    pub variant: VariantId,
    pub clock: RoundRobinClock,
    /// False only for a correspondence round robin that forbids vacation days.
    pub vacation: bool,
    pub settings: RoundRobinSettings,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(message.into())
}

fn clock(request: &RoundRobinRequest<'_>) -> Result<RoundRobinClock, ApiError> {
    match (
        request.days,
        request.initial_seconds,
        request.increment_seconds,
    ) {
        (Some(days), None, None) => u8::try_from(days)
            .ok()
            .filter(|d| CORRESPONDENCE_DAYS.contains(d))
            .map(RoundRobinClock::Days)
            .ok_or_else(|| bad("days a move must be 1, 2, 3, 5, 7 or 14")),
        (None, Some(initial), increment) => {
            let increment = increment.unwrap_or(0);
            let (low, high) = INITIAL_SECONDS;
            if !(low..=high).contains(&initial) {
                return Err(bad(format!(
                    "the initial time in seconds must be from {low} to {high}"
                )));
            }
            let (low, high) = INCREMENT_SECONDS;
            if !(low..=high).contains(&increment) {
                return Err(bad(format!(
                    "the increment in seconds must be from {low} to {high}"
                )));
            }
            Ok(RoundRobinClock::Live {
                initial_ms: initial * 1000,
                increment_ms: increment * 1000,
            })
        }
        _ => Err(bad(
            "a round robin has either days (a move) or an initial time and increment (seconds)",
        )),
    }
}

/// Checks `request`, made at `now` (unix ms); `minute` is how long a minute of the
/// tournaments' calendar lasts (a real minute; tests shorten it).
pub fn parse(
    request: &RoundRobinRequest<'_>,
    now: u64,
    minute: Duration,
) -> Result<NewRoundRobin, ApiError> {
    let variant =
        VariantId::parse(request.game, request.variant).map_err(|e| bad(e.to_string()))?;
    if PlyMinimums::for_variant(variant).is_none() {
        return Err(bad(format!(
            "{} is played alone: it has no tournaments",
            variant.game()
        )));
    }
    let clock = clock(request)?;
    let most = match clock {
        RoundRobinClock::Days(_) => MAX_PLAYERS,
        RoundRobinClock::Live { .. } => MAX_LIVE_PLAYERS,
    };
    let max_players = usize::try_from(request.max_players).unwrap_or(usize::MAX);
    if !(MIN_PLAYERS..=most).contains(&max_players) {
        return Err(bad(format!(
            "the most players must be from {MIN_PLAYERS} to {most} for this clock"
        )));
    }
    let (low, high) = STARTS_IN_MINUTES;
    if !(low..=high).contains(&request.starts_in_minutes) {
        return Err(bad(format!(
            "the start in minutes from now must be from {low} to {high}"
        )));
    }
    let starts_at = now + request.starts_in_minutes * minute.as_millis().max(1) as u64;
    let pace = match clock {
        RoundRobinClock::Days(_) => Pace::AllAtOnce,
        RoundRobinClock::Live { .. } => Pace::ByRound,
    };
    Ok(NewRoundRobin {
        variant,
        clock,
        // Vacation days belong to correspondence: a live game has none to forbid.
        vacation: request.vacation || matches!(clock, RoundRobinClock::Live { .. }),
        settings: RoundRobinSettings {
            starts_at,
            both_sides: RoundRobinSettings::both_sides_for(variant.game()),
            pace,
            min_players: MIN_PLAYERS,
            max_players,
            rated: request.rated,
        },
    })
}

impl Tournaments {
    /// Creates the round robin `request` asks for, by account `creator`; its id. It counts
    /// in the same daily allowance as arenas.
    pub async fn create_round_robin(
        &self,
        creator: &UserView,
        request: &RoundRobinRequest<'_>,
    ) -> Result<String, ApiError> {
        self.may_create(creator).await?;
        let now = unix_ms();
        let new = parse(request, now.max(0) as u64, self.minute())?;
        let row = round_robin_row(&new, Some(creator.id.clone()), now)?;
        self.store().create_tournament(&row).await?;
        Ok(row.id)
    }
}

/// The row of a new round robin, created at `now` by `creator` (`None`: the site).
pub(in crate::tournaments) fn round_robin_row(
    new: &NewRoundRobin,
    creator: Option<String>,
    now: i64,
) -> Result<store::TournamentRow, ApiError> {
    let settings = serde_json::to_string(&new.settings)
        .map_err(|e| ApiError::internal("round robin settings do not write", e))?;
    let (initial_ms, increment_ms, move_days) = match new.clock {
        RoundRobinClock::Days(days) => (0, 0, Some(i64::from(days))),
        RoundRobinClock::Live {
            initial_ms,
            increment_ms,
        } => (initial_ms as i64, increment_ms as i64, None),
    };
    let starts_at = new.settings.starts_at as i64;
    Ok(store::TournamentRow {
        id: store::new_id(),
        kind: KIND.to_string(),
        game: new.variant.game().as_str().to_string(),
        variant: new.variant.as_str().to_string(),
        clock_initial_ms: initial_ms,
        clock_increment_ms: increment_ms,
        rated: new.settings.rated,
        starts_at,
        // Not known in advance: it becomes the time its last game ended.
        ends_at: starts_at,
        status: "upcoming".to_string(),
        creator_id: creator,
        settings,
        standings: None,
        created_at: now,
        players: 0,
        move_days,
        vacation: new.vacation,
        start_pushed: false,
        scheduled: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> RoundRobinRequest<'static> {
        RoundRobinRequest {
            game: "mill",
            variant: None,
            days: Some(3),
            initial_seconds: None,
            increment_seconds: None,
            max_players: 8,
            starts_in_minutes: 10,
            rated: true,
            vacation: false,
        }
    }

    #[test]
    fn a_correspondence_round_robin_starts_all_its_games_at_once() {
        let new = parse(&request(), 1_000, Duration::from_secs(60)).unwrap();
        assert_eq!(new.clock, RoundRobinClock::Days(3));
        assert_eq!(new.settings.pace, Pace::AllAtOnce);
        assert_eq!(new.settings.starts_at, 1_000 + 600_000);
        assert!(new.settings.both_sides);
        assert!(!new.vacation);
    }

    #[test]
    fn a_live_round_robin_plays_round_by_round_for_a_small_field() {
        let live = RoundRobinRequest {
            days: None,
            initial_seconds: Some(180),
            increment_seconds: Some(2),
            ..request()
        };
        let new = parse(&live, 0, Duration::from_secs(60)).unwrap();
        assert_eq!(
            new.clock,
            RoundRobinClock::Live {
                initial_ms: 180_000,
                increment_ms: 2_000
            }
        );
        assert_eq!(new.settings.pace, Pace::ByRound);
        // A live game has no vacation days to forbid.
        assert!(new.vacation);
        let crowded = RoundRobinRequest {
            max_players: 11,
            ..live
        };
        let refused = parse(&crowded, 0, Duration::from_secs(60)).unwrap_err();
        assert!(refused.message.contains("3 to 10"), "{}", refused.message);
    }

    #[test]
    fn a_clock_is_days_or_seconds_never_both_nor_neither() {
        let both = RoundRobinRequest {
            initial_seconds: Some(60),
            ..request()
        };
        assert!(parse(&both, 0, Duration::from_secs(60)).is_err());
        let neither = RoundRobinRequest {
            days: None,
            ..request()
        };
        assert!(parse(&neither, 0, Duration::from_secs(60)).is_err());
        let four_days = RoundRobinRequest {
            days: Some(4),
            ..request()
        };
        let refused = parse(&four_days, 0, Duration::from_secs(60)).unwrap_err();
        assert!(
            refused.message.contains("days a move"),
            "{}",
            refused.message
        );
        let solo = RoundRobinRequest {
            game: "white-rabbit",
            ..request()
        };
        assert!(parse(&solo, 0, Duration::from_secs(60)).is_err());
    }
}
