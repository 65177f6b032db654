//! What a player does at a table, as the socket writes it (`{"type": "move", "table": ..., "move":
//! "a1b2"}`) and as the table takes it: one type, so a request addressed to a table reaches it
//! as it was read, with no mapping in between. The HTTP Bot API and the house bots build the same
//! actions.

use serde::{Deserialize, Serialize};

use super::VoiceSignal;

/// Everything a player can do at a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Action {
    #[serde(rename = "sit")]
    Sit {
        seat: Option<u8>,
        token: Option<String>,
    },
    #[serde(rename = "stand")]
    Stand,
    /// `ply` is the number of moves the client believes were played; a move against a stale
    /// ply is refused.
    #[serde(rename = "move")]
    Move {
        #[serde(rename = "move")]
        mv: String,
        ply: Option<u32>,
    },
    #[serde(rename = "resign")]
    Resign,
    #[serde(rename = "abort")]
    Abort,
    /// The host calls the table off before the game starts.
    #[serde(rename = "cancel")]
    Cancel,
    #[serde(rename = "draw.offer")]
    DrawOffer,
    #[serde(rename = "draw.accept")]
    DrawAccept,
    #[serde(rename = "draw.decline")]
    DrawDecline,
    #[serde(rename = "rematch.offer")]
    RematchOffer,
    #[serde(rename = "rematch.accept")]
    RematchAccept,
    #[serde(rename = "rematch.decline")]
    RematchDecline,
    /// Ask to take back your last move (casual games; a bot agrees at once).
    #[serde(rename = "takeback.offer")]
    TakebackOffer,
    #[serde(rename = "takeback.accept")]
    TakebackAccept,
    #[serde(rename = "takeback.decline")]
    TakebackDecline,
    #[serde(rename = "chat")]
    Chat { text: String },
    /// A WebRTC signal (offer, answer, ICE candidate or hang-up) for the other seated player.
    #[serde(rename = "voice")]
    Voice { signal: VoiceSignal },
    /// The opponent has been gone long enough: take the win or call it a draw.
    #[serde(rename = "claim")]
    Claim { outcome: ClaimOutcome },
    /// In an arena game, before your first move: half your clock, no increment, and an extra
    /// point for a win that lasted (docs/tournaments.md).
    #[serde(rename = "berserk")]
    Berserk,
}

/// A claim's ending: the claimer's win, or a draw.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ClaimOutcome {
    Win,
    Draw,
}

/// The request types that are a table's [`Action`]s.
pub(super) const TYPES: &[&str] = &[
    "sit",
    "stand",
    "move",
    "resign",
    "abort",
    "cancel",
    "draw.offer",
    "draw.accept",
    "draw.decline",
    "rematch.offer",
    "rematch.accept",
    "rematch.decline",
    "takeback.offer",
    "takeback.accept",
    "takeback.decline",
    "chat",
    "voice",
    "claim",
    "berserk",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each of [`TYPES`] reads as an action, and an action goes out as it came in: the same
    /// form travels between nodes.
    #[test]
    fn every_action_type_reads_and_writes_back_the_same() {
        for kind in TYPES {
            let mut v = json!({"type": kind});
            match *kind {
                "move" => v["move"] = json!("a1"),
                "chat" => v["text"] = json!("hi"),
                "voice" => v["signal"] = json!({"kind": "bye"}),
                "claim" => v["outcome"] = json!("draw"),
                _ => {}
            }
            let action: Action = serde_json::from_value(v.clone()).expect(kind);
            let mut back = serde_json::to_value(&action).unwrap();
            // Absent options come back as nulls.
            back.as_object_mut().unwrap().retain(|_, x| !x.is_null());
            assert_eq!(back, v, "{kind}");
        }
    }

    #[test]
    fn a_claim_names_its_outcome() {
        let claim: Action =
            serde_json::from_value(json!({"type": "claim", "outcome": "win"})).unwrap();
        assert_eq!(
            claim,
            Action::Claim {
                outcome: ClaimOutcome::Win
            }
        );
        assert!(
            serde_json::from_value::<Action>(json!({"type": "claim", "outcome": "lose"})).is_err()
        );
    }
}
