//! The one order of a solo game's actions, which every hint list and every review of White
//! Rabbit uses, and the budget of hint mode's estimates that both run under.

/// What every hint list and every review is sorted by, in this order: win probability and
/// expected score higher first, expected actions fewer first ([`order`]). Hints and reviews
/// use this one order, exact values and hint mode's estimates alike, so that the action
/// called best never shows worse numbers than another line.
pub const RANKING: [&str; 3] = ["win", "score", "actions"];

/// The one ranking of actions ([`RANKING`]): `Less` when `a` is better than `b`. Each value
/// is compared on a grid of [`rabbit_solver::exact::EPS`] (the solver's "equally good"; a
/// grid, unlike a tolerance, is a total order, so a sort by it is consistent).
pub fn order(a: &rabbit_solver::Hint, b: &rabbit_solver::Hint) -> std::cmp::Ordering {
    let grid = |x: f64| (x / rabbit_solver::exact::EPS).round();
    grid(b.win)
        .total_cmp(&grid(a.win))
        .then(grid(b.score).total_cmp(&grid(a.score)))
        .then(grid(a.actions).total_cmp(&grid(b.actions)))
}

/// Hint mode's budget for hints and reviews alike: the default number of rollouts per action
/// (hint mode also stops at a fixed number of simulated actions, which bounds the work) and no
/// deadline that could cut them short (an hour stands for none). Its rollouts are seeded from
/// the position, so a position always gets the same estimates, however busy the machine: a
/// hint and the review of the same decision agree.
pub const HINT_BUDGET: rabbit_solver::Budget = rabbit_solver::Budget {
    rollouts: 32,
    deadline: std::time::Duration::from_secs(3600),
};

/// Puts a list of hints in the one order ([`order`]), best first. Exact values are sorted.
/// Hint mode's estimates keep hint mode's own order, in which its policy picks, among the
/// actions whose estimates are within two standard errors of the best estimate left, the one
/// it judges best (sorting the noisy estimates instead plays badly: docs/white-rabbit.md, "The
/// server"); each action then shows the best estimate of itself and the actions after it,
/// which is the estimate its pick was within the error of. So the list reads in the one order
/// either way, and the action shown first never has worse numbers than another.
pub fn present(hints: &mut [rabbit_solver::Hint], exact: bool) {
    if exact {
        rank_hints(hints);
        return;
    }
    let mut best: Option<(f64, f64, f64)> = None;
    for h in hints.iter_mut().rev() {
        let shown = match best {
            Some((win, score, actions)) => rabbit_solver::Hint {
                action: String::new(),
                win,
                score,
                actions,
            },
            None => h.clone(),
        };
        if order(h, &shown) == std::cmp::Ordering::Greater {
            (h.win, h.score, h.actions) = (shown.win, shown.score, shown.actions);
        }
        best = Some((h.win, h.score, h.actions));
    }
}

/// Sorts hints by [`order`], best first. Ties keep the solver's order (a stable sort).
pub fn rank_hints(hints: &mut [rabbit_solver::Hint]) {
    hints.sort_by(order);
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) fn hint(action: &str, win: f64, score: f64, actions: f64) -> rabbit_solver::Hint {
        rabbit_solver::Hint {
            action: action.into(),
            win,
            score,
            actions,
        }
    }

    #[test]
    fn one_order_ranks_win_then_score_then_fewer_actions() {
        let mut hints = vec![
            hint("slow", 1.0, 5.91, 188.6),
            hint("fast", 1.0, 5.91, 142.0),
            hint("unsure", 0.99, 6.0, 2.0),
            hint("rich", 1.0, 5.92, 300.0),
        ];
        rank_hints(&mut hints);
        let names: Vec<&str> = hints.iter().map(|h| h.action.as_str()).collect();
        assert_eq!(names, ["rich", "fast", "slow", "unsure"]);
        // Within the solver's 1e-9 values are equal: the next value decides.
        let (a, b) = (hint("a", 0.5, 3.0, 9.0), hint("b", 0.5 + 1e-12, 3.0, 8.0));
        assert_eq!(order(&b, &a), std::cmp::Ordering::Less);
    }

    /// Estimates keep hint mode's order, and each shows the best estimate of itself and the
    /// actions after it: the list reads in the one order, its first line best.
    #[test]
    fn estimates_keep_the_policys_order_and_read_in_the_one_order() {
        let mut hints = vec![
            hint("picked", 0.98, 5.9, 188.6),
            hint("close", 1.0, 5.91, 142.0),
            hint("end", 0.9, 4.0, 50.0),
            hint("swap", 0.95, 4.5, 60.0),
        ];
        present(&mut hints, false);
        let names: Vec<&str> = hints.iter().map(|h| h.action.as_str()).collect();
        assert_eq!(
            names,
            ["picked", "close", "end", "swap"],
            "the policy's order"
        );
        assert_eq!(
            (hints[0].win, hints[0].score, hints[0].actions),
            (1.0, 5.91, 142.0)
        );
        assert_eq!(
            (hints[2].win, hints[2].score),
            (0.95, 4.5),
            "the better one after it"
        );
        assert!(
            hints
                .windows(2)
                .all(|w| order(&w[0], &w[1]) != std::cmp::Ordering::Greater)
        );
        let mut exact = vec![hint("a", 0.5, 1.0, 3.0), hint("b", 0.6, 1.0, 3.0)];
        present(&mut exact, true);
        assert_eq!(exact[0].action, "b", "exact values are sorted");
        assert_eq!(exact[1].win, 0.5, "and keep their own values");
    }
}
