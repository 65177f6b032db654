//! The table's state and its rules: who may watch, sit, move, offer or claim in which state,
//! and what every viewer sees. Nothing here touches the runtime, the database or a socket;
//! the time is handed in. The actor ([`super::actor`]) runs these rules, writes what they
//! accept, and only then tells anyone.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use catalog::{AnyGame, Seat};
use rabbit_solver::white_rabbit::WhiteRabbit;
use tokio::time::{Duration, Instant};

use super::clock::Clock;
use super::effects::{Effect, Step};
use super::handle::Action;
use super::presence::Presence;
use super::{
    CHAT_BURST, CHAT_MAX_CHARS, CHAT_WINDOW, NewTable, Ply, RATED_FOR_ACCOUNTS, Status,
    TableSettings, bot_level, next_turn,
};
use crate::error::{ErrorCode, WsError};
use crate::ws::protocol::{
    ChatView, ClockView, Message, MoveEvent, NextTurn, OfferKind, PlayingEntry, RatingEnd,
    SeatRating, SeatView, TableView, UserView,
};

/// A table's game and everything about it that is not the runtime's (see [`core`]).
pub struct TableState {
    pub(super) id: Arc<str>,
    /// The deal the game started from (replayed after a takeback).
    pub(super) seed: u64,
    pub(super) settings: TableSettings,
    pub(super) token: String,
    pub(super) host: Option<String>,
    pub(super) seats: Vec<Option<UserView>>,
    pub(super) status: Status,
    pub(super) game: AnyGame,
    pub(super) plies: Vec<Ply>,
    pub(super) clock: Option<Clock>,
    /// Correspondence: the unix ms by which the side to move must move.
    pub(super) deadline: Option<i64>,
    /// The side to move has been told its deadline is near.
    pub(super) warned: bool,
    pub(super) result: Option<String>,
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
    /// When the game began (unix ms).
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

impl TableState {
    /// A new table's state, waiting for its players.
    pub fn new(new: NewTable, day: Duration) -> Result<TableState, WsError> {
        let game = AnyGame::new(new.settings.game, Some(new.settings.variant), new.seed)
            .map_err(|e| WsError::bad_request(e.to_string()))?;
        Ok(TableState {
            id: new.id.into(),
            seed: new.seed,
            takeback_offer: None,
            next: next_turn(&game),
            clock: new.settings.control.map(Clock::new),
            deadline: None,
            warned: false,
            settings: new.settings,
            token: new.token,
            host: new.host.map(|h| h.id),
            seats: new.seats,
            status: Status::Open,
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
            started_at: None,
            presence: Presence::default(),
            day,
            held: false,
        })
    }

    /// A loss on time due at `now` (unix ms `now_ms`): a fallen flag, or a correspondence
    /// deadline passed (not while the table is held). A game nobody has really begun is
    /// called off; after that, the side that let its time run out loses.
    pub fn timeout(&self, now: Instant, now_ms: i64) -> Option<Step> {
        if self.status != Status::Playing {
            return None;
        }
        if self.deadline.is_some_and(|d| now_ms >= d) && !self.held {
            return Some(match self.game.to_move() {
                Some(seat) if self.plies.len() >= self.seats.len() => finish(
                    Status::Finished,
                    Some(seat.other().letter().to_string()),
                    "time",
                ),
                _ => finish(Status::Aborted, None, "expired"),
            });
        }
        let seat = self.clock.as_ref().and_then(|c| c.flagged(now))?;
        Some(finish(
            Status::Finished,
            Some(seat.other().letter().to_string()),
            "time",
        ))
    }

