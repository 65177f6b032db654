//! What an organiser chooses for a round robin.

use catalog::GameId;
use serde::{Deserialize, Serialize};

use crate::error::Error;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinSettings {
    /// Unix milliseconds: the schedule is drawn and the first games start then.
    pub starts_at: u64,
    /// Each pair plays twice, once from each seat (`both_sides_for` the game).
    pub both_sides: bool,
    pub pace: Pace,
    /// With fewer entrants at the start the round robin is called off.
    pub min_players: usize,
    pub max_players: usize,
    /// The games change ratings (the server's concern; kept with the round robin).
    pub rated: bool,
}

/// When games are started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Every game at the start (correspondence: each player has all their games at once).
    AllAtOnce,
    /// A round once the previous one is over (live play).
    ByRound,
}

impl RoundRobinSettings {
    /// Whether a pair must play from both seats: yes unless the game's seats are equal.
    /// In every game of the catalogue seat A moves first (in Tumbleweed it sets up and seat
    /// B chooses a colour), so the seats differ in all of them. No wildcard arm: a new game
    /// must say.
    pub fn both_sides_for(game: GameId) -> bool {
        match game {
            GameId::Perekati
            | GameId::Tumbleweed
            | GameId::Cephalopod
            | GameId::Mill
            | GameId::WhiteRabbit => true,
        }
    }

    /// Refuses settings that make no round robin.
    pub fn check(&self) -> Result<(), Error> {
        if self.min_players < 2 {
            return Err(Error::BadSettings(
                "a round robin needs two players at least".into(),
            ));
        }
        if self.max_players < self.min_players {
            return Err(Error::BadSettings(
                "the most players is below the fewest".into(),
            ));
        }
        Ok(())
    }
}
