//! The arena: a fixed length of time in which whoever has finished a game is paired again,
//! scored with streaks and berserk.

mod director;
pub mod pairing;
pub mod scoring;
mod settings;
pub mod standings;

pub use director::{Arena, ArenaGame, PairingRecord, PairingStatus, Phase};
pub use pairing::{HouseBot, PairingSettings};
pub use settings::ArenaSettings;
pub use standings::Standing;
