//! The orders of the players as the actor carries them out: the rules check each one
//! (`TableState::check`), the actor writes what it changes through the store, and only then
//! applies it to the state and tells anyone; a failed write leaves the state as it was.

use std::time::{Duration, Instant};
use store::GameStatus;

use catalog::{AnyGame, EndReason, Seat};

use super::Table;
use crate::error::{ErrorCode, WsError};
use crate::outbox::ConnId;
use crate::table::Action;
use crate::table::core::{Orderer, Played, Step};
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, UserView};

impl Table {
    pub(super) async fn act(
        &mut self,
        conn: ConnId,
        user: &UserView,
        action: Action,
    ) -> Result<Option<Message>, WsError> {
        let now = Instant::now();
        let by = Orderer {
            user,
            subscribed: self.subscribers.contains_key(&conn),
        };
        match self.state.check(&by, &action, now)? {
            Step::Sit { index } => self.sit(user, index).await?,
            Step::Stand { seat } => self.stand(seat).await?,
            Step::Move { seat, mv, next } => self.play(seat, mv, *next).await?,
            Step::Finish {
                status,
                result,
                reason,
            } => self.finish(status, result, reason).await?,
            Step::Offer { kind, by } => {
                let effects = self.state.offer(kind, by);
                self.deliver(effects);
            }
            Step::Clear { kind } => {
                let effects = self.state.clear_offer(kind);
                self.deliver(effects);
            }
            Step::Rematch => self.start_rematch().await?,
            Step::TakeBack { keep } => self.take_back(keep).await?,
            Step::Chat { text, room } => self.chat(user, text, room, now).await?,
            Step::Voice { to, from } => {
                let Action::Voice { signal } = action else {
                    unreachable!("only a voice order relays a signal")
                };
                self.relay_voice(&to, from, signal);
            }
            Step::Berserk { seat } => self.go_berserk(seat).await?,
        }
        Ok(None)
    }

    /// Seats `user` at `index` once their rating admits them, and starts the game when the
    /// table is full.
    pub(super) async fn sit(&mut self, user: &UserView, index: usize) -> Result<(), WsError> {
        let rating = self.rating_of(user).await?;
        self.state.admit(user, rating.as_ref())?;
        self.services
            .store
            .set_seat(
                &self.state.id,
                index as u8,
                Some(&store::Occupant::User(user.id.clone())),
            )
            .await?;
        let (effects, full) = self.state.apply_sit(user, index, rating);
        if full {
            self.start().await?;
        }
        self.deliver(effects);
        Ok(())
    }

    pub(super) async fn stand(&mut self, seat: Seat) -> Result<(), WsError> {
        self.services
            .store
            .set_seat(&self.state.id, seat.index() as u8, None)
            .await?;
        let effects = self.state.apply_stand(seat);
        self.deliver(effects);
        if self.state.empty() {
            // Nobody is left to play: the table closes rather than wait in the lobby.
            self.finish(GameStatus::Aborted, None, EndReason::Empty)
                .await?;
        }
        Ok(())
    }

    /// Writes an accepted move, and only once it is stored applies it and tells everyone; a
    /// failed write leaves the game where it was and the mover gets the error.
    pub(super) async fn play(
        &mut self,
        seat: Seat,
        mv: String,
        next: AnyGame,
    ) -> Result<(), WsError> {
        let now = Instant::now();
        let mut clock = self.state.clock.clone();
        let remaining = clock.as_mut().map(|c| c.finish_turn(now));
        let played_at = unix_ms();
        self.services
            .store
            .append_move(
                &self.state.id,
                &store::MoveRow {
                    ply: self.state.plies.len() as u32 + 1,
                    mv: mv.clone(),
                    played_at,
                    clock_a_ms: remaining.map(|r| r[0]),
                    clock_b_ms: remaining.map(|r| r[1]),
                },
            )
            .await
            .map_err(|e| match e {
                store::StoreError::Conflict => WsError::new(
                    ErrorCode::StalePly,
                    "another move was recorded for this ply first",
                ),
                other => other.into(),
            })?;
        // Committed: now it is true, and everyone may hear of it.
        metrics::counter!("stolik_moves_total").increment(1);
        let effects = self.state.apply_move(
            Played {
                seat,
                mv,
                next,
                clock,
                remaining,
                played_at,
            },
            now,
        );
        self.deliver(effects);
        self.finish_if_decided().await
    }

    /// Every seat is taken: the game begins.
    pub async fn start(&mut self) -> Result<(), WsError> {
        let now = unix_ms();
        self.services.store.start_game(&self.state.id, now).await?;
        let effects = self.state.apply_start(now, Instant::now());
        self.update_presence();
        self.deliver(effects);
        // A solo game can be decided by its deal alone.
        if self.state.game.is_over() {
            self.finish_by_rules().await?;
        }
        Ok(())
    }

    /// Runs the clock of the side to move, once both sides have moved.
    /// Nobody came: the table closes as aborted, reason `expired`.
    pub(super) async fn expire(&mut self) {
        if self.state.status != GameStatus::Open {
            return;
        }
        if let Err(e) = self
            .finish(GameStatus::Aborted, None, EndReason::Expired)
            .await
        {
            tracing::error!(table = %self.state.id, error = %e, "could not close an expired table");
            // Try again in a minute rather than spinning.
            self.open_until = Instant::now() + Duration::from_secs(60);
        }
    }

    /// Ends the hold of a restored table: its clock runs from now.
    pub(super) fn release(&mut self) {
        if self.state.held {
            self.state.held = false;
            if self.state.status == GameStatus::Playing {
                self.state.start_clock(Instant::now());
            }
            self.update_presence();
        }
    }

    /// Deletes the plies after the first `keep` from the record, then goes back to the
    /// position and the clocks as they stood after ply `keep`.
    pub(super) async fn take_back(&mut self, keep: usize) -> Result<(), WsError> {
        let game = self.state.position_after(keep)?;
        self.services
            .store
            .take_back_moves(&self.state.id, keep as u32)
            .await?;
        let effects = self
            .state
            .apply_takeback(keep, game, unix_ms(), Instant::now());
        self.deliver(effects);
        Ok(())
    }
}
