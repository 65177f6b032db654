//! Fischer clocks kept by the server.
//!
//! Pure bookkeeping over `Instant`s handed in by the caller, so that it can be tested without
//! sleeping. A side's clock runs only while it is that side's turn and only once both sides
//! have moved (as on lichess: before that a game can still be aborted, and nobody loses on
//! time for not having sat down yet).

pub use crate::ws::protocol::TimeControl;
use catalog::Seat;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Clock {
    control: TimeControl,
    /// Milliseconds left for seats A and B, as of the moment the running clock started.
    remaining: [i64; 2],
    running: Option<(Seat, Instant)>,
    /// Seats that went berserk (an arena's rule): they get no increment.
    no_increment: [bool; 2],
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let start = control.initial_ms as i64;
        Clock {
            control,
            remaining: [start, start],
            running: None,
            no_increment: [false; 2],
        }
    }

    /// A clock resumed from stored remaining times (after a restart), stopped.
    pub fn resumed(control: TimeControl, remaining: [i64; 2]) -> Clock {
        Clock {
            control,
            remaining,
            running: None,
            no_increment: [false; 2],
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `seat`'s clock (stopping nothing: call [`Clock::finish_turn`] first).
    pub fn start(&mut self, seat: Seat, now: Instant) {
        self.running = Some((seat, now));
    }

    /// Stops the running clock, charging the elapsed time, and adds the increment to the
    /// side that just moved. Returns the remaining times of both seats.
    pub fn finish_turn(&mut self, now: Instant) -> [i64; 2] {
        if let Some((seat, since)) = self.running.take() {
            let used = now.saturating_duration_since(since).as_millis() as i64;
            self.remaining[seat.index()] -= used;
            if !self.no_increment[seat.index()] {
                self.remaining[seat.index()] += self.control.increment_ms as i64;
            }
        }
        self.remaining
    }

    /// `seat` goes berserk: no increment from now on, and, when `halve` (the seat has not
    /// moved, so its time is still the initial), half the initial time.
    pub fn berserk(&mut self, seat: Seat, halve: bool) {
        self.no_increment[seat.index()] = true;
        if halve {
            self.remaining[seat.index()] = (self.control.initial_ms / 2) as i64;
        }
    }

    /// Stops the running clock, charging the elapsed time, without an increment (the game
    /// ended).
    pub fn stop(&mut self, now: Instant) -> [i64; 2] {
        if let Some((seat, since)) = self.running.take() {
            let used = now.saturating_duration_since(since).as_millis() as i64;
            self.remaining[seat.index()] -= used;
        }
        self.remaining
    }

    /// Remaining milliseconds of both seats at `now` (never below zero).
    pub fn remaining(&self, now: Instant) -> [i64; 2] {
        let mut left = self.remaining;
        if let Some((seat, since)) = self.running {
            left[seat.index()] -= now.saturating_duration_since(since).as_millis() as i64;
        }
        left.map(|ms| ms.max(0))
    }

    /// The seat whose clock runs, if any.
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(seat, _)| seat)
    }

    /// When the running side's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        self.running.map(|(seat, since)| {
            let left = self.remaining[seat.index()].max(0) as u64;
            since + Duration::from_millis(left)
        })
    }

    /// The seat whose flag has fallen at `now`.
    pub fn flagged(&self, now: Instant) -> Option<Seat> {
        let (seat, _) = self.running?;
        (self.remaining(now)[seat.index()] <= 0).then_some(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_running_side_is_charged_and_gets_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::new(60_000, 2_000).unwrap());
        clock.start(Seat::A, t0);
        assert_eq!(clock.remaining(t0 + ms(10_000)), [50_000, 60_000]);
        assert_eq!(clock.finish_turn(t0 + ms(10_000)), [52_000, 60_000]);
        clock.start(Seat::B, t0 + ms(10_000));
        assert_eq!(clock.finish_turn(t0 + ms(11_000)), [52_000, 61_000]);
    }

    #[test]
    fn the_flag_falls_at_the_deadline_and_not_before() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::new(3_000, 0).unwrap());
        assert_eq!(clock.deadline(), None);
        clock.start(Seat::B, t0);
        assert_eq!(clock.deadline(), Some(t0 + ms(3_000)));
        assert_eq!(clock.flagged(t0 + ms(2_999)), None);
        assert_eq!(clock.flagged(t0 + ms(3_000)), Some(Seat::B));
        assert_eq!(clock.remaining(t0 + ms(9_000)), [3_000, 0]);
    }

    #[test]
    fn a_stopped_clock_never_flags() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::new(1_000, 0).unwrap());
        clock.start(Seat::A, t0);
        clock.stop(t0 + ms(500));
        assert_eq!(clock.flagged(t0 + ms(5_000)), None);
        assert_eq!(clock.remaining(t0 + ms(5_000)), [500, 1_000]);
    }

    #[test]
    fn a_berserk_seat_has_half_the_time_and_no_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::new(60_000, 2_000).unwrap());
        clock.berserk(Seat::A, true);
        assert_eq!(clock.remaining(t0), [30_000, 60_000]);
        clock.start(Seat::A, t0);
        assert_eq!(clock.finish_turn(t0 + ms(1_000)), [29_000, 60_000]);
        clock.start(Seat::B, t0 + ms(1_000));
        assert_eq!(clock.finish_turn(t0 + ms(2_000)), [29_000, 61_000]);
    }

    #[test]
    fn time_controls_are_bounded() {
        assert!(TimeControl::new(0, 5).is_err());
        assert!(TimeControl::new(200 * 60_000, 0).is_err());
        assert!(TimeControl::new(300_000, 3_000).is_ok());
    }
}
