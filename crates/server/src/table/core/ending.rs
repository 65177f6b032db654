//! How a game ends, by the rules: a game for two called off before both sides moved, a loss
//! on time (a fallen flag or a passed deadline), what a rated ending moves, and the state and
//! the effects once the actor has written the ending (`actor/ending.rs`).

use record::GameStatus;
use record::NoteKind;
use std::collections::BTreeMap;

use catalog::{EndReason, Outcome, Seat};
use std::time::Instant;

use super::effects::{Effect, Step};
use super::state::{TableState, finish};
use crate::ws::protocol::{Message, RatingEnd};

impl TableState {
    /// Whether every seat has made a move. Until then a game for two does not count: it can
    /// be aborted, its clocks do not run, and any ending calls it off.
    pub(in crate::table) fn both_sides_moved(&self) -> bool {
        (0..self.seats.len()).all(|i| self.plies.iter().any(|p| p.by.index() == i))
    }

    /// A game for two that the players (not the rules) end with `result`: before both sides
    /// have moved it is called off instead, with no result and no rating change (lichess's
    /// rule), whatever the reason — a resignation, a draw agreed, a flag or a claim.
    pub(in crate::table) fn decided(&self, result: Outcome, reason: EndReason) -> Step {
        if self.seats.len() == 2 && !self.both_sides_moved() {
            finish(GameStatus::Aborted, None, reason)
        } else {
            finish(GameStatus::Finished, Some(result), reason)
        }
    }

    /// What a rated ending needs: both players' rating keys and the first seat's score.
    /// `None` when this ending moves no rating (casual, aborted, solo, or no result).
    pub(in crate::table) fn rated_end(
        &self,
        status: GameStatus,
        result: Option<Outcome>,
    ) -> Option<record::RatedEnd<'_>> {
        if !self.settings.rated()
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
        Some(record::RatedEnd {
            game: self.settings.variant().game().as_str(),
            class: self.settings.rating_class()?,
            players: [a.id.as_str(), b.id.as_str()],
            first_scored,
        })
    }

    /// Keeps the new ratings for the snapshots; returns what the `end` message says of them.
    /// Takes the new ratings of a rated ending; what each seat hears of its change.
    pub fn apply_rating_changes(
        &mut self,
        changes: &[record::RatingChange; 2],
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
                    EndReason::Time,
                ),
                _ => finish(GameStatus::Aborted, None, EndReason::Expired),
            });
        }
        let seat = self.clock.as_ref().and_then(|c| c.flagged(now))?;
        Some(self.decided(Outcome::Win(seat.other()), EndReason::Time))
    }

    /// Applies an ending that is now stored: the clock stops, offers and absences lapse.
    pub fn apply_end(
        &mut self,
        status: GameStatus,
        result: Option<Outcome>,
        reason: EndReason,
        ratings: Option<BTreeMap<&'static str, RatingEnd>>,
        now: Instant,
    ) -> Vec<Effect> {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.status = status;
        self.result = result;
        self.reason = Some(reason);
        self.deadline = None;
        // What the players were told of this table is no longer news; only its end is.
        let mut effects = vec![Effect::Turn, Effect::NotesEnded];
        if self.settings.days().is_some() && status == GameStatus::Finished {
            for user in self.seats.iter().flatten() {
                effects.push(Effect::Notify {
                    user: user.id.clone(),
                    kind: NoteKind::GameOver,
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
            reason,
            ratings,
        }));
        if rated {
            // The seats now carry the new ratings and their changes.
            effects.push(Effect::Snapshots);
        }
        effects.extend([Effect::Lobby, Effect::Live]);
        // Written with the finished game, not on its first view (an aborted one has none).
        if self.settings.variant().game().is_solo()
            && status == GameStatus::Finished
            && result.is_some()
        {
            effects.push(Effect::Review);
        }
        effects
    }
}
