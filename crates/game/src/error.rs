//! `Error`: what every engine returns instead of panicking on input — a position, a move's text
//! or a move it refuses.

/// Everything that can go wrong when a game is built, read or played.
///
/// The `Display` form is what players and the referee see (`b2: the cell is occupied`), so
/// messages are short, lower-case and name the offending text first.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("unknown variant {0:?}")]
    UnknownVariant(String),
    #[error("bad position: {0}")]
    BadPosition(String),
    /// The text is not a move of this game at all (syntax, or a cell off the board).
    #[error("{text}: {reason}")]
    BadMove { text: String, reason: String },
    /// A well-formed move that the rules do not allow here.
    #[error("{text}: {reason}")]
    IllegalMove { text: String, reason: String },
    #[error("the game is over")]
    GameOver,
    #[error("perft is not defined for a game with dice")]
    Chance,
}

impl Error {
    pub fn bad_position(reason: impl Into<String>) -> Self {
        Error::BadPosition(reason.into())
    }

    pub fn bad_move(text: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::BadMove {
            text: text.into(),
            reason: reason.into(),
        }
    }

    pub fn illegal(text: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::IllegalMove {
            text: text.into(),
            reason: reason.into(),
        }
    }
}
