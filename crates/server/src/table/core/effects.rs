//! What the table's rules decide, for the actor to carry out: a [`Step`] is an order that
//! passed every check (and what it needs written first); an [`Effect`] is something to tell
//! the outside world once the state has changed.

use catalog::{AnyGame, EndReason, Outcome, Seat};
use record::GameStatus;
use record::NoteKind;

use crate::ws::protocol::{Message, OfferKind};

/// An accepted order. Steps that change the record are written by the actor before the state
/// moves on; the others apply at once.
#[derive(Debug)]
pub enum Step {
    /// Take seat `index` (once the player's rating admits them: [`super::TableState::admit`]).
    Sit {
        index: usize,
    },
    Stand {
        seat: Seat,
    },
    /// Play `mv`, reaching `next`: persist the move, then apply it.
    Move {
        seat: Seat,
        mv: String,
        next: Box<AnyGame>,
    },
    /// End the game: persist the ending, then apply it.
    Finish {
        status: GameStatus,
        result: Option<Outcome>,
        reason: EndReason,
    },
    /// Put an offer on the table (no record: offers live in memory).
    Offer {
        kind: OfferKind,
        by: Seat,
    },
    /// Withdraw the open offer of this kind.
    Clear {
        kind: OfferKind,
    },
    /// Open the rematch's table.
    Rematch,
    /// Take back every ply after the first `keep`: delete them, then replay.
    TakeBack {
        keep: usize,
    },
    /// Say `text` in the table's chat: persist the line, then deliver it.
    Chat {
        text: String,
        room: record::ChatRoom,
    },
    /// Relay a voice signal from `from` to the player `to` (nothing is kept).
    Voice {
        to: String,
        from: Seat,
    },
    /// Go berserk in an arena game: persist it, then halve the clock.
    Berserk {
        seat: Seat,
    },
}

/// Something the outside world hears of once the state has changed.
#[derive(Debug, Clone)]
pub enum Effect {
    /// This message to everyone watching.
    Broadcast(Message),
    /// A fresh snapshot to every watcher (seats or their names changed).
    Snapshots,
    /// A notification for this user (the hub skips bots).
    Notify { user: String, kind: NoteKind },
    /// This user's unread notification of this kind here is no longer true.
    Withdraw { user: String, kind: NoteKind },
    /// The table has ended: its notifications go (but "game over").
    NotesEnded,
    /// Who is to move changed: the "your turn" counters.
    Turn,
    /// The lobby line may have changed.
    Lobby,
    /// The live list line may have changed.
    Live,
    /// The game reached this ply (the live list).
    LivePly(u32),
    /// A solo game has finished with a result: its helpers are told (White Rabbit's write
    /// its review, in the background).
    Review,
}
