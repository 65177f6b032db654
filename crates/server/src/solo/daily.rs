//! White Rabbit's daily deal: its seeds and its days, and what perfect play expects of it.
//!
//! The daily deal is one seed per UTC day for everyone: an HMAC of the day under a key that
//! never leaves the server ([`daily_seed`]), so no finished game of one day tells anything
//! about another day's dice. Each player gets one attempt on the day itself: asking again
//! returns the same table, finished or not, so a bad start cannot be thrown away. A won
//! attempt is ranked by score, then by fewest actions. Daily tables are private and their seed
//! stays hidden until the day is over. A past day's deal can be replayed as often as one likes
//! for practice: an ordinary private table on that deal, outside the leaderboard. Days to come,
//! and days before the first deal, cannot be played.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::{
    Date, OffsetDateTime,
    macros::{date, format_description},
};

use crate::error::{ApiError, ErrorCode};

/// The variant of the daily deal: one competition, on the default rules.
pub const DAILY_VARIANT: &str = "classic";

/// The first day with a daily deal: earlier days are refused rather than handed out as
/// endless extra deals.
const FIRST_DAY: Date = date!(2025 - 01 - 01);

/// The seed of `day`'s daily deal: the first eight bytes of HMAC-SHA256(key, day). Without the
/// key, knowing the seeds of any number of other days predicts nothing about this one. A day
/// whose dice would be won before the first action (about one deal in 9,000) takes the HMAC
/// of the day with `/1` appended, then `/2`, and so on ([`super::playable_seed`]).
pub fn daily_seed(key: &[u8], day: &str) -> u64 {
    let variant = catalog::GameId::WhiteRabbit
        .variant(Some(DAILY_VARIANT))
        .expect("the daily variant is in the catalogue");
    super::playable_seed(variant, |attempt| keyed_seed(key, day, attempt))
}

/// The HMAC of the day (and of the attempt, after the first).
fn keyed_seed(key: &[u8], day: &str, attempt: u32) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"stolik/white-rabbit/daily/");
    mac.update(day.trim().as_bytes());
    if attempt > 0 {
        mac.update(format!("/{attempt}").as_bytes());
    }
    let digest = mac.finalize().into_bytes();
    u64::from_le_bytes(digest[..8].try_into().expect("SHA-256 has 32 bytes"))
}

/// Today, in UTC: the day whose deal is the current daily deal.
pub fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// `YYYY-MM-DD` (the `Display` of `time::Date`).
pub fn day_text(day: Date) -> String {
    day.to_string()
}

/// Whether `daily` (a game's daily-deal day, if it is one) is a day still being played: its
/// seed and its review are withheld until the day is over, since everyone plays the same dice.
pub fn daily_still_open(daily: Option<&str>) -> bool {
    daily.is_some_and(|day| day >= day_text(today()).as_str())
}

/// Reads a day a client names; it must be a real date from [`FIRST_DAY`] to today.
///
/// Text not of the form `YYYY-MM-DD` is `bad_request`; a date of that form with no deal (not
/// a day of the calendar, not out yet, or before the first) is `not_found`.
pub fn parse_day(text: &str) -> Result<Date, ApiError> {
    let well_formed = text.len() == 10
        && text.char_indices().all(|(i, c)| match i {
            4 | 7 => c == '-',
            _ => c.is_ascii_digit(),
        });
    if !well_formed {
        return Err(ApiError::bad_request(format!(
            "{text:?} is not a day (YYYY-MM-DD)"
        )));
    }
    let day = Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map_err(|_| ApiError::new(ErrorCode::NotFound, format!("{text} is not a day")))?;
    if day > today() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("the deal of {day} is not out yet"),
        ));
    }
    if day < FIRST_DAY {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("the first daily deal is the one of {FIRST_DAY}"),
        ));
    }
    Ok(day)
}

/// The day a client names, or today.
pub fn chosen_day(text: Option<&str>) -> Result<Date, ApiError> {
    text.map_or_else(|| Ok(today()), parse_day)
}

impl super::Solo {
    /// What perfect play expects of `day`'s deal from its first position — the best action's
    /// exact values — when the tables of that level are loaded; `None` otherwise (no estimate
    /// stands in for it). Expected values say nothing of the dice to come.
    pub fn perfect_play(&self, day: &str) -> Option<rabbit_solver::Hint> {
        let variant = catalog::GameId::WhiteRabbit
            .variant(Some(DAILY_VARIANT))
            .ok()?;
        let catalog::AnyGame::WhiteRabbit(game) =
            catalog::AnyGame::new(variant, self.daily_seed(day))
        else {
            return None;
        };
        let mut hints = self.tables.as_ref()?.hints(&game)?;
        super::ranking::rank_hints(&mut hints);
        hints.into_iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_days_seed_is_shared_and_keyed() {
        let key = b"a deployment key";
        assert_eq!(daily_seed(key, "2025-06-01"), daily_seed(key, "2025-06-01"));
        let mut seen = std::collections::HashSet::new();
        for month in 1..=12 {
            for day in 1..=28 {
                assert!(seen.insert(daily_seed(key, &format!("2025-{month:02}-{day:02}"))));
            }
        }
        assert_ne!(
            daily_seed(key, "2025-06-01"),
            daily_seed(b"another key", "2025-06-01")
        );
    }

    #[test]
    fn a_day_whose_dice_start_won_is_dealt_again() {
        let key = b"a deployment key";
        let variant = catalog::GameId::WhiteRabbit
            .variant(Some(DAILY_VARIANT))
            .unwrap();
        let won_at_once = |seed| catalog::AnyGame::new(variant, seed).is_over();
        // About one day in 9,000 would deal a game already won: find one.
        let day = (0..200_000)
            .map(|n| format!("day {n}"))
            .find(|day| won_at_once(keyed_seed(key, day, 0)))
            .expect("a deal won before its first action");
        let seed = daily_seed(key, &day);
        assert_ne!(seed, keyed_seed(key, &day, 0));
        assert!(!won_at_once(seed));
        assert_eq!(seed, daily_seed(key, &day), "still one seed for the day");
        // Any other day keeps its first seed.
        assert_eq!(
            daily_seed(key, "2025-06-01"),
            keyed_seed(key, "2025-06-01", 0)
        );
    }

    #[test]
    fn days_before_the_first_deal_and_after_today_are_refused() {
        assert!(parse_day("2025-01-01").is_ok());
        assert!(parse_day("2024-12-31").is_err());
        assert!(parse_day("-9999-01-01").is_err());
        assert!(parse_day(&day_text(today())).is_ok());
        assert!(parse_day(&day_text(today().next_day().unwrap())).is_err());
        assert!(parse_day("2025-02-30").is_err());
    }
}
