//! Why a director refused an event. A refused event changes nothing.

use game::Outcome;

use crate::ids::{PairingId, PlayerId};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("the settings do not make a tournament: {0}")]
    BadSettings(String),
    #[error("{0} has already joined")]
    AlreadyJoined(PlayerId),
    #[error("{0} has not joined this tournament")]
    NotJoined(PlayerId),
    #[error("{0} withdrew from this tournament and cannot come back")]
    Withdrew(PlayerId),
    #[error("{0} is not paused")]
    NotPaused(PlayerId),
    #[error("{0} is paused already")]
    AlreadyPaused(PlayerId),
    #[error("{0} is a house bot, not an entrant")]
    HouseBot(PlayerId),
    #[error("the tournament is full ({0} players)")]
    Full(usize),
    #[error("the tournament has started: its players are fixed")]
    Started,
    #[error("the tournament has not started")]
    NotStarted,
    #[error("the tournament is over")]
    Over,
    #[error("{0} is not an event of a {1}")]
    NotHere(&'static str, &'static str),
    #[error("there is no game {0} in this tournament")]
    UnknownPairing(PairingId),
    #[error("game {0} has started already")]
    GameStartedAlready(PairingId),
    #[error("game {0} is not being played")]
    GameNotRunning(PairingId),
    #[error("berserk is not allowed in this tournament")]
    BerserkOff,
    #[error("{0} is not a result of a game between two players")]
    NotTwoPlayers(Outcome),
}
