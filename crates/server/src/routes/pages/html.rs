//! A page written into the web client's `index.html`: its head (language, title, description,
//! canonical link and alternates), the shell's labels in the page's language, and the body.

use super::lang::Lang;
use super::texts::PageTexts;

/// What the server writes into the template.
pub struct Page {
    pub lang: Lang,
    pub title: String,
    pub description: String,
    /// The canonical link and the alternates, or `None` for a page not to be indexed.
    pub links: Option<Links>,
    /// The HTML of `<main>`, already escaped.
    pub body: String,
}

pub struct Links {
    pub canonical: String,
    /// `(hreflang, absolute URL)`, `x-default` last.
    pub alternates: Vec<(&'static str, String)>,
}

/// The template with the page filled in: `None` when it lacks a part it should replace.
pub fn fill(template: &str, texts: &PageTexts, page: &Page) -> Option<String> {
    let mut html = template.to_string();
    replace_between(&mut html, "<title>", "</title>", &escape(&page.title))?;
    let start = html.find("<meta name=\"description\"")?;
    let end = start + html[start..].find('>')? + 1;
    if page.description.is_empty() {
        html.replace_range(start..end, "<meta name=\"robots\" content=\"noindex\">");
    } else {
        html.replace_range(
            start..end,
            &format!(
                "<meta name=\"description\" content=\"{}\">",
                escape(&page.description)
            ),
        );
    }
    let mut extra = String::new();
    if let Some(links) = &page.links {
        extra.push_str(&format!(
            "  <link rel=\"canonical\" href=\"{}\">\n",
            escape(&links.canonical)
        ));
        for (lang, href) in &links.alternates {
            extra.push_str(&format!(
                "  <link rel=\"alternate\" hreflang=\"{lang}\" href=\"{}\">\n",
                escape(href)
            ));
        }
        extra.push_str(&format!(
            "  <meta property=\"og:title\" content=\"{}\">\n  <meta property=\"og:description\" content=\"{}\">\n  <meta property=\"og:url\" content=\"{}\">\n",
            escape(&page.title),
            escape(&page.description),
            escape(&links.canonical)
        ));
    }
    let close = html.find("</head>")?;
    html.insert_str(close, &extra);
    replace_between(&mut html, "<html lang=\"", "\"", page.lang.code())?;
    relabel_shell(&mut html, texts, page.lang)?;
    replace_between(
        &mut html,
        "<main id=\"main\" tabindex=\"-1\">",
        "</main>",
        &page.body,
    )?;
    Some(html)
}

/// The header's words, the skip link and the `<noscript>` line in the page's language (the
/// client relabels them too, but a reader without it, or a crawler, sees these).
fn relabel_shell(html: &mut String, texts: &PageTexts, lang: Lang) -> Option<()> {
    let label = |key| escape(texts.label(lang, key));
    replace_between(html, "id=\"skip-link\">", "</a>", &label("nav.skip"))?;
    replace_between(
        html,
        "class=\"logo\" href=\"#/\" aria-label=\"",
        "\"",
        &label("app.name"),
    )?;
    replace_between(
        html,
        "<span class=\"logo-text\">",
        "</span>",
        &label("app.name"),
    )?;
    replace_between(
        html,
        "class=\"lang-select\" aria-label=\"",
        "\"",
        &label("nav.language"),
    )?;
    replace_between(html, "<noscript>", "</noscript>", &label("app.noscript"))?;
    // The language menu shows the page's language before the client sets it.
    let option = format!("<option value=\"{}\">", lang.code());
    let at = html.find(&option)?;
    html.insert_str(at + option.len() - 1, " selected");
    Some(())
}

fn replace_between(html: &mut String, open: &str, close: &str, with: &str) -> Option<()> {
    let start = html.find(open)? + open.len();
    let end = start + html[start..].find(close)?;
    html.replace_range(start..end, with);
    Some(())
}

/// Text for an HTML attribute or element (and XML).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<!doctype html>\n<html lang=\"ru\">\n<head>\n  <title>Столик</title>\n  <meta name=\"description\" content=\"x\">\n</head>\n<body>\n  <a class=\"skip\" href=\"#main\" id=\"skip-link\">К содержимому</a>\n  <a class=\"logo\" href=\"#/\" aria-label=\"Stolik\"><span class=\"logo-text\">Столик</span></a>\n  <select class=\"lang-select\" aria-label=\"Язык\"><option value=\"ru\">RU</option><option value=\"en\">EN</option></select>\n  <main id=\"main\" tabindex=\"-1\"></main>\n  <noscript>Нужен JavaScript</noscript>\n</body>\n</html>\n";

    fn page(lang: Lang, links: Option<Links>) -> Page {
        Page {
            lang,
            title: "A <b> & \"c\"".into(),
            description: "d'e".into(),
            links,
            body: "<h1>Body</h1>".into(),
        }
    }

    #[test]
    fn the_head_the_shell_and_the_body_are_filled_in_and_escaped() {
        let links = Links {
            canonical: "http://h/en/games/g".into(),
            alternates: vec![("ru", "http://h/games/g".into())],
        };
        let html = fill(INDEX, PageTexts::bundled(), &page(Lang::En, Some(links))).unwrap();
        assert!(html.contains("<html lang=\"en\">"));
        assert!(html.contains("<title>A &lt;b&gt; &amp; &quot;c&quot;</title>"));
        assert!(html.contains("<meta name=\"description\" content=\"d&#39;e\">"));
        assert!(html.contains("<link rel=\"canonical\" href=\"http://h/en/games/g\">"));
        assert!(html.contains("hreflang=\"ru\" href=\"http://h/games/g\""));
        assert!(!html.contains("content=\"x\""));
        assert!(html.contains("<main id=\"main\" tabindex=\"-1\"><h1>Body</h1></main>"));
        assert!(html.contains(">Skip to content</a>"));
        assert!(html.contains("<option value=\"en\" selected>"));
        assert!(
            !html.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)),
            "no Cyrillic left on the English page:\n{html}"
        );
    }

    #[test]
    fn a_template_without_a_title_or_a_main_is_refused() {
        let texts = PageTexts::bundled();
        assert!(
            fill(
                "<html lang=\"ru\"><head></head></html>",
                texts,
                &page(Lang::Ru, None)
            )
            .is_none()
        );
        let no_main = INDEX.replace("<main id=\"main\" tabindex=\"-1\"></main>", "");
        assert!(fill(&no_main, texts, &page(Lang::Ru, None)).is_none());
    }
}
