//! The full game's exact tables, solved level by level and cached under a directory
//! (`./data/white-rabbit/` by the command line), one file per variant and green level.
//!
//! A file holds the level's free-state values from [`crate::full`], one entry per symmetry
//! class (`F`, `G`, the best action and the best by win and score alone,
//! [`Values::ws_best`]), and the turn-start values of the level below (what `end` leads to)
//! and of this level (what the next level needs), compressed ([`file`] has the layout). A
//! header (magic, format version, model, level, sizes) and zstd's checksum make a file of
//! another version, a foreign, truncated or damaged one be refused, with the reason logged,
//! and solved again.
//!
//! A level is written under a temporary name of its own (`classic-green3.bin.1234-0.tmp`)
//! and renamed into place once complete, so a reader — another thread, or another node
//! sharing the directory — never opens a half-written file; only the final name is read.
//!
//! Only green levels 1–6 exist ([`GREENS`]): asking for any other is an error, never a solve.

mod file;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::exact::Vals;
use crate::full::{self, Index, Solved};
use crate::model::{Model, setup_tables};
pub use file::Table;
use game::Game;
use white_rabbit::{START_GREEN, Variant, WhiteRabbit};

/// The green levels a game in progress can be at, and so the only levels there are tables
/// of. A finished game (lost at 0, or won) has no level to look up.
pub const GREENS: RangeInclusive<u8> = 1..=START_GREEN;

/// An error unless `green` is one of [`GREENS`].
fn check_green(green: u8) -> std::io::Result<()> {
    if GREENS.contains(&green) {
        Ok(())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("there is no green level {green}: the levels are 1 to {START_GREEN}"),
        ))
    }
}

/// A solved level with the turn-start values of its own level (for the level above).
pub struct Level {
    pub solved: Solved<Table>,
    pub starts: Vec<Vals>,
}

/// The cache file of a model's level: `classic-green3.bin`, `no-wrap-green1.bin`, or for a
/// reduced model `b2r2t3f4-classic-green1.bin`.
pub fn path(dir: &Path, m: &Model, green: u8) -> PathBuf {
    let id = if m.wrap { "classic" } else { "no-wrap" };
    let full = Model::of(Variant::Classic);
    let size = if (m.blacks, m.reds, m.table, m.faces)
        == (full.blacks, full.reds, full.table, full.faces)
    {
        String::new()
    } else {
        format!("b{}r{}t{}f{}-", m.blacks, m.reds, m.table, m.faces)
    };
    dir.join(format!("{size}{id}-green{green}.bin"))
}

fn save(file: &Path, lv: &Level) -> std::io::Result<()> {
    if let Some(d) = file.parent() {
        std::fs::create_dir_all(d)?;
    }
    let tmp = temporary(file);
    let s = &lv.solved;
    let written = file::write(&tmp, &s.ix, s.green, &s.below, &lv.starts, &s.vals)
        .and_then(|()| std::fs::rename(&tmp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A name of its own for a level being written: unique per process and write, so that two
/// writers (threads, or nodes sharing the directory) never write into one file.
fn temporary(file: &Path) -> PathBuf {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}-{n}.tmp", std::process::id()));
    file.with_file_name(name)
}

/// Loads a level; the error says why the file cannot be used (missing, another format
/// version, model or level, short or damaged).
fn load(file: &Path, ix: &Index, green: u8, only_starts: bool) -> Result<Level, String> {
    let c = file::read(file, ix, green, only_starts)?;
    Ok(Level {
        solved: Solved {
            ix: ix.clone(),
            green,
            below: c.below,
            vals: c.table,
        },
        starts: c.starts,
    })
}

/// A level from the cache only (`None` if it is not there or not valid, or `green` is not one
/// of [`GREENS`]; [`open`] says why).
pub fn cached(dir: &Path, m: Model, green: u8) -> Option<Level> {
    open(dir, m, green).ok()
}

/// A level from the cache only, or why it cannot be used: an
/// [`std::io::ErrorKind::InvalidData`] error naming the reason (missing, written in another
/// format version, for another model or level, short or damaged), or `InvalidInput` for a
/// `green` that is not one of [`GREENS`].
pub fn open(dir: &Path, m: Model, green: u8) -> std::io::Result<Level> {
    check_green(green)?;
    let ix = Index::new(m);
    let file = path(dir, &m, green);
    load(&file, &ix, green, false).map_err(|why| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {why}", file.display()),
        )
    })
}

/// How much a missing level's solve may spend per round: see [`full::solve_level`].
#[derive(Debug, Clone)]
pub struct Effort {
    pub threads: usize,
    /// Policy-evaluation sweeps after each Bellman sweep, at most.
    pub policy_sweeps: u32,
    /// When set, a solve in progress gives up (an [`std::io::ErrorKind::Interrupted`]
    /// error) within a sweep: a server stopping does not wait for minutes of solving.
    pub stop: Option<Arc<AtomicBool>>,
    /// When set, called between sweeps, before `stop` is looked at: a server lets its more
    /// urgent work run there, and the solve goes on once it returns.
    pub pause: Option<Pause>,
}

