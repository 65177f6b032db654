//! Seeded classic deals played by the first hint of hint mode: `sorted_hints N [MODE]`.
//!
//! - `server` (the default): what a player following the site's first hint plays. Hint mode's
//!   own order (`server::solo::ranking::present` keeps it for estimates), with the server's fixed
//!   budget (32 rollouts an action, no deadline: `server::solo::ranking::HINT_BUDGET`), and an action
//!   that leads back to a position already seen in this turn comes last
//!   (`server::solo::hints::with_repeats_last`).
//! - `sorted`: the estimates sorted strictly by win, score and actions (`server::solo::ranking::order`)
//!   with the guard against positions seen this turn: what sorting the estimates would play.
//! - `plain`: hint mode's own order with the default budget, without the guard.
//!
//! Turns are cut at 1,000 actions (`deals::play_by`). See docs/white-rabbit.md, "The server".
use std::collections::HashSet;

use rabbit_solver::game::Game;
use rabbit_solver::white_rabbit::Variant;
use rabbit_solver::{Budget, Hint, deals};

fn rank(h: &mut [Hint]) {
    let grid = |x: f64| (x / rabbit_solver::exact::EPS).round();
    h.sort_by(|a, b| {
        grid(b.win)
            .total_cmp(&grid(a.win))
            .then(grid(b.score).total_cmp(&grid(a.score)))
            .then(grid(a.actions).total_cmp(&grid(b.actions)))
    });
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let mode = std::env::args().nth(2).unwrap_or_else(|| "server".into());
    let budget = Budget {
        rollouts: 32,
        deadline: std::time::Duration::from_secs(3600),
    };
    let t = std::time::Instant::now();
    let mut seen: HashSet<String> = HashSet::new();
    let s = deals::run_by(Variant::Classic, n, 1, |g, in_turn| {
        let mut h = match mode.as_str() {
            "plain" => rabbit_solver::hints(g),
            _ => rabbit_solver::hints_with(g, budget),
        };
        if mode == "sorted" {
            rank(&mut h);
        }
        if mode != "plain" {
            // A new turn (of this deal or the next) forgets the positions seen.
            if in_turn == 0 {
                seen.clear();
            }
            seen.insert(g.position());
            let fresh = h.iter().find(|x| {
                let mut next = g.clone();
                next.play_text(&x.action).is_ok() && !seen.contains(&next.position())
            });
            return g.parse_move(&fresh.unwrap_or(&h[0]).action).unwrap();
        }
        g.parse_move(&h[0].action).unwrap()
    });
    println!(
        "mode={mode} deals {n} win-rate {:.3} mean-score {:.3} mean-actions {:.1} ({:.0} s)",
        s.win_rate(),
        s.mean_score(),
        s.mean_actions(),
        t.elapsed().as_secs_f64()
    );
}
