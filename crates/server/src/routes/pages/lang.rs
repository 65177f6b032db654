//! The languages of the pages the server writes, and the paths they live at: Russian, the
//! site's first language, at `/games/{game}`, the others under their code.

use super::texts::PageTexts;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Ru,
    Uk,
    En,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::Ru, Lang::Uk, Lang::En];

    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::Uk => "uk",
            Lang::En => "en",
        }
    }

    /// The language of a path prefix; Russian has none.
    pub fn from_prefix(prefix: &str) -> Option<Lang> {
        match prefix {
            "uk" => Some(Lang::Uk),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The first of ours in an `Accept-Language` list, in the order listed (as the client
    /// reads the browser's languages); English when it names none of them.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        header
            .unwrap_or("")
            .split(',')
            .filter_map(|tag| {
                let tag = tag.split(';').next()?.trim();
                let base = tag.split(['-', '_']).next()?.to_ascii_lowercase();
                Lang::ALL.into_iter().find(|l| l.code() == base)
            })
            .next()
            .unwrap_or(Lang::En)
    }

    /// The path of a game's page in this language.
    pub fn path(self, game: &str) -> String {
        match self {
            Lang::Ru => format!("/games/{game}"),
            other => format!("/{}/games/{game}", other.code()),
        }
    }

    pub fn pick(self, names: catalog::Names) -> &'static str {
        match self {
            Lang::Ru => names.ru,
            Lang::Uk => names.uk,
            Lang::En => names.en,
        }
    }

    /// A game page's title: "{game} — rules and play online | Stolik".
    pub fn title(self, texts: &PageTexts, name: &str) -> String {
        texts.label(self, "game.title").replace("{game}", name)
    }

    /// The title of a page that is not there.
    pub fn not_found(self, texts: &PageTexts, what: &str) -> String {
        format!(
            "{} | {}",
            texts.label(self, what).trim_end_matches('.'),
            texts.label(self, "app.name")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browsers_first_language_of_ours_wins() {
        assert_eq!(
            Lang::from_accept_language(Some("fr-FR,uk;q=0.8,en;q=0.5")),
            Lang::Uk
        );
        assert_eq!(Lang::from_accept_language(Some("ru-RU")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("de, fr")), Lang::En);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
    }
}