/// What a solve calls between its sweeps ([`Effort::pause`]).
#[derive(Clone)]
pub struct Pause(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Pause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pause")
    }
}

impl Effort {
    /// `threads` threads and the model's default number of policy sweeps.
    pub fn new(m: &Model, threads: usize) -> Effort {
        Effort {
            threads,
            policy_sweeps: full::policy_sweeps(m),
            stop: None,
            pause: None,
        }
    }
}

/// Loads a level from the cache, solving it (and the levels below it that are missing) when
/// needed. `log` hears about progress. A `green` outside [`GREENS`] is an error.
pub fn level(
    dir: &Path,
    m: Model,
    green: u8,
    effort: Effort,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Level> {
    check_green(green)?;
    let ix = Index::new(m);
    let tol = if ix.total > 100_000 {
        full::TOL
    } else {
        full::TIGHT
    };
    let file = path(dir, &m, green);
    match load(&file, &ix, green, false) {
        Ok(l) => return Ok(l),
        Err(why) if file.exists() => log(&format!("{}: {why}: solved again", file.display())),
        Err(_) => {}
    }
    // The level below: its turn-start values (what `end` leads to) and its expected actions
    // (where this level's actions pass starts).
    let (below, actions_from) = if green == 1 {
        // `end` loses at level 1; stored as zeros so every file has the same layout.
        (vec![[0.0; 3]; ix.tables], None)
    } else {
        let file = path(dir, &m, green - 1);
        let l = match load(&file, &ix, green - 1, false) {
            Ok(l) => l,
            Err(_) => level(dir, m, green - 1, effort.clone(), log)?,
        };
        let a = full::expected_actions(&l.solved.vals, ix.classes());
        (l.starts, Some(a))
    };
    log(&format!("solving {} green {green}", file.display()));
    let go_on = || {
        if let Some(Pause(pause)) = &effort.pause {
            pause();
        }
        !effort
            .stop
            .as_deref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    };
    let (work, rep) = full::solve_level_until(
        &ix,
        green,
        (green > 1).then_some(&below[..]),
        actions_from.as_deref(),
        effort.threads,
        tol,
        effort.policy_sweeps,
        &go_on,
        |s| log(s),
    )
    .ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            format!("solving green {green} was stopped"),
        )
    })?;
    let starts = full::turn_starts(&ix, &work, green, effort.threads);
    let lv = Level {
        solved: Solved {
            ix: ix.clone(),
            green,
            below,
            vals: Table::of(&work, ix.classes()),
        },
        starts,
    };
    drop(work);
    save(&file, &lv)?;
    log(&format!(
        "level {green}: sweeps {:?}, policy sweeps {:?}, {:.0} s, file {} bytes",
        rep.sweeps,
        rep.policy_sweeps,
        rep.seconds,
        std::fs::metadata(&file)?.len()
    ));
    Ok(lv)
}

/// The turn-start values of a level (solving what is missing), without keeping the level.
pub fn starts(
    dir: &Path,
    m: Model,
    green: u8,
    effort: Effort,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Vec<Vals>> {
    check_green(green)?;
    let ix = Index::new(m);
    if let Ok(l) = load(&path(dir, &m, green), &ix, green, true) {
        return Ok(l.starts);
    }
    Ok(level(dir, m, green, effort, log)?.starts)
}

/// Exact mode at an engine position: every legal action, best first, from the level of the
/// position's variant and green counter under `dir` (solved and written first when missing).
/// Empty at once when the game is over: a finished game has no level to ask for.
pub fn hints(
    dir: &Path,
    game: &WhiteRabbit,
    effort: Effort,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Vec<crate::Hint>> {
    if game.is_over() {
        return Ok(Vec::new());
    }
    let lv = level(dir, Model::of(game.variant()), game.green(), effort, log)?;
    Ok(crate::full_hints(game, &lv.solved))
}

/// The expected values at the start of a turn at a level from a freshly rolled setup table
/// (the setup's table dice rolled, then the hand), given that level's turn-start values.
pub fn from_setup(ix: &Index, starts: &[Vals]) -> Vals {
    let mut out = [0.0; 3];
    for (table, p) in setup_tables(&ix.m) {
        let x = starts[ix.table_rank(&table)];
        for k in 0..3 {
            out[k] += p * x[k];
        }
    }
    out
}

/// Plays deals `0..n` of a run (the same deals as [`crate::deals::run`]) with the exact
/// policy: the best action by the tables. `levels[g - 1]` is green level `g`.
pub fn run_deals(levels: &[Level], variant: Variant, n: u64, seed: u64) -> crate::deals::Stats {
    crate::deals::run_by(variant, n, seed, |g, _| {
        let s = crate::model::from_game(g);
        let acts = levels[g.green() as usize - 1].solved.action_values(&s);
        crate::deals::engine_move(g, acts[0].0)
    })
}
