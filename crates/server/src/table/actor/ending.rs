//! How a game ends, as the actor carries it out: the rules' ending is written (with the
//! rating changes of a rated game) before it is applied and announced; a won daily deal then
//! goes on its leaderboard, and a finished solo game's helpers are told (White Rabbit writes
//! its review). The
//! rematch's table is opened through the services here too.

use std::time::Instant;
use store::GameStatus;

use catalog::{EndReason, Outcome};

use super::Table;
use super::services::RematchOf;
use crate::error::WsError;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, UserView};

impl Table {
    /// The rating `user` has in this table's game and class: `None` for guests and at solo
    /// tables.
    pub(super) async fn rating_of(
        &self,
        user: &UserView,
    ) -> Result<Option<rating::Rating>, WsError> {
        let Some(class) = self.state.settings.rating_class() else {
            return Ok(None);
        };
        if user.guest {
            return Ok(None);
        }
        Ok(Some(
            self.services
                .store
                .rating(
                    &user.id,
                    self.state.settings.variant().game().as_str(),
                    class,
                )
                .await?,
        ))
    }

    /// Reads the seated players' ratings, for the snapshots; a failure leaves them unknown
    /// rather than stopping the table.
    pub(super) async fn load_ratings(&mut self) {
        let mut ratings = Vec::with_capacity(self.state.seats.len());
        for user in self.state.seats.clone() {
            let rating = match &user {
                Some(user) => self.rating_of(user).await.unwrap_or_else(|e| {
                    tracing::warn!(table = %self.state.id, error = %e, "could not read a rating");
                    None
                }),
                None => None,
            };
            ratings.push(rating);
        }
        self.state.ratings = ratings;
        self.state
            .rating_changes
            .resize(self.state.seats.len(), None);
    }

    /// A won daily deal goes on that day's leaderboard (score, then fewest actions). The game
    /// itself is already stored, so a failure here is logged rather than undoing the end.
    /// A guest's attempt (`rated` false) is practice and stays off it.
    pub(super) async fn record_daily_result(&self) {
        if !self.state.settings.rated() {
            return;
        }
        let (Some(day), Some(Outcome::SoloWon { score }), Some(Some(player))) = (
            self.state.settings.daily(),
            self.state.game.outcome(),
            self.state.seats.first(),
        ) else {
            return;
        };
        let result = store::DailyResult {
            day: day.to_string(),
            user_id: player.id.clone(),
            game_id: self.state.id.to_string(),
            score: score as i32,
            actions: self.state.plies.len() as u32,
            finished_at: unix_ms(),
        };
        if let Err(e) = self.services.store.record_daily(&result).await {
            tracing::error!(table = %self.state.id, error = %e, "could not record a daily result");
        }
    }

    /// Tells the solo game's helpers that it finished (White Rabbit writes its review, on the
    /// CPU pool); the table goes on without waiting for them.
    pub(super) fn tell_solo_helpers(&self) {
        self.services
            .solo
            .finished(self.state.settings.variant().game(), &self.state.id);
    }

    pub(super) async fn finish(
        &mut self,
        status: GameStatus,
        result: Option<Outcome>,
        reason: EndReason,
    ) -> Result<(), WsError> {
        let rated = self.state.rated_end(status, result);
        let ratings = match (&rated, &result) {
            (Some(end), Some(result)) => {
                let changes = self
                    .services
                    .store
                    .finish_rated_game(&self.state.id, *result, reason, unix_ms(), end)
                    .await?;
                Some(self.state.apply_rating_changes(&changes))
            }
            _ => {
                self.services
                    .store
                    .finish_game(&self.state.id, status, result, reason, unix_ms())
                    .await?;
                None
            }
        };
        let effects = self
            .state
            .apply_end(status, result, reason, ratings, Instant::now());
        self.record_daily_result().await;
        self.deliver(effects);
        Ok(())
    }

    pub(super) async fn finish_by_rules(&mut self) -> Result<(), WsError> {
        let result = self.state.game.outcome();
        let reason = self.state.game.end_reason().unwrap_or(EndReason::Rules);
        self.finish(GameStatus::Finished, result, reason).await
    }

    /// Ends the game if its position is over by the rules, or adjudicated (Перекати-поле's
    /// no-progress rule); otherwise does nothing.
    pub(super) async fn finish_if_decided(&mut self) -> Result<(), WsError> {
        if self.state.game.is_over() {
            self.finish_by_rules().await
        } else if let Some((result, reason)) = self.state.game.adjudication() {
            self.finish(GameStatus::Finished, Some(result), reason)
                .await
        } else {
            Ok(())
        }
    }
}

impl Table {
    pub(super) async fn start_rematch(&mut self) -> Result<(), WsError> {
        // Colours swap: the second seat of this game is the first of the next.
        let mut seats = self.state.seats.clone();
        seats.reverse();
        // Another game of the daily deal would be a second attempt: the next one is a new deal.
        let settings = self.state.settings.rematch();
        let host = self.state.host.as_ref().and_then(|id| {
            self.state
                .seats
                .iter()
                .flatten()
                .find(|u| &u.id == id)
                .cloned()
        });
        let next = self
            .services
            .tables
            .open(
                settings,
                host,
                seats,
                Some(RematchOf {
                    id: self.state.id.to_string(),
                    token: self.state.token.clone(),
                }),
            )
            .await?;
        self.state.rematch = Some(next.id.to_string());
        self.state.rematch_offer = None;
        self.broadcast(&Message::Rematch {
            table: self.state.id.to_string(),
            next: next.id.to_string(),
        });
        Ok(())
    }
}
