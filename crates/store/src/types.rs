//! Plain data that goes in and out of the store. None of it is a wire format: the server
//! builds its own views of what it sends, so a stored field reaches a client only when a view
//! names it.

use crate::StoreError;

pub use game::{EndReason, Outcome};
pub use record::{ChatRoom, GameRecord, GameStatus, MoveRow, NoteKind, Occupant, SeatRow};

/// A stored status read back into its type.
pub(crate) fn decode_status(s: &str) -> Result<GameStatus, StoreError> {
    GameStatus::parse(s).ok_or_else(|| StoreError::Invalid(format!("stored status {s:?}")))
}

/// A stored notification kind read back into its type.
pub(crate) fn decode_note_kind(s: &str) -> Result<NoteKind, StoreError> {
    NoteKind::parse(s).ok_or_else(|| StoreError::Invalid(format!("stored notification kind {s:?}")))
}

/// A stored chat room read back into its type.
pub(crate) fn decode_room(s: &str) -> Result<ChatRoom, StoreError> {
    match s {
        "players" => Ok(ChatRoom::Players),
        "spectators" => Ok(ChatRoom::Spectators),
        _ => Err(StoreError::Invalid(format!("stored chat room {s:?}"))),
    }
}

/// A stored result read back into its type; a text that is no result is `Invalid`.
pub(crate) fn decode_end_reason(text: Option<String>) -> Result<Option<EndReason>, StoreError> {
    text.map(|t| {
        t.parse()
            .map_err(|_| StoreError::Invalid(format!("stored end reason {t:?}")))
    })
    .transpose()
}

pub(crate) fn decode_outcome(text: Option<String>) -> Result<Option<Outcome>, StoreError> {
    text.map(|t| {
        t.parse()
            .map_err(|_| StoreError::Invalid(format!("stored result {t:?}")))
    })
    .transpose()
}

/// A person: a guest (no username) or a registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub display_name: String,
    pub username: Option<String>,
    /// Never sent anywhere: a hash still helps an offline guesser.
    pub password_hash: Option<String>,
    pub created_at: i64,
    /// Tokens issued under an older version are refused (see `bump_token_version`).
    pub token_version: i64,
    /// When an operator flagged the account (no chat, no public tables), if ever.
    pub flagged_at: Option<i64>,
    /// A bot account: it plays through the Bot API (for good, once made one).
    pub bot: bool,
}

impl User {
    pub fn is_guest(&self) -> bool {
        self.username.is_none()
    }
}

/// Everything needed to create a game; it starts in status `open`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    pub id: String,
    /// Catalog id of the game, e.g. `mill`.
    pub game: String,
    pub variant: String,
    pub seed: u64,
    pub private: bool,
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

/// A line of a player's game history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub private: bool,
    pub status: GameStatus,
    pub result: Option<Outcome>,
    pub end_reason: Option<EndReason>,
    pub rated: bool,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub move_count: u32,
    pub seats: Vec<SeatRow>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    pub id: i64,
    pub game_id: String,
    pub user_id: Option<String>,
    pub author: String,
    pub body: String,
    pub sent_at: i64,
    pub room: ChatRoom,
}

/// One finished White Rabbit daily deal.
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
