//! The distribution of a match's game lengths, in plies: a bot that cannot finish its games
//! shows here long before it shows in the score.

use std::fmt;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lengths {
    /// Every game's plies, in the order played.
    plies: Vec<u32>,
    /// Games stopped at the ply limit.
    unfinished: u32,
}

impl Lengths {
    pub fn add(&mut self, plies: u32, unfinished: bool) {
        self.plies.push(plies);
        self.unfinished += u32::from(unfinished);
    }

    /// The `p`-th percentile by nearest rank (the smallest length with at least `p` % of
    /// the games no longer than it); 0 for no games.
    pub fn percentile(&self, p: u32) -> u32 {
        let mut sorted = self.plies.clone();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return 0;
        }
        let rank = (p as usize * sorted.len()).div_ceil(100).max(1);
        sorted[rank - 1]
    }

    pub fn median(&self) -> u32 {
        self.percentile(50)
    }

    pub fn longest(&self) -> u32 {
        self.plies.iter().copied().max().unwrap_or(0)
    }

    pub fn unfinished(&self) -> u32 {
        self.unfinished
    }

    /// Games of at least `plies` plies (the measure of games that drag: at most one in
    /// twenty reaching [`LONG_GAME`]).
    pub fn at_least(&self, plies: u32) -> usize {
        self.plies.iter().filter(|&&p| p >= plies).count()
    }
}

/// The length the report counts games against.
pub const LONG_GAME: u32 = 400;

impl fmt::Display for Lengths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game length in plies: median {}, p95 {}, longest {}, {} of {} at {LONG_GAME} or more; {} unfinished",
            self.median(),
            self.percentile(95),
            self.longest(),
            self.at_least(LONG_GAME),
            self.plies.len(),
            self.unfinished
        )
    }
}
