//! The table's state and its rules: who may watch, sit, move, offer or claim in which state,
//! and what every viewer sees. Nothing here touches the runtime, the database or a socket;
//! the time is handed in. The actor ([`super::actor`]) runs these rules, writes what they
//! accept, and only then tells anyone.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use store::GameStatus;

use catalog::{AnyGame, Outcome, Seat};
use rabbit_solver::white_rabbit::WhiteRabbit;
use tokio::time::{Duration, Instant};

use super::clock::Clock;
use super::effects::{Effect, Step};
use super::handle::Action;
use super::presence::Presence;
use super::{NewTable, Ply, RATED_FOR_ACCOUNTS, TableSettings, bot_level, next_turn};
use crate::error::{ErrorCode, WsError};
use crate::ws::protocol::{ChatView, Message, NextTurn, OfferKind, UserView, VacationView};

/// A table's game and everything about it that is not the runtime's (see [`core`]).
pub struct TableState {
    pub(super) id: Arc<str>,
    /// The deal the game started from (replayed after a takeback).
    pub(super) seed: u64,
    pub(super) settings: TableSettings,
    pub(super) token: String,
    pub(super) host: Option<String>,
    pub(super) seats: Vec<Option<UserView>>,
    pub(super) status: GameStatus,
    pub(super) game: AnyGame,
    pub(super) plies: Vec<Ply>,
    pub(super) clock: Option<Clock>,
    /// Correspondence: the unix ms by which the side to move must move.
    pub(super) deadline: Option<i64>,
    /// The side to move has been told its deadline is near.
    pub(super) warned: bool,
    /// Correspondence: the side to move let its deadline pass and took vacation days.
    pub(super) vacation: Option<VacationView>,
    pub(super) result: Option<Outcome>,
    pub(super) reason: Option<String>,
    pub(super) draw_offer: Option<Seat>,
    /// A player asked to take back their last move.
    pub(super) takeback_offer: Option<Seat>,
    pub(super) rematch_offer: Option<Seat>,
    pub(super) rematch: Option<String>,
    pub(super) chat: VecDeque<ChatView>,
    pub(super) chat_times: HashMap<String, VecDeque<Instant>>,
    /// Who moves next and their legal moves, computed once per position (every snapshot
    /// and move event carries it).
    pub(super) next: NextTurn,
    /// Each seat's rating in this table's game and class, and its change once a rated game
    /// has ended.
    pub(super) ratings: Vec<Option<rating::Rating>>,
    pub(super) rating_changes: Vec<Option<i32>>,
    /// When the table was opened and when the game began (unix ms).
    pub(super) created_at: i64,
    pub(super) started_at: Option<i64>,
    /// Players of a live two-person game who have left.
    pub(super) presence: Presence,
    /// A correspondence day (shorter in tests).
    pub(super) day: Duration,
    /// Restored at start-up and not yet released: no clock runs, no deadline passes and no
    /// bot thinks until the server takes requests, so nobody is charged for the start-up.
    pub(super) held: bool,
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

/// What a White Rabbit hint is computed from: the position, its ply, and every position of the
/// turn under way (so that no hint leads back into one).
#[derive(Debug)]
pub struct HintPosition {
    pub game: WhiteRabbit,
    pub ply: u32,
    pub this_turn: std::collections::HashSet<String>,
    /// The game's record (variant, seed, moves), from which another node rebuilds `game`.
    pub variant: catalog::VariantId,
    pub seed: u64,
    pub moves: Vec<String>,
}

impl TableState {
    /// A new table's state, waiting for its players.
    pub fn new(new: NewTable, day: Duration) -> TableState {
        let game = AnyGame::new(new.settings.variant, new.seed);
        TableState {
            id: new.id.into(),
            seed: new.seed,
            takeback_offer: None,
            next: next_turn(&game),
            clock: new.settings.control.map(Clock::new),
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

    /// Checks `action` by `by` against the state at `now`: what it would do, or why not.
    /// Changes nothing; a refused order leaves the table exactly as it was.
    pub fn check(&self, by: &Orderer<'_>, action: &Action, now: Instant) -> Result<Step, WsError> {
        let user = by.user;
        match action {
            Action::Sit { seat, token } => self.check_sit(user, *seat, token.as_deref()),
            Action::Stand => {
                let seat = self.seated(user)?;
                self.require(GameStatus::Open, "standing up")?;
                Ok(Step::Stand { seat })
            }
            Action::Cancel => {
                if self.host.as_deref() != Some(user.id.as_str()) {
                    return Err(WsError::new(
                        ErrorCode::Forbidden,
                        "only the table's host can cancel it",
                    ));
                }
                self.require(GameStatus::Open, "cancelling the table")?;
                Ok(finish(GameStatus::Aborted, None, "cancelled"))
            }
            Action::Move { mv, ply } => self.check_move(user, mv, *ply),
            Action::Resign => {
                let seat = self.seated(user)?;
                self.require(GameStatus::Playing, "resigning")?;
                // Giving up a solo puzzle is a loss.
                let result = match self.seats.len() {
                    1 => Outcome::SoloLost,
                    _ => Outcome::Win(seat.other()),
                };
                Ok(self.decided(result, "resign"))
            }
            Action::Abort => {
                self.seated(user)?;
                self.require(GameStatus::Playing, "aborting")?;
                if self.both_sides_moved() {
                    return Err(wrong(
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                Ok(finish(GameStatus::Aborted, None, "abort"))
            }
            Action::DrawOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "a draw offer")?;
                // Perekati-pole's bots weigh an offer (on their turn); the others do not.
                if self.bot_opposite(seat).is_some() && !ai::judges_endings(&self.game) {
                    return Err(wrong("bots play every game to its end: they take no draws"));
                }
                if self.draw_offer == Some(seat.other()) {
                    return Ok(self.decided(Outcome::Draw, "agreement"));
                }
                Ok(Step::Offer {
                    kind: OfferKind::Draw,
                    by: seat,
                })
            }
            Action::DrawAccept => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "accepting a draw")?;
                if self.draw_offer != Some(seat.other()) {
                    return Err(wrong("no draw was offered to you"));
                }
                Ok(self.decided(Outcome::Draw, "agreement"))
            }
            Action::DrawDecline => {
                let seat = self.two_player_seat(user)?;
                if self.draw_offer != Some(seat.other()) {
                    return Err(wrong("no draw was offered to you"));
                }
                Ok(Step::Clear {
                    kind: OfferKind::Draw,
                })
            }
            Action::RematchOffer | Action::RematchAccept => {
                let seat = self.seated(user)?;
                if !matches!(self.status, GameStatus::Finished | GameStatus::Aborted) {
                    return Err(wrong("a rematch can be offered once the game is over"));
                }
                if let Some(next) = &self.rematch {
                    return Err(wrong(format!("the rematch is already at table {next}")));
                }
                let offered_to_me = self.rematch_offer.is_some_and(|s| s != seat);
                // A bot always wants another game.
                let bot = self.seats.len() == 2 && self.bot_opposite(seat).is_some();
                if offered_to_me || self.seats.len() == 1 || bot {
                    return Ok(Step::Rematch);
                }
                if matches!(action, Action::RematchAccept) {
                    return Err(wrong("no rematch was offered to you"));
                }
                Ok(Step::Offer {
                    kind: OfferKind::Rematch,
                    by: seat,
                })
            }
            Action::RematchDecline => {
                let seat = self.seated(user)?;
                if self.rematch_offer.is_none_or(|s| s == seat) {
                    return Err(wrong("no rematch was offered to you"));
                }
                Ok(Step::Clear {
                    kind: OfferKind::Rematch,
                })
            }
            Action::Claim { draw } => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "claiming the game")?;
                if !self.presence.may_claim(seat) {
                    return Err(wrong(
                        "you can claim the game only once your opponent has been gone a while",
                    ));
                }
                let result = if *draw {
                    Outcome::Draw
                } else {
                    Outcome::Win(seat)
                };
                Ok(self.decided(result, "abandoned"))
            }
            Action::TakebackOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "a takeback")?;
                if self.settings.rated {
                    return Err(wrong("rated games have no takebacks"));
                }
                let keep = self
                    .takeback_keeps(seat)
                    .ok_or_else(|| wrong("you have no move to take back"))?;
                // A bot does not mind; and two players asking at once agree.
                if self.bot_opposite(seat).is_some() || self.takeback_offer == Some(seat.other()) {
                    return Ok(Step::TakeBack { keep });
                }
                Ok(Step::Offer {
                    kind: OfferKind::Takeback,
                    by: seat,
                })
            }
            Action::TakebackAccept | Action::TakebackDecline => {
                let seat = self.two_player_seat(user)?;
                let asker = seat.other();
                if self.takeback_offer != Some(asker) {
                    return Err(wrong("no takeback was asked of you"));
                }
                if matches!(action, Action::TakebackDecline) {
                    return Ok(Step::Clear {
                        kind: OfferKind::Takeback,
                    });
                }
                self.require(GameStatus::Playing, "a takeback")?;
                let keep = self
                    .takeback_keeps(asker)
                    .expect("an open takeback offer has a move to take back");
                Ok(Step::TakeBack { keep })
            }
            Action::Chat { text } => self.check_chat(by, text, now),
            Action::Voice { .. } => {
                let seat = self.two_player_seat(user)?;
                let Some(other) = &self.seats[seat.other().index()] else {
                    return Err(wrong("nobody sits opposite you"));
                };
                Ok(Step::Voice {
                    to: other.id.clone(),
                    from: seat,
                })
            }
        }
    }

    fn check_sit(
        &self,
        user: &UserView,
        seat: Option<u8>,
        token: Option<&str>,
    ) -> Result<Step, WsError> {
        self.require(GameStatus::Open, "sitting down")?;
        self.may_watch(Some(user), token)?;
        if self.seat_of(&user.id).is_some() {
            return Err(WsError::new(
                ErrorCode::SeatTaken,
                "you already sit at this table",
            ));
        }
        let index = match seat {
            Some(i) => {
                let i = i as usize;
                if i >= self.seats.len() {
                    return Err(WsError::bad_request(format!("this table has no seat {i}")));
                }
                if self.seats[i].is_some() {
                    return Err(WsError::new(ErrorCode::SeatTaken, "that seat is taken"));
                }
                i
            }
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .ok_or_else(|| WsError::new(ErrorCode::SeatTaken, "every seat is taken"))?,
        };
        Ok(Step::Sit { index })
    }

    /// Whether a player of `rating` (none: a newcomer) may sit here: the table's rated and
    /// rating-range conditions.
    pub fn admit(&self, user: &UserView, rating: Option<&rating::Rating>) -> Result<(), WsError> {
        if self.settings.rated && user.guest {
            return Err(WsError::forbidden(RATED_FOR_ACCOUNTS));
        }
        if let Some([low, high]) = self.settings.rating_range {
            let shown = i64::from(rating.map_or(rating::Rating::default().shown(), |r| r.shown()));
            if !(low..=high).contains(&shown) {
                return Err(WsError::forbidden(format!(
                    "this table is for players rated {low} to {high}; you are {shown}"
                )));
            }
        }
        Ok(())
    }

    fn check_move(&self, user: &UserView, mv: &str, ply: Option<u32>) -> Result<Step, WsError> {
        let seat = self.seated(user)?;
        self.require(GameStatus::Playing, "a move")?;
        if self.game.to_move() != Some(seat) {
            return Err(WsError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        if let Some(ply) = ply
            && ply as usize != self.plies.len()
        {
            return Err(WsError::new(
                ErrorCode::StalePly,
                format!(
                    "the game is at ply {}, not {ply}: resubscribe",
                    self.plies.len()
                ),
            ));
        }
        let mut next = self.game.clone();
        next.play_text(mv)
            .map_err(|e| WsError::new(ErrorCode::IllegalMove, e.to_string()))?;
        Ok(Step::Move {
            seat,
            mv: mv.to_string(),
            next: Box::new(next),
        })
    }

    /// Correspondence: the move to play now is due `days` after `from_ms`.
    pub(super) fn set_deadline(&mut self, from_ms: i64) {
        self.deadline = self
            .settings
            .days
            .filter(|_| self.status == GameStatus::Playing)
            .map(|d| from_ms + self.days(d).as_millis() as i64);
        // A new deadline is the next move's: a vacation was the last one's.
        self.vacation = None;
    }

    /// Runs the clock of the side to move, once both sides have moved.
    pub(super) fn start_clock(&mut self, now: Instant) {
        let both_moved = self.both_sides_moved();
        if let (Some(clock), Some(seat)) = (self.clock.as_mut(), self.game.to_move())
            && both_moved
        {
            clock.start(seat, now);
        }
    }

    /// How long `days` correspondence days last.
    pub(super) fn days(&self, days: u8) -> Duration {
        self.day * u32::from(days)
    }

    /// Applies a move that is now stored: the new position, clock and deadline, offers that
    /// lapse with it, and what everyone is to hear.
    pub fn apply_move(&mut self, played: Played, now: Instant) -> Vec<Effect> {
        let seat = played.seat;
        let labels_before = self.seat_labels();
        self.next = next_turn(&played.next);
        self.game = played.next;
        self.clock = played.clock;
        self.plies.push(Ply {
            mv: played.mv,
            by: seat,
            position: self.game.view(None),
            clock: played.remaining,
        });
        if self.draw_offer == Some(seat.other()) {
            // Moving on is declining.
            self.draw_offer = None;
        }
        // A takeback asked for belongs to the position it was asked in.
        self.takeback_offer = None;
        self.start_clock(now);
        self.set_deadline(played.played_at);
        self.warned = false;
        let mut effects = vec![Effect::Turn];
        if self.settings.days.is_some()
            && !self.game.is_over()
            && let Some(mover) = self.mover()
        {
            effects.push(Effect::Notify {
                user: mover.id.clone(),
                kind: "your_turn",
            });
        }
        let mut event = self.move_event(self.plies.len() - 1);
        event.next = Some(self.next.clone());
        effects.push(Effect::Broadcast(Message::Move(event)));
        effects.push(Effect::LivePly(self.plies.len() as u32));
        if self.seat_labels() != labels_before {
            // Tumbleweed's colour choice renames the seats: everyone gets the new snapshot.
            effects.push(Effect::Snapshots);
        }
        effects
    }

    pub(super) fn may_watch(
        &self,
        user: Option<&UserView>,
        token: Option<&str>,
    ) -> Result<(), WsError> {
        let insider = user.is_some_and(|u| {
            self.seat_of(&u.id).is_some() || self.host.as_deref() == Some(u.id.as_str())
        });
        if !self.settings.private || insider || token == Some(self.token.as_str()) {
            Ok(())
        } else {
            Err(WsError::new(
                ErrorCode::Forbidden,
                "this table is private: open it through its invitation link",
            ))
        }
    }

    pub(super) fn seat_of(&self, user_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|u| u.id == user_id))
            .and_then(Seat::from_index)
    }

    pub(super) fn seated(&self, user: &UserView) -> Result<Seat, WsError> {
        self.seat_of(&user.id).ok_or_else(|| {
            WsError::new(
                ErrorCode::NotSeated,
                "only the players at this table may do that",
            )
        })
    }

    pub(super) fn require(&self, status: GameStatus, what: &str) -> Result<(), WsError> {
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
    pub(super) fn bot_opposite(&self, seat: Seat) -> Option<ai::Level> {
        self.seats
            .get(seat.other().index())?
            .as_ref()
            .and_then(bot_level)
    }

    pub(super) fn seat_labels(&self) -> Vec<&'static str> {
        (0..self.seats.len())
            .filter_map(Seat::from_index)
            .map(|seat| self.game.seat_label(seat))
            .collect()
    }

    pub(super) fn two_player_seat(&self, user: &UserView) -> Result<Seat, WsError> {
        if self.seats.len() != 2 {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "this needs an opponent: a solo table has none",
            ));
        }
        self.seated(user)
    }

    /// Who sits at the side to move, if anyone.
    pub(super) fn mover(&self) -> Option<&UserView> {
        let seat = self.game.to_move()?;
        self.seats.get(seat.index())?.as_ref()
    }

    pub(super) fn hint_position(&self, user: &UserView) -> Result<HintPosition, WsError> {
        let AnyGame::WhiteRabbit(game) = &self.game else {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "hints are for White Rabbit tables",
            ));
        };
        self.seated(user)?;
        self.require(GameStatus::Playing, "give hints")?;
        if self.settings.daily.is_some() {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "no hints on the daily deal: everyone plays it on their own",
            ));
        }
        // The turn under way began after the last `end`, or at the deal.
        let since_end = self.plies.iter().rposition(|p| p.mv == "end");
        let start = match since_end {
            Some(i) => self.plies[i].position.clone(),
            None => AnyGame::new(self.settings.variant, self.seed).position(),
        };
        let later = self.plies[since_end.map_or(0, |i| i + 1)..].iter();
        let this_turn = std::iter::once(start)
            .chain(later.map(|p| p.position.clone()))
            .collect();
        Ok(HintPosition {
            game: game.clone(),
            ply: self.plies.len() as u32,
            this_turn,
            variant: self.settings.variant,
            seed: self.seed,
            moves: self.plies.iter().map(|p| p.mv.clone()).collect(),
        })
    }
    /// How many plies stay when `seat` takes back its last move: everything before it (the
    /// opponent's answer to it goes too).
    pub(super) fn takeback_keeps(&self, seat: Seat) -> Option<usize> {
        self.plies.iter().rposition(|ply| ply.by == seat)
    }
}

fn wrong(message: impl Into<String>) -> WsError {
    WsError::new(ErrorCode::WrongState, message)
}

pub(super) fn finish(status: GameStatus, result: Option<Outcome>, reason: &'static str) -> Step {
    Step::Finish {
        status,
        result,
        reason,
    }
}
