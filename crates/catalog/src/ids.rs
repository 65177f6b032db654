//! Typed names of the catalogue's games and variants.
//!
//! A [`GameId`] or a [`VariantId`] can only be made for a game and variant the catalogue has,
//! so code past the parse point never checks an id again. Their text form is the wire's and
//! the store's: `perekati`, and `perekati` + `malysh` for a variant.

use std::fmt;
use std::str::FromStr;

use game::{Error, Game, GameInfo, VariantInfo};

use crate::{Cephalopod, Mill, Perekati, Tumbleweed, WhiteRabbit};

/// One game of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    Perekati,
    Tumbleweed,
    Cephalopod,
    Mill,
    WhiteRabbit,
}

impl GameId {
    /// Every game, in the order the platform lists them.
    pub const ALL: [GameId; 5] = [
        GameId::Perekati,
        GameId::Tumbleweed,
        GameId::Cephalopod,
        GameId::Mill,
        GameId::WhiteRabbit,
    ];

    /// The game's catalogue entry: names, seats, variants.
    pub const fn info(self) -> &'static GameInfo {
        match self {
            GameId::Perekati => &Perekati::INFO,
            GameId::Tumbleweed => &Tumbleweed::INFO,
            GameId::Cephalopod => &Cephalopod::INFO,
            GameId::Mill => &Mill::INFO,
            GameId::WhiteRabbit => &WhiteRabbit::INFO,
        }
    }

    /// The id on the wire and in the store (`white-rabbit`).
    pub const fn as_str(self) -> &'static str {
        self.info().id
    }

    pub const fn is_solo(self) -> bool {
        self.info().seats < 2
    }

    /// The variant with this id, or the default one for `None`.
    pub fn variant(self, id: Option<&str>) -> Result<VariantId, Error> {
        let info = self.info();
        let found = match id {
            None => Some(0),
            Some(id) => info.variants.iter().position(|v| v.id == id),
        };
        found
            .map(|index| VariantId {
                game: self,
                index: index as u8,
            })
            .ok_or_else(|| Error::UnknownVariant(id.unwrap_or_default().to_string()))
    }

    /// The game's default variant (the first the catalogue lists).
    pub fn default_variant(self) -> VariantId {
        VariantId {
            game: self,
            index: 0,
        }
    }

    /// Every variant of the game, the default first.
    pub fn variants(self) -> impl Iterator<Item = VariantId> {
        (0..self.info().variants.len()).map(move |index| VariantId {
            game: self,
            index: index as u8,
        })
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameId {
    type Err = Error;

    fn from_str(id: &str) -> Result<GameId, Error> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == id)
            .ok_or_else(|| Error::UnknownGame(id.to_string()))
    }
}

/// One variant of one game: what a table is started with and a record names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariantId {
    game: GameId,
    /// Into the game's `GameInfo::variants` (and so its engine's `Variant::ALL`).
    index: u8,
}

impl VariantId {
    /// Parses a stored or requested pair; the game's default variant for `variant: None`.
    pub fn parse(game: &str, variant: Option<&str>) -> Result<VariantId, Error> {
        game.parse::<GameId>()?.variant(variant)
    }

    pub const fn game(self) -> GameId {
        self.game
    }

    pub fn info(self) -> &'static VariantInfo {
        &self.game.info().variants[self.index as usize]
    }

    /// The variant's own id (`malysh`, `5x5`), unique within its game.
    pub fn as_str(self) -> &'static str {
        self.info().id
    }

    pub fn is_default(self) -> bool {
        self.index == 0
    }
}

impl fmt::Display for VariantId {
    /// `game/variant`, for messages and logs; the wire sends the two ids apart.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.game, self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_id_reads_back_from_its_text() {
        for game in GameId::ALL {
            assert_eq!(game.as_str().parse::<GameId>(), Ok(game));
            assert_eq!(game.default_variant(), game.variant(None).unwrap());
            for variant in game.variants() {
                assert_eq!(
                    VariantId::parse(game.as_str(), Some(variant.as_str())),
                    Ok(variant)
                );
            }
        }
        assert_eq!(
            "chess".parse::<GameId>(),
            Err(Error::UnknownGame("chess".into()))
        );
        assert_eq!(
            VariantId::parse("mill", Some("nine")),
            Err(Error::UnknownVariant("nine".into()))
        );
    }

    #[test]
    fn the_game_ids_follow_the_catalogue() {
        let listed: Vec<&str> = crate::GAMES.iter().map(|g| g.id).collect();
        let ids: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
        assert_eq!(listed, ids);
    }
}
