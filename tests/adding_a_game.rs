//! Keeps ARCHITECTURE.md's "Adding a game" list true. The list is read from the document
//! itself (its backquoted paths, `GAME` standing for a game's id), so the test and the
//! document cannot say different things: an existing game's id found in a tracked file outside
//! the places the list names means adding a game touches a place the list does not tell of
//! (or the mention belongs in the commented allow-list below).
//!
//! Only two ids are searched for, `tumbleweed` and `cephalopod`: they are specific enough that
//! every occurrence is about the game. The others are not: `mill` is an ordinary word (and part
//! of `millis`), `perekati` is a prefix of the Russian words for rolling, and `white-rabbit` is
//! also the solver's name in general code (`rabbit-solver`, `--rabbit-tables`,
//! `data/white-rabbit`).

use std::path::Path;
use std::process::Command;

/// The ids searched for (see the top comment for why only these two).
const IDS: [&str; 2] = ["tumbleweed", "cephalopod"];

/// Every game of the catalogue: a place the list names for `GAME` belongs to that game alone.
const GAMES: [&str; 5] = [
    "perekati",
    "tumbleweed",
    "cephalopod",
    "mill",
    "white-rabbit",
];

/// Files that are not source: build output, dependencies, prose, test data, lock files.
fn skipped(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    file.starts_with("target/")
        || file.contains("node_modules/")
        || file.starts_with("docs/")
        || file.ends_with(".md")
        || file.starts_with("tests/data/")
        || name == "Cargo.lock"
        || name == "package-lock.json"
}

/// Places that name a game without being a place a new game must be added to, each with why.
/// A directory ends with `/`. An entry no file needs any more fails the test, so the list
/// only shrinks with the code.
const ALLOWED: &[(&str, &str)] = &[
    // Tests and tools that pick an existing game to play: a new game need not join them.
    (
        "crates/server/tests/",
        "API tests play some game of the catalogue",
    ),
    (
        "crates/server/src/table/core/tests.rs",
        "the table's unit tests play cephalopod 3x3",
    ),
    (
        "crates/server/src/table/core/berserk.rs",
        "its unit tests play cephalopod 3x3",
    ),
    (
        "src/bridge/policy.rs",
        "its unit tests judge challenges for some games",
    ),
    ("tests/bridge.rs", "the bridge's test plays chosen games"),
    (
        "tests/resilience.rs",
        "the resilience tests play chosen games through tournaments and the Bot API",
    ),
    (
        "crates/server/src/hub/lobby_pages.rs",
        "its unit tests list tables of some games",
    ),
    ("crates/ai/tests/", "the bots' tests play chosen games"),
    ("src/arena/tests.rs", "the arena's tests play chosen games"),
    ("tests/referee.rs", "the referee test plays cephalopod"),
    (
        "tests/browser/",
        "browser tests play some game; the lists a new game joins are in the list",
    ),
    ("crates/loadgen/", "benchmarks pick the games they load"),
    (
        "fuzz/seeds/referee/",
        "the referee's seeds are sessions of some games",
    ),
    // Code of one game's own features (the list's "a feature of its own"): Tumbleweed's setup,
    // composed by clients from the position, and its choice of colours; cephalopod's searches.
    (
        "crates/ai/src/cephalopod_mcts.rs",
        "cephalopod's own bitboard search",
    ),
    (
        "crates/ai/examples/solve_cephalopod.rs",
        "cephalopod's exact solver, run by hand",
    ),
    (
        "crates/soak/src/play.rs",
        "the soak's players compose Tumbleweed's setup",
    ),
    (
        "crates/server/src/table/core/rules.rs",
        "Tumbleweed's colour choice renames the seats",
    ),
    (
        "web/js/movelist.js",
        "Tumbleweed's columns after the colour choice",
    ),
    ("web/js/pages/playing.js", "Tumbleweed's colour as a side"),
    (
        "web/js/pages/replay.js",
        "Tumbleweed's seats become colours",
    ),
    (
        "web/js/pages/table.js",
        "Tumbleweed's colour choice; cephalopod's captures as an example",
    ),
    (
        "web/js/pages/table/status.js",
        "Tumbleweed's setup and choice hints",
    ),
    // Comments that name a game as an example.
    (
        "crates/game/src/lib.rs",
        "the games listed in the contract's comments",
    ),
    ("crates/game/src/info.rs", "a proper name as an example"),
    (
        "crates/game/src/seat.rs",
        "Tumbleweed's host as an example of seat A",
    ),
    (
        "crates/ai/src/alphabeta.rs",
        "Tumbleweed's colour choice as a side that moves twice",
    ),
    (
        "crates/server/src/table/core/mod.rs",
        "Tumbleweed's setup as the long legal list",
    ),
    (
        "crates/server/src/ws/protocol/views.rs",
        "Tumbleweed's colour as a side label",
    ),
    ("crates/store/src/notifications.rs", "an id as an example"),
    (
        "fuzz/fuzz_targets/referee.rs",
        "Tumbleweed's setup as the long legal list",
    ),
    (
        "fuzz/src/lib.rs",
        "Tumbleweed's setup as the long legal list",
    ),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The backquoted paths of ARCHITECTURE.md's "Adding a game" section.
fn listed_places() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = doc
        .find("\n## Adding a game")
        .expect("ARCHITECTURE.md has an \"Adding a game\" section");
    let section = &doc[start + 1..];
    let section = &section[..section[1..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 1)];
    let places: Vec<String> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|text| is_path(text))
        .map(str::to_owned)
        .collect();
    assert!(places.len() > 10, "the list was read: {places:?}");
    places
}

