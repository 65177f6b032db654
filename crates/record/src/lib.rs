//! The plain values of a stored game that the store keeps and the table's rules read: where a
//! game is in its life, its record (seats, moves), the chat rooms, a rated ending and what it
//! did to a rating, an account's vacation days, the kinds of notification. No I/O: the store re-exports them, so the
//! table's core can use them without depending on the database.

mod notes;

pub use notes::NoteKind;

use game::{EndReason, Outcome};
use rating::{Class, Rating, Score};
use serde::{Deserialize, Serialize};

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occupant {
    /// A user, by id.
    User(String),
    /// A bot, by level name such as `easy`.
    Bot(String),
}

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Waiting for players.
    Open,
    Playing,
    /// Ended with a result.
    Finished,
    /// Ended without one (abandoned before it really began, or cancelled).
    Aborted,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "open" => Some(GameStatus::Open),
            "playing" => Some(GameStatus::Playing),
            "finished" => Some(GameStatus::Finished),
            "aborted" => Some(GameStatus::Aborted),
            _ => None,
        }
    }

    /// True for the states a game never leaves.
    pub fn is_over(self) -> bool {
        matches!(self, GameStatus::Finished | GameStatus::Aborted)
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One recorded move, with both clocks as they stood right after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// 1-based.
    pub ply: u32,
    pub mv: String,
    pub played_at: i64,
    pub clock_a_ms: Option<i64>,
    pub clock_b_ms: Option<i64>,
}

/// A seat as stored, with the sitting user's display name looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub user_id: Option<String>,
    pub display_name: Option<String>,
    /// A user who has not registered.
    pub guest: bool,
    pub bot: Option<String>,
    /// The sitting user is a bot account (one that plays through the Bot API).
    pub bot_account: bool,
    /// In a rated game that has ended: the rating this seat's player had after it, and by
    /// how much it changed (both rounded).
    pub rating_after: Option<i32>,
    pub rating_change: Option<i32>,
    /// Whether the rating after it was still provisional.
    pub rating_provisional: Option<bool>,
}

impl SeatRow {
    pub fn occupant(&self) -> Option<Occupant> {
        match (&self.user_id, &self.bot) {
            (Some(user), _) => Some(Occupant::User(user.clone())),
            (None, Some(bot)) => Some(Occupant::Bot(bot.clone())),
            (None, None) => None,
        }
    }
}

/// A whole game: enough to rebuild its position and clocks by replaying the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub seed: u64,
    pub private: bool,
    /// The key to a private table: no view of a game carries it.
    pub invite_token: Option<String>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Days for each move of a correspondence game.
    pub move_days: Option<i64>,
    pub status: GameStatus,
    pub result: Option<Outcome>,
    pub end_reason: Option<EndReason>,
    pub rematch_of: Option<String>,
    /// The game that was started as this one's rematch, if any.
    pub rematch: Option<String>,
    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this game plays.
    pub daily: Option<String>,
    pub rated: bool,
    pub rating_range: Option<[i64; 2]>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub host_id: Option<String>,
    /// `(ply, deadline)`: the move at that ply (the number of moves made) is due at that unix
    /// ms, later than its days allow because its player took vacation days. Stale once the
    /// game has moved on.
    pub vacation_deadline: Option<(i64, i64)>,
    /// Ordered by seat number.
    pub seats: Vec<SeatRow>,
    /// Ordered by ply.
    pub moves: Vec<MoveRow>,
}

/// Who a chat line was written among: the players keep their own room, so that spectators'
/// talk reaches them only if they choose to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRoom {
    Players,
    Spectators,
}

impl ChatRoom {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }
}

/// A rated game about to end: who played (seat order; a user's id, or a bot's reserved id
/// such as `bot:easy`, the keys ratings are kept under) and how the first seat scored.
#[derive(Debug, Clone)]
pub struct RatedEnd<'a> {
    pub game: &'a str,
    pub class: Class,
    pub players: [&'a str; 2],
    pub first_scored: Score,
}

/// What one rated game did to one player's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub player: String,
    pub before: Rating,
    pub after: Rating,
}

impl RatingChange {
    /// The change as people read it: the difference of the shown (rounded) ratings.
    pub fn shown_change(&self) -> i32 {
        self.after.shown() - self.before.shown()
    }
}

/// An account's vacation days as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    /// Days taken in `year`.
    pub used: i64,
    /// The calendar year (UTC) `used` counts in; 0 before the first day taken.
    pub year: i64,
    /// A passed deadline takes a day by itself.
    pub auto: bool,
}
