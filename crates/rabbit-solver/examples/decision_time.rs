//! Times exact-mode decisions (every action's values at a state) on cached tables:
//! `decision_time classic|no-wrap|B,R,T,F GREEN [N]` (the full game in a variant, or a reduced
//! model with the wrap; the level must be in `data/white-rabbit/`).
use rabbit_solver::model::{Model, State};
use rabbit_solver::tables;
use rabbit_solver::white_rabbit::Variant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m = match args[1].as_str() {
        "classic" => Model::of(Variant::Classic),
        "no-wrap" => Model::of(Variant::NoWrap),
        spec => {
            let n: Vec<u8> = spec
                .split(',')
                .map(|x| x.parse().expect("B,R,T,F"))
                .collect();
            Model {
                blacks: n[0],
                reds: n[1],
                table: n[2],
                faces: n[3],
                wrap: true,
            }
        }
    };
    let green: u8 = args[2].parse().expect("green");
    let count: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let dir = std::path::Path::new("data/white-rabbit");
    let t = std::time::Instant::now();
    let lv = tables::cached(dir, m, green).expect("cached level");
    eprintln!("loaded in {:.2} s", t.elapsed().as_secs_f64());
    let mut x: u64 = 12345;
    let states: Vec<State> = (0..count)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            State::free(lv.solved.ix.config((x >> 20) as usize % lv.solved.ix.total))
        })
        .collect();
    let t = std::time::Instant::now();
    let mut acts = 0usize;
    for s in &states {
        acts += lv.solved.action_values(s).len();
    }
    let us = t.elapsed().as_secs_f64() * 1e6 / count as f64;
    println!(
        "{count} decisions, {us:.2} us each, {:.1} actions each",
        acts as f64 / count as f64
    );
    // Each decision on its own: median and 99th percentile.
    let mut times: Vec<f64> = states
        .iter()
        .take(count.min(20_000))
        .map(|s| {
            let t = std::time::Instant::now();
            std::hint::black_box(lv.solved.action_values(s));
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!("median {:.2} us, p99 {:.2} us", q(0.5), q(0.99));
}
