//! ARCHITECTURE.md's layering, checked on the source (test code aside):
//!
//! - the server's top-level modules import one another without a circle, and along the layers
//!   [`LAYERS`] states: every `crate::MODULE` a module's files name is an edge;
//! - the table's core (`src/table/core/`) is pure: no `.await` or `async`, no clock read, no
//!   `store::` path, no `tokio` or `actix`, nothing of the actor, and of the server only the
//!   error type, the wire's types and the table's own;
//! - a table's state is built only in the core (the actor calls `TableState::restore`).
//!
//! Each check is a function over source text with a test that plants a violation in a
//! synthetic source and sees it caught, besides the check over the real tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which top-level module may not name which: the layers of ARCHITECTURE.md's invariants.
const LAYERS: &[(&str, &[&str], &str)] = &[
    ("ws", &["*"], "the wire depends on no other module"),
    (
        "outbox",
        &["table", "hub", "routes", "state", "startup"],
        "the outbox sits below the tables",
    ),
    (
        "live",
        &["table", "hub", "routes", "state", "startup"],
        "the live list sits below the tables",
    ),
    (
        "table",
        &["hub", "solo", "routes", "state", "request", "startup"],
        "the tables sit below the hub and the solo helpers, and reach them only through \
         `table::services`",
    ),
    (
        "solo",
        &["hub", "routes", "state", "request", "startup"],
        "the solo games' helpers sit below the hub and the handlers",
    ),
    (
        "hub",
        &["routes", "state", "request", "startup"],
        "the hub sits below the handlers",
    ),
    (
        "identity",
        &["state", "request"],
        "`state.rs` and `request.rs` sit above `identity.rs`",
    ),
    (
        "sessions",
        &["state", "request"],
        "`state.rs` and `request.rs` sit above `sessions.rs`",
    ),
];

/// The only module that may name `routes`.
const ROUTES_USER: &str = "startup";

/// The server's modules the table's core may name: the error type, the wire, the table.
const CORE_MAY_NAME: &[&str] = &["error", "ws", "table"];

/// What reads a clock.
const CLOCK_READS: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "UNIX_EPOCH",
    "unix_ms(",
    "Utc::now",
    "Local::now",
    "OffsetDateTime::now",
];

/// A source's code with comments, string and character literals blanked out, and without the
/// test module that ends a file (from its `#[cfg(test)]` on).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A character literal such as '"' (a lifetime has no closing quote).
            i += 3;
            out.push_str("' '");
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where `word` stands in `code` as a whole identifier (not part of a longer one).
fn word_at(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The top-level modules a source names as `crate::MODULE`.
fn crate_modules(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .filter(|(at, _)| !code[..*at].chars().next_back().is_some_and(is_ident))
        .map(|(at, _)| {
            code[at + "crate::".len()..]
                .chars()
                .take_while(|c| is_ident(*c))
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .collect()
}

/// Why a file of the table's core is not pure, one line per reason (none when it is).
fn core_violations(text: &str) -> Vec<String> {
    let code = code_of(text);
    let mut found = Vec::new();
    if code.contains(".await") {
        found.push("awaits (`.await`)".to_string());
    }
    if word_at(&code, "async") {
        found.push("has async code".to_string());
    }
    for read in CLOCK_READS {
        if code.contains(read) {
            found.push(format!(
                "reads the clock (`{read}`): take `now` as an argument"
            ));
        }
    }
    for name in [
        "store",
        "tokio",
        "actix_web",
        "actix_ws",
        "actix_http",
        "sqlx",
    ] {
        if word_at(&code, name) {
            found.push(format!("names `{name}`"));
        }
    }
    if word_at(&code, "actor") {
        found.push("names the actor: the core is below it".to_string());
    }
    for module in crate_modules(&code) {
        if !CORE_MAY_NAME.contains(&module.as_str()) {
            found.push(format!("names `crate::{module}`"));
        }
    }
    found
}

/// Why a file of the table's actor breaks the layering: it builds a state by hand.
fn actor_violations(text: &str) -> Vec<String> {
    let code = code_of(text);
    let mut found = Vec::new();
    // `TableState {` not after `->` (a function's return type): a struct literal.
    let builds = code.match_indices("TableState").any(|(at, w)| {
        code[at + w.len()..].trim_start().starts_with('{') && !code[..at].trim_end().ends_with("->")
    });
    if builds {
        found.push("builds a `TableState` by hand: use `TableState::new` or `::restore`".into());
    }
    found
}

/// The edges of [`module_graph`] that break [`LAYERS`] or the `routes` rule.
fn layering_violations(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (module, deps) in graph {
        for dep in deps {
            let rule = LAYERS.iter().find(|(m, never, _)| {
                m == module && (never.contains(&"*") || never.contains(&dep.as_str()))
            });
            if let Some((_, _, why)) = rule {
                found.push(format!("{module} names {dep}: {why}"));
            }
            if dep == "routes" && module != ROUTES_USER {
                found.push(format!("{module} names routes: only {ROUTES_USER} does"));
            }
        }
    }
    found
}

/// The `.rs` files under `dir`, `tests.rs` files aside.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".rs") && name != "tests.rs" {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Top-level module → the top-level modules it names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in sources(src) {
        let rel = path.strip_prefix(src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|c| c.trim_end_matches(".rs").to_string())
            .expect("a file name");
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        let deps = graph.entry(top.clone()).or_default();
        deps.extend(
            crate_modules(&code_of(&text))
                .into_iter()
                .filter(|m| *m != top),
        );
    }
    let known: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| known.contains(d));
    }
    graph
}

