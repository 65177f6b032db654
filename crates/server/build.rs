// Builds the web client (`web/`) into the server: esbuild, pinned in web/package-lock.json,
// bundles and minifies it (web/build/bundle.mjs) into OUT_DIR/web, and the generated
// OUT_DIR/web_client.rs embeds every file it wrote (src/web_client/bundle.rs includes it).
// Needs Node.js (18 or later) and npm; esbuild is installed from the lock file into OUT_DIR, so
// the source tree is left as it is.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    for input in [
        "index.html",
        "offline.html",
        "sw.js",
        "manifest.webmanifest",
        "js",
        "css",
        "i18n",
        "img",
        "build",
        "package.json",
        "package-lock.json",
    ] {
        println!("cargo::rerun-if-changed={}", web.join(input).display());
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it"));
    let modules = install_esbuild(&web, &out.join("npm"));
    let bundle = out.join("web");
    run(
        Command::new("node")
            .arg(web.join("build/bundle.mjs"))
            .arg("--out")
            .arg(&bundle)
            .env("NODE_PATH", &modules),
        "bundling the web client (node web/build/bundle.mjs)",
    );
    let manifest = fs::read_to_string(bundle.join("files.tsv")).expect("the build lists its files");
    fs::write(out.join("web_client.rs"), embed(&bundle, &manifest)).expect("OUT_DIR is writable");
}

/// `npm ci` of web/package-lock.json into `dir`, unless that lock is installed there already;
/// the folder to resolve esbuild from.
fn install_esbuild(web: &Path, dir: &Path) -> PathBuf {
    let lock = fs::read(web.join("package-lock.json")).expect("web/package-lock.json is readable");
    let installed = dir.join("package-lock.json");
    let modules = dir.join("node_modules");
    if fs::read(&installed).ok().as_ref() != Some(&lock) || !modules.join("esbuild").exists() {
        fs::create_dir_all(dir).expect("OUT_DIR is writable");
        fs::copy(web.join("package.json"), dir.join("package.json"))
            .expect("web/package.json is readable");
        fs::write(&installed, &lock).expect("OUT_DIR is writable");
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
                .current_dir(dir),
            "installing esbuild (npm ci, from web/package-lock.json)",
        );
    }
    modules
}

/// Runs a step of the build; a missing tool or a failure stops the build with what to do.
fn run(command: &mut Command, what: &str) {
    let tool = command.get_program().to_string_lossy().into_owned();
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => fail(&format!("{what} failed ({status}); its output is above")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => fail(&format!(
            "{what} needs `{tool}`, which is not on the PATH. The server's build bundles the web \
             client with esbuild and needs Node.js 18 or later and npm: install them (Debian: \
             apt-get install nodejs npm) and build again"
        )),
        Err(e) => fail(&format!("{what}: cannot run `{tool}`: {e}")),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// The Rust source that embeds the bundle: one `File` for each line of files.tsv (URL, file,
/// content type, cache class, gzipped copy or `-`, entity tag) and the game pages' texts.
fn embed(bundle: &Path, manifest: &str) -> String {
    let path = |file: &str| bundle.join(file).display().to_string();
    let mut rust = String::from("pub static FILES: &[File] = &[\n");
    for line in manifest.lines() {
        let [url, file, content_type, cache, gzip, etag] = line.split('\t').collect::<Vec<_>>()[..]
        else {
            fail(&format!("files.tsv has a malformed line: {line:?}"));
        };
        let cache = match cache {
            "immutable" => "Cache::Immutable",
            "day" => "Cache::Day",
            "no-cache" => "Cache::Revalidate",
            other => fail(&format!("files.tsv names an unknown cache class {other:?}")),
        };
        let gzip = match gzip {
            "-" => "None".to_string(),
            gz => format!("Some(include_bytes!({:?}))", path(gz)),
        };
        writeln!(
            rust,
            "    File {{ url: {url:?}, body: include_bytes!({:?}), gzip: {gzip}, content_type: {content_type:?}, cache: {cache}, etag: {etag:?} }},",
            path(file)
        )
        .expect("writing to a String");
    }
    rust.push_str("];\n");
    writeln!(
        rust,
        "pub static PAGE_TEXTS: &str = include_str!({:?});",
        path("pages.json")
    )
    .expect("writing to a String");
    rust
}
