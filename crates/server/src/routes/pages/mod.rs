//! Pages a search engine can read without running the web client: one page per game and
//! language, a sitemap and `robots.txt`.
//!
//! A game page is the web client's `index.html` with the head (`<html lang>`, `<title>`,
//! the description, the canonical link and the `hreflang` alternates), the shell's labels and
//! the page's main text written in its language here (`html.rs`, `body.rs`); the client then
//! draws the page itself from its path. Russian, the site's first language, is
//! `/games/{game}`; the others are `/uk/games/{game}` and `/en/games/{game}`
//! (`/ru/games/{game}` redirects to the Russian page). An unknown game, or a language the site
//! does not have, is a 404 page in the page's (or the browser's) language.

mod body;
mod html;
mod lang;
mod texts;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, ContentType};
use actix_web::{HttpRequest, HttpResponse, web};

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::web_client::{PAGE_CACHE, WebClient};
use html::{Links, Page, escape};
use lang::Lang;
use texts::PageTexts;

/// The routes, with the web client's `index.html` as the pages' template.
pub fn routes(client: WebClient) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg| {
        cfg.app_data(web::Data::new(client.clone()))
            .route("/games/{game}", web::get().to(russian_page))
            .route("/{lang}/games/{game}", web::get().to(page))
            .route("/sitemap.xml", web::get().to(sitemap))
            .route("/robots.txt", web::get().to(robots));
    }
}

async fn russian_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    client: web::Data<WebClient>,
    game: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    game_page(&req, &state, &client, Lang::Ru, &game).await
}

async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    client: web::Data<WebClient>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (prefix, game) = path.into_inner();
    if prefix == "ru" {
        return Ok(HttpResponse::PermanentRedirect()
            .insert_header((header::LOCATION, Lang::Ru.path(&escape_path(&game))))
            .finish());
    }
    match Lang::from_prefix(&prefix) {
        Some(lang) => game_page(&req, &state, &client, lang, &game).await,
        None => {
            let accepted = req
                .headers()
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok());
            let lang = Lang::from_accept_language(accepted);
            not_found(&client, lang, Missing::Page).await
        }
    }
}

async fn game_page(
    req: &HttpRequest,
    state: &AppState,
    client: &WebClient,
    lang: Lang,
    game: &str,
) -> Result<HttpResponse, ApiError> {
    let texts = PageTexts::bundled();
    let Some((info, words)) = game
        .parse::<catalog::GameId>()
        .ok()
        .map(|g| g.info())
        .and_then(|info| Some((info, texts.game(info.id, lang)?)))
    else {
        return not_found(client, lang, Missing::Game).await;
    };
    let base = base_url(req, state);
    let url = |l: Lang| format!("{base}{}", l.path(info.id));
    let mut alternates: Vec<_> = Lang::ALL.iter().map(|&l| (l.code(), url(l))).collect();
    alternates.push(("x-default", url(Lang::Ru)));
    let page = Page {
        lang,
        title: lang.title(texts, lang.pick(info.names)),
        description: lang.pick(info.summary).to_string(),
        links: Some(Links {
            canonical: url(lang),
            alternates,
        }),
        body: body::game(texts, lang, info, words),
    };
    respond(client, StatusCode::OK, &page).await
}

/// What a 404 page says is not there.
#[derive(Clone, Copy)]
enum Missing {
    Game,
    Page,
}

impl Missing {
    /// The dictionary keys of its title and its heading.
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            Missing::Game => ("rules.unknown", "game.unknown"),
            Missing::Page => ("page.notfound", "page.notfound"),
        }
    }
}

/// A 404 page, not to be indexed. The client draws its own over it, in the same language.
async fn not_found(
    client: &WebClient,
    lang: Lang,
    missing: Missing,
) -> Result<HttpResponse, ApiError> {
    let texts = PageTexts::bundled();
    let (title, heading) = missing.keys();
    let page = Page {
        lang,
        title: lang.not_found(texts, title),
        description: String::new(),
        links: None,
        body: body::not_found(texts, lang, heading),
    };
    respond(client, StatusCode::NOT_FOUND, &page).await
}

async fn respond(
    client: &WebClient,
    status: StatusCode,
    page: &Page,
) -> Result<HttpResponse, ApiError> {
    let template = client.template().await?;
    let html = html::fill(&template, PageTexts::bundled(), page).ok_or_else(|| {
        tracing::error!(
            "index.html lacks a part a page fills in (title, description, main, labels)"
        );
        ApiError::new(
            ErrorCode::Internal,
            "the page template has no place for the page",
        )
    })?;
    Ok(HttpResponse::build(status)
        .content_type(ContentType::html())
        .insert_header((header::CACHE_CONTROL, PAGE_CACHE))
        .body(html))
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
