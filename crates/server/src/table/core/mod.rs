//! The table's rules: a state machine over [`TableState`]. An order and the time go in, a
//! [`Step`] (or the error that refuses it, changing nothing) comes out; applying a step that
//! the actor has written returns the [`Effect`]s to carry out. Nothing here awaits, reads a
//! clock, touches the store, a socket or the runtime: `now` (an `Instant`, and unix ms where a
//! date is kept) is always an argument. `crates/server/tests/architecture.rs` checks it.
//!
//! - [`state`]: the state, a new table's, and the helpers every rule uses; [`restore`] the
//!   state rebuilt from a stored record; [`settings`] what a table is created with, built
//!   only by its constructors (a request's parser among them);
//! - [`rules`]: who may do what ([`TableState::check`]), and a move applied;
//! - [`views`]: what a viewer sees; [`effects`]: steps and effects;
//! - [`chat`], [`offers`], [`seating`], [`ending`], [`takeback`], [`presence`], [`berserk`]:
//!   one concern each; [`clock`] the live clock; [`vacation`] the vacation days' arithmetic.

pub mod berserk;
pub mod chat;
pub mod clock;
pub mod effects;
pub mod ending;
pub mod offers;
pub mod presence;
pub mod restore;
pub mod rules;
pub mod seating;
pub mod settings;
pub mod state;
pub mod takeback;
pub mod vacation;
pub mod views;

pub use effects::{Effect, Step};
pub use settings::{CORRESPONDENCE_DAYS, TableSettings};
pub use state::{Orderer, Played, SoloPosition, TableState};

use crate::ws::protocol::TableId;
use std::time::Duration;

use catalog::{AnyGame, Seat};

/// What a player does at a table: the wire's own type, taken as the socket read it.
pub use crate::ws::protocol::Action;
use crate::ws::protocol::{NextTurn, UserView};

/// Legal-move lists longer than this are not sent (tumbleweed's opening setup has tens of
/// thousands of moves; clients derive those from the position).
const LEGAL_LIST_LIMIT: usize = 2_000;
/// Chat lines kept in memory and sent in snapshots.
const CHAT_TAIL: usize = 50;
/// The longest chat line, in characters (a table's, and a tournament's room).
pub const CHAT_MAX_CHARS: usize = 500;
/// At most this many chat lines per user per table in [`CHAT_WINDOW`].
const CHAT_BURST: usize = 5;
const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// Why a guest cannot play a rated game.
pub const RATED_FOR_ACCOUNTS: &str =
    "rated games are for accounts: sign up or log in to play one (guests play casual games)";

/// A bot in a seat is a user with a reserved id (`bot:easy`); real ids never contain `:`.
pub fn bot_user(level: ai::Level) -> UserView {
    UserView {
        id: format!("bot:{level}"),
        name: format!("Stolik bot ({level})"),
        guest: false,
        // Our own bots are marked by their level (`SeatView::bot`), not as accounts.
        bot: false,
    }
}

/// The level of the bot this user stands for, if it is one.
pub fn bot_level(user: &UserView) -> Option<ai::Level> {
    user.id.strip_prefix("bot:")?.parse().ok()
}

/// One played move as kept in memory, for catch-up.
pub struct Ply {
    pub mv: String,
    pub by: Seat,
    pub position: String,
    pub clock: Option<[i64; 2]>,
}

/// What a new table starts from.
pub struct NewTable {
    pub id: TableId,
    pub settings: TableSettings,
    pub seed: u64,
    pub token: String,
    pub host: Option<UserView>,
    pub seats: Vec<Option<UserView>>,
    /// When it was opened (unix ms), as stored.
    pub created_at: i64,
}

/// Who moves in `game`, and their legal moves unless there are too many to send.
pub fn next_turn(game: &AnyGame) -> NextTurn {
    let legal = game.legal_texts();
    let legal_truncated = legal.len() > LEGAL_LIST_LIMIT;
    NextTurn {
        to_move: game.to_move().map(Seat::letter),
        turn: game.turn_label(),
        legal: if legal_truncated { Vec::new() } else { legal },
        legal_truncated,
    }
}

#[cfg(test)]
mod tests;
