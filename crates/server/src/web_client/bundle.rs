//! The web client as built into the binary: the files web/build/bundle.mjs wrote, embedded by
//! the generated `web_client.rs` (see `build.rs`), each with its gzipped copy and how long a
//! browser may keep it.

/// How long a browser may keep a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cache {
    /// Named by its content's hash: a new build gives a new name, so it never changes.
    Immutable,
    /// Pictures under their own names: kept a day, then checked again.
    Day,
    /// The page itself, which names the others: checked again on every visit.
    Revalidate,
}

impl Cache {
    pub const fn header(self) -> &'static str {
        match self {
            Cache::Immutable => "public, max-age=31536000, immutable",
            Cache::Day => "public, max-age=86400",
            Cache::Revalidate => "no-cache",
        }
    }
}

/// One file of the bundle.
#[derive(Debug)]
pub struct File {
    /// Where it is served (`/` for index.html).
    pub url: &'static str,
    pub body: &'static [u8],
    /// The same body gzipped, when that is smaller.
    pub gzip: Option<&'static [u8]>,
    pub content_type: &'static str,
    pub cache: Cache,
    /// A hash of the body, quoted, for `ETag` and `If-None-Match`.
    pub etag: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/web_client.rs"));

/// The file served at `url`, if the bundle has one.
pub fn file(url: &str) -> Option<&'static File> {
    let url = if url == "/index.html" { "/" } else { url };
    FILES.iter().find(|f| f.url == url)
}

/// The bundle's index.html: the page every route of the client starts from.
pub fn index() -> &'static File {
    file("/").expect("the bundle has an index.html")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_has_its_page_a_script_and_a_style_sheet_all_named_by_hash() {
        let page = std::str::from_utf8(index().body).unwrap();
        assert_eq!(index().cache, Cache::Revalidate);
        for kind in [".js\"", ".css\""] {
            let at = page.find(kind).expect("index.html names its assets");
            let start = page[..at].rfind("\"/assets/").unwrap() + 1;
            let url = &page[start..at + kind.len() - 1];
            let asset = file(url).unwrap_or_else(|| panic!("{url} is in the bundle"));
            assert_eq!(asset.cache, Cache::Immutable, "{url}");
        }
        assert!(file("/img/mill.svg").is_some_and(|f| f.cache == Cache::Day));
    }

    /// The service worker keeps files the bundle has, and the offline page with them; the
    /// manifest's icons are there too.
    #[test]
    fn the_service_worker_and_the_manifest_name_files_of_the_bundle() {
        let worker = std::str::from_utf8(file("/sw.js").expect("a service worker").body).unwrap();
        assert_eq!(file("/sw.js").unwrap().cache, Cache::Revalidate);
        let line = worker
            .lines()
            .find_map(|l| l.strip_prefix("const BUILD = "))
            .expect("the build wrote its line");
        let build: serde_json::Value =
            serde_json::from_str(line.trim_end_matches(';')).expect("the line is JSON");
        assert_ne!(build["version"], "sources");
        let precache: Vec<&str> = build["precache"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap())
            .collect();
        assert!(precache.contains(&"/offline.html"));
        for url in &precache {
            assert!(file(url).is_some(), "{url} is kept but not served");
        }
        let offline = std::str::from_utf8(file("/offline.html").unwrap().body).unwrap();
        for url in precache.iter().filter(|u| u.starts_with("/assets/")) {
            assert!(!url.ends_with(".map"), "{url}: source maps are not kept");
        }
        for name in ["/css/app.css", "/js/offline.js", "/js/theme-boot.js"] {
            assert!(!offline.contains(name), "offline.html still names {name}");
        }
        let manifest: serde_json::Value =
            serde_json::from_slice(file("/manifest.webmanifest").unwrap().body).unwrap();
        let sizes: Vec<&str> = manifest["icons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|icon| {
                let src = icon["src"].as_str().unwrap();
                assert!(file(src).is_some(), "the manifest's icon {src} is served");
                icon["sizes"].as_str().unwrap()
            })
            .collect();
        assert!(sizes.contains(&"192x192") && sizes.contains(&"512x512"));
    }
}
