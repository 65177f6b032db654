//! What a director is told, and what it decides.
//!
//! Both directors take the same events, each with the time it happened (unix milliseconds,
//! from the server's clock: a director never reads a clock). An event a director cannot take
//! is refused with an [`Error`](crate::Error) and changes nothing; so a log of the accepted
//! events, replayed, rebuilds the same director.

use game::Outcome;
use serde::{Deserialize, Serialize};

use crate::ids::{PairingId, PlayerId};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A player enters, with their rating in the tournament's game and time class.
    Join { player: PlayerId, rating: i32 },
    /// A player leaves (what becomes of their games is each director's rule).
    Withdraw { player: PlayerId },
    /// An arena player stops being paired (after the game they are in, if any); the server
    /// also sends it for a player whose page is closed.
    Pause { player: PlayerId },
    /// A paused arena player comes back and waits to be paired.
    Resume { player: PlayerId },
    /// The table of a pairing exists and its clocks run; `game` is the server's game id.
    GameStarted { pairing: PairingId, game: String },
    /// A pairing's game ended: its outcome, its length in plies, and which seats (A, B)
    /// played berserk.
    GameFinished {
        pairing: PairingId,
        outcome: Outcome,
        plies: u32,
        #[serde(default)]
        berserk: [bool; 2],
    },
    /// A pairing's game was called off before it counted (or its table could not be made):
    /// it scores nothing and its players are free again.
    GameAborted { pairing: PairingId },
    /// Time passes: starts, ends and waits are checked.
    Tick,
}

impl Event {
    /// The event's name, for errors.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Join { .. } => "join",
            Event::Withdraw { .. } => "withdraw",
            Event::Pause { .. } => "pause",
            Event::Resume { .. } => "resume",
            Event::GameStarted { .. } => "game_started",
            Event::GameFinished { .. } => "game_finished",
            Event::GameAborted { .. } => "game_aborted",
            Event::Tick => "tick",
        }
    }
}

/// What the server must do after an event, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Decision {
    /// The tournament begins.
    Start,
    /// Start a game: `seats[0]` sits in seat A (moves first), `seats[1]` in seat B. In an
    /// arena one of them may be a house bot (`house_bot`), whom the server plays.
    Pair {
        pairing: PairingId,
        seats: [PlayerId; 2],
        house_bot: Option<PlayerId>,
    },
    /// End a running game now, lost by `loser` (a round robin's forfeit).
    Forfeit { pairing: PairingId, loser: PlayerId },
    /// Stop a running game: it counts for nothing (a round robin's annulled games).
    Annul { pairing: PairingId },
    /// The tournament is over. The games in `uncounted` were still being played: they may
    /// go on, but their results will not count.
    Finish { uncounted: Vec<PairingId> },
    /// The standings are final: keep them as the tournament's record.
    FreezeStandings,
    /// The tournament did not have the players to start, and never will.
    Cancel,
}
