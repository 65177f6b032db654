//! What a table is created with, built only by its constructors: the parser of a request
//! (`parse`, then `with_rating`), the reading of a stored record (`restored`), and one named
//! constructor for each table the server opens by itself — a quick-match pairing, an arena's
//! or a round robin's pairing, a bot-ladder game, an accepted challenge, a rematch, the daily
//! deal. The fields are private and read through getters, so no one holds settings that
//! skipped these checks.

use record::GameRecord;

use super::RATED_FOR_ACCOUNTS;
use crate::error::ApiError;
use crate::ws::protocol::{ClockSpec, TimeControl, UserView};

/// The days a correspondence game may give each move.
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// What a table is created with.
#[derive(Debug, Clone)]
pub struct TableSettings {
    variant: catalog::VariantId,
    private: bool,
    control: Option<TimeControl>,
    /// Correspondence: days for each move (then `control` is `None`).
    days: Option<u8>,
    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this table plays.
    daily: Option<String>,
    /// The day whose (finished) daily deal this table replays for practice.
    practice: Option<String>,
    rated: bool,
    rating_range: Option<[i64; 2]>,
}

impl TableSettings {
    /// Checks a game, variant and clock against the catalogue: a casual table, open to anyone
    /// unless `private`.
    pub fn parse(
        game: &str,
        variant: Option<&str>,
        private: bool,
        clock: Option<ClockSpec>,
    ) -> Result<TableSettings, ApiError> {
        let id: catalog::GameId = game
            .parse()
            .map_err(|_| ApiError::bad_request(format!("unknown game {game:?}")))?;
        let variant = id.variant(variant).map_err(|_| {
            ApiError::bad_request(format!("{game} has no variant {:?}", variant.unwrap_or("")))
        })?;
        let (control, days) = match clock {
            None => (None, None),
            Some(ClockSpec {
                initial: None,
                increment: None,
                days: Some(days),
            }) => {
                let days = u8::try_from(days)
                    .ok()
                    .filter(|d| CORRESPONDENCE_DAYS.contains(d))
                    .ok_or_else(|| {
                        ApiError::bad_request(
                            "a correspondence clock has 1, 2, 3, 5, 7 or 14 days a move",
                        )
                    })?;
                (None, Some(days))
            }
            Some(ClockSpec {
                initial: Some(initial),
                increment: Some(increment),
                days: None,
            }) => {
                let control =
                    TimeControl::new(initial.saturating_mul(1000), increment.saturating_mul(1000))
                        .map_err(ApiError::bad_request)?;
                (Some(control), None)
            }
            Some(_) => {
                return Err(ApiError::bad_request(
                    "a clock is {\"initial\": seconds, \"increment\": seconds} or {\"days\": N}",
                ));
            }
        };
        if (control.is_some() || days.is_some()) && id.is_solo() {
            return Err(ApiError::bad_request("a solo puzzle has no clock"));
        }
        Ok(TableSettings::casual(variant, private, control, days))
    }

    /// The rated/casual choice and the rating range of a new table, checked for `user`.
    pub fn with_rating(
        self,
        user: &UserView,
        rated: bool,
        rating_range: Option<[i64; 2]>,
    ) -> Result<TableSettings, ApiError> {
        let two_players = self.rating_class().is_some();
        if rated && !two_players {
            return Err(ApiError::bad_request(
                "a solo puzzle is not rated: only two-player games are",
            ));
        }
        if rated && user.guest {
            return Err(ApiError::forbidden(RATED_FOR_ACCOUNTS));
        }
        // The two ends in either order.
        let rating_range = rating_range.map(|[a, b]| [a.min(b), a.max(b)]);
        if let Some([low, high]) = rating_range {
            if !two_players {
                return Err(ApiError::bad_request(
                    "a solo puzzle has no opponents to choose",
                ));
            }
            if !(0..=4000).contains(&low) || !(0..=4000).contains(&high) {
                return Err(ApiError::bad_request(
                    "a rating range is [lowest, highest], both between 0 and 4000",
                ));
            }
        }
        Ok(TableSettings {
            rated,
            rating_range,
            ..self
        })
    }

    /// The settings of a stored game, read back from its record for a restart.
    pub fn restored(record: &GameRecord) -> Result<TableSettings, String> {
        let variant = catalog::VariantId::parse(&record.game, Some(&record.variant))
            .map_err(|e| e.to_string())?;
        let control = match (record.clock_initial_ms, record.clock_increment_ms) {
            (Some(initial), Some(increment)) => {
                Some(TimeControl::new(initial as u64, increment as u64)?)
            }
            _ => None,
        };
        let days = record.move_days.and_then(|d| u8::try_from(d).ok());
        Ok(TableSettings {
            daily: record.daily.clone(),
            rated: record.rated,
            rating_range: record.rating_range,
            ..TableSettings::casual(variant, record.private, control, days)
        })
    }

    /// Two players paired by quick match: a public table with the pace and the rated choice
    /// they queued for (both checked when each of them queued).
    pub fn quick_match(
        variant: catalog::VariantId,
        control: Option<TimeControl>,
        days: Option<u8>,
        rated: bool,
    ) -> TableSettings {
        TableSettings {
            rated,
            ..TableSettings::casual(variant, false, control, days)
        }
    }

