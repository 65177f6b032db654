//! What a table looks like from outside: the snapshot each viewer gets, a move as it is
//! announced, a player's "my games" line, and the table's lines in the lobby and the live
//! list. Pure functions of the state and the time handed in.

use catalog::Seat;
use record::GameStatus;
use std::time::Instant;

use super::bot_level;
use super::state::TableState;
use crate::ws::protocol::{
    ClockView, LiveEntry, LobbyEntry, MoveEvent, PlayingEntry, SeatRating, SeatView, TableView,
    UserView,
};

impl TableState {
    pub(in crate::table) fn move_event(&self, index: usize) -> MoveEvent {
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
        let playing = self.status == GameStatus::Playing;
        let next = self.next.clone();
        // The legal list concerns only the player to move.
        let moving = playing && you.is_some() && self.game.to_move() == you;
        TableView {
            id: self.id.to_string(),
            game: self.settings.variant().game().as_str().into(),
            variant: self.settings.variant().as_str().into(),
            private: self.settings.private(),
            status: self.status.as_str().into(),
            host: self.host.clone(),
            seats: (0..self.seats.len())
                .filter_map(Seat::from_index)
                .map(|seat| self.seat_view(seat))
                .collect(),
            you: you.map(|seat| seat.letter().into()),
            // A daily deal is private so that nobody watches it: it has no link to share.
            invite: (self.settings.private() && insider && self.settings.daily().is_none())
                .then(|| self.token.clone()),
            ply: self.plies.len() as u32,
            moves: self.plies.iter().map(|p| p.mv.clone()).collect(),
            position: self.game.view(you),
            to_move: next.to_move.filter(|_| playing).map(Into::into),
            turn: next.turn.into(),
            legal: if moving { next.legal } else { Vec::new() },
            legal_truncated: next.legal_truncated && moving,
            clock: self.clock_view(now),
            days: self.settings.days(),
            deadline: self.deadline,
            vacation: self.vacation.clone().filter(|_| playing),
            result: self.result,
            reason: self.reason,
            draw_offer: self.draw_offer.map(|seat| seat.letter().into()),
            takeback_offer: self.takeback_offer.map(|seat| seat.letter().into()),
            can_take_back: you.is_some_and(|seat| self.takeback_keeps(seat).is_some()),
            rematch_offer: self.rematch_offer.map(|seat| seat.letter().into()),
            rematch: self.rematch.clone(),
            chat: self.chat.iter().cloned().collect(),
            daily: self.settings.daily().map(str::to_string),
            rated: self.settings.rated(),
            rating_class: self.settings.rating_class().map(|c| c.as_str().into()),
            rating_range: self.settings.rating_range(),
            away: self.presence.view(),
            claim: you.is_some_and(|seat| playing && self.presence.may_claim(seat)),
            berserk: self.berserk_view(you),
        }
    }

    pub(in crate::table) fn seat_view(&self, seat: Seat) -> SeatView {
        let user = self.seats.get(seat.index()).cloned().flatten();
        let rating = self.ratings.get(seat.index()).copied().flatten();
        SeatView {
            seat: seat.letter().into(),
            label: self.game.seat_label(seat).into(),
            bot: user.as_ref().and_then(bot_level).map(|l| l.to_string()),
            user,
            rating: rating.as_ref().map(SeatRating::from),
            rating_change: self.rating_changes.get(seat.index()).copied().flatten(),
        }
    }

    pub(in crate::table) fn clock_view(&self, now: Instant) -> Option<ClockView> {
        self.clock.as_ref().map(|c| ClockView {
            initial_ms: c.control().initial_ms,
            increment_ms: c.control().increment_ms,
            remaining_ms: c.remaining(now),
            running: c.running().map(|seat| seat.letter().into()),
        })
    }

    pub(in crate::table) fn playing(
        &self,
        user_id: &str,
        now: Instant,
        now_ms: i64,
    ) -> Option<PlayingEntry> {
        let you = self.seat_of(user_id)?;
        if !matches!(self.status, GameStatus::Open | GameStatus::Playing) {
            return None;
        }
        let playing = self.status == GameStatus::Playing;
        let to_move = self.game.to_move().filter(|_| playing);
        let opponent = (self.seats.len() == 2).then(|| self.seat_view(you.other()));
        let clock = self.clock_view(now);
        Some(PlayingEntry {
            id: self.id.to_string(),
            game: self.settings.variant().game().as_str().into(),
            variant: self.settings.variant().as_str().into(),
            private: self.settings.private(),
            status: self.status.as_str().into(),
            you: you.letter().into(),
            side: self
                .seat_labels()
                .get(you.index())
                .copied()
                .unwrap_or(you.letter())
                .into(),
            your_turn: to_move == Some(you),
            to_move: to_move.map(|seat| seat.letter().into()),
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
            days: self.settings.days(),
            deadline: self.deadline,
            daily: self.settings.daily().map(str::to_string),
        })
    }

    /// This table's line in the lobby: only while a public table waits for players.
    pub(in crate::table) fn lobby_entry(&self) -> Option<LobbyEntry> {
        let listed = !self.settings.private() && self.status == GameStatus::Open;
        listed.then(|| LobbyEntry {
            id: self.id.to_string(),
            game: self.settings.variant().game().as_str(),
            variant: self.settings.variant().as_str(),
            clock: self.settings.control(),
            days: self.settings.days(),
            seats: self.seats.len(),
            players: self
                .seats
                .iter()
                .flatten()
                .map(|u| u.name.clone())
                .collect(),
            player_ids: self.seats.iter().flatten().map(|u| u.id.clone()).collect(),
            player_bots: self
                .seats
                .iter()
                .flatten()
                .map(|u| u.bot || bot_level(u).is_some())
                .collect(),
            rated: self.settings.rated(),
            host_rating: self
                .seats
                .iter()
                .zip(&self.ratings)
                .find_map(|(user, rating)| user.as_ref().and(rating.as_ref()))
                .map(SeatRating::from),
            rating_range: self.settings.rating_range(),
            opened_at: self.created_at,
        })
    }

    /// This game's line in the live list, with `watchers` watching: only while a public game
    /// is played.
    pub(in crate::table) fn live_entry(&self, watchers: usize) -> Option<LiveEntry> {
        let listed = !self.settings.private() && self.status == GameStatus::Playing;
        listed.then(|| LiveEntry {
            id: self.id.to_string(),
            game: self.settings.variant().game().as_str(),
            variant: self.settings.variant().as_str(),
            clock: self.settings.control(),
            days: self.settings.days(),
            rated: self.settings.rated(),
            ply: self.plies.len() as u32,
            started_at: self.started_at,
            watchers,
            players: (0..self.seats.len())
                .filter_map(Seat::from_index)
                .map(|seat| self.seat_view(seat).into())
                .collect(),
        })
    }

    /// The person to move here, for their "your turn" count (bots and solo puzzles keep
    /// nobody waiting).
    pub(in crate::table) fn waiting_for(&self) -> Option<&str> {
        self.mover()
            // A solo puzzle keeps nobody waiting: it does not count.
            .filter(|_| self.status == GameStatus::Playing && self.seats.len() == 2)
            .filter(|user| bot_level(user).is_none())
            .map(|user| user.id.as_str())
    }
}