/// A cycle through the graph, if there is one, as the modules along it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(node.to_string(), Mark::Open);
        path.push(node.to_string());
        for next in &graph[node] {
            match marks[next.as_str()] {
                Mark::Open => {
                    let from = path.iter().position(|m| m == next).expect("on the path");
                    let mut cycle = path[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(cycle) = visit(next, graph, marks, path) {
                        return Some(cycle);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks: BTreeMap<String, Mark> = graph.keys().map(|k| (k.clone(), Mark::New)).collect();
    for node in graph.keys() {
        if marks[node.as_str()] == Mark::New
            && let Some(cycle) = visit(node, graph, &mut marks, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn graph_of(edges: &[(&str, &[&str])]) -> BTreeMap<String, BTreeSet<String>> {
    edges
        .iter()
        .map(|(k, v)| (k.to_string(), v.iter().map(|d| d.to_string()).collect()))
        .collect()
}

#[test]
fn the_servers_modules_import_one_another_without_a_circle() {
    let graph = module_graph(&src());
    assert!(graph.len() > 10, "the module graph was read: {graph:?}");
    assert!(
        graph["routes"].contains("table"),
        "edges are seen: {graph:?}"
    );
    assert_eq!(find_cycle(&graph), None, "{graph:#?}");
}

#[test]
fn a_circle_is_found() {
    let graph = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("d", &[])]);
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn the_servers_modules_keep_their_layers() {
    let graph = module_graph(&src());
    for (module, _, _) in LAYERS {
        assert!(
            graph.contains_key(*module),
            "{module} is a module: {graph:?}"
        );
    }
    assert_eq!(layering_violations(&graph), Vec::<String>::new());
}

#[test]
fn an_import_against_the_layers_is_found() {
    let fine = graph_of(&[
        ("ws", &[]),
        ("table", &["ws", "outbox"]),
        ("hub", &["table"]),
        ("startup", &["routes"]),
    ]);
    assert_eq!(layering_violations(&fine), Vec::<String>::new());
    for (module, dep) in [
        ("ws", "error"),
        ("table", "hub"),
        ("outbox", "table"),
        ("hub", "routes"),
        ("sessions", "state"),
        ("domain", "routes"),
    ] {
        let graph = graph_of(&[(module, &[dep])]);
        let found = layering_violations(&graph);
        assert!(!found.is_empty(), "{module} → {dep} is caught");
    }
}

#[test]
fn the_table_core_is_pure() {
    let core = src().join("table/core");
    let files = sources(&core);
    assert!(files.len() >= 10, "the core's files were read: {files:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file");
        for why in core_violations(&text) {
            found.push(format!("{}: {why}", path.display()));
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn only_the_core_builds_a_tables_state() {
    let actor = src().join("table/actor");
    let files = sources(&actor);
    assert!(files.len() >= 5, "the actor's files were read: {files:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file");
        for why in actor_violations(&text) {
            found.push(format!("{}: {why}", path.display()));
        }
    }
    assert_eq!(found, Vec::<String>::new());
    // And the check sees a state built by hand.
    assert!(actor_violations("fn f() -> TableState {\n    TableState::new(x)\n}").is_empty());
    let planted = "fn f() -> TableState {\n    TableState { id: x }\n}";
    assert_eq!(actor_violations(planted).len(), 1);
}

/// A pure core file like the real ones: the time comes in, comments and strings may say
/// anything, and its test module may read the clock.
const PURE: &str = r#"
//! Reads no clock: `Instant::now` is the actor's. Not `store::GameStatus` but `record::`.
use std::time::Instant;
use record::GameStatus;
use super::state::TableState;
use crate::error::WsError;
use crate::ws::protocol::Message;
use super::restore;

impl TableState {
    /// `now` is handed in; nothing `.await`s.
    pub fn tick(&mut self, now: Instant) -> Result<(), WsError> {
        let quote = '"';
        let text = "unix_ms( and tokio:: and .await in a string";
        let _ = (quote, text, restore::x);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {
        let _ = std::time::Instant::now();
    }
}
"#;

#[test]
fn a_pure_core_file_passes() {
    assert_eq!(core_violations(PURE), Vec::<String>::new());
}

#[test]
fn every_planted_impurity_is_found() {
    let body = "impl TableState {\n    pub fn tick(&mut self) {\n        PLANT\n    }\n}\n";
    for (plant, what) in [
        ("self.store.write().await;", ".await"),
        ("let f = async { 1 };", "async"),
        ("let now = Instant::now();", "Instant::now"),
        ("let now = std::time::SystemTime::now();", "SystemTime"),
        ("let at = crate::unix_time::unix_ms();", "unix_ms("),
        ("let at = chrono::Utc::now();", "Utc::now"),
        ("let s = store::GameStatus::Open;", "store"),
        ("tokio::spawn(x);", "tokio"),
        ("let r = actix_web::HttpResponse::Ok();", "actix_web"),
        ("super::super::actor::Table::new(x);", "actor"),
        ("crate::hub::Hub::get();", "crate::hub"),
        ("crate::unix_time::now();", "crate::unix_time"),
    ] {
        let text = body.replace("PLANT", plant);
        let found = core_violations(&text);
        assert!(
            found.iter().any(|f| f.contains(what)),
            "{plant:?} is caught as {what:?}: {found:?}"
        );
    }
    let async_fn = "pub async fn write(&self) {}\n";
    assert!(!core_violations(async_fn).is_empty());
    let use_store = "use store::GameStatus;\n";
    assert!(!core_violations(use_store).is_empty());
    let use_tokio = "use tokio::time::Instant;\n";
    assert!(!core_violations(use_tokio).is_empty());
}
