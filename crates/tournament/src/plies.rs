//! How long a game must last for its result to score in full, per game of the catalogue.
//!
//! Two rules of the arena look at a game's length in plies (one side's move each): a berserk
//! win earns its extra point only when the game lasted, so that an opponent who resigns or
//! leaves at once gives no bonus; and a draw before a minimum scores nothing, so that agreed
//! draws earn no points. The numbers differ by game because the games differ in length;
//! `docs/tournaments.md` lists them for players.

use catalog::{GameId, VariantId};
use serde::{Deserialize, Serialize};

/// The two minimums, kept in an arena's settings so that a stored arena scores the same
/// whatever later versions choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyMinimums {
    /// A berserk win earns its extra point only with at least this many plies played.
    pub berserk_bonus: u32,
    /// A draw with fewer plies than this scores nothing.
    pub draw: u32,
}

impl PlyMinimums {
    /// The minimums for a variant, or `None` for a game with no tournaments (the solo
    /// puzzle). The match has no wildcard arm, so a new game cannot compile without its own.
    pub fn for_variant(variant: VariantId) -> Option<PlyMinimums> {
        let (berserk_bonus, draw) = match variant.game() {
            // A cube needs five or more rolls to cross even the smallest board and must
            // arrive hat up: no game is decided in under 50 plies. Ten moves each show a
            // game under way; a draw before fifteen moves each is an agreement.
            GameId::Perekati => (20, 30),
            // The setup and the colour choice are two plies; a game's placements run to
            // dozens. A draw is a tie on territory, which a real game reaches late.
            GameId::Tumbleweed => (14, 20),
            // The game ends when the board is full, 9 or 25 placements at the least (more
            // with captures), and never in a draw by its rules: a draw before the board
            // could be full is agreed.
            GameId::Cephalopod if variant.as_str() == "3x3" => (5, 9),
            GameId::Cephalopod => (10, 25),
            // Placing takes 18 plies; a draw by the rules (three tokens each, repetition,
            // 100 quiet moves) comes later still.
            GameId::Mill => (14, 20),
            GameId::WhiteRabbit => return None,
        };
        Some(PlyMinimums {
            berserk_bonus,
            draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_two_player_variant_has_minimums_and_the_puzzle_has_none() {
        for game in GameId::ALL {
            for variant in game.variants() {
                let minimums = PlyMinimums::for_variant(variant);
                assert_eq!(minimums.is_none(), game.is_solo(), "{variant}");
                if let Some(m) = minimums {
                    assert!(m.berserk_bonus > 0 && m.draw > 0, "{variant}");
                }
            }
        }
        let small = VariantId::parse("cephalopod", Some("3x3")).unwrap();
        assert_eq!(PlyMinimums::for_variant(small).unwrap().draw, 9);
    }
}
