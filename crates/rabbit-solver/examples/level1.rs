//! Profiles the flat solver on the full game, level 1 (classic).
use rabbit_solver::full;
use rabbit_solver::model::Model;
use rabbit_solver::white_rabbit::Variant;

fn main() {
    let ix = full::Index::new(Model::of(Variant::Classic));
    let t = std::time::Instant::now();
    let (_w, rep) = full::solve_level(&ix, 1, None, 2, |s| eprintln!("{s}"));
    eprintln!("{rep:?} {:.1}", t.elapsed().as_secs_f64());
}
