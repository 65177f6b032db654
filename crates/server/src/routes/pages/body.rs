//! The main text of the pages the server writes, in the page's language: readable without
//! the client, and what a search engine indexes. The client draws its own page over it (with
//! the diagrams, demonstrations and play buttons) and takes this one away (`.served-page`).

use std::fmt::Write as _;

use super::html::escape;
use super::lang::Lang;
use super::texts::{GameTexts, PageTexts};

/// A game's page: its name and summary, what the rules say first, where it comes from, the
/// questions newcomers ask, the names it is searched by, then the rest of the rules.
pub fn game(texts: &PageTexts, lang: Lang, info: &catalog::GameInfo, game: &GameTexts) -> String {
    let name = escape(lang.pick(info.names));
    let mut html = format!(
        "<article class=\"page rules game-page served-page\" data-game=\"{}\">\
         <p class=\"crumbs\"><a href=\"/\">{}</a> / {name}</p><h1>{name}</h1><p class=\"lead\">{}</p>",
        escape(info.id),
        escape(texts.label(lang, "nav.games")),
        escape(lang.pick(info.summary)),
    );
    let (about, rest) = game
        .rules
        .split_first()
        .map_or((None, &[][..]), |(a, r)| (Some(a), r));
    let section = |html: &mut String, class: &str, title: &str, inner: &str| {
        let class = if class.is_empty() {
            "rules-section".to_string()
        } else {
            format!("rules-section {class}")
        };
        let _ = write!(
            html,
            "<section class=\"{class}\"><h2>{}</h2>{inner}</section>",
            escape(title)
        );
    };
    let paragraphs = |lines: &[String]| {
        lines
            .iter()
            .map(|p| format!("<p>{}</p>", escape(p)))
            .collect::<String>()
    };
    if let Some(about) = about {
        section(&mut html, "", &about.h, &paragraphs(&about.p));
    }
    section(
        &mut html,
        "game-origin",
        texts.label(lang, "game.origin"),
        &paragraphs(&game.origin),
    );
    let faq: String = game
        .faq
        .iter()
        .map(|item| format!("<dt>{}</dt><dd>{}</dd>", escape(&item.q), escape(&item.a)))
        .collect();
    section(
        &mut html,
        "game-faq",
        texts.label(lang, "game.faq"),
        &format!("<dl>{faq}</dl>"),
    );
    let names: String = game
        .names
        .iter()
        .map(|n| format!("<li>{}</li>", escape(n)))
        .collect();
    section(
        &mut html,
        "game-also",
        texts.label(lang, "game.names"),
        &format!("<ul class=\"game-names\">{names}</ul>"),
    );
    let _ = write!(
        html,
        "<h2 class=\"game-rules-title\">{}</h2>",
        escape(texts.label(lang, "game.rules"))
    );
    for part in rest {
        section(&mut html, "", &part.h, &paragraphs(&part.p));
    }
    html.push_str("</article>");
    html
}

/// A page that is not there: what is missing, and the way to the games.
pub fn not_found(texts: &PageTexts, lang: Lang, what: &str) -> String {
    format!(
        "<section class=\"page narrow served-page\"><h1>{}</h1><p><a href=\"/\">{}</a></p></section>",
        escape(texts.label(lang, what)),
        escape(texts.label(lang, "nav.games")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_page_says_everything_in_its_language() {
        let texts = PageTexts::bundled();
        let info = "mill".parse::<catalog::GameId>().unwrap().info();
        let english = game(texts, Lang::En, info, texts.game("mill", Lang::En).unwrap());
        assert!(english.contains("<h1>Mill"), "{english}");
        assert!(english.contains("<dt>Can a token jump?</dt>"));
        assert!(
            !english
                .chars()
                .any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)),
            "{english}"
        );
        let russian = game(texts, Lang::Ru, info, texts.game("mill", Lang::Ru).unwrap());
        assert!(russian.contains("<dt>Может ли фишка прыгать?</dt>"));
    }
}
