//! The catalogue's metadata each engine declares: `GameInfo` (id, names and summary in ru/uk/en,
//! variants, seats) and `Names`, a text in the three languages. The server's catalogue, the game
//! pages and the client's names of games all read it.

/// A text in the platform's three languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    pub ru: &'static str,
    pub uk: &'static str,
    pub en: &'static str,
}

impl Names {
    /// The same text in every language (a proper name such as "Tumbleweed").
    pub const fn same(text: &'static str) -> Self {
        Names {
            ru: text,
            uk: text,
            en: text,
        }
    }

    /// The text in `lang` (`ru`, `uk`, `en`); unknown languages fall back to Russian, the
    /// platform's default.
    pub fn get(&self, lang: &str) -> &'static str {
        match lang {
            "uk" => self.uk,
            "en" => self.en,
            _ => self.ru,
        }
    }
}

/// One variant as the catalogue shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantInfo {
    /// Equal to `Variant::id` of the matching entry of `Variant::ALL`.
    pub id: &'static str,
    pub names: Names,
}

/// A game as the catalogue shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's id on the wire (`perekati`).
    pub id: &'static str,
    pub names: Names,
    /// One sentence on what the game is.
    pub summary: Names,
    /// Seats at the table: 2, or 1 for a solo puzzle.
    pub seats: u8,
    /// Whether chance takes part (dice rolled by the state's generator).
    pub has_dice: bool,
    /// In the order of `Variant::ALL`: the default first.
    pub variants: &'static [VariantInfo],
}

impl GameInfo {
    pub fn variant(&self, id: &str) -> Option<&'static VariantInfo> {
        self.variants.iter().find(|v| v.id == id)
    }

    pub fn default_variant(&self) -> &'static VariantInfo {
        &self.variants[0]
    }
}
