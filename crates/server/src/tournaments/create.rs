//! A new arena as a player asks for it, checked once: the game, the clock, when it starts and
//! how long it lasts, berserk, and the house bots with the wait before them. The bounds here
//! are the API document's (`routes/tournaments.rs`).

use std::time::Duration;

use catalog::VariantId;
use tournament::arena::{ArenaSettings, HouseBot, PairingSettings};
use tournament::{PlayerId, PlyMinimums};

use super::Tournaments;
use crate::error::{ApiError, ErrorCode};
use crate::identity::UserView;
use crate::unix_time::unix_ms;

/// The clock's initial time, in seconds.
pub const INITIAL_SECONDS: (u64, u64) = (15, 3600);
/// The clock's increment, in seconds.
pub const INCREMENT_SECONDS: (u64, u64) = (0, 60);
/// The arena's length, in minutes.
pub const LENGTH_MINUTES: (u64, u64) = (5, 720);
/// How far ahead an arena may be set, in minutes (a week).
pub const STARTS_IN_MINUTES: (u64, u64) = (0, 7 * 24 * 60);
/// Arenas one account may create in a day.
pub const PER_DAY: i64 = 5;
/// How long a lone player waits before a house bot plays them, in seconds.
pub const HOUSE_BOT_AFTER_SECONDS: (u64, u64) = (5, 600);
/// The site's bots that serve as an arena's house bots (the levels that play at tables).
const HOUSE_BOTS: [ai::Level; 3] = [ai::Level::Easy, ai::Level::Medium, ai::Level::Hard];

/// What a player asks for.
pub struct ArenaRequest<'a> {
    pub game: &'a str,
    pub variant: Option<&'a str>,
    pub initial_seconds: u64,
    pub increment_seconds: u64,
    pub minutes: u64,
    pub starts_in_minutes: u64,
    pub rated: bool,
    /// Players may go berserk.
    pub berserk: bool,
    /// House bots play a player who has waited this many seconds with nobody to play; `None`:
    /// no house bots.
    pub house_bots_after_seconds: Option<u64>,
}

/// A checked arena: its variant and clock, and the director's settings.
pub struct NewArena {
    pub variant: VariantId,
    pub initial_ms: u64,
    pub increment_ms: u64,
    pub settings: ArenaSettings,
}

fn within(value: u64, (low, high): (u64, u64), what: &str) -> Result<u64, ApiError> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(ApiError::bad_request(format!(
            "{what} must be from {low} to {high}"
        )))
    }
}

/// Checks `request`, made at `now` (unix ms); `minute` is how long a minute of the
/// tournament's calendar lasts (a real minute; tests shorten it).
pub fn parse(request: &ArenaRequest<'_>, now: u64, minute: Duration) -> Result<NewArena, ApiError> {
    let variant = VariantId::parse(request.game, request.variant)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let minimums = PlyMinimums::for_variant(variant).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{} is played alone: it has no tournaments",
            variant.game()
        ))
    })?;
    let initial_ms = within(
        request.initial_seconds,
        INITIAL_SECONDS,
        "the initial time in seconds",
    )? * 1000;
    let increment_ms = within(
        request.increment_seconds,
        INCREMENT_SECONDS,
        "the increment in seconds",
    )? * 1000;
    let minute_ms = minute.as_millis().max(1) as u64;
    let length = within(request.minutes, LENGTH_MINUTES, "the length in minutes")? * minute_ms;
    let starts_in = within(
        request.starts_in_minutes,
        STARTS_IN_MINUTES,
        "the start in minutes from now",
    )? * minute_ms;
    let starts_at = now + starts_in;
    let mut pairing = PairingSettings::for_clock(initial_ms, increment_ms);
    if let Some(after) = request.house_bots_after_seconds {
        let after = within(
            after,
            HOUSE_BOT_AFTER_SECONDS,
            "the wait before a house bot in seconds",
        )?;
        pairing.bot_after_ms = Some(after * 1000);
    }
    Ok(NewArena {
        variant,
        initial_ms,
        increment_ms,
        settings: ArenaSettings {
            starts_at,
            ends_at: starts_at + length,
            rated: request.rated,
            berserk: request.berserk,
            minimums,
            pairing,
            // Named with their ratings by `Tournaments::create`, which reads them.
            house_bots: Vec::new(),
        },
    })
}

