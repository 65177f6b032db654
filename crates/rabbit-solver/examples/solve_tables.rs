//! Solves (or loads) the full game's exact tables of one variant, levels 1..=N, into
//! `data/white-rabbit/`, logging every sweep: `solve_tables [classic|no-wrap] [N] [B,R,T,F]`
//! (the last argument: a reduced model instead).
use rabbit_solver::model::Model;
use rabbit_solver::tables;
use rabbit_solver::white_rabbit::Variant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = match args.get(1).map(|s| s.as_str()) {
        Some("no-wrap") => Variant::NoWrap,
        _ => Variant::Classic,
    };
    let top: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut m = Model::of(variant);
    if let Some(spec) = args.get(3) {
        let n: Vec<u8> = spec
            .split(',')
            .map(|x| x.parse().expect("B,R,T,F"))
            .collect();
        (m.blacks, m.reds, m.table, m.faces) = (n[0], n[1], n[2], n[3]);
    }
    let dir = std::path::Path::new("data/white-rabbit");
    for g in 1..=top {
        let t = std::time::Instant::now();
        tables::level(dir, m, g, tables::Effort::new(&m, 2), &mut |s| {
            eprintln!("{s}")
        })
        .expect("tables");
        eprintln!("level {g} ready in {:.1} s", t.elapsed().as_secs_f64());
    }
}
