//! One level's file: a header that names the format, the model and the level, then one zstd
//! frame (with its content checksum) holding the turn-start values and the per-class columns.
//!
//! The columns are written so that they compress. Win probability and score are kept on a
//! grid of 2^-40 (at most 4.5e-13 from the solver's values: below the solver's own error and
//! far below the ranking's tolerance [`EPS`](crate::exact::EPS) = 1e-9; `f32`, 4e-7 for a
//! score, was too coarse) and stored as integers: `F`'s loss (2^40 − P) and the score's
//! shortfall from green × P, which are small where a turn is nearly sure, and `G` as its
//! difference from `F` (often none). Expected actions stay `f32` (compared last), `G`'s bits
//! XORed with `F`'s. Every column is split into byte planes (all the lowest bytes, then the
//! next…), so that the runs of equal high bytes are what zstd sees. The turn-start values are
//! plain `f64`: the next level is solved from them.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::exact::Vals;
use crate::full::{Index, Values, Work};
use crate::model::Model;

const MAGIC: &[u8; 8] = b"STOLIKWR";
/// Bump when the solver's equations or the layout change: a file of another version is
/// refused, with its version named, and solved again.
pub(super) const VERSION: u32 = 5;
/// The header's length.
const HEADER: usize = 40;
/// zstd's level: 3 compresses a classic level in about a second; higher levels took many
/// times longer for a few per cent (docs/white-rabbit.md, "The tables").
const ZSTD_LEVEL: i32 = 3;

/// The grid of win probabilities and scores: 2^40.
const GRID: f64 = (1u64 << 40) as f64;

/// A value on the grid that the files keep (what a level holds, solved or loaded alike).
#[inline]
fn on_grid(x: f64) -> f64 {
    (x * GRID).round() / GRID
}

/// A value on the grid as an integer number of steps (exact: the value is on the grid).
#[inline]
fn steps(x: f64) -> i64 {
    (x * GRID) as i64
}

fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

fn unzigzag(x: u64) -> i64 {
    (x >> 1) as i64 ^ -((x & 1) as i64)
}

/// One level's values in their stored form, one entry per symmetry class.
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
    /// The solver's working arrays in stored form (on the grid), as a file would give them
    /// back.
    pub(super) fn of(w: &Work, n: usize) -> Table {
        let mut t = Table::with_capacity(n);
        for r in 0..n {
            let (f, g) = (w.f(r), w.g(r));
            t.p.push(on_grid(f[0]));
            t.gp.push(on_grid(g[0]));
            t.s.push([on_grid(f[1]), on_grid(g[1])]);
            t.a.push([f[2] as f32, g[2] as f32]);
            t.best.push(w.best(r));
            t.ws_best.push(w.ws_best(r));
        }
        t
    }

    fn with_capacity(n: usize) -> Table {
        Table {
            p: Vec::with_capacity(n),
            gp: Vec::with_capacity(n),
            s: Vec::with_capacity(n),
            a: Vec::with_capacity(n),
            best: Vec::with_capacity(n),
            ws_best: Vec::with_capacity(n),
        }
    }

    /// No classes: a level read for its turn-start values only.
    pub(super) fn empty() -> Table {
        Table::with_capacity(0)
    }
}

