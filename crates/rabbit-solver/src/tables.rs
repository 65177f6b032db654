//! The full game's exact tables, solved level by level and cached under a directory
//! (`./data/white-rabbit/` by the command line), one file per variant and green level.
//!
//! A file holds the level's free-state values from [`crate::full`], one entry per symmetry
//! class: win probability and score as `f64` (win probability is within 1e-8 of 1 at high
//! levels, and both are compared to within [`crate::exact::EPS`] when actions are ranked, so
//! `f32` rounding would reorder actions of equal value and send the exact policy round in
//! circles), actions as `f32` (compared last, relative error below 1e-7), the best action
//! and the best by win and score alone ([`Values::ws_best`]), and the turn-start values of
//! the level below (what `end` leads to) and of this level (what the next level needs), all
//! in `f64`. A header (magic, format version, model, level, sizes)
//! and a trailing checksum make a stale, foreign or truncated file be rejected and recomputed.
//!
//! A level is written under a temporary name of its own (`classic-green3.bin.1234-0.tmp`)
//! and renamed into place once complete, so a reader — another thread, or another node
//! sharing the directory — never opens a half-written file; only the final name is read.
//!
//! Only green levels 1–6 exist ([`GREENS`]): asking for any other is an error, never a solve.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::exact::Vals;
use crate::full::{self, Index, Solved, Values, Work};
use crate::model::{Model, setup_tables};
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

const MAGIC: &[u8; 8] = b"STOLIKWR";
/// Bump when the solver's equations or the layout change, so old files are recomputed.
const VERSION: u32 = 4;
/// Format 3 (no `ws_best`) is still read, with `ws_best` taken as `best`: its solver used
/// one best action for every pass, so that is what its values mean; on the reduced models
/// both solvers give the same values to every printed digit (docs/white-rabbit.md), and the
/// no-wrap levels 1–5 cost two hours to solve again.
const OLD_VERSION: u32 = 3;

/// One level's values in their compact stored form.
pub struct Table {
    p: Vec<f64>,
    gp: Vec<f64>,
    /// Score of `F` and of `G`.
    s: Vec<[f64; 2]>,
    /// Actions of `F` and of `G`.
    a: Vec<[f32; 2]>,
    best: Vec<u8>,
    ws_best: Vec<u8>,
}

impl Values for Table {
    #[inline]
    fn f(&self, r: usize) -> Vals {
        [self.p[r], self.s[r][0], self.a[r][0] as f64]
    }
    #[inline]
    fn g(&self, r: usize) -> Vals {
        [self.gp[r], self.s[r][1], self.a[r][1] as f64]
    }
    #[inline]
    fn best(&self, r: usize) -> u8 {
        self.best[r]
    }
    #[inline]
    fn ws_best(&self, r: usize) -> u8 {
        self.ws_best[r]
    }
}

