//! What a player is told of while away from a table: the closed set of notification kinds,
//! each with one text form (stored in the notifications and the push outbox, sent to clients,
//! named by the profile's push switches).

use serde::{Serialize, Serializer};

/// A kind of notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// The opponent moved: it is the player's move.
    YourTurn,
    /// A correspondence opponent offers a draw.
    DrawOffer,
    /// The opponent of a finished game asks for another.
    RematchOffer,
    /// Someone challenged the player to a game (pushed only: the challenge itself is what the
    /// pages show, and it is about no game yet).
    Challenge,
    /// Someone sat down at the player's open table.
    Joined,
    /// A correspondence move's deadline is close.
    Deadline,
    /// A vacation day was used for the player's late move.
    Vacation,
    /// The game ended while the player was away.
    GameOver,
    /// A tournament the player joined is about to start.
    TournamentStart,
}

impl NoteKind {
    /// Every kind, in the order the profile lists them.
    pub const ALL: [NoteKind; 9] = [
        NoteKind::YourTurn,
        NoteKind::DrawOffer,
        NoteKind::RematchOffer,
        NoteKind::Challenge,
        NoteKind::Joined,
        NoteKind::Deadline,
        NoteKind::Vacation,
        NoteKind::GameOver,
        NoteKind::TournamentStart,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::YourTurn => "your_turn",
            NoteKind::DrawOffer => "draw_offer",
            NoteKind::RematchOffer => "rematch_offer",
            NoteKind::Challenge => "challenge",
            NoteKind::Joined => "joined",
            NoteKind::Deadline => "deadline",
            NoteKind::Vacation => "vacation",
            NoteKind::GameOver => "game_over",
            NoteKind::TournamentStart => "tournament_start",
        }
    }

    pub fn parse(s: &str) -> Option<NoteKind> {
        NoteKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl std::fmt::Display for NoteKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for NoteKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::NoteKind;

    #[test]
    fn every_kind_reads_back_from_its_text_and_no_two_share_one() {
        for kind in NoteKind::ALL {
            assert_eq!(NoteKind::parse(kind.as_str()), Some(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        let mut texts: Vec<_> = NoteKind::ALL.iter().map(|k| k.as_str()).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), NoteKind::ALL.len());
        assert_eq!(NoteKind::parse("your turn"), None);
    }
}