/// What a file holds: the turn-start values one level down and at this level, and the
/// values (empty when only the starts were read).
pub(super) struct Contents {
    pub(super) below: Vec<Vals>,
    pub(super) starts: Vec<Vals>,
    pub(super) table: Table,
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

/// Writes a level to `path` (which the caller renames into place) and puts it on disk.
pub(super) fn write(
    path: &Path,
    ix: &Index,
    green: u8,
    below: &[Vals],
    starts: &[Vals],
    t: &Table,
) -> std::io::Result<()> {
    let mut w = BufWriter::new(File::create(path)?);
    w.write_all(&header(&ix.m, green, ix, VERSION))?;
    let mut z = zstd::stream::write::Encoder::new(w, ZSTD_LEVEL)?;
    z.include_checksum(true)?;
    for v in below.iter().chain(starts) {
        for x in v {
            z.write_all(&x.to_le_bytes())?;
        }
    }
    let g = green as i64;
    let p: Vec<i64> = t.p.iter().map(|&x| steps(x)).collect();
    let gp: Vec<i64> = t.gp.iter().map(|&x| steps(x)).collect();
    let shortfall = |p: i64, s: f64| g * p - steps(s);
    let columns: [Vec<u64>; 4] = [
        p.iter().map(|&x| zigzag((1 << 40) - x)).collect(),
        p.iter().zip(&gp).map(|(&f, &g)| zigzag(f - g)).collect(),
        (0..p.len())
            .map(|r| zigzag(shortfall(p[r], t.s[r][0])))
            .collect(),
        (0..p.len())
            .map(|r| zigzag(shortfall(gp[r], t.s[r][1]) - shortfall(p[r], t.s[r][0])))
            .collect(),
    ];
    for c in &columns {
        put_planes(&mut z, c, 8)?;
    }
    let af: Vec<u64> = t.a.iter().map(|a| a[0].to_bits() as u64).collect();
    let ag: Vec<u64> =
        t.a.iter()
            .map(|a| (a[0].to_bits() ^ a[1].to_bits()) as u64)
            .collect();
    put_planes(&mut z, &af, 4)?;
    put_planes(&mut z, &ag, 4)?;
    z.write_all(&t.best)?;
    let ws: Vec<u8> = t.best.iter().zip(&t.ws_best).map(|(b, w)| b ^ w).collect();
    z.write_all(&ws)?;
    let w = z.finish()?;
    // On disk before the rename: a crash must not leave a complete name on partial data.
    w.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Writes the lowest `planes` bytes of every value, plane by plane.
fn put_planes(w: &mut impl Write, values: &[u64], planes: usize) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(values.len());
    for k in 0..planes {
        buf.clear();
        buf.extend(values.iter().map(|&x| (x >> (8 * k)) as u8));
        w.write_all(&buf)?;
    }
    Ok(())
}

fn get_planes(r: &mut impl Read, n: usize, planes: usize) -> std::io::Result<Vec<u64>> {
    let mut out = vec![0u64; n];
    let mut buf = vec![0u8; n];
    for k in 0..planes {
        r.read_exact(&mut buf)?;
        for (x, &b) in out.iter_mut().zip(&buf) {
            *x |= (b as u64) << (8 * k);
        }
    }
    Ok(out)
}

fn f64s(r: &mut impl Read, n: usize) -> std::io::Result<Vec<Vals>> {
    let mut b = vec![0u8; 24 * n];
    r.read_exact(&mut b)?;
    Ok(b.chunks_exact(24)
        .map(|c| {
            std::array::from_fn(|k| f64::from_le_bytes(c[8 * k..8 * k + 8].try_into().expect("8")))
        })
        .collect())
}

/// Reads a level's file. An error says why it cannot be used: missing, of another format
/// version, model or level, short or damaged (zstd's checksum).
pub(super) fn read(
    path: &Path,
    ix: &Index,
    green: u8,
    only_starts: bool,
) -> Result<Contents, String> {
    let f = File::open(path).map_err(|e| e.to_string())?;
    let mut f = BufReader::new(f);
    let mut h = [0u8; HEADER];
    f.read_exact(&mut h)
        .map_err(|_| "shorter than its header".to_string())?;
    if &h[..8] != MAGIC {
        return Err("not a White Rabbit table".into());
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4"));
    if version != VERSION {
        return Err(format!(
            "written in format {version}; this build reads format {VERSION}"
        ));
    }
    if h[..] != header(&ix.m, green, ix, VERSION)[..] {
        return Err("written for another model or level".into());
    }
    let damaged = |e: std::io::Error| format!("damaged ({e})");
    let mut z = zstd::stream::read::Decoder::with_buffer(f)
        .map_err(damaged)?
        .single_frame();
    let below = f64s(&mut z, ix.tables).map_err(damaged)?;
    let starts = f64s(&mut z, ix.tables).map_err(damaged)?;
    if only_starts {
        return Ok(Contents {
            below,
            starts,
            table: Table::empty(),
        });
    }
    let n = ix.classes();
    let mut column = |planes| get_planes(&mut z, n, planes).map_err(damaged);
    let (loss, gap, short, gshort) = (column(8)?, column(8)?, column(8)?, column(8)?);
    let (af, ag) = (column(4)?, column(4)?);
    let mut best = vec![0u8; n];
    let mut ws = vec![0u8; n];
    z.read_exact(&mut best).map_err(damaged)?;
    z.read_exact(&mut ws).map_err(damaged)?;
    // The end of the frame, where zstd checks the content's checksum.
    let mut rest = [0u8; 1];
    match z.read(&mut rest) {
        Ok(0) => {}
        Ok(_) => return Err("longer than its level".into()),
        Err(e) => return Err(damaged(e)),
    }
    let g = green as i64;
    let mut t = Table::with_capacity(n);
    for r in 0..n {
        let p = (1 << 40) - unzigzag(loss[r]);
        let gp = p - unzigzag(gap[r]);
        let sf = g * p - unzigzag(short[r]);
        let sg = g * gp - (unzigzag(gshort[r]) + g * p - sf);
        t.p.push(p as f64 / GRID);
        t.gp.push(gp as f64 / GRID);
        t.s.push([sf as f64 / GRID, sg as f64 / GRID]);
        let a = af[r] as u32;
        t.a.push([f32::from_bits(a), f32::from_bits(a ^ ag[r] as u32)]);
        t.best.push(best[r]);
        t.ws_best.push(best[r] ^ ws[r]);
    }
    Ok(Contents {
        below,
        starts,
        table: t,
    })
}
