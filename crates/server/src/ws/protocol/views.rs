//! The views the server sends: tables, seats, chat lines, clocks, the lobby and the live
//! list, and who a connection speaks for. Plain data, serialized as `docs/protocol.md`
//! describes; built by the table, the hub and the live list.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// A name a view carries: the engine's or the catalogue's own (`Cow::Borrowed`) where the view
/// is made, owned where it was read back from another node.
pub type Text = Cow<'static, str>;

/// The identity behind a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct UserView {
    pub id: String,
    pub name: String,
    pub guest: bool,
    /// A bot account: it plays through the Bot API, and every page marks it so.
    #[serde(default)]
    pub bot: bool,
}

/// Minutes-and-increment time control, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

impl TimeControl {
    /// The largest clock the platform offers: three hours plus three minutes a move.
    const MAX_INITIAL_MS: u64 = 3 * 60 * 60 * 1000;
    const MAX_INCREMENT_MS: u64 = 3 * 60 * 1000;

    pub fn new(initial_ms: u64, increment_ms: u64) -> Result<TimeControl, String> {
        if initial_ms == 0 {
            return Err("the initial time must be positive".into());
        }
        if initial_ms > Self::MAX_INITIAL_MS || increment_ms > Self::MAX_INCREMENT_MS {
            return Err("the clock may not exceed 180 minutes plus 180 seconds".into());
        }
        Ok(TimeControl {
            initial_ms,
            increment_ms,
        })
    }
}

/// A seat as clients see it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: Text,
    /// How the game names this seat now (`a`, `b`, or a colour such as `r`).
    pub label: Text,
    pub user: Option<UserView>,
    /// The bot's level when a bot sits here.
    pub bot: Option<String>,
    /// The player's rating in this table's game and class (none for guests and solo games).
    pub rating: Option<SeatRating>,
    /// How much a rated game that has ended changed it.
    pub rating_change: Option<i32>,
}

/// A rating as a table shows it next to a name.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeatRating {
    pub rating: i32,
    pub provisional: bool,
}

impl From<&rating::Rating> for SeatRating {
    fn from(r: &rating::Rating) -> SeatRating {
        SeatRating {
            rating: r.shown(),
            provisional: r.provisional(),
        }
    }
}

/// One seat's rating change at the end of a rated game.
#[derive(Debug, Clone, Serialize)]
pub struct RatingEnd {
    pub before: i32,
    pub after: i32,
    pub change: i32,
    pub provisional: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChatView {
    /// The line's id, for reporting it.
    pub id: i64,
    pub author: String,
    pub user: Option<String>,
    pub text: String,
    pub at: i64,
    /// Written by a player (`players`) or by someone watching (`spectators`).
    pub room: store::ChatRoom,
}

/// A line of a tournament's chat room.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentChatView {
    pub id: i64,
    pub author: String,
    /// The author's user id (for muting); absent once the account is gone.
    pub user: Option<String>,
    pub text: String,
    pub at: i64,
}

/// One notification as its player sees it (the list of `/api/notifications`, and the
/// socket's `notification` event).
#[derive(Debug, Clone, Serialize)]
pub struct NotificationView {
    pub id: i64,
    pub kind: store::NoteKind,
    pub game_id: String,
    /// The catalogue id of the table's game.
    pub game: String,
    /// A person's name, or `bot:LEVEL`; `null` when the other seat is empty.
    pub opponent: Option<String>,
    pub created_at: i64,
    pub read: bool,
}

impl From<&store::Notification> for NotificationView {
    fn from(note: &store::Notification) -> NotificationView {
        NotificationView {
            id: note.id,
            kind: note.kind,
            game_id: note.game_id.clone(),
            game: note.game.clone(),
            opponent: note.opponent.clone(),
            created_at: note.created_at,
            read: note.read,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClockView {
    pub initial_ms: u64,
    pub increment_ms: u64,
    pub remaining_ms: [i64; 2],
    pub running: Option<Text>,
}

/// A full snapshot of a table for one viewer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TableView {
    pub id: String,
    pub game: Text,
    pub variant: Text,
    pub private: bool,
    pub status: Text,
    pub host: Option<String>,
    pub seats: Vec<SeatView>,
    /// The viewer's seat, if seated.
    pub you: Option<Text>,
    /// The private link's token, shown to the host and the seated players only.
    pub invite: Option<String>,
    pub ply: u32,
    pub moves: Vec<String>,
    pub position: String,
    pub to_move: Option<Text>,
    pub turn: Text,
    pub legal: Vec<String>,
    pub legal_truncated: bool,
    pub clock: Option<ClockView>,
    /// Correspondence: days for each move, and the unix ms by which the side to move must
    /// move (once it passes that side loses on time, or the game is aborted if a side has
    /// not moved yet).
    pub days: Option<u8>,
    pub deadline: Option<i64>,
    /// Correspondence: the side to move let its deadline pass and is on vacation (the
    /// deadline moved a day later for each day it took).
    pub vacation: Option<VacationView>,
    pub result: Option<catalog::Outcome>,
    pub reason: Option<catalog::EndReason>,
    pub draw_offer: Option<Text>,
    /// The seat that asked to take back its last move.
    pub takeback_offer: Option<Text>,
    /// The viewer is seated and has a move of theirs to take back (their side has moved).
    pub can_take_back: bool,
    pub rematch_offer: Option<Text>,
    pub rematch: Option<String>,
    pub chat: Vec<ChatView>,
    /// The day whose White Rabbit daily deal this is.
    pub daily: Option<String>,
    pub rated: bool,
    /// The rating class (`blitz`, `rapid`, `correspondence`) of a two-player table.
    pub rating_class: Option<Text>,
    pub rating_range: Option<[i64; 2]>,
    /// A player of a live game who has no connection left, and when their opponent may claim.
    pub away: Option<AwayView>,
    /// The viewer may claim this game now (their opponent has been away long enough).
    pub claim: bool,
    /// An arena game whose arena allows berserk: who went berserk, and whether the viewer
    /// may now. Absent at other tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub berserk: Option<BerserkView>,
}

/// Berserk at an arena table (docs/tournaments.md).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BerserkView {
    /// Seats A and B went berserk.
    pub seats: [bool; 2],
    /// The viewer is seated and may go berserk now (before their first move).
    pub can: bool,
}

/// A game in progress as its player's list shows it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayingEntry {
    pub id: String,
    pub game: Text,
    pub variant: Text,
    pub private: bool,
    /// `open` (waiting for an opponent) or `playing`.
    pub status: Text,
    /// The player's seat.
    pub you: Text,
    /// The player's side as the game names it: the seat's label (Tumbleweed's colour, `r` or
    /// `w`, once the second player has chosen).
    pub side: Text,
    pub your_turn: bool,
    pub to_move: Option<Text>,
    /// The other seat (a person, a bot, or empty); absent at a solo table.
    pub opponent: Option<SeatView>,
    pub ply: u32,
    pub clock: Option<ClockView>,
    pub days: Option<u8>,
    pub deadline: Option<i64>,
    /// The player's own time left: on their clock, or until the deadline of the move they
    /// have to play.
    pub time_left_ms: Option<i64>,
    pub daily: Option<String>,
}

