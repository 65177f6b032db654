//! What an organiser chooses for an arena.

use serde::{Deserialize, Serialize};

use crate::arena::pairing::{HouseBot, PairingSettings};
use crate::error::Error;
use crate::plies::PlyMinimums;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaSettings {
    /// Unix milliseconds.
    pub starts_at: u64,
    /// Unix milliseconds; games still running then do not count.
    pub ends_at: u64,
    /// The games change ratings (the server's concern; kept with the arena).
    pub rated: bool,
    /// Players may go berserk.
    pub berserk: bool,
    /// The game's ply minimums (`PlyMinimums::for_variant`).
    pub minimums: PlyMinimums,
    pub pairing: PairingSettings,
    /// The house bots that may play a player who waited long (with `pairing.bot_after_ms`).
    pub house_bots: Vec<HouseBot>,
}

impl ArenaSettings {
    /// Refuses settings that make no arena.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |why: &str| Err(Error::BadSettings(why.to_string()));
        if self.ends_at <= self.starts_at {
            return bad("an arena ends after it starts");
        }
        if self.pairing.bot_after_ms.is_some() && self.house_bots.is_empty() {
            return bad("house bots are allowed but none is named");
        }
        if self.pairing.bot_after_ms.is_none() && !self.house_bots.is_empty() {
            return bad("house bots are named but no wait before them is set");
        }
        let mut ids: Vec<_> = self.house_bots.iter().map(|bot| &bot.id).collect();
        ids.sort();
        if ids.windows(2).any(|pair| pair[0] == pair[1]) {
            return bad("a house bot is named twice");
        }
        Ok(())
    }
}
