//! The game pages as a search engine fetches them: plain HTML with the head and the main text
//! filled in, no JavaScript run; the sitemap and robots.txt.

use crate::helpers::TestApp;

async fn fetch(app: &TestApp, path: &str) -> (u16, String, String) {
    fetch_in(app, path, "ru").await
}

/// A page fetched by a browser asking for `languages` (`Accept-Language`).
async fn fetch_in(app: &TestApp, path: &str, languages: &str) -> (u16, String, String) {
    let client = awc::Client::builder().disable_redirects().finish();
    let mut response = client
        .get(format!("{}{path}", app.base))
        .insert_header(("Host", "stolik.test"))
        .insert_header(("Accept-Language", languages))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = response.body().await.unwrap();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

/// The text of the one element or attribute that starts with `open` and ends with `close`.
fn between<'a>(html: &'a str, open: &str, close: &str) -> &'a str {
    assert_eq!(html.matches(open).count(), 1, "one {open} in\n{html}");
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find(close).unwrap();
    &html[start..end]
}

const PAGES: [(&str, &str); 3] = [
    ("ru", "/games/"),
    ("uk", "/uk/games/"),
    ("en", "/en/games/"),
];

#[actix_web::test]
async fn every_game_page_has_its_title_description_and_canonical_link_in_each_language() {
    let app = TestApp::spawn().await;
    for info in catalog::GAMES {
        for (lang, prefix) in PAGES {
            let path = format!("{prefix}{}", info.id);
            let (status, kind, html) = fetch(&app, &path).await;
            assert_eq!(status, 200, "{path}");
            assert!(kind.starts_with("text/html"), "{path}: {kind}");
            let (name, summary) = match lang {
                "ru" => (info.names.ru, info.summary.ru),
                "uk" => (info.names.uk, info.summary.uk),
                _ => (info.names.en, info.summary.en),
            };
            assert_eq!(between(&html, "<html lang=\"", "\""), lang, "{path}");
            let title = between(&html, "<title>", "</title>");
            assert!(title.starts_with(name), "{path}: {title}");
            assert!(title.contains(if lang == "en" {
                "Stolik"
            } else {
                "Столик"
            }));
            let description = between(&html, "<meta name=\"description\" content=\"", "\"");
            assert_eq!(description, summary.replace('\'', "&#39;"), "{path}");
            assert_eq!(
                between(&html, "<link rel=\"canonical\" href=\"", "\""),
                format!("http://stolik.test{path}")
            );
            for (other, other_prefix) in PAGES {
                let alternate = format!(
                    "<link rel=\"alternate\" hreflang=\"{other}\" href=\"http://stolik.test{other_prefix}{}\">",
                    info.id
                );
                assert!(html.contains(&alternate), "{path}: {alternate}");
            }
            assert!(html.contains(&format!(
                "hreflang=\"x-default\" href=\"http://stolik.test/games/{}\"",
                info.id
            )));
            // Still the web client: its script draws the page.
            assert!(html.contains("<script type=\"module\" src=\"/assets/app-"));
        }
    }
    app.stop().await;
}

#[actix_web::test]
async fn an_unknown_game_or_language_is_a_404_page_not_to_be_indexed() {
    let app = TestApp::spawn().await;
    for path in [
        "/games/chess",
        "/en/games/chess",
        "/de/games/mill",
        "/fr/games/mill",
    ] {
        let (status, kind, html) = fetch(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(kind.starts_with("text/html"), "{path}: a page, not {kind}");
        assert!(!html.contains("rel=\"canonical\""), "{path}");
        assert!(
            html.contains("<meta name=\"robots\" content=\"noindex\">"),
            "{path}"
        );
    }
    let (_, _, html) = fetch(&app, "/en/games/chess").await;
    assert!(html.contains("<title>No such game | Stolik</title>"));
    assert!(
        html.contains("<h1>There is no such game here.</h1>"),
        "{html}"
    );
    // A language the site does not have: the page is in the browser's language, or English.
    let (_, _, html) = fetch_in(&app, "/fr/games/mill", "fr-FR, uk;q=0.7").await;
    assert_eq!(between(&html, "<html lang=\"", "\""), "uk");
    assert!(
        html.contains("<h1>Такої сторінки тут немає.</h1>"),
        "{html}"
    );
    let (_, _, html) = fetch_in(&app, "/fr/games/mill", "fr-FR").await;
    assert_eq!(between(&html, "<html lang=\"", "\""), "en");
    assert!(
        html.contains("<h1>There is no such page here.</h1>"),
        "{html}"
    );
    app.stop().await;
}

/// Cyrillic letters in `text`, with a little of what surrounds the first.
fn cyrillic(text: &str) -> Option<String> {
    let at = text.find(|c| ('\u{0400}'..='\u{04FF}').contains(&c))?;
    let from = text[..at]
        .char_indices()
        .rev()
        .nth(60)
        .map_or(0, |(i, _)| i);
    Some(text[from..].chars().take(120).collect())
}

#[actix_web::test]
async fn a_game_page_carries_its_main_text_in_its_language() {
    let app = TestApp::spawn().await;
    for info in catalog::GAMES {
        let (_, _, english) = fetch(&app, &format!("/en/games/{}", info.id)).await;
        let main = between(&english, "<main id=\"main\" tabindex=\"-1\">", "</main>");
        assert!(
            main.contains(&format!("<h1>{}</h1>", info.names.en)),
            "{main}"
        );
        assert!(
            main.contains("<h2>Questions newcomers ask</h2><dl><dt>"),
            "{main}"
        );
        assert!(english.contains(">Skip to content</a>"));
        assert_eq!(cyrillic(&english), None, "/en/games/{}", info.id);

        let (_, _, russian) = fetch(&app, &format!("/games/{}", info.id)).await;
        let main = between(&russian, "<main id=\"main\" tabindex=\"-1\">", "</main>");
        assert!(
            main.contains(&format!("<h1>{}</h1>", info.names.ru)),
            "{main}"
        );
        assert!(main.contains("<h2>Что спрашивают новички</h2>"), "{main}");
    }
    let (_, _, html) = fetch(&app, "/uk/games/mill").await;
    assert!(html.contains("<dt>Чи може фішка стрибати?</dt>"), "{html}");
    assert!(
        html.contains(">До вмісту</a>"),
        "the skip link in Ukrainian"
    );
    app.stop().await;
}

#[actix_web::test]
async fn the_russian_page_has_one_address() {
    let app = TestApp::spawn().await;
    let client = awc::Client::builder().disable_redirects().finish();
    let response = client
        .get(format!("{}/ru/games/mill", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 308);
    assert_eq!(response.headers().get("location").unwrap(), "/games/mill");
    app.stop().await;
}

#[actix_web::test]
async fn the_sitemap_lists_every_game_page_and_robots_txt_points_to_it() {
    let app = TestApp::spawn().await;
    let (status, kind, xml) = fetch(&app, "/sitemap.xml").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("application/xml"), "{kind}");
    assert!(xml.contains("<loc>http://stolik.test/</loc>"));
    for info in catalog::GAMES {
        for (_, prefix) in PAGES {
            let loc = format!("<loc>http://stolik.test{prefix}{}</loc>", info.id);
            assert!(xml.contains(&loc), "{loc}");
        }
    }
    assert_eq!(xml.matches("<loc>").count(), 1 + 3 * catalog::GAMES.len());

    let (status, kind, robots) = fetch(&app, "/robots.txt").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/plain"), "{kind}");
    assert!(robots.contains("Sitemap: http://stolik.test/sitemap.xml"));
    assert!(robots.contains("Disallow: /api/"));
    app.stop().await;
}
