//! Seeded classic deals played by the first hint of hint mode, its list sorted strictly by
//! win, score and actions (the order the server gives exact hints: `server::rabbit::rank_hints`)
//! or, with `plain`, in hint mode's own order: `sorted_hints N [plain]`. Why the server does
//! not sort hint mode's estimates (docs/white-rabbit.md, "The server").
use rabbit_solver::deals;
use rabbit_solver::game::Game;
use rabbit_solver::white_rabbit::Variant;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let sorted = std::env::args().nth(2).as_deref() != Some("plain");
    let t = std::time::Instant::now();
    let s = deals::run_by(Variant::Classic, n, 1, |g, _| {
        let mut h = rabbit_solver::hints(g);
        if sorted {
            let grid = |x: f64| (x / rabbit_solver::exact::EPS).round();
            h.sort_by(|a, b| {
                grid(b.win)
                    .total_cmp(&grid(a.win))
                    .then(grid(b.score).total_cmp(&grid(a.score)))
                    .then(a.actions.total_cmp(&b.actions))
            });
        }
        g.parse_move(&h[0].action).unwrap()
    });
    println!(
        "sorted={sorted} deals {n} win-rate {:.3} mean-score {:.3} mean-actions {:.1} ({:.0} s)",
        s.win_rate(),
        s.mean_score(),
        s.mean_actions(),
        t.elapsed().as_secs_f64()
    );
}