impl Table {
    fn of(w: &Work, n: usize) -> Table {
        let mut t = Table {
            p: Vec::with_capacity(n),
            gp: Vec::with_capacity(n),
            s: Vec::with_capacity(n),
            a: Vec::with_capacity(n),
            best: Vec::with_capacity(n),
            ws_best: Vec::with_capacity(n),
        };
        for r in 0..n {
            let (f, g) = (w.f(r), w.g(r));
            t.p.push(f[0]);
            t.gp.push(g[0]);
            t.s.push([f[1], g[1]]);
            t.a.push([f[2] as f32, g[2] as f32]);
            t.best.push(w.best(r));
            t.ws_best.push(w.ws_best(r));
        }
        t
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

/// Word-wise FNV-style checksum (fast enough for a gigabyte).
struct Sum(u64);
impl Sum {
    fn add(&mut self, bytes: &[u8]) {
        for w in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..w.len()].copy_from_slice(w);
            self.0 = (self.0 ^ u64::from_le_bytes(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

struct Out<W: Write> {
    w: W,
    sum: Sum,
    buf: Vec<u8>,
}

impl<W: Write> Out<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 1 << 20 {
            self.flush()?;
        }
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        // Chunks are whole multiples of 8 except possibly the last one, so the sum is the same
        // however the payload is cut.
        let cut = self.buf.len() / 8 * 8;
        self.sum.add(&self.buf[..cut]);
        self.w.write_all(&self.buf[..cut])?;
        self.buf.drain(..cut);
        Ok(())
    }
}

fn header(m: &Model, green: u8, ix: &Index, version: u32) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&version.to_le_bytes());
    h.extend_from_slice(&[0; 4]);
    h.extend_from_slice(&[
        m.blacks,
        m.reds,
        m.table,
        m.faces,
        m.wrap as u8,
        green,
        0,
        0,
    ]);
    h.extend_from_slice(&(ix.classes() as u64).to_le_bytes());
    h.extend_from_slice(&(ix.tables as u64).to_le_bytes());
    h
}

fn save(file: &Path, lv: &Level) -> std::io::Result<()> {
    save_as(file, lv, VERSION)
}

/// A level in the old format (without `ws_best`), for the test that it is still read.
#[cfg(test)]
pub(crate) fn save_old(file: &Path, lv: &Level) -> std::io::Result<()> {
    save_as(file, lv, OLD_VERSION)
}

fn save_as(file: &Path, lv: &Level, version: u32) -> std::io::Result<()> {
    if let Some(d) = file.parent() {
        std::fs::create_dir_all(d)?;
    }
    let tmp = temporary(file);
    let written = write_level(&tmp, lv, version).and_then(|()| std::fs::rename(&tmp, file));
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

fn write_level(tmp: &Path, lv: &Level, version: u32) -> std::io::Result<()> {
    let s = &lv.solved;
    let mut o = Out {
        w: BufWriter::new(File::create(tmp)?),
        sum: Sum(0xcbf2_9ce4_8422_2325),
        buf: Vec::new(),
    };
    o.put(&header(&s.ix.m, s.green, &s.ix, version))?;
    for v in s.below.iter().chain(&lv.starts) {
        for x in v {
            o.put(&x.to_le_bytes())?;
        }
    }
    for x in &s.vals.p {
        o.put(&x.to_le_bytes())?;
    }
    for x in &s.vals.gp {
        o.put(&x.to_le_bytes())?;
    }
    for v in &s.vals.s {
        for x in v {
            o.put(&x.to_le_bytes())?;
        }
    }
    for v in &s.vals.a {
        for x in v {
            o.put(&x.to_le_bytes())?;
        }
    }
    o.put(&s.vals.best)?;
    o.put(&[0u8; 8][..(8 - o.buf.len() % 8) % 8])?;
    if version == VERSION {
        o.put(&s.vals.ws_best)?;
        o.put(&[0u8; 8][..(8 - o.buf.len() % 8) % 8])?;
    }
    o.flush()?;
    let sum = o.sum.0;
    o.w.write_all(&sum.to_le_bytes())?;
    // On disk before the rename: a crash must not leave a complete name on partial data.
    o.w.into_inner().map_err(|e| e.into_error())?.sync_all()
}

struct In<R: Read> {
    r: R,
    sum: Sum,
}

impl<R: Read> In<R> {
    fn take(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut b = vec![0u8; n];
        self.r.read_exact(&mut b)?;
        Ok(b)
    }
    /// Reads `n` items of `W` bytes each, summing them (`n * W` is a multiple of 8 here or
    /// the final chunk).
    fn items<const W: usize, T>(
        &mut self,
        n: usize,
        f: impl Fn([u8; W]) -> T,
    ) -> std::io::Result<Vec<T>> {
        let mut out = Vec::with_capacity(n);
        let mut left = n;
        while left > 0 {
            let k = left.min(1 << 17);
            let b = self.take(k * W)?;
            self.sum.add(&b);
            out.extend(
                b.chunks_exact(W)
                    .map(|c| f(c.try_into().expect("chunk size"))),
            );
            left -= k;
        }
        Ok(out)
    }
}

/// Loads a level, or `None` when the file is missing, foreign, stale or damaged.
fn load(file: &Path, ix: &Index, green: u8, only_starts: bool) -> Option<Level> {
    let f = File::open(file).ok()?;
    let n = ix.classes();
    let len = f.metadata().ok()?.len();
    let mut i = In {
        r: BufReader::with_capacity(1 << 20, f),
        sum: Sum(0xcbf2_9ce4_8422_2325),
    };
    let h = i.take(40).ok()?;
    let version = [VERSION, OLD_VERSION]
        .into_iter()
        .find(|&v| h == header(&ix.m, green, ix, v))?;
    let per_class = if version == VERSION { 42 } else { 41 };
    let expect_len = 40 + 48 * ix.tables as u64 + per_class * n as u64;
    if len < expect_len.div_ceil(8) * 8 + 8 {
        return None;
    }
    i.sum.add(&h);
    let f64s = |b: [u8; 8]| f64::from_le_bytes(b);
    let tri =
        |v: Vec<f64>| -> Vec<Vals> { v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect() };
    let below = tri(i.items(3 * ix.tables, f64s).ok()?);
    let starts = tri(i.items(3 * ix.tables, f64s).ok()?);
    let empty = Table {
        p: Vec::new(),
        gp: Vec::new(),
        s: Vec::new(),
        a: Vec::new(),
        best: Vec::new(),
        ws_best: Vec::new(),
    };
    let vals = if only_starts {
        empty
    } else {
        let p = i.items(n, f64s).ok()?;
        let gp = i.items(n, f64s).ok()?;
        let sc = i
            .items(n, |b: [u8; 16]| {
                let x = |k: usize| f64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8"));
                [x(0), x(1)]
            })
            .ok()?;
        let a = i
            .items(n, |b: [u8; 8]| {
                let x = |k: usize| f32::from_le_bytes(b[4 * k..4 * k + 4].try_into().expect("4"));
                [x(0), x(1)]
            })
            .ok()?;
        let mut bytes = || -> Option<Vec<u8>> {
            let mut b = i.take(n).ok()?;
            let pad = i.take((8 - b.len() % 8) % 8).ok()?;
            b.extend_from_slice(&pad);
            i.sum.add(&b);
            b.truncate(n);
            Some(b)
        };
        let best = bytes()?;
        let ws_best = if version == VERSION {
            bytes()?
        } else {
            best.clone()
        };
        let sum = u64::from_le_bytes(i.take(8).ok()?.try_into().ok()?);
        if sum != i.sum.0 {
            return None;
        }
        Table {
            p,
            gp,
            s: sc,
            a,
            best,
            ws_best,
        }
    };
    Some(Level {
        solved: Solved {
            ix: ix.clone(),
            green,
            below,
            vals,
        },
        starts,
    })
}

/// The turn-start values one level below `green`, from the cache.
fn below_of(dir: &Path, ix: &Index, green: u8) -> Option<Vec<Vals>> {
    if green == 1 {
        // `end` loses at level 1; stored as zeros so every file has the same layout.
        return Some(vec![[0.0; 3]; ix.tables]);
    }
    load(&path(dir, &ix.m, green - 1), ix, green - 1, true).map(|l| l.starts)
}

/// A level from the cache only (`None` if it is not there or not valid, or `green` is not one
/// of [`GREENS`]).
pub fn cached(dir: &Path, m: Model, green: u8) -> Option<Level> {
    check_green(green).ok()?;
    let ix = Index::new(m);
    load(&path(dir, &m, green), &ix, green, false)
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
}

impl Effort {
    /// `threads` threads and the model's default number of policy sweeps.
    pub fn new(m: &Model, threads: usize) -> Effort {
        Effort {
            threads,
            policy_sweeps: full::policy_sweeps(m),
            stop: None,
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
    if let Some(l) = load(&file, &ix, green, false) {
        return Ok(l);
    }
    let below = match below_of(dir, &ix, green) {
        Some(b) => b,
        // (`below_of` answers level 1 itself, so this is level 2 or above.)
        None => level(dir, m, green - 1, effort.clone(), log)?.starts,
    };
    log(&format!("solving {} green {green}", file.display()));
    let never = AtomicBool::new(false);
    let (work, rep) = full::solve_level_until(
        &ix,
        green,
        (green > 1).then_some(&below[..]),
        effort.threads,
        tol,
        effort.policy_sweeps,
        effort.stop.as_deref().unwrap_or(&never),
        |s| log(s),
    )
    .ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            format!("solving green {green} was stopped"),
        )
    })?;
    let starts = full::turn_starts(&ix, &work, green);
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
    if let Some(l) = load(&path(dir, &m, green), &ix, green, true) {
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