/// The side to move of a correspondence game, on vacation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VacationView {
    pub seat: Text,
    /// Its vacation days left this year (`None` while not yet read after a restart).
    pub days_left: Option<i64>,
}

/// What clients are told about an absent player.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AwayView {
    pub seat: Text,
    pub claim_at: i64,
}

/// An open public table as the lobby lists it.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyEntry {
    pub id: String,
    pub game: &'static str,
    pub variant: &'static str,
    pub clock: Option<TimeControl>,
    /// Days a move, for a correspondence table.
    pub days: Option<u8>,
    pub seats: usize,
    pub players: Vec<String>,
    /// The seated players' ids, in the order of `players` (for links to their pages).
    pub player_ids: Vec<String>,
    /// Whether each seated player is a bot (a bot account, or the site's own), in the order
    /// of `players`: the lobby marks them.
    pub player_bots: Vec<bool>,
    pub rated: bool,
    /// The rating of the player waiting at the table, in its game and class.
    pub host_rating: Option<SeatRating>,
    /// Only opponents rated within this range may sit.
    pub rating_range: Option<[i64; 2]>,
    /// When the table was opened (unix ms): the lobby lists the newest first.
    pub opened_at: i64,
}

/// A quick-match queue as the lobby shows it: the kind of game, and how many wait for one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueView {
    pub game: &'static str,
    pub variant: &'static str,
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    /// Days a move, for correspondence.
    pub days: Option<u8>,
    pub rated: bool,
    pub waiting: usize,
}

/// One page of the open public tables, newest first (by `opened_at`, then `id`), and the
/// quick-match queues.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyView {
    /// `LobbyEntry`s, as JSON: those of other nodes arrive so.
    pub tables: Vec<serde_json::Value>,
    /// How many open tables there are of the asked game (of every game without one).
    pub total: usize,
    pub game: Option<&'static str>,
    pub offset: usize,
    pub limit: usize,
    pub queues: Vec<QueueView>,
}

/// What changed on a followed page of the lobby: applied to the page the client holds
/// (drop `removed`, put each of `tables` in by id, order by `opened_at` then `id`), it is the
/// page as the server has it.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyChanges {
    /// The page this changes, as the client asked for it (a change of a page the client no
    /// longer follows may still be on its way when it asks for another).
    pub game: Option<&'static str>,
    pub offset: usize,
    pub limit: usize,
    /// Ids of tables no longer on the page (taken, closed, or pushed off it by newer ones).
    pub removed: Vec<String>,
    /// Tables new to the page, or changed (`LobbyEntry`s as JSON).
    pub tables: Vec<serde_json::Value>,
    pub total: usize,
    /// The quick-match queues, when they changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queues: Option<Vec<QueueView>>,
}

/// A game being played, as the live list shows it.
#[derive(Debug, Clone, Serialize)]
pub struct LiveEntry {
    pub id: String,
    pub game: &'static str,
    pub variant: &'static str,
    pub clock: Option<TimeControl>,
    pub days: Option<u8>,
    pub rated: bool,
    pub ply: u32,
    pub started_at: Option<i64>,
    /// Connections watching without a seat.
    pub watchers: usize,
    pub players: Vec<LivePlayer>,
}

/// A player of a live game.
#[derive(Debug, Clone, Serialize)]
pub struct LivePlayer {
    pub seat: Text,
    pub user_id: Option<String>,
    pub name: Option<String>,
    pub bot: Option<String>,
    /// A bot account (someone's program) sits here.
    pub bot_account: bool,
    pub rating: Option<SeatRating>,
}

impl From<SeatView> for LivePlayer {
    fn from(seat: SeatView) -> LivePlayer {
        LivePlayer {
            seat: seat.seat,
            user_id: seat.user.as_ref().map(|u| u.id.clone()),
            bot_account: seat.user.as_ref().is_some_and(|u| u.bot),
            name: seat.user.map(|u| u.name),
            bot: seat.bot,
            rating: seat.rating,
        }
    }
}