    /// The bot to ask for a move now, and the ply it answers for: when a bot sits at the side
    /// to move of a running game (and the table is not held).
    pub fn bot_turn(&self) -> Option<(ai::Level, u32)> {
        if self.status != Status::Playing || self.held {
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
                self.require(Status::Open, "standing up")?;
                Ok(Step::Stand { seat })
            }
            Action::Move { mv, ply } => self.check_move(user, mv, *ply),
            Action::Resign => {
                let seat = self.seated(user)?;
                self.require(Status::Playing, "resigning")?;
                let result = match self.seats.len() {
                    1 => self.game_result_on_resign(),
                    _ => seat.other().letter().to_string(),
                };
                Ok(finish(Status::Finished, Some(result), "resign"))
            }
            Action::Abort => {
                self.seated(user)?;
                self.require(Status::Playing, "aborting")?;
                if self.plies.len() >= self.seats.len() {
                    return Err(wrong(
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                Ok(finish(Status::Aborted, None, "abort"))
            }
            Action::DrawOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(Status::Playing, "a draw offer")?;
                if self.bot_opposite(seat).is_some() {
                    return Err(wrong("bots play every game to its end: they take no draws"));
                }
                if self.draw_offer == Some(seat.other()) {
                    return Ok(agreed_draw());
                }
                Ok(Step::Offer {
                    kind: OfferKind::Draw,
                    by: seat,
                })
            }
            Action::DrawAccept => {
                let seat = self.two_player_seat(user)?;
                self.require(Status::Playing, "accepting a draw")?;
                if self.draw_offer != Some(seat.other()) {
                    return Err(wrong("no draw was offered to you"));
                }
                Ok(agreed_draw())
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
                if !matches!(self.status, Status::Finished | Status::Aborted) {
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
                self.require(Status::Playing, "claiming the game")?;
                if !self.presence.may_claim(seat) {
                    return Err(wrong(
                        "you can claim the game only once your opponent has been gone a while",
                    ));
                }
                let result = if *draw { "draw" } else { seat.letter() };
                Ok(finish(
                    Status::Finished,
                    Some(result.to_string()),
                    "abandoned",
                ))
            }
            Action::TakebackOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(Status::Playing, "a takeback")?;
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
                self.require(Status::Playing, "a takeback")?;
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
        self.require(Status::Open, "sitting down")?;
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
        self.require(Status::Playing, "a move")?;
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
        next.play(mv)
            .map_err(|e| WsError::new(ErrorCode::IllegalMove, e.to_string()))?;
        Ok(Step::Move {
            seat,
            mv: mv.to_string(),
            next: Box::new(next),
        })
    }

    fn check_chat(&self, by: &Orderer<'_>, text: &str, now: Instant) -> Result<Step, WsError> {
        if !by.subscribed {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "subscribe to the table before chatting",
            ));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(WsError::bad_request("an empty message"));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(WsError::new(
                ErrorCode::TooLong,
                format!("a chat message has at most {CHAT_MAX_CHARS} characters"),
            ));
        }
        let recent = self.chat_times.get(&by.user.id).map_or(0, |times| {
            times
                .iter()
                .filter(|t| now.duration_since(**t) <= CHAT_WINDOW)
                .count()
        });
        if recent >= CHAT_BURST {
            return Err(WsError::new(
                ErrorCode::RateLimited,
                "too many messages: wait a few seconds",
            ));
        }
        let room = if self.seat_of(&by.user.id).is_some() {
            store::ChatRoom::Players
        } else {
            store::ChatRoom::Spectators
        };
        Ok(Step::Chat {
            text: text.to_string(),
            room,
        })
    }

    /// Counts a chat line `user` sends at `now` against their burst.
    pub fn chat_sent(&mut self, user: &str, now: Instant) {
        let times = self.chat_times.entry(user.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > CHAT_WINDOW)
        {
            times.pop_front();
        }
        times.push_back(now);
    }

    /// Puts `by`'s offer of `kind` on the table.
    pub fn offer(&mut self, kind: OfferKind, by: Seat) -> Vec<Effect> {
        *self.offer_slot(kind) = Some(by);
        let mut effects = vec![Effect::Broadcast(Message::Offer {
            table: self.id.to_string(),
            kind,
            by: Some(by.letter()),
        })];
        // A correspondence player hears of a draw offer wherever they are.
        if kind == OfferKind::Draw
            && self.settings.days.is_some()
            && let Some(Some(other)) = self.seats.get(by.other().index())
        {
            effects.push(Effect::Notify {
                user: other.id.clone(),
                kind: "draw_offer",
            });
        }
        effects
    }

    /// Withdraws the offer of `kind`.
    pub fn clear_offer(&mut self, kind: OfferKind) -> Vec<Effect> {
        *self.offer_slot(kind) = None;
        vec![Effect::Broadcast(Message::Offer {
            table: self.id.to_string(),
            kind,
            by: None,
        })]
    }

    /// Correspondence: the move to play now is due `days` after `from_ms`.
    pub(super) fn set_deadline(&mut self, from_ms: i64) {
        self.deadline = self
            .settings
            .days
            .filter(|_| self.status == Status::Playing)
            .map(|d| from_ms + self.days(d).as_millis() as i64);
    }

    /// Runs the clock of the side to move, once both sides have moved.
    pub(super) fn start_clock(&mut self, now: Instant) {
        let both_moved = self.plies.len() >= 2;
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
        let Played {
            seat,
            mv,
            next,
            clock,
            remaining,
            played_at,
        } = played;
        let labels_before = self.seat_labels();
        self.next = next_turn(&next);
        self.game = next;
        self.clock = clock;
        self.plies.push(Ply {
            mv,
            by: seat,
            position: self.game.view(None),
            clock: remaining,
        });
        if self.draw_offer == Some(seat.other()) {
            // Moving on is declining.
            self.draw_offer = None;
        }
        // A takeback asked for belongs to the position it was asked in.
        self.takeback_offer = None;
        self.start_clock(now);
        self.set_deadline(played_at);
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

    /// Keeps the new ratings for the snapshots; returns what the `end` message says of them.
    /// Takes the new ratings of a rated ending; what each seat hears of its change.
    pub fn apply_rating_changes(
        &mut self,
        changes: &[store::RatingChange; 2],
    ) -> BTreeMap<&'static str, RatingEnd> {
        self.ratings = changes.iter().map(|c| Some(c.after)).collect();
        self.rating_changes = changes.iter().map(|c| Some(c.shown_change())).collect();
        changes
            .iter()
            .zip([Seat::A, Seat::B])
            .map(|(change, seat)| {
                (
                    seat.letter(),
                    RatingEnd {
                        before: change.before.shown(),
                        after: change.after.shown(),
                        change: change.shown_change(),
                        provisional: change.after.provisional(),
                    },
                )
            })
            .collect()
    }

    /// Applies an ending that is now stored: the clock stops, offers and absences lapse.
    pub fn apply_end(
        &mut self,
        status: Status,
        result: Option<String>,
        reason: &str,
        ratings: Option<BTreeMap<&'static str, RatingEnd>>,
        now: Instant,
    ) -> Vec<Effect> {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.status = status;
        self.result = result.clone();
        self.reason = Some(reason.to_string());
        self.deadline = None;
        let mut effects = vec![Effect::Turn];
        if self.settings.days.is_some() && status == Status::Finished {
            for user in self.seats.iter().flatten() {
                effects.push(Effect::Notify {
                    user: user.id.clone(),
                    kind: "game_over",
                });
            }
        }
        self.draw_offer = None;
        self.presence.clear();
        let rated = ratings.is_some();
        effects.push(Effect::Broadcast(Message::End {
            table: self.id.to_string(),
            status: status.as_str(),
            result,
            reason: reason.to_string(),
            ratings,
        }));
        if rated {
            // The seats now carry the new ratings and their changes.
            effects.push(Effect::Snapshots);
        }
        effects.extend([Effect::Lobby, Effect::Live]);
        effects
    }

    fn offer_slot(&mut self, kind: OfferKind) -> &mut Option<Seat> {
        match kind {
            OfferKind::Draw => &mut self.draw_offer,
            OfferKind::Rematch => &mut self.rematch_offer,
            OfferKind::Takeback => &mut self.takeback_offer,
        }
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

    pub(super) fn require(&self, status: Status, what: &str) -> Result<(), WsError> {
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

    pub(super) fn game_result_on_resign(&self) -> String {
        // Giving up a solo puzzle is a loss.
        "lost".to_string()
    }

    /// Who sits at the side to move, if anyone.
    pub(super) fn mover(&self) -> Option<&UserView> {
        let seat = self.game.to_move()?;
        self.seats.get(seat.index())?.as_ref()
    }

    /// What a rated ending needs: both players' rating keys and the first seat's score.
    /// `None` when this ending moves no rating (casual, aborted, solo, or no result).
    pub(super) fn rated_end(
        &self,
        status: Status,
        result: Option<&str>,
    ) -> Option<store::RatedEnd<'_>> {
        if !self.settings.rated || status != Status::Finished || self.seats.len() != 2 {
            return None;
        }
        let first_scored = match result? {
            "a" => rating::Score::Win,
            "b" => rating::Score::Loss,
            "draw" => rating::Score::Draw,
            _ => return None,
        };
        let a = self.seats[0].as_ref()?;
        let b = self.seats[1].as_ref()?;
        Some(store::RatedEnd {
            game: self.settings.game,
            class: self.settings.rating_class()?,
            players: [a.id.as_str(), b.id.as_str()],
            first_scored,
        })
    }

    pub(super) fn move_event(&self, index: usize) -> MoveEvent {
        let ply = &self.plies[index];
        MoveEvent {
            table: self.id.to_string(),
            ply: index as u32 + 1,
            mv: ply.mv.clone(),
            by: ply.by.letter(),
            position: ply.position.clone(),
            clock: ply.clock,
            next: None,
        }
    }

    pub fn view(&self, viewer: Option<&UserView>, now: Instant) -> TableView {
        let you = viewer.and_then(|u| self.seat_of(&u.id));
        let insider = you.is_some() || viewer.is_some_and(|u| self.host.as_deref() == Some(&u.id));
        let playing = self.status == Status::Playing;
        let next = self.next.clone();
        TableView {
            id: self.id.to_string(),
            game: self.settings.game,
            variant: self.settings.variant,
            private: self.settings.private,
            status: self.status.as_str(),
            host: self.host.clone(),
            seats: (0..self.seats.len())
                .filter_map(Seat::from_index)
                .map(|seat| self.seat_view(seat))
                .collect(),
            you: you.map(Seat::letter),
            // A daily deal is private so that nobody watches it: it has no link to share.
            invite: (self.settings.private && insider && self.settings.daily.is_none())
                .then(|| self.token.clone()),
            ply: self.plies.len() as u32,
            moves: self.plies.iter().map(|p| p.mv.clone()).collect(),
            position: self.game.view(you),
            to_move: next.to_move.filter(|_| playing),
            turn: next.turn,
            legal: if playing { next.legal } else { Vec::new() },
            legal_truncated: next.legal_truncated,
            clock: self.clock_view(now),
            days: self.settings.days,
            deadline: self.deadline,
            result: self.result.clone(),
            reason: self.reason.clone(),
            draw_offer: self.draw_offer.map(Seat::letter),
            takeback_offer: self.takeback_offer.map(Seat::letter),
            rematch_offer: self.rematch_offer.map(Seat::letter),
            rematch: self.rematch.clone(),
            chat: self.chat.iter().cloned().collect(),
            daily: self.settings.daily.clone(),
            rated: self.settings.rated,
            rating_class: self.settings.rating_class().map(rating::Class::as_str),
            rating_range: self.settings.rating_range,
            away: self.presence.view(),
            claim: you.is_some_and(|seat| playing && self.presence.may_claim(seat)),
        }
    }

    pub(super) fn seat_view(&self, seat: Seat) -> SeatView {
        let user = self.seats.get(seat.index()).cloned().flatten();
        let rating = self.ratings.get(seat.index()).copied().flatten();
        SeatView {
            seat: seat.letter(),
            label: self.game.seat_label(seat),
            bot: user.as_ref().and_then(bot_level).map(|l| l.to_string()),
            user,
            rating: rating.as_ref().map(SeatRating::from),
            rating_change: self.rating_changes.get(seat.index()).copied().flatten(),
        }
    }

    pub(super) fn clock_view(&self, now: Instant) -> Option<ClockView> {
        self.clock.as_ref().map(|c| ClockView {
            initial_ms: c.control().initial_ms,
            increment_ms: c.control().increment_ms,
            remaining_ms: c.remaining(now),
            running: c.running().map(Seat::letter),
        })
    }

    pub(super) fn playing(&self, user_id: &str, now: Instant, now_ms: i64) -> Option<PlayingEntry> {
        let you = self.seat_of(user_id)?;
        if !matches!(self.status, Status::Open | Status::Playing) {
            return None;
        }
        let playing = self.status == Status::Playing;
        let to_move = self.game.to_move().filter(|_| playing);
        let opponent = (self.seats.len() == 2).then(|| self.seat_view(you.other()));
        let clock = self.clock_view(now);
        Some(PlayingEntry {
            id: self.id.to_string(),
            game: self.settings.game,
            variant: self.settings.variant,
            private: self.settings.private,
            status: self.status.as_str(),
            you: you.letter(),
            your_turn: to_move == Some(you),
            to_move: to_move.map(Seat::letter),
            opponent,
            ply: self.plies.len() as u32,
            time_left_ms: clock
                .as_ref()
                .map(|c| c.remaining_ms[you.index()])
                .or_else(|| {
                    self.deadline
                        .filter(|_| to_move == Some(you))
                        .map(|d| (d - now_ms).max(0))
                }),
            clock,
            days: self.settings.days,
            deadline: self.deadline,
            daily: self.settings.daily.clone(),
        })
    }

    pub(super) fn hint_position(&self, user: &UserView) -> Result<(WhiteRabbit, u32), WsError> {
        let AnyGame::WhiteRabbit(game) = &self.game else {
            return Err(WsError::bad_request("hints are for White Rabbit tables"));
        };
        self.seated(user)?;
        self.require(Status::Playing, "give hints")?;
        if self.settings.daily.is_some() {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "no hints on the daily deal: everyone plays it on their own",
            ));
        }
        Ok((game.clone(), self.plies.len() as u32))
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

fn finish(status: Status, result: Option<String>, reason: &'static str) -> Step {
    Step::Finish {
        status,
        result,
        reason,
    }
}

fn agreed_draw() -> Step {
    finish(Status::Finished, Some("draw".to_string()), "agreement")
}
