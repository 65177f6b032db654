//! The solver's seeded generator: hint mode's rollouts, sampled positions and deal seeds.
//! It decides nothing a player sees in a game (the engine's `GameRng` rolls those dice), so
//! `game`'s splitmix64 is enough.

/// A splitmix64 stream from a seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = game::splitmix64(self.0);
        self.0 = state;
        out
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// Hashes a value into a seed (splitmix64's output function).
pub use game::splitmix64_mix as mix;
