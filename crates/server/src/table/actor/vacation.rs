//! A correspondence deadline passed by an account with vacation days left: a day is taken
//! (written first, with the game's new deadline) and only then is the deadline moved a day
//! later and the players told, instead of the game ending on time. The arithmetic is in
//! `core/vacation.rs`. A game of a tournament that forbids vacation takes no day (the switch
//! is the tournament's, read from the store when a deadline passes).

use super::Table;
use crate::table::vacation::{days_left, take_day_in_game, year_of};
use crate::unix_time::unix_ms;

/// Tries at most this many times when other tables take days of the same player meanwhile.
const TRIES: usize = 3;

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
        let allowed = match self
            .services
            .store
            .game_forbids_vacation(&self.state.id)
            .await
        {
            Ok(forbidden) => !forbidden,
            Err(e) => {
                tracing::error!(table = %self.state.id, error = %e, "could not read whether vacation is allowed");
                return false;
            }
        };
        for _ in 0..TRIES {
            let before = match self.services.store.vacation(&user).await {
                Ok(Some(before)) => before,
                Ok(None) => return false,
                Err(e) => {
                    tracing::error!(table = %self.state.id, error = %e, "could not read vacation days");
                    return false;
                }
            };
            let Some(after) = take_day_in_game(&before, year, allowed) else {
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
        if self.state.vacation.is_none() {
            return;
        }
        let Some(user) = self.state.mover().map(|u| u.id.clone()) else {
            return;
        };
        match self.services.store.vacation(&user).await {
            Ok(Some(vacation)) => {
                if let Some(view) = self.state.vacation.as_mut() {
                    view.days_left = Some(days_left(&vacation, year_of(unix_ms())));
                }
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(table = %self.state.id, error = %e, "could not read vacation days");
            }
        }
    }
}
