//! `EndReason`: why a game ended, or was called off, in the platform's words. A closed set with
//! one text form (`as_str` and `FromStr`): what the database stores, the protocol sends (serde,
//! behind the `serde` feature) and the web client reads (`web/js/endings.js`). The engines know
//! only their outcome; the reasons beyond "by the rules" are the platform's (a table's resign
//! or clock, the catalogue's names for two endings one game scores alike).

/// Why a game ended, or was called off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Over by the game's rules.
    Rules,
    /// Perekati-pole: a side could not move (its rule 2).
    Blocked,
    /// Perekati-pole: the same position a third time (its rule 3).
    Repetition,
    /// Perekati-pole: adjudicated after too long without progress (docs/rules-decisions.md).
    NoProgress,
    /// A player resigned (or gave a solo game up).
    Resign,
    /// A clock ran out.
    Time,
    /// A draw both players agreed to.
    Agreement,
    /// A player left and the other claimed the game (or, before it began, it was called off).
    Abandoned,
    /// A player aborted it before the first moves.
    Abort,
    /// The host cancelled a table nobody had joined.
    Cancelled,
    /// A table or game that waited too long: nobody came, or nobody moved.
    Expired,
    /// Every player left an open table.
    Empty,
}

/// Not a reason the platform gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEndReason(pub String);

impl std::fmt::Display for BadEndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no end reason {:?}", self.0)
    }
}

impl std::error::Error for BadEndReason {}

impl EndReason {
    pub const ALL: [EndReason; 12] = [
        EndReason::Rules,
        EndReason::Blocked,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::Resign,
        EndReason::Time,
        EndReason::Agreement,
        EndReason::Abandoned,
        EndReason::Abort,
        EndReason::Cancelled,
        EndReason::Expired,
        EndReason::Empty,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::Blocked => "blocked",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "noprogress",
            EndReason::Resign => "resign",
            EndReason::Time => "time",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
            EndReason::Abort => "abort",
            EndReason::Cancelled => "cancelled",
            EndReason::Expired => "expired",
            EndReason::Empty => "empty",
        }
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EndReason {
    type Err = BadEndReason;

    fn from_str(s: &str) -> Result<EndReason, BadEndReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.as_str() == s)
            .ok_or_else(|| BadEndReason(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for EndReason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<EndReason, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_text() {
        for reason in EndReason::ALL {
            assert_eq!(reason.as_str().parse(), Ok(reason));
        }
        let texts: std::collections::HashSet<_> =
            EndReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(texts.len(), EndReason::ALL.len(), "one text each");
        assert!("resigned".parse::<EndReason>().is_err());
        assert!("".parse::<EndReason>().is_err());
    }
}
