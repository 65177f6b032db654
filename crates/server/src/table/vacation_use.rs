//! A correspondence deadline passed by an account with vacation days left: a day is taken
//! (written first, with the game's new deadline) and only then is the deadline moved a day
//! later and the players told, instead of the game ending on time. The arithmetic is in
//! [`super::vacation`].

use store::GameStatus;

use super::core::TableState;
use super::effects::Effect;
use super::vacation::{days_left, take_day, year_of};
use super::{Table, bot_level};
use crate::unix_time::unix_ms;
use crate::ws::protocol::VacationView;

/// Tries at most this many times when other tables take days of the same player meanwhile.
const TRIES: usize = 3;

impl TableState {
    /// The account whose deadline has passed at `now_ms` and who might take a vacation day
    /// for it, and that deadline. Guests and bots have no vacation; a game not yet begun by
    /// both sides is called off as before (it costs nothing).
    pub(super) fn vacation_due(&self, now_ms: i64) -> Option<(String, i64)> {
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
            seat: seat.letter(),
            days_left: Some(days_left),
        });
        let mut effects = vec![Effect::Snapshots];
        if let Some(mover) = self.mover() {
            effects.push(Effect::Notify {
                user: mover.id.clone(),
                kind: "vacation",
            });
        }
        effects
    }
}

impl Table {
    /// Takes a vacation day for a passed deadline if its player has one to take; whether it
    /// did. A failed write takes none (and the game ends on time as before).
    pub(super) async fn take_vacation_day(&mut self) -> bool {
        let Some((user, deadline)) = self.state.vacation_due(unix_ms()) else {
            return false;
        };
        // The day counts in the year of the deadline it covers, whenever the server sees it.
        let year = year_of(deadline);
        let moved = deadline + self.state.days(1).as_millis() as i64;
        let ply = self.state.plies.len() as u32;
        for _ in 0..TRIES {
            let before = match self.services.store.vacation(&user).await {
                Ok(Some(before)) => before,
                Ok(None) => return false,
                Err(e) => {
                    tracing::error!(table = %self.state.id, error = %e, "could not read vacation days");
                    return false;
                }
            };
            let Some(after) = take_day(&before, year) else {
                return false;
            };
            let taken = self
                .services
                .store
                .take_vacation_day(&user, &before, &after, &self.state.id, ply, moved)
                .await;
            match taken {
                Ok(true) => {
                    let effects = self
                        .state
                        .apply_vacation_day(moved, days_left(&after, year));
                    self.deliver(effects);
                    return true;
                }
                // Another table took a day, or the player switched: read again.
                Ok(false) => continue,
                Err(e) => {
                    tracing::error!(table = %self.state.id, error = %e, "could not take a vacation day");
                    return false;
                }
            }
        }
        false
    }

    /// A restored game whose player is on vacation: their days left, for the snapshots.
    pub(super) async fn load_vacation(&mut self) {
        let Some(view) = self.state.vacation else {
            return;
        };
        let Some(user) = self.state.mover().map(|u| u.id.clone()) else {
            return;
        };
        match self.services.store.vacation(&user).await {
            Ok(Some(vacation)) => {
                self.state.vacation = Some(VacationView {
                    days_left: Some(days_left(&vacation, year_of(unix_ms()))),
                    ..view
                });
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(table = %self.state.id, error = %e, "could not read vacation days");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{play, settings, table_with, user};
    use super::*;
    use crate::ws::protocol::UserView;

    /// A one-day correspondence game of `first` (A) against bob (B), due at 0.
    fn correspondence(first: UserView) -> TableState {
        let mut s = settings("cephalopod", "3x3");
        s.days = Some(1);
        let mut t = table_with(s, vec![Some(first), Some(user("bob"))]);
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
                seat: "a",
                days_left: Some(19)
            })
        );
        assert!(matches!(effects[0], Effect::Snapshots));
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::Notify { user, kind: "vacation" } if user == "alice"))
        );
        play(&mut t, "alice", "c3");
        assert_eq!(t.vacation, None);
    }
}
