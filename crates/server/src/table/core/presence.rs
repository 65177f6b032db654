//! Who has left a live game: when every socket of a seated player has been gone for the
//! grace period (or for what is left on their clock, if less), their opponent may claim the
//! game or call it a draw; a game left before both sides have moved is called off.

use catalog::Seat;
use std::time::{Duration, Instant};

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
    /// by their clock), at `now` (unix ms `now_ms`). True when anything changed, so that everyone hears of it.
    pub fn update(
        &mut self,
        connected: [bool; 2],
        grace: [Duration; 2],
        now: Instant,
        now_ms: i64,
    ) -> bool {
        let mut changed = false;
        for seat in 0..2 {
            match (connected[seat], self.away[seat]) {
                (true, Some(_)) => {
                    self.away[seat] = None;
                    changed = true;
                }
                (false, None) => {
                    self.away[seat] = Some(Away {
                        claim_at: now + grace[seat],
                        claim_at_ms: now_ms + grace[seat].as_millis() as i64,
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
                seat: Seat::from_index(index)?.letter().into(),
                claim_at: away.claim_at_ms,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRACE: [Duration; 2] = [Duration::from_secs(30), Duration::from_secs(30)];

    #[test]
    fn a_claim_opens_after_the_grace_and_closes_on_return() {
        let mut presence = Presence::default();
        let now = Instant::now();
        assert!(!presence.update([true, true], GRACE, now, 0));
        assert!(presence.update([true, false], GRACE, now, 0));
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
        assert!(presence.update([true, true], GRACE, now, 0));
        assert!(!presence.may_claim(Seat::A));
        assert!(presence.view().is_none());
    }
}
