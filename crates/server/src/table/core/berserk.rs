//! Berserk, an arena's rule (docs/tournaments.md): before their first move a player of an
//! arena game may halve their clock and give up the increment, for an extra point if they win
//! a game that lasted. Only at a table of an arena that allows it; what the arena allows and
//! who went berserk are read from the store by the actor ([`TableState::set_arena`]).

use catalog::Seat;
use record::GameStatus;
use std::time::Instant;

use super::effects::{Effect, Step};
use super::state::{TableState, wrong};
use crate::error::WsError;
use crate::ws::protocol::{BerserkView, Message, UserView};

/// A table's arena side: whether its arena allows berserk, and who went berserk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArenaSide {
    pub berserk_allowed: bool,
    pub berserk: [bool; 2],
}

impl TableState {
    /// Whether `seat` has played a move.
    fn has_moved(&self, seat: Seat) -> bool {
        self.plies.iter().any(|ply| ply.by == seat)
    }

    /// Whether the table still needs to learn if it plays an arena game: a two-player game
    /// under way with a clock whose arena side is unknown, and (unless `restoring`, when the
    /// clock needs whoever went berserk) in which berserk could still be chosen.
    pub fn arena_unknown(&self, restoring: bool) -> bool {
        self.arena.is_none()
            && self.seats.len() == 2
            && self.clock.is_some()
            && self.status == GameStatus::Playing
            && (restoring || !self.both_sides_moved())
    }

    /// The table plays an arena game: `side` as the store has it. A seat that went berserk
    /// keeps no increment, and half its time if it has not moved yet (once it has, the times
    /// stored with the moves already say it).
    pub fn set_arena(&mut self, side: ArenaSide) {
        self.arena = Some(side);
        self.keep_berserk_clock();
    }

    /// Puts the berserk seats' rule back on a clock just rebuilt from the record.
    pub(in crate::table) fn keep_berserk_clock(&mut self) {
        let Some(side) = self.arena else { return };
        for seat in [Seat::A, Seat::B] {
            let moved = self.has_moved(seat);
            if side.berserk[seat.index()]
                && let Some(clock) = self.clock.as_mut()
            {
                clock.berserk(seat, !moved);
            }
        }
    }

    /// Whether `user` may go berserk now, and from which seat.
    pub(in crate::table) fn check_berserk(&self, user: &UserView) -> Result<Step, WsError> {
        let seat = self.two_player_seat(user)?;
        let side = self
            .arena
            .ok_or_else(|| wrong("berserk is for arena games: this is not one"))?;
        if !side.berserk_allowed {
            return Err(wrong("this arena does not allow berserk"));
        }
        self.require(GameStatus::Playing, "berserk")?;
        if side.berserk[seat.index()] {
            return Err(wrong("you went berserk already"));
        }
        if self.has_moved(seat) {
            return Err(wrong("too late: berserk is chosen before your first move"));
        }
        Ok(Step::Berserk { seat })
    }

    /// `seat` went berserk (stored already): its clock halved, no increment, everyone told.
    pub fn apply_berserk(&mut self, seat: Seat, now: Instant) -> Vec<Effect> {
        if let Some(side) = self.arena.as_mut() {
            side.berserk[seat.index()] = true;
        }
        if let Some(clock) = self.clock.as_mut() {
            clock.berserk(seat, true);
        }
        vec![Effect::Broadcast(Message::Berserk {
            table: self.id.to_string(),
            seat: seat.letter(),
            clock: self.clock_view(now),
        })]
    }

    /// What a viewer sees of berserk: at an arena table that allows it, who went berserk and
    /// whether the viewer may now.
    pub(in crate::table) fn berserk_view(&self, you: Option<Seat>) -> Option<BerserkView> {
        let side = self.arena.filter(|side| side.berserk_allowed)?;
        let can = you.is_some_and(|seat| {
            self.status == GameStatus::Playing
                && !side.berserk[seat.index()]
                && !self.has_moved(seat)
        });
        Some(BerserkView {
            seats: side.berserk,
            can,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use catalog::Seat;
    use record::GameStatus;

    use super::super::effects::Step;
    use super::super::state::{Orderer, TableState};
    use super::super::tests::{play, table_with, user};
    use super::super::{Action, TableSettings};
    use super::ArenaSide;
    use crate::error::ErrorCode;
    use crate::ws::protocol::ClockSpec;

    /// Alice (A) against Bob (B) at a one-minute Cephalopod 3×3 table with 2 s a move.
    fn timed() -> TableState {
        let clock = ClockSpec {
            initial: Some(60),
            increment: Some(2),
            days: None,
        };
        let settings = TableSettings::parse("cephalopod", Some("3x3"), false, Some(clock))
            .expect("a one-minute Cephalopod 3×3");
        let mut t = table_with(settings, vec![Some(user("alice")), Some(user("bob"))]);
        t.status = GameStatus::Playing;
        t
    }

    fn berserk_by(t: &TableState, who: &str) -> Result<Step, ErrorCode> {
        let user = user(who);
        let by = Orderer {
            user: &user,
            subscribed: true,
        };
        t.check(&by, &Action::Berserk, Instant::now())
            .map_err(|e| e.code)
    }

    #[test]
    fn berserk_is_only_for_an_arena_that_allows_it() {
        let mut t = timed();
        assert!(t.arena_unknown(false));
        assert_eq!(berserk_by(&t, "alice").err(), Some(ErrorCode::WrongState));
        assert!(t.view(None, Instant::now()).berserk.is_none());
        t.set_arena(ArenaSide::default());
        assert!(!t.arena_unknown(false));
        assert_eq!(berserk_by(&t, "alice").err(), Some(ErrorCode::WrongState));
        assert!(t.view(None, Instant::now()).berserk.is_none());
        assert_eq!(berserk_by(&t, "carol").err(), Some(ErrorCode::NotSeated));
    }

    #[test]
    fn a_player_goes_berserk_once_and_only_before_their_first_move() {
        let mut t = timed();
        t.set_arena(ArenaSide {
            berserk_allowed: true,
            berserk: [false; 2],
        });
        let alice = user("alice");
        assert!(t.view(Some(&alice), Instant::now()).berserk.unwrap().can);
        let Ok(Step::Berserk { seat }) = berserk_by(&t, "alice") else {
            panic!("alice may go berserk");
        };
        assert_eq!(seat, Seat::A);
        t.apply_berserk(seat, Instant::now());
        let seen = t.view(Some(&alice), Instant::now());
        assert_eq!(seen.clock.unwrap().remaining_ms, [30_000, 60_000]);
        let berserk = seen.berserk.unwrap();
        assert_eq!((berserk.seats, berserk.can), ([true, false], false));
        assert_eq!(berserk_by(&t, "alice").err(), Some(ErrorCode::WrongState));
        let first = t.next.legal[0].clone();
        play(&mut t, "alice", &first);
        let answer = t.next.legal[0].clone();
        play(&mut t, "bob", &answer);
        assert_eq!(berserk_by(&t, "bob").err(), Some(ErrorCode::WrongState));
    }

    #[test]
    fn a_restored_berserk_keeps_its_halved_time_and_loses_the_increment() {
        let mut t = timed();
        t.set_arena(ArenaSide {
            berserk_allowed: true,
            berserk: [false, true],
        });
        // B has not moved: its time is halved again from the initial.
        assert_eq!(
            t.clock_view(Instant::now()).unwrap().remaining_ms,
            [60_000, 30_000]
        );
    }
}
