//! `Seat` and `Outcome`. An outcome has one text form (`Display` and `FromStr`: the winning
//! seat's letter `a`/`b`, `draw`, `won SCORE`, `lost`), which the store keeps, the protocol
//! sends (serde, behind the `serde` feature) and the web client reads; only the referee, as its
//! protocol says, names a winner by the game's side label.

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
///
/// Its one text form (`Display` and `FromStr`) is what the database stores, the protocol sends
/// and the web client reads: the winning seat's letter (`a`, `b`), `draw`, `won SCORE` for a
/// solved puzzle, `lost` for a lost one. The referee alone names the winner by the game's side
/// label (`r`, `w`, …), because its protocol says so.
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

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win(seat) => f.write_str(seat.letter()),
            Outcome::Draw => f.write_str("draw"),
            Outcome::SoloWon { score } => write!(f, "won {score}"),
            Outcome::SoloLost => f.write_str("lost"),
        }
    }
}

/// A text that is not an outcome's text form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a result: {0:?}")]
pub struct BadOutcome(pub String);

impl std::str::FromStr for Outcome {
    type Err = BadOutcome;

    fn from_str(text: &str) -> Result<Outcome, BadOutcome> {
        let bad = || BadOutcome(text.to_string());
        match text {
            "a" => Ok(Outcome::Win(Seat::A)),
            "b" => Ok(Outcome::Win(Seat::B)),
            "draw" => Ok(Outcome::Draw),
            "lost" => Ok(Outcome::SoloLost),
            _ => {
                let score = text.strip_prefix("won ").ok_or_else(bad)?;
                // Digits only: `u32::from_str` would also take a sign.
                if score.is_empty() || !score.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                let score = score.parse().map_err(|_| bad())?;
                Ok(Outcome::SoloWon { score })
            }
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_reads_back_from_its_text() {
        let all = [
            Outcome::Win(Seat::A),
            Outcome::Win(Seat::B),
            Outcome::Draw,
            Outcome::SoloWon { score: 0 },
            Outcome::SoloWon {
                score: 4_294_967_295,
            },
            Outcome::SoloLost,
        ];
        for outcome in all {
            assert_eq!(outcome.to_string().parse::<Outcome>(), Ok(outcome));
        }
        assert_eq!(Outcome::Win(Seat::B).to_string(), "b");
        assert_eq!(Outcome::SoloWon { score: 12 }.to_string(), "won 12");
    }

    #[test]
    fn other_texts_are_not_outcomes() {
        for text in [
            "",
            "A",
            "r",
            "w",
            "c",
            "won",
            "won ",
            "won -1",
            "won +3",
            "won 1 ",
            "Draw",
            "won 99999999999",
        ] {
            assert_eq!(
                text.parse::<Outcome>(),
                Err(BadOutcome(text.to_string())),
                "{text:?}"
            );
        }
    }
}
