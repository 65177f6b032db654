//! The web client's files as a browser gets them: the bundle built into the binary, its
//! hashed files kept for a year, the page itself checked on every visit, gzip when asked for.

use crate::helpers::TestApp;

struct Answer {
    status: u16,
    headers: awc::http::header::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", |v| v.to_str().unwrap())
    }
}

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Answer {
    // Without a decompressing client: the bytes as they were sent.
    let client = awc::Client::builder().disable_redirects().finish();
    let mut request = client.get(format!("{}{path}", app.base)).no_decompress();
    for &(name, value) in headers {
        request = request.insert_header((name, value));
    }
    let mut response = request.send().await.unwrap();
    Answer {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        body: response.body().limit(4 << 20).await.unwrap().to_vec(),
    }
}

/// The hashed URLs the page names: its script, the chunks it preloads and its style sheet.
fn assets(index: &str) -> Vec<String> {
    index
        .match_indices("\"/assets/")
        .map(|(at, _)| {
            let rest = &index[at + 1..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[actix_web::test]
async fn hashed_files_are_kept_a_year_and_the_page_is_checked_every_time() {
    let app = TestApp::spawn().await;
    let index = get(&app, "/", &[]).await;
    assert_eq!(index.status, 200);
    assert_eq!(index.header("cache-control"), "no-cache");
    let html = String::from_utf8(index.body.clone()).unwrap();
    let urls = assets(&html);
    assert!(
        urls.iter().any(|u| u.ends_with(".js")) && urls.iter().any(|u| u.ends_with(".css")),
        "{urls:?}"
    );
    for url in &urls {
        let file = get(&app, url, &[]).await;
        assert_eq!(file.status, 200, "{url}");
        assert_eq!(
            file.header("cache-control"),
            "public, max-age=31536000, immutable",
            "{url}"
        );
    }
    // A deep link is a page of the client, checked every time; a game page too.
    for path in ["/table/abc", "/games/mill", "/en/games/mill"] {
        let page = get(&app, path, &[]).await;
        assert_eq!(page.status, 200, "{path}");
        assert_eq!(page.header("cache-control"), "no-cache", "{path}");
    }
    let picture = get(&app, "/img/mill.svg", &[]).await;
    assert_eq!(picture.status, 200);
    assert_eq!(picture.header("cache-control"), "public, max-age=86400");
    assert_eq!(picture.header("content-type"), "image/svg+xml");
    // A file the bundle lacks is missing, not the client's page.
    assert_eq!(get(&app, "/assets/app-NOPE.js", &[]).await.status, 404);
    assert_eq!(get(&app, "/img/chess.svg", &[]).await.status, 404);
    // The dictionaries are part of the bundle's script; no other file is served.
    assert_eq!(get(&app, "/i18n/en.json", &[]).await.status, 404);
    assert_eq!(get(&app, "/favicon.ico", &[]).await.status, 404);
    app.stop().await;
}

#[actix_web::test]
async fn the_page_is_sent_again_only_when_it_changed_and_gzipped_when_asked() {
    let app = TestApp::spawn().await;
    let index = get(&app, "/", &[]).await;
    let etag = index.header("etag").to_string();
    assert!(etag.starts_with('"'), "{etag:?}");
    let again = get(&app, "/", &[("If-None-Match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("cache-control"), "no-cache");

    let html = String::from_utf8(index.body).unwrap();
    // The app's module script (the theme's little script before it is too small to pack).
    let script = assets(&html)
        .into_iter()
        .find(|u| u.starts_with("/assets/app-") && u.ends_with(".js"))
        .unwrap();
    let plain = get(&app, &script, &[]).await;
    assert_eq!(plain.header("content-encoding"), "");
    let packed = get(&app, &script, &[("Accept-Encoding", "gzip, deflate")]).await;
    assert_eq!(packed.header("content-encoding"), "gzip");
    assert_eq!(packed.header("vary"), "Accept-Encoding");
    assert!(packed.body.len() < plain.body.len());
    assert!(packed.body.starts_with(&[0x1f, 0x8b]), "a gzip stream");
    let refused = get(&app, &script, &[("Accept-Encoding", "gzip;q=0")]).await;
    assert_eq!(refused.body, plain.body);
    app.stop().await;
}
