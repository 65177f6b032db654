//! Seats and the start of a game, once the actor has stored them: who sits where (and at what
//! rating), and the game under way.

use record::GameStatus;
use record::NoteKind;
use std::time::Instant;

use super::effects::Effect;
use super::state::TableState;
use crate::ws::protocol::UserView;
use catalog::Seat;

impl TableState {
    /// Seats `user` at `index` (stored already), with the rating they sat down with. The host
    /// hears that someone joined; the second return is whether every seat is now taken (the
    /// game starts: [`TableState::apply_start`]).
    pub fn apply_sit(
        &mut self,
        user: &UserView,
        index: usize,
        rating: Option<rating::Rating>,
    ) -> (Vec<Effect>, bool) {
        self.seats[index] = Some(user.clone());
        self.ratings.resize(self.seats.len(), None);
        self.ratings[index] = rating;
        let mut effects = Vec::new();
        if let Some(host) = self.host.as_deref().filter(|h| *h != user.id) {
            effects.push(Effect::Notify {
                user: host.to_string(),
                kind: NoteKind::Joined,
            });
        }
        effects.extend([Effect::Snapshots, Effect::Lobby]);
        let full = self.seats.iter().all(Option::is_some);
        (effects, full)
    }

    /// Frees `seat` (stored already). The host's "joined" notification of the player who
    /// leaves is withdrawn: it said that a seat was taken.
    pub fn apply_stand(&mut self, seat: Seat) -> Vec<Effect> {
        let left = self.seats[seat.index()].take();
        let mut effects = Vec::new();
        if let (Some(host), Some(left)) = (self.host.as_deref(), left)
            && host != left.id
        {
            effects.push(Effect::Withdraw {
                user: host.to_string(),
                kind: NoteKind::Joined,
            });
        }
        effects.extend([Effect::Snapshots, Effect::Lobby]);
        effects
    }

    /// Whether every seat is empty: an open table nobody sits at closes.
    pub fn empty(&self) -> bool {
        self.seats.iter().all(Option::is_none)
    }

    /// The game is under way from `now_ms` (stored already): the clock of the side to move
    /// runs once both have moved, a correspondence deadline runs from now.
    pub fn apply_start(&mut self, now_ms: i64, now: Instant) -> Vec<Effect> {
        self.status = GameStatus::Playing;
        self.started_at = Some(now_ms);
        self.start_clock(now);
        self.set_deadline(now_ms);
        vec![Effect::Turn, Effect::Live]
    }
}
