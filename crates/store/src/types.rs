//! Plain data that goes in and out of the store. Everything derives `Serialize` so the server
//! can forward it as JSON; fields that must never leave the server are skipped there.

use serde::Serialize;

use crate::StoreError;

pub use game::Outcome;

/// A stored result read back into its type; a text that is no result is `Invalid`.
pub(crate) fn decode_outcome(text: Option<String>) -> Result<Option<Outcome>, StoreError> {
    text.map(|t| {
        t.parse()
            .map_err(|_| StoreError::Invalid(format!("stored result {t:?}")))
    })
    .transpose()
}

/// A person: a guest (no username) or a registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    pub id: String,
    pub display_name: String,
    pub username: Option<String>,
    /// Never serialized: a hash still helps an offline guesser.
    #[serde(skip_serializing)]
    pub password_hash: Option<String>,
    pub created_at: i64,
    /// Tokens issued under an older version are refused (see `bump_token_version`).
    pub token_version: i64,
    /// When an operator flagged the account (no chat, no public tables), if ever.
    pub flagged_at: Option<i64>,
}

impl User {
    pub fn is_guest(&self) -> bool {
        self.username.is_none()
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
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

    pub(crate) fn decode(s: &str) -> Result<GameStatus, StoreError> {
        GameStatus::parse(s).ok_or_else(|| StoreError::Invalid(format!("stored status {s:?}")))
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything needed to create a game; it starts in status `open`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewGame {
    pub id: String,
    /// Catalog id of the game, e.g. `mill`.
    pub game: String,
    pub variant: String,
    pub seed: u64,
    pub private: bool,
    #[serde(skip_serializing)]
    pub invite_token: Option<String>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Days for each move of a correspondence game.
    pub move_days: Option<i64>,
    pub rematch_of: Option<String>,
    pub host_id: Option<String>,
    pub created_at: i64,
    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this game plays.
    pub daily: Option<String>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// An open seek's admitted opponent ratings, lowest and highest.
    pub rating_range: Option<[i64; 2]>,
    /// One entry per seat, index = seat number; `None` is an empty seat.
    pub seats: Vec<Option<Occupant>>,
}

/// One recorded move, with both clocks as they stood right after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveRow {
    /// 1-based.
    pub ply: u32,
    pub mv: String,
    pub played_at: i64,
    pub clock_a_ms: Option<i64>,
    pub clock_b_ms: Option<i64>,
}

/// A seat as stored, with the sitting user's display name looked up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatRow {
    pub seat: u8,
    pub user_id: Option<String>,
    pub display_name: Option<String>,
    /// A user who has not registered.
    pub guest: bool,
    pub bot: Option<String>,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub seed: u64,
    pub private: bool,
    /// Never serialized: it is the key to a private table, and game views are public.
    #[serde(skip_serializing)]
    pub invite_token: Option<String>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Days for each move of a correspondence game.
    pub move_days: Option<i64>,
    pub status: GameStatus,
    pub result: Option<Outcome>,
    pub end_reason: Option<String>,
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
    #[serde(skip_serializing)]
    pub vacation_deadline: Option<(i64, i64)>,
    /// Ordered by seat number.
    pub seats: Vec<SeatRow>,
    /// Ordered by ply.
    pub moves: Vec<MoveRow>,
}

/// A line of a player's game history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub private: bool,
    pub status: GameStatus,
    pub result: Option<Outcome>,
    pub end_reason: Option<String>,
    pub rated: bool,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub move_count: u32,
    pub seats: Vec<SeatRow>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewChatLine {
    pub game_id: String,
    /// `None` for lines the server writes itself.
    pub user_id: Option<String>,
    /// The name shown, frozen at send time.
    pub author: String,
    pub body: String,
    pub sent_at: i64,
    pub room: ChatRoom,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    pub id: i64,
    pub game_id: String,
    pub user_id: Option<String>,
    pub author: String,
    pub body: String,
    pub sent_at: i64,
    pub room: ChatRoom,
}

/// Who a chat line was written among: the players keep their own room, so that spectators'
/// talk reaches them only if they choose to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
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

    pub(crate) fn decode(s: &str) -> Result<ChatRoom, StoreError> {
        match s {
            "players" => Ok(ChatRoom::Players),
            "spectators" => Ok(ChatRoom::Spectators),
            _ => Err(StoreError::Invalid(format!("stored chat room {s:?}"))),
        }
    }
}

/// One finished White Rabbit daily deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DailyResult {
    /// `YYYY-MM-DD`.
    pub day: String,
    pub user_id: String,
    pub game_id: String,
    pub score: i32,
    pub actions: u32,
    pub finished_at: i64,
}

/// A leaderboard line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DailyEntry {
    /// 1-based position on the board.
    pub rank: u32,
    pub user_id: String,
    pub display_name: String,
    pub game_id: String,
    pub score: i32,
    pub actions: u32,
    pub finished_at: i64,
}