/// A backquoted text is a path when it looks like one: no spaces, `::` or calls, and a folder
/// in it or a manifest's name (`/api/…` is a route, not a path).
fn is_path(text: &str) -> bool {
    !text.starts_with('/')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
        && (text.contains('/') || text.ends_with(".toml"))
}

/// Whether `file` is in `place` with `GAME` read as `game`.
fn is_in(file: &str, place: &str, game: &str) -> bool {
    let place = place.replace("GAME", game);
    if place.ends_with('/') {
        file.starts_with(&place)
    } else {
        file == place
    }
}

fn tracked_files() -> Vec<String> {
    let out = Command::new("git")
        .arg("ls-files")
        .arg("-z")
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git ls-files: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    assert!(
        files.len() > 100,
        "the repository's files were listed: {}",
        files.len()
    );
    files
}

/// The searched-for ids a file names, in its path or its bytes, in any case.
fn ids_named(file: &str) -> Vec<&'static str> {
    let bytes = std::fs::read(root().join(file))
        .unwrap_or_default()
        .to_ascii_lowercase();
    let path = file.to_ascii_lowercase();
    IDS.into_iter()
        .filter(|id| path.contains(id) || bytes.windows(id.len()).any(|w| w == id.as_bytes()))
        .collect()
}

#[test]
fn a_game_is_named_only_where_the_list_says() {
    let places = listed_places();
    let mut used = vec![false; ALLOWED.len()];
    let mut wrong = Vec::new();
    for file in tracked_files().iter().filter(|f| !skipped(f)) {
        for id in ids_named(file) {
            // Another game's place: `crates/mill/` naming cephalopod is wrong wherever it is allowed.
            let other = places.iter().find_map(|place| {
                let game = GAMES
                    .iter()
                    .find(|g| **g != id && place.contains("GAME") && is_in(file, place, g))?;
                Some(format!(
                    "{file} is {game}'s place (`{place}`) but names {id}"
                ))
            });
            if let Some(why) = other {
                wrong.push(why);
                continue;
            }
            if places.iter().any(|place| is_in(file, place, id)) {
                continue;
            }
            match ALLOWED.iter().position(|(place, _)| is_in(file, place, id)) {
                Some(i) => used[i] = true,
                None => wrong.push(format!(
                    "{file} names {id} but is not in ARCHITECTURE.md's \"Adding a game\" list \
                     (add it there if a new game must touch it, or to ALLOWED here with why)"
                )),
            }
        }
    }
    for ((place, _), used) in ALLOWED.iter().zip(used) {
        if !used {
            wrong.push(format!(
                "ALLOWED's {place} names no game any more: take it out"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}\n", wrong.join("\n"));
}

#[test]
fn the_list_names_places_that_exist_and_every_game_is_in() {
    let mut wrong = Vec::new();
    for place in listed_places() {
        if place.contains("GAME") {
            for id in IDS {
                let path = place.replace("GAME", id);
                if !root().join(&path).exists() {
                    wrong.push(format!("`{place}` is listed but {path} does not exist"));
                }
            }
        } else if !root().join(&place).is_file() {
            wrong.push(format!("`{place}` is listed but is not a file"));
        } else {
            // A shared place every game is added to names every game, or it is not one.
            let named = ids_named(&place);
            for id in IDS.iter().filter(|id| !named.contains(id)) {
                wrong.push(format!(
                    "`{place}` is listed as a place every game is added to but does not name {id}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "\n{}\n", wrong.join("\n"));
}
