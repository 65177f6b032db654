//! A table: one game, its seats, clock, offers, chat and watchers.
//!
//! Two layers. The rules ([`core`], with [`views`], [`offers`], [`chat`], [`seating`],
//! [`ending`]) are a
//! state machine over [`core::TableState`]: an order and the time go in, a [`effects::Step`]
//! (or the error that refuses it, changing nothing) comes out, and applying a step returns
//! the [`effects::Effect`]s to carry out. No runtime, database or socket in them. The actor
//! ([`actor`]) runs them: one command at a time from a bounded channel (a cloneable
//! [`TableHandle`] in front of it, as fishnet's `ApiStub`), with narrow [`Services`] instead
//! of the hub. That single line of commands keeps the move protocol simple and safe:
//! validate with the rules → commit to the database → only then apply and tell anyone.

mod actor;
mod bot;
mod chat;
pub mod clock;
mod core;
mod delivery;
mod effects;
mod ending;
mod handle;
mod offers;
mod presence;
mod seating;
pub mod services;
mod takeback;
#[cfg(test)]
mod tests;
pub mod vacation;
mod vacation_use;
mod views;

pub use actor::Table;
pub use core::HintPosition;
pub use handle::{Action, Answer, Call, Command, Forwarder, Forwarding, TableHandle, Watchers};
pub use services::Services;

use catalog::{AnyGame, Seat};
use tokio::time::Duration;

use crate::outbox::Outbox;
use crate::ws::protocol::{ChatView, NextTurn, TableView, TimeControl, UserView};

/// Legal-move lists longer than this are not sent (tumbleweed's opening setup has tens of
/// thousands of moves; clients derive those from the position).
const LEGAL_LIST_LIMIT: usize = 2_000;
/// Chat lines kept in memory and sent in snapshots.
const CHAT_TAIL: usize = 50;
const CHAT_MAX_CHARS: usize = 500;
/// At most this many chat lines per user per table in [`CHAT_WINDOW`].
const CHAT_BURST: usize = 5;
const CHAT_WINDOW: Duration = Duration::from_secs(10);
/// A finished table nobody watches is dropped from memory after this long (it stays in the
/// database and is reloaded on demand).
const IDLE_FINISHED: Duration = Duration::from_secs(600);
/// A public table nobody joins closes after this long (so the lobby does not fill up with
/// tables whose hosts are gone); a private one, waiting for a friend with the link, after a day.
const OPEN_PUBLIC_TTL: Duration = Duration::from_secs(30 * 60);
const OPEN_PRIVATE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Why a guest cannot play a rated game.
pub const RATED_FOR_ACCOUNTS: &str =
    "rated games are for accounts: sign up or log in to play one (guests play casual games)";

/// What a table is created with.
#[derive(Debug, Clone)]
pub struct TableSettings {
    pub variant: catalog::VariantId,
    pub private: bool,
    pub control: Option<TimeControl>,
    /// Correspondence: days for each move (then `control` is `None`).
    pub days: Option<u8>,
    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this table plays: the
    /// player's one attempt of that day, ranked on its leaderboard.
    pub daily: Option<String>,
    /// The day whose (finished) daily deal this table replays for practice, unranked. Only
    /// used to pick the seed at creation; the stored game keeps the seed, not the day.
    pub practice: Option<String>,
    /// The result moves both players' ratings (accounts and bots only).
    pub rated: bool,
    /// Who may sit down: opponents rated within this range (lowest, highest).
    pub rating_range: Option<[i64; 2]>,
}

impl TableSettings {
    /// The rating class of this table's time control, for two-player games.
    pub fn rating_class(&self) -> Option<rating::Class> {
        (!self.variant.game().is_solo()).then(|| {
            rating::Class::of(
                self.control.map(|c| (c.initial_ms, c.increment_ms)),
                self.days,
            )
        })
    }
}

/// A bot in a seat is a user with a reserved id (`bot:easy`); real ids never contain `:`.
pub fn bot_user(level: ai::Level) -> UserView {
    UserView {
        id: format!("bot:{level}"),
        name: format!("Stolik bot ({level})"),
        guest: false,
    }
}

/// The level of the bot this user stands for, if it is one.
pub fn bot_level(user: &UserView) -> Option<ai::Level> {
    user.id.strip_prefix("bot:")?.parse().ok()
}

struct Subscriber {
    user: UserView,
    out: Outbox,
}

/// One played move as kept in memory, for catch-up.
struct Ply {
    mv: String,
    by: Seat,
    position: String,
    clock: Option<[i64; 2]>,
}

/// What a new table starts from.
pub struct NewTable {
    pub id: String,
    pub settings: TableSettings,
    pub seed: u64,
    pub token: String,
    pub host: Option<UserView>,
    pub seats: Vec<Option<UserView>>,
    /// When it was opened (unix ms), as stored.
    pub created_at: i64,
}

/// Who moves in `game`, and their legal moves unless there are too many to send.
fn next_turn(game: &AnyGame) -> NextTurn {
    let legal = game.legal_texts();
    let legal_truncated = legal.len() > LEGAL_LIST_LIMIT;
    NextTurn {
        to_move: game.to_move().map(Seat::letter),
        turn: game.turn_label(),
        legal: if legal_truncated { Vec::new() } else { legal },
        legal_truncated,
    }
}

/// A snapshot as one viewer sees it: without the chat lines of players they muted.
fn without_muted(mut view: TableView, muted: &crate::sessions::MuteList) -> TableView {
    if !muted.is_empty() {
        view.chat.retain(|line| !muted.hides(line.user.as_deref()));
    }
    view
}

fn chat_view(line: store::ChatLine) -> ChatView {
    ChatView {
        id: line.id,
        author: line.author,
        user: line.user_id,
        text: line.body,
        at: line.sent_at,
        room: line.room,
    }
}
