//! The words of the pages the server writes, from the web client's build (`pages.json`, see
//! web/build/pages.mjs): the labels, from the client's dictionaries, and each game's texts,
//! from its registry data. One source for the client and the server.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::lang::Lang;

#[derive(Debug, Deserialize)]
pub struct PageTexts {
    /// Language code → dictionary key → text.
    labels: HashMap<String, HashMap<String, String>>,
    /// Game id → language code → its texts.
    games: HashMap<String, HashMap<String, GameTexts>>,
}

/// What a game's page says about it in one language.
#[derive(Debug, Deserialize)]
pub struct GameTexts {
    pub origin: Vec<String>,
    pub faq: Vec<Question>,
    /// The names the game is searched by in this language.
    pub names: Vec<String>,
    pub rules: Vec<Section>,
}

#[derive(Debug, Deserialize)]
pub struct Question {
    pub q: String,
    pub a: String,
}

/// A section of the rules: its heading and paragraphs.
#[derive(Debug, Deserialize)]
pub struct Section {
    pub h: String,
    pub p: Vec<String>,
}

impl PageTexts {
    /// The texts built into the binary with the web client.
    pub fn bundled() -> &'static PageTexts {
        static TEXTS: OnceLock<PageTexts> = OnceLock::new();
        TEXTS.get_or_init(|| {
            serde_json::from_str(crate::web_client::bundle::PAGE_TEXTS)
                .expect("the web client's build writes pages.json as the server reads it")
        })
    }

    /// The label `key` in `lang` (the build checks that every label exists in every language).
    pub fn label<'a>(&'a self, lang: Lang, key: &'a str) -> &'a str {
        self.labels
            .get(lang.code())
            .and_then(|labels| labels.get(key))
            .map_or(key, String::as_str)
    }

    /// Game `id`'s texts in `lang`, if the client has the game.
    pub fn game(&self, id: &str, lang: Lang) -> Option<&GameTexts> {
        self.games.get(id)?.get(lang.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_catalogue_has_its_texts_in_every_language() {
        let texts = PageTexts::bundled();
        for info in catalog::GAMES {
            for lang in Lang::ALL {
                let game = texts
                    .game(info.id, lang)
                    .unwrap_or_else(|| panic!("{}", info.id));
                assert!(
                    !game.faq.is_empty() && !game.rules.is_empty(),
                    "{}",
                    info.id
                );
            }
        }
        assert_eq!(texts.label(Lang::En, "nav.games"), "Games");
        assert_eq!(texts.label(Lang::Ru, "nav.games"), "Игры");
    }
}
