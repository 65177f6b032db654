//! The settings of a new table, checked against the catalogue: from the create-table body,
//! a quick-match request and the daily deal alike.

use crate::error::ApiError;
use crate::identity::UserView;
use crate::table::{RATED_FOR_ACCOUNTS, TableSettings};
use crate::ws::protocol::{ClockSpec, TimeControl};

/// The days a correspondence game may give each move.
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

impl TableSettings {
    /// Checks a game, variant and clock against the catalogue.
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
        Ok(TableSettings {
            variant,
            private,
            control,
            days,
            daily: None,
            practice: None,
            rated: false,
            rating_range: None,
        })
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
}
