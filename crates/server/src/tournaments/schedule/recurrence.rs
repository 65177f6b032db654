//! When a scheduled event recurs: at a minute past some hours of the day (UTC), on some days
//! of the week. Pure arithmetic on unix milliseconds, so that every node and every restart
//! finds the same start times, and so the same keys.

use serde::Deserialize;

const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 60 * MINUTE_MS;

/// A day of the week, as the schedule file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Weekday {
    /// Monday first.
    pub const ALL: [Weekday; 7] = [
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ];

    /// The weekday of day `day` since the unix epoch (UTC), a Thursday.
    fn of_day(day: i64) -> Weekday {
        Weekday::ALL[(day + 3).rem_euclid(7) as usize]
    }
}

/// The start times of a recurring event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurrence {
    /// Hours of the day (UTC, 0–23) it starts in.
    pub hours: Vec<u8>,
    /// The minute past each of those hours (0–59).
    pub minute: u8,
    /// The days of the week it is held on.
    pub weekdays: Vec<Weekday>,
}

impl Recurrence {
    /// Checks the parts; the error names the field.
    pub fn new(hours: Vec<u8>, minute: u8, weekdays: Vec<Weekday>) -> Result<Recurrence, String> {
        if hours.is_empty() {
            return Err("`hours` must list at least one hour of the day (0 to 23, UTC)".into());
        }
        if let Some(bad) = hours.iter().find(|&&hour| hour > 23) {
            return Err(format!(
                "`hours`: {bad} is not an hour of the day (0 to 23, UTC)"
            ));
        }
        if minute > 59 {
            return Err(format!(
                "`minute`: {minute} is not a minute of the hour (0 to 59)"
            ));
        }
        if weekdays.is_empty() {
            return Err(
                "`weekdays` must name at least one day (mon … sun), or be left out for every day"
                    .into(),
            );
        }
        Ok(Recurrence {
            hours,
            minute,
            weekdays,
        })
    }

    /// Every start time (unix ms) after `after` and up to `until`, in order.
    pub fn starts_between(&self, after: i64, until: i64) -> Vec<i64> {
        let mut starts = Vec::new();
        let offset = i64::from(self.minute) * MINUTE_MS;
        let mut hour = (after - offset).div_euclid(HOUR_MS);
        loop {
            let start = hour * HOUR_MS + offset;
            if start > until {
                return starts;
            }
            let of_day = hour.rem_euclid(24) as u8;
            let day = hour.div_euclid(24);
            if start > after
                && self.hours.contains(&of_day)
                && self.weekdays.contains(&Weekday::of_day(day))
            {
                starts.push(start);
            }
            hour += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-07 00:00 UTC, a Monday.
    const MONDAY: i64 = 1_796_601_600_000;

    #[test]
    fn the_epoch_was_a_thursday_and_the_seventh_of_december_2026_a_monday() {
        assert_eq!(Weekday::of_day(0), Weekday::Thu);
        assert_eq!(Weekday::of_day(MONDAY / (24 * HOUR_MS)), Weekday::Mon);
    }

    #[test]
    fn starts_fall_on_the_listed_hours_and_minute_after_the_first_instant() {
        let evening = Recurrence::new(vec![18, 20], 30, Weekday::ALL.to_vec()).unwrap();
        let at = |h: i64, m: i64| MONDAY + h * HOUR_MS + m * MINUTE_MS;
        assert_eq!(
            evening.starts_between(at(17, 0), at(23, 0)),
            vec![at(18, 30), at(20, 30)]
        );
        // A start exactly at `after` has been dealt with; one exactly at `until` has not.
        assert_eq!(
            evening.starts_between(at(18, 30), at(20, 30)),
            vec![at(20, 30)]
        );
        // Over midnight into the next day.
        assert_eq!(
            evening.starts_between(at(21, 0), at(24 + 19, 0)),
            vec![at(24 + 18, 30)]
        );
    }

    #[test]
    fn weekdays_keep_only_their_days() {
        let weekly = Recurrence::new(vec![12], 0, vec![Weekday::Wed]).unwrap();
        let week = 7 * 24 * HOUR_MS;
        let starts = weekly.starts_between(MONDAY, MONDAY + 2 * week);
        assert_eq!(
            starts,
            vec![
                MONDAY + 2 * 24 * HOUR_MS + 12 * HOUR_MS,
                MONDAY + 9 * 24 * HOUR_MS + 12 * HOUR_MS
            ]
        );
    }

    #[test]
    fn bad_parts_are_refused_by_name() {
        let late = Recurrence::new(vec![24], 0, Weekday::ALL.to_vec()).unwrap_err();
        assert!(late.contains("`hours`: 24"), "{late}");
        let minute = Recurrence::new(vec![1], 60, Weekday::ALL.to_vec()).unwrap_err();
        assert!(minute.contains("`minute`"), "{minute}");
        assert!(Recurrence::new(vec![], 0, Weekday::ALL.to_vec()).is_err());
        assert!(Recurrence::new(vec![1], 0, vec![]).is_err());
    }
}
