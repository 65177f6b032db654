//! Zobrist keys, fixed at compile time so that hashes are the same on every run and machine.

use crate::dice::Die;

/// Where a die lies: table slots 0..=5, or the hand.
pub(crate) const HAND: u8 = 6;
const PLACES: usize = 7;

pub(crate) struct Keys {
    /// `die[d][place][value - 1]`.
    die: [[[u64; 6]; PLACES]; Die::COUNT],
    green: [u64; 7],
    /// `ban[hand die][table die]`.
    ban: [[u64; Die::COUNT]; Die::COUNT],
    reroll: [u64; Die::COUNT],
}

const fn build() -> Keys {
    let mut keys = Keys {
        die: [[[0; 6]; PLACES]; Die::COUNT],
        green: [0; 7],
        ban: [[0; Die::COUNT]; Die::COUNT],
        reroll: [0; Die::COUNT],
    };
    // A seed of our own so this game's keys differ from the other engines'.
    let mut state = 0x5768_6974_6552_6162; // "WhiteRab"
    let mut d = 0;
    while d < Die::COUNT {
        let mut p = 0;
        while p < PLACES {
            let mut v = 0;
            while v < 6 {
                let (s, k) = game::splitmix64(state);
                state = s;
                keys.die[d][p][v] = k;
                v += 1;
            }
            p += 1;
        }
        let mut t = 0;
        while t < Die::COUNT {
            let (s, k) = game::splitmix64(state);
            state = s;
            keys.ban[d][t] = k;
            t += 1;
        }
        let (s, k) = game::splitmix64(state);
        state = s;
        keys.reroll[d] = k;
        d += 1;
    }
    let mut g = 0;
    while g < 7 {
        let (s, k) = game::splitmix64(state);
        state = s;
        keys.green[g] = k;
        g += 1;
    }
    keys
}

static KEYS: Keys = build();

#[inline]
pub(crate) fn die(d: Die, place: u8, value: u8) -> u64 {
    KEYS.die[d.index()][place as usize][value as usize - 1]
}

#[inline]
pub(crate) fn green(g: u8) -> u64 {
    KEYS.green[g as usize]
}

#[inline]
pub(crate) fn ban(ban: Option<(Die, Die)>) -> u64 {
    match ban {
        Some((h, t)) => KEYS.ban[h.index()][t.index()],
        None => 0,
    }
}

#[inline]
pub(crate) fn reroll(die: Option<Die>) -> u64 {
    match die {
        Some(d) => KEYS.reroll[d.index()],
        None => 0,
    }
}
