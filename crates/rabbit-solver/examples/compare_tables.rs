//! Compares the cached tables of two directories class by class — the largest differences of
//! win probability, score and expected actions over every `F` and `G`, and how many classes
//! name another best action — and the turn-start values from the setup:
//! `compare_tables DIR_A DIR_B [classic|no-wrap] [LEVELS] [B,R,T,F]` (the last: a reduced
//! model's files). `DIR_A` may hold files of format 4 (an earlier build's: `f64` values, 42
//! bytes a class), read here for the comparison.
use rabbit_solver::full::Values;
use rabbit_solver::model::Model;
use rabbit_solver::tables;
use rabbit_solver::white_rabbit::Variant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (a, b) = (
        std::path::Path::new(&args[1]),
        std::path::Path::new(&args[2]),
    );
    let variant = match args.get(3).map(|s| s.as_str()) {
        Some("no-wrap") => Variant::NoWrap,
        _ => Variant::Classic,
    };
    let top: u8 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(6);
    let mut m = Model::of(variant);
    if let Some(spec) = args.get(5) {
        let n: Vec<u8> = spec
            .split(',')
            .map(|x| x.parse().expect("B,R,T,F"))
            .collect();
        (m.blacks, m.reds, m.table, m.faces) = (n[0], n[1], n[2], n[3]);
    }
    for g in 1..=top {
        let lb = match tables::open(b, m, g) {
            Ok(lb) => lb,
            Err(e) => {
                println!("green {g}: {e}");
                continue;
            }
        };
        let (va, sa): (Box<dyn Values>, _) = match tables::open(a, m, g) {
            Ok(la) => {
                let sa = tables::from_setup(&la.solved.ix, &la.starts);
                (Box::new(la.solved.vals), sa)
            }
            Err(_) => match Format4::read(&tables::path(a, &m, g)) {
                Some((v, starts)) => (Box::new(v), tables::from_setup(&lb.solved.ix, &starts)),
                None => {
                    println!("green {g}: nothing to compare in {}", a.display());
                    continue;
                }
            },
        };
        let vb = &lb.solved.vals;
        let mut most = [0.0f64; 3];
        let (mut best, mut ws_best) = (0, 0);
        for r in 0..lb.solved.ix.classes() {
            for (x, y) in [(va.f(r), vb.f(r)), (va.g(r), vb.g(r))] {
                for k in 0..3 {
                    if x[k] != y[k] {
                        most[k] = most[k].max((x[k] - y[k]).abs());
                    }
                }
            }
            best += (va.best(r) != vb.best(r)) as usize;
            ws_best += (va.ws_best(r) != vb.ws_best(r)) as usize;
        }
        let sb = tables::from_setup(&lb.solved.ix, &lb.starts);
        println!(
            "green {g}: largest difference win {:.3e} score {:.3e} actions {:.3e}; \
             another best action in {best} classes ({ws_best} by win and score); \
             setup {sa:?} against {sb:?}",
            most[0], most[1], most[2]
        );
    }
}

/// A level in format 4: header (40 bytes), below and starts (`f64` × 3 per table), then per
/// class `p`, `gp`, scores of `F` and `G` (`f64`), actions of `F` and `G` (`f32`), `best`
/// and `ws_best` (each padded to 8 bytes), and a checksum (not checked here).
struct Format4 {
    p: Vec<f64>,
    gp: Vec<f64>,
    s: Vec<f64>,
    a: Vec<f32>,
    best: Vec<u8>,
    ws_best: Vec<u8>,
}

impl Format4 {
    fn read(path: &std::path::Path) -> Option<(Format4, Vec<[f64; 3]>)> {
        let b = std::fs::read(path).ok()?;
        if b.get(8..12)? != 4u32.to_le_bytes() {
            return None;
        }
        let n = u64::from_le_bytes(b[24..32].try_into().ok()?) as usize;
        let tables = u64::from_le_bytes(b[32..40].try_into().ok()?) as usize;
        let f64s = |at: usize, k: usize| -> Vec<f64> {
            (0..k)
                .map(|i| f64::from_le_bytes(b[at + 8 * i..at + 8 * i + 8].try_into().unwrap()))
                .collect()
        };
        let starts = f64s(40 + 24 * tables, 3 * tables)
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        let mut at = 40 + 48 * tables;
        let p = f64s(at, n);
        at += 8 * n;
        let gp = f64s(at, n);
        at += 8 * n;
        let s = f64s(at, 2 * n);
        at += 16 * n;
        let a = (0..2 * n)
            .map(|i| f32::from_le_bytes(b[at + 4 * i..at + 4 * i + 4].try_into().unwrap()))
            .collect();
        at += 8 * n;
        let best = b[at..at + n].to_vec();
        at += n.div_ceil(8) * 8;
        let ws_best = b[at..at + n].to_vec();
        Some((
            Format4 {
                p,
                gp,
                s,
                a,
                best,
                ws_best,
            },
            starts,
        ))
    }
}

impl Values for Format4 {
    fn f(&self, r: usize) -> [f64; 3] {
        [self.p[r], self.s[2 * r], self.a[2 * r] as f64]
    }
    fn g(&self, r: usize) -> [f64; 3] {
        [self.gp[r], self.s[2 * r + 1], self.a[2 * r + 1] as f64]
    }
    fn best(&self, r: usize) -> u8 {
        self.best[r]
    }
    fn ws_best(&self, r: usize) -> u8 {
        self.ws_best[r]
    }
}
