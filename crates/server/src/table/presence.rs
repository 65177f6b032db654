//! Who has left a live game: when every socket of a seated player has been gone for the
//! grace period (or for what is left on their clock, if less), their opponent may claim the
//! game or call it a draw; a game left before both sides have moved is called off.

use catalog::Seat;
use store::GameStatus;
use tokio::time::{Duration, Instant};

use super::{Table, bot_level};
use crate::unix_time::unix_ms;
use crate::ws::protocol::AwayView;

/// One absent player.
#[derive(Debug, Clone, Copy)]
struct Away {
    /// When the opponent may claim (runtime clock, and unix ms for clients).
    claim_at: Instant,
    claim_at_ms: i64,
    /// The claim is open: the grace period has passed.
    due: bool,
}

/// The absences at one two-player table.
#[derive(Debug, Default)]
pub struct Presence {
    away: [Option<Away>; 2],
}

impl Presence {
    /// Records who is connected now. `grace` is how long `seat` may be gone (already capped
    /// by their clock). True when anything changed, so that everyone hears of it.
    pub fn update(&mut self, connected: [bool; 2], grace: [Duration; 2]) -> bool {
        let mut changed = false;
        for seat in 0..2 {
            match (connected[seat], self.away[seat]) {
                (true, Some(_)) => {
                    self.away[seat] = None;
                    changed = true;
                }
                (false, None) => {
                    self.away[seat] = Some(Away {
                        claim_at: Instant::now() + grace[seat],
                        claim_at_ms: unix_ms() + grace[seat].as_millis() as i64,
                        due: false,
                    });
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    }

    /// Forgets every absence (the game ended, or is not one where absence counts).
    pub fn clear(&mut self) -> bool {
        let changed = self.away.iter().any(Option::is_some);
        self.away = [None, None];
        changed
    }

    /// When the next grace period runs out.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.away
            .iter()
            .flatten()
            .filter(|a| !a.due)
            .map(|a| a.claim_at)
            .min()
    }

    /// Marks the absences whose grace has run out as claimable; returns those seats.
    pub fn expire(&mut self, now: Instant) -> Vec<Seat> {
        let mut expired = Vec::new();
        for (index, away) in self.away.iter_mut().enumerate() {
            if let Some(away) = away
                && !away.due
                && away.claim_at <= now
            {
                away.due = true;
                expired.extend(Seat::from_index(index));
            }
        }
        expired
    }

    /// Whether the player in `seat` may now claim the game of their absent opponent.
    pub fn may_claim(&self, seat: Seat) -> bool {
        self.away[seat.other().index()].is_some_and(|a| a.due)
    }

    /// The first absent player, for the table's snapshot.
    pub fn view(&self) -> Option<AwayView> {
        self.away.iter().enumerate().find_map(|(index, away)| {
            let away = away.as_ref()?;
            Some(AwayView {
                seat: Seat::from_index(index)?.letter(),
                claim_at: away.claim_at_ms,
            })
        })
    }
}

impl Table {
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
            && self.state.settings.days.is_none()
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
        self.state.presence.update(connected, grace)
    }

    /// A player's grace period ran out: before both sides have moved the game is called
    /// off; after, their opponent may claim it.
    pub(super) async fn absence_expired(&mut self) {
        let gone = self.state.presence.expire(Instant::now());
        if gone.is_empty() || self.state.status != GameStatus::Playing {
            return;
        }
        if !self.state.both_sides_moved() {
            if let Err(e) = self.finish(GameStatus::Aborted, None, "abandoned").await {
                tracing::error!(table = %self.state.id, error = %e, "could not call off an abandoned game");
            }
            return;
        }
        self.broadcast_snapshots();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRACE: [Duration; 2] = [Duration::from_secs(30), Duration::from_secs(30)];

    #[test]
    fn a_claim_opens_after_the_grace_and_closes_on_return() {
        let mut presence = Presence::default();
        assert!(!presence.update([true, true], GRACE));
        assert!(presence.update([true, false], GRACE));
        assert_eq!(presence.view().unwrap().seat, "b");
        assert!(!presence.may_claim(Seat::A));
        let deadline = presence.next_deadline().unwrap();
        assert!(
            presence
                .expire(deadline - Duration::from_millis(1))
                .is_empty()
        );
        assert_eq!(presence.expire(deadline), vec![Seat::B]);
        assert!(presence.may_claim(Seat::A));
        assert!(!presence.may_claim(Seat::B));
        assert_eq!(presence.next_deadline(), None);
        // Coming back withdraws the claim.
        assert!(presence.update([true, true], GRACE));
        assert!(!presence.may_claim(Seat::A));
        assert!(presence.view().is_none());
    }
}
