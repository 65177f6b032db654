//! The table's state: the game and everything about it that is not the runtime's, a new
//! table's state, and the questions every rule asks of it (who sits where, who moves, which
//! status). The orders themselves are checked in [`super::rules`].

use crate::ws::protocol::TableId;
use record::GameStatus;
use std::collections::{HashMap, VecDeque};

use catalog::{AnyGame, EndReason, Outcome, Seat};
use std::time::{Duration, Instant};

use super::clock::Clock;
use super::effects::Step;
use super::presence::Presence;
use super::{NewTable, Ply, TableSettings, bot_level, next_turn};
use crate::error::{ErrorCode, WsError};
use crate::ws::protocol::{ChatView, NextTurn, UserView, VacationView};

/// A table's game and everything about it that is not the runtime's (see [`core`]).
pub struct TableState {
    pub(in crate::table) id: TableId,
    /// The deal the game started from (replayed after a takeback).
    pub(in crate::table) seed: u64,
    pub(in crate::table) settings: TableSettings,
    pub(in crate::table) token: String,
    pub(in crate::table) host: Option<String>,
    pub(in crate::table) seats: Vec<Option<UserView>>,
    pub(in crate::table) status: GameStatus,
    pub(in crate::table) game: AnyGame,
    pub(in crate::table) plies: Vec<Ply>,
    pub(in crate::table) clock: Option<Clock>,
    /// Correspondence: the unix ms by which the side to move must move.
    pub(in crate::table) deadline: Option<i64>,
    /// The side to move has been told its deadline is near.
    pub(in crate::table) warned: bool,
    /// Correspondence: the side to move let its deadline pass and took vacation days.
    pub(in crate::table) vacation: Option<VacationView>,
    pub(in crate::table) result: Option<Outcome>,
    pub(in crate::table) reason: Option<EndReason>,
    pub(in crate::table) draw_offer: Option<Seat>,
    /// A player asked to take back their last move.
    pub(in crate::table) takeback_offer: Option<Seat>,
    pub(in crate::table) rematch_offer: Option<Seat>,
    pub(in crate::table) rematch: Option<String>,
    pub(in crate::table) chat: VecDeque<ChatView>,
    pub(in crate::table) chat_times: HashMap<String, VecDeque<Instant>>,
    /// Who moves next and their legal moves, computed once per position (every snapshot
    /// and move event carries it).
    pub(in crate::table) next: NextTurn,
    /// Each seat's rating in this table's game and class, and its change once a rated game
    /// has ended.
    pub(in crate::table) ratings: Vec<Option<rating::Rating>>,
    pub(in crate::table) rating_changes: Vec<Option<i32>>,
    /// When the table was opened and when the game began (unix ms).
    pub(in crate::table) created_at: i64,
    pub(in crate::table) started_at: Option<i64>,
    /// Players of a live two-person game who have left.
    pub(in crate::table) presence: Presence,
    /// A correspondence day (shorter in tests).
    pub(in crate::table) day: Duration,
    /// Restored at start-up and not yet released: no clock runs, no deadline passes and no
    /// bot thinks until the server takes requests, so nobody is charged for the start-up.
    pub(in crate::table) held: bool,
    /// An arena game's side (berserk), once the actor has read it; `None` otherwise.
    pub(in crate::table) arena: Option<super::berserk::ArenaSide>,
}

/// A move the store has taken, to apply.
pub struct Played {
    pub seat: Seat,
    pub mv: String,
    pub next: AnyGame,
    /// The clock after the mover's turn, and the times it stored with the move.
    pub clock: Option<Clock>,
    pub remaining: Option<[i64; 2]>,
    /// Unix ms.
    pub played_at: i64,
}

/// Who gives an order, as the rules need to know them.
pub struct Orderer<'a> {
    pub user: &'a UserView,
    /// Their connection watches the table (chat needs it).
    pub subscribed: bool,
}

/// A solo game in progress as its helpers see it (hints): its record, from which they
/// replay it, here or on another node.
#[derive(Debug)]
pub struct SoloPosition {
    pub variant: catalog::VariantId,
    pub seed: u64,
    pub moves: Vec<String>,
}

impl TableState {
    /// A new table's state, waiting for its players.
    pub fn new(new: NewTable, day: Duration) -> TableState {
        let game = AnyGame::new(new.settings.variant(), new.seed);
        TableState {
            id: new.id,
            seed: new.seed,
            takeback_offer: None,
            next: next_turn(&game),
            clock: new.settings.control().map(Clock::new),
            deadline: None,
            warned: false,
            vacation: None,
            settings: new.settings,
            token: new.token,
            host: new.host.map(|h| h.id),
            seats: new.seats,
            status: GameStatus::Open,
            game,
            plies: Vec::new(),
            result: None,
            reason: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            chat: VecDeque::new(),
            chat_times: HashMap::new(),
            ratings: Vec::new(),
            rating_changes: Vec::new(),
            created_at: new.created_at,
            started_at: None,
            presence: Presence::default(),
            day,
            held: false,
            arena: None,
        }
    }

