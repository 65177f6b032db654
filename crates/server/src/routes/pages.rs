//! Pages a search engine can read without running the web client: one page per game and
//! language, a sitemap and `robots.txt`.
//!
//! A game page is the web client's `index.html` with the `<html lang>`, `<title>`,
//! `<meta name="description">`, the canonical link and the `hreflang` alternates filled in
//! here; the client then draws the page itself from its path. Russian, the site's first
//! language, is `/games/{game}`; the others are `/uk/games/{game}` and `/en/games/{game}`
//! (`/ru/games/{game}` redirects to the Russian page).

use std::path::PathBuf;

use actix_web::http::header::{self, ContentType};
use actix_web::{HttpRequest, HttpResponse, web};

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;

/// The web client's `index.html`, the template of every page.
#[derive(Clone)]
struct Template(PathBuf);

/// The routes, with the web client's `index.html` as the pages' template.
pub fn routes(index: PathBuf) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg| {
        cfg.app_data(web::Data::new(Template(index.clone())))
            .route("/games/{game}", web::get().to(russian_page))
            .route("/{lang}/games/{game}", web::get().to(page))
            .route("/sitemap.xml", web::get().to(sitemap))
            .route("/robots.txt", web::get().to(robots));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Ru,
    Uk,
    En,
}

impl Lang {
    const ALL: [Lang; 3] = [Lang::Ru, Lang::Uk, Lang::En];

    fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::Uk => "uk",
            Lang::En => "en",
        }
    }

    /// The language of a path prefix; Russian has none.
    fn from_prefix(prefix: &str) -> Option<Lang> {
        match prefix {
            "uk" => Some(Lang::Uk),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The path of a game's page in this language.
    fn path(self, game: &str) -> String {
        match self {
            Lang::Ru => format!("/games/{game}"),
            other => format!("/{}/games/{game}", other.code()),
        }
    }

    fn pick(self, names: catalog::Names) -> &'static str {
        match self {
            Lang::Ru => names.ru,
            Lang::Uk => names.uk,
            Lang::En => names.en,
        }
    }

    fn title(self, name: &str) -> String {
        match self {
            Lang::Ru => format!("{name} — правила и игра онлайн | Столик"),
            Lang::Uk => format!("{name} — правила та гра онлайн | Столик"),
            Lang::En => format!("{name} — rules and play online | Stolik"),
        }
    }

    fn not_found(self) -> &'static str {
        match self {
            Lang::Ru => "Такой игры нет | Столик",
            Lang::Uk => "Такої гри немає | Столик",
            Lang::En => "No such game | Stolik",
        }
    }
}

/// What a page's head says about it.
struct Head {
    lang: Lang,
    title: String,
    description: String,
    /// The canonical link and the alternates, or `None` for a page not to be indexed.
    links: Option<Links>,
}

struct Links {
    canonical: String,
    /// `(hreflang, absolute URL)`, `x-default` last.
    alternates: Vec<(&'static str, String)>,
}

async fn russian_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    template: web::Data<Template>,
    game: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    game_page(&req, &state, &template, Lang::Ru, &game).await
}

async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    template: web::Data<Template>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (prefix, game) = path.into_inner();
    if prefix == "ru" {
        return Ok(HttpResponse::PermanentRedirect()
            .insert_header((header::LOCATION, Lang::Ru.path(&escape_path(&game))))
            .finish());
    }
    match Lang::from_prefix(&prefix) {
        Some(lang) => game_page(&req, &state, &template, lang, &game).await,
        None => Err(ApiError::not_found("page")),
    }
}

async fn game_page(
    req: &HttpRequest,
    state: &AppState,
    template: &Template,
    lang: Lang,
    game: &str,
) -> Result<HttpResponse, ApiError> {
    let (status, head) = match game.parse::<catalog::GameId>().map(|g| g.info()) {
        Ok(info) => {
            let base = base_url(req, state);
            let url = |l: Lang| format!("{base}{}", l.path(info.id));
            let mut alternates: Vec<_> = Lang::ALL.iter().map(|&l| (l.code(), url(l))).collect();
            alternates.push(("x-default", url(Lang::Ru)));
            let head = Head {
                lang,
                title: lang.title(lang.pick(info.names)),
                description: lang.pick(info.summary).to_string(),
                links: Some(Links {
                    canonical: url(lang),
                    alternates,
                }),
            };
            (actix_web::http::StatusCode::OK, head)
        }
        // The client still draws its own "no such game" page, in the path's language.
        Err(_) => {
            let head = Head {
                lang,
                title: lang.not_found().to_string(),
                description: String::new(),
                links: None,
            };
            (actix_web::http::StatusCode::NOT_FOUND, head)
        }
    };
    let path = template.0.clone();
    let index = web::block(move || std::fs::read_to_string(path))
        .await
        .map_err(|e| ApiError::new(ErrorCode::Internal, e.to_string()))?
        .map_err(|e| {
            tracing::error!(error = %e, "cannot read the web client's index.html");
            ApiError::new(ErrorCode::Internal, "the page template is missing")
        })?;
    let html = fill(&index, &head).ok_or_else(|| {
        tracing::error!("index.html has no <title> or description to fill in");
        ApiError::new(
            ErrorCode::Internal,
            "the page template has no head to fill in",
        )
    })?;
    Ok(HttpResponse::build(status)
        .content_type(ContentType::html())
        .body(html))
}

