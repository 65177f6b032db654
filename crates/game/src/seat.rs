/// A seat at the table. Seat A (index 0) is the first player as the spec names it (side `a`,
/// tumbleweed's host who sets up); seat B (index 1) is the second. A solo game has only A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    pub const A: Seat = Seat(0);
    pub const B: Seat = Seat(1);

    /// The seat with this index, if a game can have it (0 or 1).
    pub const fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::A),
            1 => Some(Seat::B),
            _ => None,
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-player game.
    pub const fn other(self) -> Seat {
        Seat(1 - self.0)
    }

    /// `a` or `b`, the spec's side letters.
    pub const fn letter(self) -> &'static str {
        match self.0 {
            0 => "a",
            _ => "b",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Seat),
    Draw,
    /// A solo puzzle was solved with this score.
    SoloWon {
        score: u32,
    },
    /// A solo puzzle was lost.
    SoloLost,
}

impl Outcome {
    /// The outcome from `seat`'s point of view: 1 for a win, 0.5 for a draw, 0 for a loss.
    /// A solo game scores 1 for won and 0 for lost.
    pub fn score_for(self, seat: Seat) -> f64 {
        match self {
            Outcome::Win(winner) if winner == seat => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
            Outcome::SoloWon { .. } => 1.0,
            Outcome::SoloLost => 0.0,
        }
    }
}
