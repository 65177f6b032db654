//! Vacation days of correspondence games (docs/rules-decisions.md, "Vacation"): each account
//! has [`DAYS_A_YEAR`] a calendar year (UTC). When the deadline of an account's move passes
//! and automatic use is on, one day is taken and the deadline moves a day later, again each
//! day while days are left. Pure arithmetic over the stored [`Vacation`]; guests have none.

use store::Vacation;
use time::OffsetDateTime;

/// Days each account may take in a calendar year.
pub const DAYS_A_YEAR: i64 = 20;

/// The calendar year (UTC) of the unix ms `at_ms`.
pub fn year_of(at_ms: i64) -> i64 {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(at_ms) * 1_000_000)
        .map_or(1970, |t| i64::from(t.year()))
}

/// Days left in `year`: a new year starts from none used.
pub fn days_left(vacation: &Vacation, year: i64) -> i64 {
    if vacation.year == year {
        (DAYS_A_YEAR - vacation.used).max(0)
    } else {
        DAYS_A_YEAR
    }
}

/// The allowance once a day of `year` is taken automatically, or `None` when none may be:
/// automatic use is off or this year's days are spent.
pub fn take_day(vacation: &Vacation, year: i64) -> Option<Vacation> {
    if !vacation.auto || days_left(vacation, year) == 0 {
        return None;
    }
    let used = if vacation.year == year {
        vacation.used + 1
    } else {
        1
    };
    Some(Vacation {
        used,
        year,
        auto: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ON: Vacation = Vacation {
        used: 0,
        year: 0,
        auto: true,
    };

    #[test]
    fn the_year_is_the_utc_calendar_year() {
        // 2026-12-31T23:59:59.999Z and a millisecond later.
        assert_eq!(year_of(1_798_761_599_999), 2026);
        assert_eq!(year_of(1_798_761_600_000), 2027);
        assert_eq!(year_of(0), 1970);
    }

    #[test]
    fn a_deadline_passed_with_days_left_takes_one() {
        let first = take_day(&ON, 2026).expect("a fresh account has days");
        assert_eq!((first.used, first.year), (1, 2026));
        assert_eq!(days_left(&first, 2026), DAYS_A_YEAR - 1);
        let second = take_day(&first, 2026).expect("19 days are left");
        assert_eq!(days_left(&second, 2026), DAYS_A_YEAR - 2);
    }

    #[test]
    fn with_no_day_left_the_game_is_lost_on_time() {
        let mut vacation = ON;
        for _ in 0..DAYS_A_YEAR {
            vacation = take_day(&vacation, 2026).expect("days are left");
        }
        assert_eq!(days_left(&vacation, 2026), 0);
        assert_eq!(take_day(&vacation, 2026), None);
    }

    #[test]
    fn with_automatic_use_off_no_day_is_taken() {
        let off = Vacation { auto: false, ..ON };
        assert_eq!(take_day(&off, 2026), None);
        // The days are still there for when it is turned on again.
        assert_eq!(days_left(&off, 2026), DAYS_A_YEAR);
    }

    #[test]
    fn a_new_year_gives_the_whole_allowance_again() {
        let spent = Vacation {
            used: DAYS_A_YEAR,
            year: 2026,
            auto: true,
        };
        assert_eq!(take_day(&spent, 2026), None);
        assert_eq!(days_left(&spent, 2027), DAYS_A_YEAR);
        let taken = take_day(&spent, 2027).expect("a new year");
        assert_eq!((taken.used, taken.year), (1, 2027));
    }
}