impl Tournaments {
    /// Refuses a guest, and an account that has created its [`PER_DAY`] tournaments (of any
    /// kind) in the last day.
    pub(crate) async fn may_create(&self, creator: &UserView) -> Result<(), ApiError> {
        if creator.guest {
            return Err(ApiError::new(
                ErrorCode::Forbidden,
                "tournaments are for accounts: sign up to create one",
            ));
        }
        let day_ago = unix_ms() - 24 * 60 * 60 * 1000;
        if self
            .store()
            .tournaments_created_since(&creator.id, day_ago)
            .await?
            >= PER_DAY
        {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!("an account may create {PER_DAY} tournaments a day: try again tomorrow"),
            ));
        }
        Ok(())
    }

    /// Creates the arena `request` asks for, by account `creator`; its id. An account may
    /// create [`PER_DAY`] a day.
    pub async fn create(
        &self,
        creator: &UserView,
        request: &ArenaRequest<'_>,
    ) -> Result<String, ApiError> {
        self.may_create(creator).await?;
        let now = unix_ms();
        let arena = parse(request, now.max(0) as u64, self.minute())?;
        let row = self.arena_row(arena, Some(creator.id.clone()), now).await?;
        self.store().create_tournament(&row).await?;
        Ok(row.id)
    }

    /// The row of a new arena, created at `now` by `creator` (`None`: the site), its house
    /// bots named with their ratings.
    pub(super) async fn arena_row(
        &self,
        mut arena: NewArena,
        creator: Option<String>,
        now: i64,
    ) -> Result<store::TournamentRow, ApiError> {
        if arena.settings.pairing.bot_after_ms.is_some() {
            arena.settings.house_bots = house_bots(self.store(), &arena).await?;
        }
        let settings = serde_json::to_string(&arena.settings)
            .map_err(|e| ApiError::internal("arena settings do not write", e))?;
        Ok(store::TournamentRow {
            id: store::new_id(),
            kind: "arena".to_string(),
            game: arena.variant.game().as_str().to_string(),
            variant: arena.variant.as_str().to_string(),
            clock_initial_ms: arena.initial_ms as i64,
            clock_increment_ms: arena.increment_ms as i64,
            rated: arena.settings.rated,
            starts_at: arena.settings.starts_at as i64,
            ends_at: arena.settings.ends_at as i64,
            status: "upcoming".to_string(),
            creator_id: creator,
            settings,
            standings: None,
            created_at: now,
            players: 0,
            move_days: None,
            vacation: true,
            start_pushed: false,
            scheduled: false,
        })
    }
}

/// The site's bots with their ratings in the arena's game and clock.
async fn house_bots(store: &store::Store, arena: &NewArena) -> Result<Vec<HouseBot>, ApiError> {
    let class = rating::Class::of(Some((arena.initial_ms, arena.increment_ms)), None);
    let mut bots = Vec::new();
    for level in HOUSE_BOTS {
        let id = crate::table::bot_user(level).id;
        let rating = store
            .rating(&id, arena.variant.game().as_str(), class)
            .await?;
        bots.push(HouseBot {
            id: PlayerId::new(id),
            rating: rating.rating.round() as i32,
        });
    }
    Ok(bots)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(minutes: u64) -> ArenaRequest<'static> {
        ArenaRequest {
            game: "mill",
            variant: None,
            initial_seconds: 180,
            increment_seconds: 2,
            minutes,
            starts_in_minutes: 10,
            rated: true,
            berserk: true,
            house_bots_after_seconds: None,
        }
    }

    #[test]
    fn an_arena_starts_and_ends_on_the_tournament_calendar() {
        let arena = parse(&request(60), 1_000, Duration::from_secs(60)).unwrap();
        assert_eq!(arena.settings.starts_at, 1_000 + 600_000);
        assert_eq!(arena.settings.ends_at, 1_000 + 600_000 + 3_600_000);
        assert_eq!((arena.initial_ms, arena.increment_ms), (180_000, 2_000));
    }

    #[test]
    fn settings_out_of_bounds_are_refused_with_the_reason() {
        let short = parse(&request(4), 0, Duration::from_secs(60))
            .err()
            .unwrap();
        assert!(
            short.message.contains("length in minutes"),
            "{}",
            short.message
        );
        let solo = ArenaRequest {
            game: "white-rabbit",
            ..request(60)
        };
        let solo = parse(&solo, 0, Duration::from_secs(60)).err().unwrap();
        assert!(solo.message.contains("alone"), "{}", solo.message);
        let unknown = ArenaRequest {
            game: "chess",
            ..request(60)
        };
        assert!(parse(&unknown, 0, Duration::from_secs(60)).is_err());
        let hasty = ArenaRequest {
            house_bots_after_seconds: Some(4),
            ..request(60)
        };
        let hasty = parse(&hasty, 0, Duration::from_secs(60)).err().unwrap();
        assert!(hasty.message.contains("house bot"), "{}", hasty.message);
    }

    #[test]
    fn berserk_and_the_wait_before_a_house_bot_are_the_organisers() {
        let plain = parse(&request(60), 0, Duration::from_secs(60)).unwrap();
        assert!(plain.settings.berserk);
        assert_eq!(plain.settings.pairing.bot_after_ms, None);
        let chosen = ArenaRequest {
            berserk: false,
            house_bots_after_seconds: Some(30),
            ..request(60)
        };
        let chosen = parse(&chosen, 0, Duration::from_secs(60)).unwrap();
        assert!(!chosen.settings.berserk);
        assert_eq!(chosen.settings.pairing.bot_after_ms, Some(30_000));
    }
}