    /// A pairing of an arena: a public table with the arena's clock.
    pub fn arena_pairing(
        variant: catalog::VariantId,
        control: TimeControl,
        rated: bool,
    ) -> TableSettings {
        TableSettings {
            rated,
            ..TableSettings::casual(variant, false, Some(control), None)
        }
    }

    /// A game of a round robin: a public table with the tournament's clock, or its days a move
    /// for a correspondence one.
    pub fn round_robin_pairing(
        variant: catalog::VariantId,
        control: Option<TimeControl>,
        days: Option<u8>,
        rated: bool,
    ) -> TableSettings {
        TableSettings {
            rated,
            ..TableSettings::casual(variant, false, control, days)
        }
    }

    /// A game of the bot ladder between two of the site's bots: public, rated, no clock.
    pub fn ladder_game(variant: catalog::VariantId) -> TableSettings {
        TableSettings {
            rated: true,
            ..TableSettings::casual(variant, false, None, None)
        }
    }

    /// A challenge's game as its accepted challenge asked: `rated` as it was checked when
    /// the challenge was made.
    pub fn accepted_challenge(self, rated: bool) -> TableSettings {
        TableSettings { rated, ..self }
    }

    /// The next game of a rematch: the same settings, except that another game of a daily
    /// deal would be a second attempt — the rematch is a new deal.
    pub fn rematch(&self) -> TableSettings {
        TableSettings {
            daily: None,
            practice: None,
            ..self.clone()
        }
    }

    /// A player's one attempt at `day`'s daily deal, `ranked` on its leaderboard (accounts
    /// only); private, so that nobody watches the day's dice fall before their own try.
    pub fn daily_attempt(self, day: String, ranked: bool) -> TableSettings {
        TableSettings {
            daily: Some(day),
            rated: ranked,
            private: true,
            ..self
        }
    }

    /// A practice replay of a finished day's deal: its seed, unranked, private.
    pub fn daily_practice(self, day: String) -> TableSettings {
        TableSettings {
            practice: Some(day),
            private: true,
            ..self
        }
    }

    fn casual(
        variant: catalog::VariantId,
        private: bool,
        control: Option<TimeControl>,
        days: Option<u8>,
    ) -> TableSettings {
        TableSettings {
            variant,
            private,
            control,
            days,
            daily: None,
            practice: None,
            rated: false,
            rating_range: None,
        }
    }

    pub fn variant(&self) -> catalog::VariantId {
        self.variant
    }

    /// Reached only by its link (or by sitting there).
    pub fn private(&self) -> bool {
        self.private
    }

    /// The clock of a live game; `None` for correspondence and untimed games.
    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// Correspondence: days for each move (then there is no `control`).
    pub fn days(&self) -> Option<u8> {
        self.days
    }

    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this table plays: the
    /// player's one attempt of that day, ranked on its leaderboard.
    pub fn daily(&self) -> Option<&str> {
        self.daily.as_deref()
    }

    /// The day whose (finished) daily deal this table replays for practice, unranked. Only
    /// used to pick the seed at creation; the stored game keeps the seed, not the day.
    pub fn practice(&self) -> Option<&str> {
        self.practice.as_deref()
    }

    /// The result moves both players' ratings (accounts and bots only).
    pub fn rated(&self) -> bool {
        self.rated
    }

    /// Who may sit down: opponents rated within this range (lowest, highest).
    pub fn rating_range(&self) -> Option<[i64; 2]> {
        self.rating_range
    }

    /// The rating class of this table's time control, for two-player games.
    pub fn rating_class(&self) -> Option<rating::Class> {
        (!self.variant.game().is_solo()).then(|| {
            rating::Class::of(
                self.control.map(|c| (c.initial_ms, c.increment_ms)),
                self.days,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rabbit() -> TableSettings {
        TableSettings::parse("white-rabbit", None, true, None).expect("the puzzle")
    }

    #[test]
    fn a_daily_attempt_is_private_and_its_rematch_is_a_new_deal() {
        let attempt = rabbit().daily_attempt("2026-12-07".to_string(), true);
        assert_eq!(attempt.daily(), Some("2026-12-07"));
        assert!(attempt.private() && attempt.rated());
        let next = attempt.rematch();
        assert_eq!((next.daily(), next.practice()), (None, None));
        assert_eq!(next.variant(), attempt.variant());
        assert!(next.private());
        let practice = rabbit().daily_practice("2026-12-01".to_string());
        assert_eq!(practice.practice(), Some("2026-12-01"));
        assert!(practice.daily().is_none() && !practice.rated());
    }

    #[test]
    fn a_request_is_refused_what_its_game_cannot_have() {
        let clock = ClockSpec {
            initial: Some(60),
            increment: Some(0),
            days: None,
        };
        assert!(TableSettings::parse("white-rabbit", None, false, Some(clock)).is_err());
        let days = ClockSpec {
            initial: None,
            increment: None,
            days: Some(4),
        };
        assert!(TableSettings::parse("mill", None, false, Some(days)).is_err());
        let guest = UserView {
            id: "g".to_string(),
            name: "Guest".to_string(),
            guest: true,
            bot: false,
        };
        let mill = TableSettings::parse("mill", None, false, None).expect("mill");
        assert!(mill.clone().with_rating(&guest, true, None).is_err());
        let range = mill.with_rating(&guest, false, Some([1600, 1400])).unwrap();
        assert_eq!(range.rating_range(), Some([1400, 1600]));
        assert!(!range.rated());
    }
}
