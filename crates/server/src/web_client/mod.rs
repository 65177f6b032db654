//! The web client's files: from the bundle built into the binary ([`bundle`], what the site
//! serves), or, for working on the client, from its sources on disk (`--web-dir`), unbundled
//! and checked again on every load. Any path no route and no file takes is a page of the
//! client (a deep link such as `/table/abc`) and gets its `index.html`.

pub mod bundle;

use std::borrow::Cow;
use std::path::PathBuf;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::DefaultHeaders;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::error::{ApiError, ErrorCode};
use bundle::{Cache, File};

/// Where the web client comes from.
#[derive(Debug, Clone)]
pub enum WebClient {
    /// The bundle built into the binary.
    Bundled,
    /// The sources in this folder (`web/`), as they are.
    Sources(PathBuf),
}

impl WebClient {
    /// The client's `index.html`, the template of the pages the server writes.
    pub async fn template(&self) -> Result<Cow<'static, str>, ApiError> {
        match self {
            WebClient::Bundled => Ok(Cow::Borrowed(
                std::str::from_utf8(bundle::index().body)
                    .expect("the bundle's index.html is UTF-8"),
            )),
            WebClient::Sources(dir) => {
                let path = dir.join("index.html");
                let text = web::block(move || std::fs::read_to_string(path))
                    .await
                    .map_err(|e| ApiError::new(ErrorCode::Internal, e.to_string()))?
                    .map_err(|e| {
                        tracing::error!(error = %e, "cannot read the web client's index.html");
                        ApiError::new(ErrorCode::Internal, "the page template is missing")
                    })?;
                Ok(Cow::Owned(text))
            }
        }
    }

    /// The service for every path the routes did not take; registered last.
    pub fn configure(&self) -> impl Fn(&mut web::ServiceConfig) + Clone + use<> {
        let client = self.clone();
        move |cfg| match &client {
            WebClient::Bundled => {
                cfg.default_service(web::to(serve_bundled));
            }
            WebClient::Sources(dir) => {
                let index = dir.join("index.html");
                cfg.service(
                    web::scope("")
                        // Sources change under the developer's hands: never used unchecked.
                        .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, "no-cache")))
                        .service(
                            actix_files::Files::new("/", dir)
                                .index_file("index.html")
                                .default_handler(web::to(move || {
                                    actix_files::NamedFile::open_async(index.clone())
                                })),
                        ),
                );
            }
        }
    }
}

async fn serve_bundled(req: HttpRequest) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .finish();
    }
    let path = req.path();
    match bundle::file(path) {
        Some(file) => send(&req, file),
        // A file the bundle lacks (a path naming a file, `name.ext`) is missing, not a page
        // of the client: no page's path has a dot.
        None if path.starts_with("/assets/")
            || path.starts_with("/img/")
            || path
                .rsplit('/')
                .next()
                .is_some_and(|name| name.contains('.')) =>
        {
            HttpResponse::NotFound()
                .content_type("text/plain; charset=utf-8")
                .body("no such file")
        }
        None => send(&req, bundle::index()),
    }
}

/// A file of the bundle with its caching headers: `304` when the browser's copy is this one,
/// the gzipped body when the browser takes gzip.
fn send(req: &HttpRequest, file: &'static File) -> HttpResponse {
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim() == file.etag || t.trim() == "*")
        });
    let mut response = HttpResponse::build(if fresh {
        StatusCode::NOT_MODIFIED
    } else {
        StatusCode::OK
    });
    response
        .insert_header((header::CACHE_CONTROL, file.cache.header()))
        .insert_header((header::ETAG, file.etag));
    if file.gzip.is_some() {
        response.insert_header((header::VARY, "Accept-Encoding"));
    }
    if fresh {
        return response.finish();
    }
    response.content_type(file.content_type);
    match file.gzip {
        Some(gzip) if accepts_gzip(req) => {
            response.insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")));
            response.body(gzip)
        }
        _ => response.body(file.body),
    }
}

/// Whether `Accept-Encoding` lists gzip (or `*`) without `q=0`.
fn accepts_gzip(req: &HttpRequest) -> bool {
    let Some(accepted) = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    accepted.split(',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

/// The cache header of a page the server writes from the template (it names the bundle's
/// current files, so it is checked again on every visit).
pub const PAGE_CACHE: &str = Cache::Revalidate.header();