/// The template with the head filled in: `None` when it lacks the `<title>` or the
/// description `<meta>` that it should replace.
fn fill(template: &str, head: &Head) -> Option<String> {
    let mut html = template.to_string();
    replace_between(&mut html, "<title>", "</title>", &escape(&head.title))?;
    let start = html.find("<meta name=\"description\"")?;
    let end = start + html[start..].find('>')? + 1;
    let mut extra = String::new();
    if head.description.is_empty() {
        html.replace_range(start..end, "<meta name=\"robots\" content=\"noindex\">");
    } else {
        html.replace_range(
            start..end,
            &format!(
                "<meta name=\"description\" content=\"{}\">",
                escape(&head.description)
            ),
        );
    }
    if let Some(links) = &head.links {
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
            escape(&head.title),
            escape(&head.description),
            escape(&links.canonical)
        ));
    }
    let close = html.find("</head>")?;
    html.insert_str(close, &extra);
    let lang_at = html.find("<html lang=\"")? + "<html lang=\"".len();
    let lang_end = lang_at + html[lang_at..].find('"')?;
    html.replace_range(lang_at..lang_end, head.lang.code());
    Some(html)
}

fn replace_between(html: &mut String, open: &str, close: &str, with: &str) -> Option<()> {
    let start = html.find(open)? + open.len();
    let end = start + html[start..].find(close)?;
    html.replace_range(start..end, with);
    Some(())
}

/// Text for an HTML attribute or element (and XML).
fn escape(text: &str) -> String {
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

/// A path segment from the request, kept to the characters of a game id.
fn escape_path(segment: &str) -> String {
    segment
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// The site's address for absolute links: the configured public URL, or the scheme and the
/// `Host` this request came to (a host with characters no host has falls back to `localhost`).
fn base_url(req: &HttpRequest, state: &AppState) -> String {
    if let Some(url) = &state.security.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let scheme = if state.security.is_https(req) {
        "https"
    } else {
        "http"
    };
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        })
        .unwrap_or("localhost");
    format!("{scheme}://{host}")
}

/// Every game page in every language, each with its alternates, and the home page.
async fn sitemap(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let base = base_url(&req, &state);
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    xml.push_str(&format!("  <url><loc>{}/</loc></url>\n", escape(&base)));
    for info in catalog::GAMES {
        for lang in Lang::ALL {
            xml.push_str(&format!(
                "  <url>\n    <loc>{}</loc>\n",
                escape(&format!("{base}{}", lang.path(info.id)))
            ));
            for other in Lang::ALL {
                xml.push_str(&format!(
                    "    <xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>\n",
                    other.code(),
                    escape(&format!("{base}{}", other.path(info.id)))
                ));
            }
            xml.push_str("  </url>\n");
        }
    }
    xml.push_str("</urlset>\n");
    HttpResponse::Ok()
        .content_type("application/xml; charset=utf-8")
        .body(xml)
}

/// Everything may be crawled but the API; the sitemap says where the pages are.
async fn robots(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let base = base_url(&req, &state);
    HttpResponse::Ok()
        .content_type(ContentType::plaintext())
        .body(format!(
            "User-agent: *\nDisallow: /api/\nDisallow: /ws\nAllow: /\n\nSitemap: {base}/sitemap.xml\n"
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<!doctype html>\n<html lang=\"ru\">\n<head>\n  <title>Столик</title>\n  <meta name=\"description\" content=\"x\">\n</head>\n<body></body>\n</html>\n";

    #[test]
    fn the_head_is_filled_in_and_escaped() {
        let head = Head {
            lang: Lang::En,
            title: "A <b> & \"c\"".into(),
            description: "d'e".into(),
            links: Some(Links {
                canonical: "http://h/en/games/g".into(),
                alternates: vec![("ru", "http://h/games/g".into())],
            }),
        };
        let html = fill(INDEX, &head).unwrap();
        assert!(html.contains("<html lang=\"en\">"));
        assert!(html.contains("<title>A &lt;b&gt; &amp; &quot;c&quot;</title>"));
        assert!(html.contains("<meta name=\"description\" content=\"d&#39;e\">"));
        assert!(html.contains("<link rel=\"canonical\" href=\"http://h/en/games/g\">"));
        assert!(html.contains("hreflang=\"ru\" href=\"http://h/games/g\""));
        assert!(!html.contains("content=\"x\""));
    }

    #[test]
    fn a_template_without_a_title_is_refused() {
        let head = Head {
            lang: Lang::Ru,
            title: "t".into(),
            description: "d".into(),
            links: None,
        };
        assert!(fill("<html lang=\"ru\"><head></head></html>", &head).is_none());
    }
}
