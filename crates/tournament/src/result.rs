//! A game's result from one player's side, and the checks every director makes of a
//! finished game.

use game::{Outcome, Seat};
use serde::{Deserialize, Serialize};

use crate::error::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// The result of the seat at `index` (0 for A, 1 for B) in a game with `outcome`, which
    /// [`check_finished`] accepted.
    pub fn of(outcome: Outcome, index: usize) -> GameResult {
        match outcome {
            Outcome::Win(winner) if Some(winner) == Seat::from_index(index) => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
            _ => GameResult::Draw,
        }
    }
}

/// Refuses a finished game whose outcome two players cannot have, or with berserk where it
/// is not allowed.
pub(crate) fn check_finished(
    outcome: Outcome,
    berserk: [bool; 2],
    berserk_allowed: bool,
) -> Result<(), Error> {
    if !matches!(outcome, Outcome::Win(_) | Outcome::Draw) {
        return Err(Error::NotTwoPlayers(outcome));
    }
    if berserk.contains(&true) && !berserk_allowed {
        return Err(Error::BerserkOff);
    }
    Ok(())
}
