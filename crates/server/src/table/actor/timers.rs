//! The actor's timers and the players' presence: a fallen flag or a passed correspondence
//! deadline (a vacation day taken first if one may be), the warning a day before a deadline,
//! and who of a live game has left and for how long. The rules decide what each means
//! (`core/ending.rs`, `core/presence.rs`); the times are read here.

use catalog::EndReason;
use record::NoteKind;
use std::time::{Duration, Instant};
use store::GameStatus;

use super::{Table, instant_at};
use crate::table::bot_level;
use crate::table::core::Step;
use crate::unix_time::unix_ms;

impl Table {
    /// Tells the side to move something about this game (`Hub::notify` skips bots).
    pub(super) fn notify_mover(&self, kind: NoteKind) {
        if let Some(user) = self.state.mover() {
            let open = self.subscribers.values().any(|s| s.user.id == user.id);
            self.services
                .turns
                .notify(&user.id, kind, &self.state.id, open);
        }
    }

    /// A day before a correspondence deadline (when the move was given more than a day), the
    /// side to move is told, once a move.
    pub(super) fn warning_instant(&self) -> Option<Instant> {
        self.state.settings.days().filter(|d| *d > 1)?;
        if self.state.warned || self.state.held {
            return None;
        }
        Some(instant_at(
            self.state.deadline? - self.state.days(1).as_millis() as i64,
        ))
    }

    pub(super) fn warn_of_deadline(&mut self) {
        self.state.warned = true;
        if self.state.status == GameStatus::Playing && self.state.deadline.is_some() {
            self.notify_mover(NoteKind::Deadline);
        }
    }

    /// When the correspondence deadline passes, on the runtime's clock (none while held).
    pub(super) fn deadline_instant(&self) -> Option<Instant> {
        self.state
            .deadline
            .filter(|_| !self.state.held)
            .map(instant_at)
    }

    /// Settles a fallen flag or a passed deadline, if any: a passed deadline takes a vacation
    /// day rather than end the game when its player has one to take.
    pub(super) async fn check_flag(&mut self) {
        if self.take_vacation_day().await {
            return;
        }
        let Some(Step::Finish {
            status,
            result,
            reason,
        }) = self.state.timeout(Instant::now(), unix_ms())
        else {
            return;
        };
        if let Err(e) = self.finish(status, result, reason).await {
            tracing::error!(table = %self.state.id, error = %e, %reason, "could not record a loss on time");
        }
    }

    /// Someone subscribed or left: the players' presence and the live list's count of
    /// watchers may have changed.
    pub(super) fn watchers_changed(&mut self) {
        if self.update_presence() {
            self.broadcast_snapshots();
        }
        self.publish_live();
    }

    /// Notes which players of a live two-person game have no connection left. True when that
    /// changed.
    pub(super) fn update_presence(&mut self) -> bool {
        let counts = self.state.status == GameStatus::Playing
            && !self.state.held
            && self.state.settings.days().is_none()
            && self.state.seats.len() == 2
            && self
                .state
                .seats
                .iter()
                .all(|s| s.as_ref().is_some_and(|u| bot_level(u).is_none()));
        if !counts {
            return self.state.presence.clear();
        }
        let connected = [0, 1].map(|i| {
            let id = self.state.seats[i].as_ref().map(|u| u.id.as_str());
            self.subscribers
                .values()
                .any(|sub| Some(sub.user.id.as_str()) == id)
        });
        let grace = self.services.abandon_grace;
        let remaining = self
            .state
            .clock_view(Instant::now())
            .map(|c| c.remaining_ms);
        let grace = [0, 1].map(|i| match remaining {
            Some(r) => grace.min(Duration::from_millis(r[i].max(0) as u64)),
            None => grace,
        });
        self.state
            .presence
            .update(connected, grace, Instant::now(), unix_ms())
    }

    /// A player's grace period ran out: before both sides have moved the game is called
    /// off; after, their opponent may claim it.
    pub(super) async fn absence_expired(&mut self) {
        let gone = self.state.presence.expire(Instant::now());
        if gone.is_empty() || self.state.status != GameStatus::Playing {
            return;
        }
        if !self.state.both_sides_moved() {
            if let Err(e) = self
                .finish(GameStatus::Aborted, None, EndReason::Abandoned)
                .await
            {
                tracing::error!(table = %self.state.id, error = %e, "could not call off an abandoned game");
            }
            return;
        }
        self.broadcast_snapshots();
    }
}
