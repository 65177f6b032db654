//! The White Rabbit extras, as `routes/rabbit.rs` serves them: the order of the solver's
//! hints, the review of a finished game decision by decision, and the daily deal's seeds and
//! days.
//!
//! The daily deal is one seed per UTC day for everyone: an HMAC of the day under a key that
//! never leaves the server ([`daily_seed`]), so no finished game of one day tells anything
//! about another day's dice. Each player gets one attempt on the day itself: asking again
//! returns the same table, finished or not, so a bad start cannot be thrown away. A won
//! attempt is ranked by score, then by fewest actions. Daily tables are private and their seed
//! stays hidden until the day is over. A past day's deal can be replayed as often as one likes
//! for practice: an ordinary private table on that deal, outside the leaderboard. Days to come,
//! and days before the first deal, cannot be played.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::{
    Date, OffsetDateTime,
    macros::{date, format_description},
};

use crate::error::{ApiError, ErrorCode};
use rabbit_solver::game::Game;
use rabbit_solver::white_rabbit::WhiteRabbit;

/// The variant of the daily deal: one competition, on the default rules.
pub const DAILY_VARIANT: &str = "classic";

/// The first day with a daily deal: earlier days are refused rather than handed out as
/// endless extra deals.
const FIRST_DAY: Date = date!(2025 - 01 - 01);

/// The seed of `day`'s daily deal: the first eight bytes of HMAC-SHA256(key, day). Without the
/// key, knowing the seeds of any number of other days predicts nothing about this one.
pub fn daily_seed(key: &[u8], day: &str) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"stolik/white-rabbit/daily/");
    mac.update(day.trim().as_bytes());
    let digest = mac.finalize().into_bytes();
    u64::from_le_bytes(digest[..8].try_into().expect("SHA-256 has 32 bytes"))
}

/// Today, in UTC: the day whose deal is the current daily deal.
pub fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// `YYYY-MM-DD` (the `Display` of `time::Date`).
pub fn day_text(day: Date) -> String {
    day.to_string()
}

/// Reads a day a client names; it must be a real date from [`FIRST_DAY`] to today.
/// Whether `daily` (a game's daily-deal day, if it is one) is a day still being played: its
/// seed and its review are withheld until the day is over, since everyone plays the same dice.
pub fn daily_still_open(daily: Option<&str>) -> bool {
    daily.is_some_and(|day| day >= day_text(today()).as_str())
}

///
/// Text not of the form `YYYY-MM-DD` is `bad_request`; a date of that form with no deal (not
/// a day of the calendar, not out yet, or before the first) is `not_found`.
pub fn parse_day(text: &str) -> Result<Date, ApiError> {
    let well_formed = text.len() == 10
        && text.char_indices().all(|(i, c)| match i {
            4 | 7 => c == '-',
            _ => c.is_ascii_digit(),
        });
    if !well_formed {
        return Err(ApiError::bad_request(format!(
            "{text:?} is not a day (YYYY-MM-DD)"
        )));
    }
    let day = Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map_err(|_| ApiError::new(ErrorCode::NotFound, format!("{text} is not a day")))?;
    if day > today() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("the deal of {day} is not out yet"),
        ));
    }
    if day < FIRST_DAY {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("the first daily deal is the one of {FIRST_DAY}"),
        ));
    }
    Ok(day)
}

/// The day a client names, or today.
pub fn chosen_day(text: Option<&str>) -> Result<Date, ApiError> {
    text.map_or_else(|| Ok(today()), parse_day)
}

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

/// Marks the actions that lead back to a position already seen this turn (`seen`) and puts
/// them last, keeping the order within each part. Estimates can rank a loop of swaps each
/// better than the next, and exact values can tie around one: a player who follows the first
/// hint must not go round it for ever.
pub fn with_repeats_last(
    hints: Vec<rabbit_solver::Hint>,
    game: &WhiteRabbit,
    seen: &std::collections::HashSet<String>,
) -> Vec<(rabbit_solver::Hint, bool)> {
    let mut marked: Vec<_> = hints
        .into_iter()
        .map(|hint| {
            let mut next = game.clone();
            let repeats = next.play_text(&hint.action).is_ok() && seen.contains(&next.position());
            (hint, repeats)
        })
        .collect();
    // A stable sort: within each part the ranking stays.
    marked.sort_by_key(|&(_, repeats)| repeats);
    marked
}

/// One decision of a finished game, judged: what was played, what was best (the first by
/// [`order`]), and what the choice cost (best minus taken in win
/// probability and score, taken minus best in expected actions; all 0 for an optimal choice).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Decision {
    pub ply: u32,
    pub green: u8,
    /// The position the decision was made in.
    pub position: String,
    #[schema(value_type = Object)]
    pub taken: rabbit_solver::Hint,
    #[schema(value_type = Object)]
    pub best: rabbit_solver::Hint,
    /// As good as the best by the ranking (to the solver's 1e-9 in each value).
    pub optimal: bool,
    pub loss: Loss,
    /// The values are exact (the level's tables were loaded), not hint mode's estimates.
    pub exact: bool,
    /// The only legal action: no choice was made.
    pub forced: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct Loss {
    pub win: f64,
    pub score: f64,
    pub actions: f64,
}

