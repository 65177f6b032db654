//! Vacation days of correspondence games (docs/rules-decisions.md, "Vacation"): each account
//! has [`DAYS_A_YEAR`] a calendar year (UTC). When the deadline of an account's move passes
//! and automatic use is on, one day is taken and the deadline moves a day later, again each
//! day while days are left. Pure arithmetic over the stored [`Vacation`]; guests have none.
//! Which late move may take a day, and the state once one is taken, are here too; the actor
//! reads and writes the days (`actor/vacation.rs`).

use record::NoteKind;
use record::{GameStatus, Vacation};

use super::bot_level;
use super::effects::Effect;
use super::state::TableState;
use crate::ws::protocol::VacationView;
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

/// [`take_day`] for a game that may forbid vacation days (a tournament's choice): a game
/// that forbids them takes none, whatever the account has left, and loses on time.
pub fn take_day_in_game(vacation: &Vacation, year: i64, game_allows: bool) -> Option<Vacation> {
    take_day(vacation, year).filter(|_| game_allows)
}

impl TableState {
    /// The account whose deadline has passed at `now_ms` and who might take a vacation day
    /// for it, and that deadline. Guests and bots have no vacation; a game not yet begun by
    /// both sides is called off as before (it costs nothing).
    pub(in crate::table) fn vacation_due(&self, now_ms: i64) -> Option<(String, i64)> {
        if self.status != GameStatus::Playing || self.held || !self.both_sides_moved() {
            return None;
        }
        let deadline = self.deadline.filter(|d| now_ms >= *d)?;
        let mover = self
            .mover()
            .filter(|user| !user.guest && bot_level(user).is_none())?;
        Some((mover.id.clone(), deadline))
    }

    /// Applies a vacation day that is now stored: the move is due at `deadline`, its player
    /// has `days_left` this year; everyone gets the new snapshot and the player a note.
    pub fn apply_vacation_day(&mut self, deadline: i64, days_left: i64) -> Vec<Effect> {
        self.deadline = Some(deadline);
        self.vacation = self.game.to_move().map(|seat| VacationView {
            seat: seat.letter().into(),
            days_left: Some(days_left),
        });
        let mut effects = vec![Effect::Snapshots];
        if let Some(mover) = self.mover() {
            effects.push(Effect::Notify {
                user: mover.id.clone(),
                kind: NoteKind::Vacation,
            });
        }
        effects
    }
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
    fn a_game_that_forbids_vacation_takes_no_day_whatever_is_left() {
        assert_eq!(take_day_in_game(&ON, 2026, false), None);
        assert_eq!(take_day_in_game(&ON, 2026, true), take_day(&ON, 2026));
        let off = Vacation { auto: false, ..ON };
        assert_eq!(take_day_in_game(&off, 2026, true), None);
        // Nothing is spent: the days stay for the player's other games.
        assert_eq!(days_left(&ON, 2026), DAYS_A_YEAR);
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

#[cfg(test)]
mod table_tests {
    use super::super::tests::{by_correspondence, play, table_with, user};
    use super::*;
    use crate::ws::protocol::UserView;

    /// A one-day correspondence game of `first` (A) against bob (B), due at 0.
    fn correspondence(first: UserView) -> TableState {
        let mut t = table_with(by_correspondence(1), vec![Some(first), Some(user("bob"))]);
        t.status = GameStatus::Playing;
        t.set_deadline(0);
        t
    }

    #[test]
    fn only_an_account_whose_begun_game_is_late_may_take_a_day() {
        let mut t = correspondence(user("alice"));
        let due = t.deadline.unwrap();
        // Not begun by both sides: called off as before, no day spent.
        assert_eq!(t.vacation_due(due), None);
        play(&mut t, "alice", "b2");
        play(&mut t, "bob", "a1");
        let due = t.deadline.unwrap();
        assert_eq!(t.vacation_due(due - 1), None);
        assert_eq!(t.vacation_due(due), Some(("alice".to_string(), due)));
        t.held = true;
        assert_eq!(t.vacation_due(due), None);
    }

    #[test]
    fn guests_and_bots_take_no_day() {
        let guest = UserView {
            guest: true,
            ..user("guest")
        };
        for first in [guest, super::super::bot_user(ai::Level::Easy)] {
            let id = first.id.clone();
            let mut t = correspondence(first);
            play(&mut t, &id, "b2");
            play(&mut t, "bob", "a1");
            let due = t.deadline.unwrap();
            assert_eq!(t.game.to_move(), Some(catalog::Seat::A));
            assert_eq!(t.vacation_due(due), None, "{id}");
        }
    }

    #[test]
    fn a_day_taken_moves_the_deadline_and_the_next_move_ends_the_vacation() {
        let mut t = correspondence(user("alice"));
        play(&mut t, "alice", "b2");
        play(&mut t, "bob", "a1");
        let effects = t.apply_vacation_day(123, 19);
        assert_eq!(t.deadline, Some(123));
        assert_eq!(
            t.vacation,
            Some(VacationView {
                seat: "a".into(),
                days_left: Some(19)
            })
        );
        assert!(matches!(effects[0], Effect::Snapshots));
        assert!(effects.iter().any(
            |e| matches!(e, Effect::Notify { user, kind: NoteKind::Vacation } if user == "alice")
        ));
        play(&mut t, "alice", "c3");
        assert_eq!(t.vacation, None);
    }
}
