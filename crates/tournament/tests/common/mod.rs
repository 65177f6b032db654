//! What the arena's tests share: an arena's settings and its events.

#![allow(dead_code)] // each test file uses its own part

use game::Outcome;
use tournament::arena::{ArenaSettings, PairingSettings};
use tournament::{Event, PairingId, PlayerId, PlyMinimums};

pub const MINUTE: u64 = 60_000;
pub const START: u64 = 1_000 * MINUTE;

pub fn id(name: &str) -> PlayerId {
    PlayerId::new(name)
}

pub fn settings() -> ArenaSettings {
    ArenaSettings {
        starts_at: START,
        ends_at: START + 30 * MINUTE,
        rated: true,
        berserk: true,
        minimums: PlyMinimums {
            berserk_bonus: 14,
            draw: 20,
        },
        pairing: PairingSettings {
            wait_ms: 16_000,
            duel_up_to: 12,
            bot_after_ms: None,
        },
        house_bots: Vec::new(),
    }
}

pub fn join(name: &str, rating: i32) -> Event {
    Event::Join {
        player: id(name),
        rating,
    }
}

pub fn finished(pairing: PairingId, outcome: Outcome, plies: u32) -> Event {
    Event::GameFinished {
        pairing,
        outcome,
        plies,
        berserk: [false; 2],
    }
}
