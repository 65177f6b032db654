//! `GameRng`, the dice generator kept in a game's state (PCG with a pinned output stream, so a
//! stored game's seed replays the same dice for ever), and `splitmix64`, the mixer the engines' hash keys, the bots
//! and the solver are seeded from.

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};

/// The dice generator a game keeps in its state.
///
/// PCG (`Pcg64Mcg`) has a documented, portable output stream, and the mapping from its words
/// to dice below is ours and fixed, so a stored game (variant, seed, moves) replays to the
/// same dice on any machine and across dependency upgrades. It is small (16 bytes), so search
/// and undo can save and restore it by cloning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRng(Pcg64Mcg);

impl GameRng {
    pub fn seeded(seed: u64) -> Self {
        GameRng(Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform value in `0..n` (`n > 0`), by rejection so that no value is favoured.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "GameRng::below(0)");
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.0.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// One roll of a six-sided die: 1 to 6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// A raw 64-bit word, for callers that derive their own seeds.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// One step of splitmix64: `(next state, output)`. A `const fn`, so that the engines fill
/// their Zobrist key tables at compile time from a fixed stream (the same keys in every build).
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    (state, splitmix64_mix(state))
}

/// splitmix64's output function alone: a strong 64-bit mix, for hashing values into seeds.
pub const fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_is_the_reference_stream() {
        // The first two outputs of the reference splitmix64 from state 0.
        let (s, a) = splitmix64(0);
        let (_, b) = splitmix64(s);
        assert_eq!(a, 0xe220_a839_7b1d_cdaf);
        assert_eq!(b, 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn same_seed_same_dice() {
        let mut a = GameRng::seeded(7);
        let mut b = GameRng::seeded(7);
        let rolls_a: Vec<u8> = (0..100).map(|_| a.die()).collect();
        let rolls_b: Vec<u8> = (0..100).map(|_| b.die()).collect();
        assert_eq!(rolls_a, rolls_b);
    }

    #[test]
    fn dice_cover_one_to_six_evenly() {
        let mut rng = GameRng::seeded(1);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            counts[rng.die() as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for &c in &counts[1..] {
            assert!((9_000..11_000).contains(&c), "uneven dice: {counts:?}");
        }
    }

    #[test]
    fn the_stream_is_pinned() {
        // Stored games replay from their seed: this sequence must never change.
        let mut rng = GameRng::seeded(0);
        let rolls: Vec<u8> = (0..12).map(|_| rng.die()).collect();
        assert_eq!(rolls, PINNED_SEED0);
    }

    const PINNED_SEED0: [u8; 12] = [3, 4, 5, 2, 5, 4, 3, 3, 3, 2, 1, 5];
}
