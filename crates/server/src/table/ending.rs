//! How a game ends: the rules' ending is written (with the rating changes of a rated game)
//! before it is applied and announced; a won daily deal then goes on its leaderboard, and a
//! finished White Rabbit game's review is written.

use std::collections::BTreeMap;
use store::GameStatus;

use catalog::{Outcome, Seat};
use tokio::time::Instant;

use super::Table;
use super::core::{TableState, finish};
use super::effects::{Effect, Step};
use crate::error::WsError;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, RatingEnd, UserView};

impl TableState {
    /// Whether every seat has made a move. Until then a game for two does not count: it can
    /// be aborted, its clocks do not run, and any ending calls it off.
    pub(super) fn both_sides_moved(&self) -> bool {
        (0..self.seats.len()).all(|i| self.plies.iter().any(|p| p.by.index() == i))
    }

    /// A game for two that the players (not the rules) end with `result`: before both sides
    /// have moved it is called off instead, with no result and no rating change (lichess's
    /// rule), whatever the reason — a resignation, a draw agreed, a flag or a claim.
    pub(super) fn decided(&self, result: Outcome, reason: &'static str) -> Step {
        if self.seats.len() == 2 && !self.both_sides_moved() {
            finish(GameStatus::Aborted, None, reason)
        } else {
            finish(GameStatus::Finished, Some(result), reason)
        }
    }

    /// What a rated ending needs: both players' rating keys and the first seat's score.
    /// `None` when this ending moves no rating (casual, aborted, solo, or no result).
    pub(super) fn rated_end(
        &self,
        status: GameStatus,
        result: Option<Outcome>,
    ) -> Option<store::RatedEnd<'_>> {
        if !self.settings.rated
            || status != GameStatus::Finished
            || self.seats.len() != 2
            || !self.both_sides_moved()
        {
            return None;
        }
        let first_scored = match result? {
            Outcome::Win(Seat::A) => rating::Score::Win,
            Outcome::Win(_) => rating::Score::Loss,
            Outcome::Draw => rating::Score::Draw,
            Outcome::SoloWon { .. } | Outcome::SoloLost => return None,
        };
        let a = self.seats[0].as_ref()?;
        let b = self.seats[1].as_ref()?;
        Some(store::RatedEnd {
            game: self.settings.variant.game().as_str(),
            class: self.settings.rating_class()?,
            players: [a.id.as_str(), b.id.as_str()],
            first_scored,
        })
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

    /// A loss on time due at `now` (unix ms `now_ms`): a fallen flag, or a correspondence
    /// deadline passed (not while the table is held). A game nobody has really begun is
    /// called off; after that, the side that let its time run out loses.
    pub fn timeout(&self, now: Instant, now_ms: i64) -> Option<Step> {
        if self.status != GameStatus::Playing {
            return None;
        }
        if self.deadline.is_some_and(|d| now_ms >= d) && !self.held {
            return Some(match self.game.to_move() {
                Some(seat) if self.both_sides_moved() => finish(
                    GameStatus::Finished,
                    Some(Outcome::Win(seat.other())),
                    "time",
                ),
                _ => finish(GameStatus::Aborted, None, "expired"),
            });
        }
        let seat = self.clock.as_ref().and_then(|c| c.flagged(now))?;
        Some(self.decided(Outcome::Win(seat.other()), "time"))
    }

    /// Applies an ending that is now stored: the clock stops, offers and absences lapse.
    pub fn apply_end(
        &mut self,
        status: GameStatus,
        result: Option<Outcome>,
        reason: &str,
        ratings: Option<BTreeMap<&'static str, RatingEnd>>,
        now: Instant,
    ) -> Vec<Effect> {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.status = status;
        self.result = result;
        self.reason = Some(reason.to_string());
        self.deadline = None;
        // What the players were told of this table is no longer news; only its end is.
        let mut effects = vec![Effect::Turn, Effect::NotesEnded];
        if self.settings.days.is_some() && status == GameStatus::Finished {
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
        // Written with the finished game, not on its first view (an aborted one has none).
        if self.settings.variant.game() == catalog::GameId::WhiteRabbit
            && status == GameStatus::Finished
            && result.is_some()
        {
            effects.push(Effect::Review);
        }
        effects
    }
}

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
                .rating(&user.id, self.state.settings.variant.game().as_str(), class)
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
        if !self.state.settings.rated {
            return;
        }
        let (Some(day), Some(Outcome::SoloWon { score }), Some(Some(player))) = (
            &self.state.settings.daily,
            self.state.game.outcome(),
            self.state.seats.first(),
        ) else {
            return;
        };
        let result = store::DailyResult {
            day: day.clone(),
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

    /// Writes the finished game's review on the CPU pool, with the exact tables the server
    /// has; the table goes on without waiting for it.
    pub(super) fn write_review(&self) {
        crate::rabbit_review::write_in_background(
            self.services.store.clone(),
            &self.services.bots.cpu,
            self.services.rabbit_tables.clone(),
            self.state.id.to_string(),
        );
    }

    pub(super) async fn finish(
        &mut self,
        status: GameStatus,
        result: Option<Outcome>,
        reason: &str,
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
        let reason = self.state.game.end_reason().unwrap_or("rules");
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
