//! Who may do what: every order checked against the state and the time handed in, answered
//! with the [`Step`] it would take or the error that refuses it (changing nothing); and a
//! stored move applied.

use record::GameStatus;
use record::NoteKind;
use std::time::Instant;

use catalog::{EndReason, Outcome};

use super::effects::{Effect, Step};
use super::state::{Orderer, Played, TableState, finish, wrong};
use super::{Action, Ply, RATED_FOR_ACCOUNTS, next_turn};
use crate::error::{ErrorCode, WsError};
use crate::ws::protocol::{ClaimOutcome, Message, OfferKind, UserView};

impl TableState {
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
                Ok(finish(GameStatus::Aborted, None, EndReason::Cancelled))
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
                Ok(self.decided(result, EndReason::Resign))
            }
            Action::Abort => {
                self.seated(user)?;
                self.require(GameStatus::Playing, "aborting")?;
                if self.both_sides_moved() {
                    return Err(wrong(
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                Ok(finish(GameStatus::Aborted, None, EndReason::Abort))
            }
            Action::DrawOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "a draw offer")?;
                // Perekati-pole's bots weigh an offer (on their turn); the others do not.
                if self.bot_opposite(seat).is_some() && !ai::judges_endings(&self.game) {
                    return Err(wrong("bots play every game to its end: they take no draws"));
                }
                if self.draw_offer == Some(seat.other()) {
                    return Ok(self.decided(Outcome::Draw, EndReason::Agreement));
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
                Ok(self.decided(Outcome::Draw, EndReason::Agreement))
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
            Action::Claim { outcome } => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "claiming the game")?;
                if !self.presence.may_claim(seat) {
                    return Err(wrong(
                        "you can claim the game only once your opponent has been gone a while",
                    ));
                }
                let result = if *outcome == ClaimOutcome::Draw {
                    Outcome::Draw
                } else {
                    Outcome::Win(seat)
                };
                Ok(self.decided(result, EndReason::Abandoned))
            }
            Action::TakebackOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "a takeback")?;
                if self.settings.rated() {
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
            Action::Berserk => self.check_berserk(user),
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
        if self.settings.rated() && user.guest {
            return Err(WsError::forbidden(RATED_FOR_ACCOUNTS));
        }
        if let Some([low, high]) = self.settings.rating_range() {
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
        if self.settings.days().is_some()
            && !self.game.is_over()
            && let Some(mover) = self.mover()
        {
            effects.push(Effect::Notify {
                user: mover.id.clone(),
                kind: NoteKind::YourTurn,
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
}
