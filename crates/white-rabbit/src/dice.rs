//! The eleven playing dice and their colours.

use std::fmt;

/// The colour of a die. A swap needs two different colours; white differs from both others,
/// which is what makes the white die (the rabbit) so easy to trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black,
    Red,
    White,
}

/// One of the eleven dice that take part in play (the green counter is not a die here, it
/// is the score). The declaration order is the notation's fixed order for the hand:
/// `k1`…`k5`, `r1`…`r5`, `w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Die {
    K1,
    K2,
    K3,
    K4,
    K5,
    R1,
    R2,
    R3,
    R4,
    R5,
    W,
}

impl Die {
    /// Every die in the notation's order.
    pub const ALL: [Die; 11] = [
        Die::K1,
        Die::K2,
        Die::K3,
        Die::K4,
        Die::K5,
        Die::R1,
        Die::R2,
        Die::R3,
        Die::R4,
        Die::R5,
        Die::W,
    ];

    /// How many dice there are.
    pub const COUNT: usize = 11;

    const NAMES: [&'static str; 11] = [
        "k1", "k2", "k3", "k4", "k5", "r1", "r2", "r3", "r4", "r5", "w",
    ];

    /// The die's position in [`Die::ALL`] (0 for `k1` … 10 for `w`).
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(index: usize) -> Option<Die> {
        if index < Die::COUNT {
            Some(Die::ALL[index])
        } else {
            None
        }
    }

    /// The die's name in notation: `k1`, `r5`, `w`.
    pub const fn name(self) -> &'static str {
        Die::NAMES[self as usize]
    }

    /// The die with this notation name, if any (exact, lower-case spelling only).
    pub fn from_name(name: &str) -> Option<Die> {
        Die::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Die::ALL[i])
    }

    pub const fn colour(self) -> Colour {
        match self {
            Die::K1 | Die::K2 | Die::K3 | Die::K4 | Die::K5 => Colour::Black,
            Die::R1 | Die::R2 | Die::R3 | Die::R4 | Die::R5 => Colour::Red,
            Die::W => Colour::White,
        }
    }

    /// This die as a one-bit set (bit `index`), for the hand mask.
    pub(crate) const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