/// Replays a finished game decision by decision. `values` gives every legal action's values
/// at a position in progress, and whether they are exact; they are put in the one order here
/// ([`present`]), as the hints show them.
pub fn review_game(
    variant: rabbit_solver::white_rabbit::Variant,
    seed: u64,
    moves: &[String],
    mut values: impl FnMut(&WhiteRabbit) -> (Vec<rabbit_solver::Hint>, bool),
) -> Result<Vec<Decision>, String> {
    let mut game = WhiteRabbit::new(variant, seed);
    let mut out = Vec::with_capacity(moves.len());
    for (ply, mv) in moves.iter().enumerate() {
        let (mut hints, exact) = values(&game);
        present(&mut hints, exact);
        let find = |action: &str| hints.iter().find(|h| h.action == action).cloned();
        let taken = find(mv).ok_or_else(|| format!("{mv} at ply {ply} is not legal"))?;
        let best = hints[0].clone();
        let optimal = order(&taken, &best) != std::cmp::Ordering::Greater;
        let loss = if optimal {
            Loss::default()
        } else {
            Loss {
                win: best.win - taken.win,
                score: best.score - taken.score,
                actions: taken.actions - best.actions,
            }
        };
        out.push(Decision {
            ply: ply as u32,
            green: game.green(),
            position: game.position(),
            forced: hints.len() == 1,
            taken,
            best,
            optimal,
            loss,
            exact,
        });
        game.play_text(mv)
            .map_err(|e| format!("{mv} at ply {ply}: {e}"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_days_seed_is_shared_and_keyed() {
        let key = b"a deployment key";
        assert_eq!(daily_seed(key, "2025-06-01"), daily_seed(key, "2025-06-01"));
        let mut seen = std::collections::HashSet::new();
        for month in 1..=12 {
            for day in 1..=28 {
                assert!(seen.insert(daily_seed(key, &format!("2025-{month:02}-{day:02}"))));
            }
        }
        assert_ne!(
            daily_seed(key, "2025-06-01"),
            daily_seed(b"another key", "2025-06-01")
        );
    }

    #[test]
    fn days_before_the_first_deal_and_after_today_are_refused() {
        assert!(parse_day("2025-01-01").is_ok());
        assert!(parse_day("2024-12-31").is_err());
        assert!(parse_day("-9999-01-01").is_err());
        assert!(parse_day(&day_text(today())).is_ok());
        assert!(parse_day(&day_text(today().next_day().unwrap())).is_err());
        assert!(parse_day("2025-02-30").is_err());
    }

    /// Hint mode with [`HINT_BUDGET`] gives a decision the same values every time: a review
    /// computed twice (on two nodes, say) says the same, and so does the hint at that moment.
    #[test]
    fn a_review_in_hint_mode_is_the_same_every_time() {
        let variant = rabbit_solver::white_rabbit::Variant::Classic;
        let mut game = WhiteRabbit::new(variant, 7);
        let mut moves = Vec::new();
        while moves.len() < 5 && !game.is_over() {
            let mut hints = rabbit_solver::hints_with(&game, HINT_BUDGET);
            rank_hints(&mut hints);
            let mv = hints.last().unwrap().action.clone();
            game.play_text(&mv).unwrap();
            moves.push(mv);
        }
        let review = || {
            let decisions = review_game(variant, 7, &moves, |g| {
                (rabbit_solver::hints_with(g, HINT_BUDGET), false)
            })
            .unwrap();
            serde_json::to_string(&decisions).unwrap()
        };
        let first = review();
        assert_eq!(first, review());
        assert!(
            first.contains("\"optimal\":false"),
            "the worst actions were taken: {first}"
        );
    }

    fn hint(action: &str, win: f64, score: f64, actions: f64) -> rabbit_solver::Hint {
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

    #[test]
    fn a_hint_back_to_a_position_of_this_turn_comes_last() {
        let variant = rabbit_solver::white_rabbit::Variant::Classic;
        let start = WhiteRabbit::new(variant, 11);
        let actions = start.legal_texts();
        let swaps: Vec<&String> = actions.iter().filter(|a| a.contains('~')).collect();
        assert!(!swaps.is_empty(), "deal 11 starts with a swap to make");
        let hints: Vec<_> = actions.iter().map(|a| hint(a, 0.5, 1.0, 3.0)).collect();
        // The first swap leads to a position seen earlier in this turn.
        let mut after = start.clone();
        after.play_text(swaps[0]).unwrap();
        let seen = std::collections::HashSet::from([after.position()]);
        let marked = with_repeats_last(hints, &start, &seen);
        let (last, repeats) = marked.last().unwrap();
        assert_eq!((&last.action, *repeats), (swaps[0], true));
        let others: Vec<&String> = actions.iter().filter(|a| *a != swaps[0]).collect();
        let kept: Vec<&String> = marked[..marked.len() - 1]
            .iter()
            .map(|(h, _)| &h.action)
            .collect();
        assert_eq!(kept, others, "the rest keep their order");
        assert!(
            marked[..marked.len() - 1]
                .iter()
                .all(|(_, repeats)| !repeats)
        );
    }
}