    /// The bot to ask for a move now, and the ply it answers for: when a bot sits at the side
    /// to move of a running game (and the table is not held).
    pub fn bot_turn(&self) -> Option<(ai::Level, u32)> {
        if self.status != GameStatus::Playing || self.held {
            return None;
        }
        let seat = self.game.to_move()?;
        let level = self.seats.get(seat.index())?.as_ref().and_then(bot_level)?;
        Some((level, self.plies.len() as u32))
    }

    /// Correspondence: the move to play now is due `days` after `from_ms`.
    pub(in crate::table) fn set_deadline(&mut self, from_ms: i64) {
        self.deadline = self
            .settings
            .days()
            .filter(|_| self.status == GameStatus::Playing)
            .map(|d| from_ms + self.days(d).as_millis() as i64);
        // A new deadline is the next move's: a vacation was the last one's.
        self.vacation = None;
    }

    /// Runs the clock of the side to move, once both sides have moved.
    pub(in crate::table) fn start_clock(&mut self, now: Instant) {
        let both_moved = self.both_sides_moved();
        if let (Some(clock), Some(seat)) = (self.clock.as_mut(), self.game.to_move())
            && both_moved
        {
            clock.start(seat, now);
        }
    }

    /// How long `days` correspondence days last.
    pub(in crate::table) fn days(&self, days: u8) -> Duration {
        self.day * u32::from(days)
    }

    pub(in crate::table) fn may_watch(
        &self,
        user: Option<&UserView>,
        token: Option<&str>,
    ) -> Result<(), WsError> {
        let insider = user.is_some_and(|u| {
            self.seat_of(&u.id).is_some() || self.host.as_deref() == Some(u.id.as_str())
        });
        if !self.settings.private() || insider || token == Some(self.token.as_str()) {
            Ok(())
        } else {
            Err(WsError::new(
                ErrorCode::Forbidden,
                "this table is private: open it through its invitation link",
            ))
        }
    }

    pub(in crate::table) fn seat_of(&self, user_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|u| u.id == user_id))
            .and_then(Seat::from_index)
    }

    pub(in crate::table) fn seated(&self, user: &UserView) -> Result<Seat, WsError> {
        self.seat_of(&user.id).ok_or_else(|| {
            WsError::new(
                ErrorCode::NotSeated,
                "only the players at this table may do that",
            )
        })
    }

    pub(in crate::table) fn require(&self, status: GameStatus, what: &str) -> Result<(), WsError> {
        if self.status == status {
            Ok(())
        } else {
            Err(WsError::new(
                ErrorCode::WrongState,
                format!(
                    "{what} needs a {} game; this one is {}",
                    status.as_str(),
                    self.status.as_str()
                ),
            ))
        }
    }

    /// The bot sitting opposite `seat`, if any.
    pub(in crate::table) fn bot_opposite(&self, seat: Seat) -> Option<ai::Level> {
        self.seats
            .get(seat.other().index())?
            .as_ref()
            .and_then(bot_level)
    }

    pub(in crate::table) fn seat_labels(&self) -> Vec<&'static str> {
        (0..self.seats.len())
            .filter_map(Seat::from_index)
            .map(|seat| self.game.seat_label(seat))
            .collect()
    }

    pub(in crate::table) fn two_player_seat(&self, user: &UserView) -> Result<Seat, WsError> {
        if self.seats.len() != 2 {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "this needs an opponent: a solo table has none",
            ));
        }
        self.seated(user)
    }

    /// Who sits at the side to move, if anyone.
    pub(in crate::table) fn mover(&self) -> Option<&UserView> {
        let seat = self.game.to_move()?;
        self.seats.get(seat.index())?.as_ref()
    }

    /// The game in progress for its player's helpers (hints): only at a solo table, and not
    /// on the daily deal, which everyone plays on their own.
    pub(in crate::table) fn solo_position(&self, user: &UserView) -> Result<SoloPosition, WsError> {
        if !self.settings.variant().game().is_solo() {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "hints are for White Rabbit tables",
            ));
        }
        self.seated(user)?;
        self.require(GameStatus::Playing, "give hints")?;
        if self.settings.daily().is_some() {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "no hints on the daily deal: everyone plays it on their own",
            ));
        }
        Ok(SoloPosition {
            variant: self.settings.variant(),
            seed: self.seed,
            moves: self.plies.iter().map(|p| p.mv.clone()).collect(),
        })
    }

    /// How many plies stay when `seat` takes back its last move: everything before it (the
    /// opponent's answer to it goes too).
    pub(in crate::table) fn takeback_keeps(&self, seat: Seat) -> Option<usize> {
        self.plies.iter().rposition(|ply| ply.by == seat)
    }
}

pub(in crate::table) fn wrong(message: impl Into<String>) -> WsError {
    WsError::new(ErrorCode::WrongState, message)
}

pub(in crate::table) fn finish(
    status: GameStatus,
    result: Option<Outcome>,
    reason: EndReason,
) -> Step {
    Step::Finish {
        status,
        result,
        reason,
    }
}
