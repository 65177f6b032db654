//! The round robin: each plays each (both sides, where the game's seats differ), in rounds
//! or all at once (correspondence), ranked by points and then Sonneborn–Berger.

mod director;
pub mod schedule;
mod settings;
pub mod standings;

pub use director::{GameStatus, Phase, RoundRobin, RoundRobinGame, Withdrawal};
pub use settings::{Pace, RoundRobinSettings};
pub use standings::Standing;
