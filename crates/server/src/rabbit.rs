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

use crate::error::ApiError;
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

pub fn parse_day(text: &str) -> Result<Date, ApiError> {
    let day = Date::parse(text.trim(), format_description!("[year]-[month]-[day]"))
        .map_err(|_| ApiError::bad_request(format!("{text:?} is not a day (YYYY-MM-DD)")))?;
    if day > today() {
        return Err(ApiError::bad_request(format!(
            "the deal of {day} is not out yet"
        )));
    }
    if day < FIRST_DAY {
        return Err(ApiError::bad_request(format!(
            "the first daily deal is the one of {FIRST_DAY}"
        )));
    }
    Ok(day)
}

/// The day a client names, or today.
pub fn chosen_day(text: Option<&str>) -> Result<Date, ApiError> {
    text.map_or_else(|| Ok(today()), parse_day)
}

/// What an exact hint list is sorted by, in this order, as the answer says: win probability
/// and expected score higher first, expected actions fewer first (see [`rank_hints`]).
pub const RANKING: [&str; 3] = ["win", "score", "actions"];

/// What a hint-mode list is sorted by: estimates of win and score within two standard errors
/// of the best one left count as equal, and hint mode's look-ahead orders those (its values are
/// rollout averages, and ranking by their noise plays badly: followed first-hint by first-hint
/// it went round in circles, 5 classic deals at mean score 4.6 in 1,039 actions against 6.0 in
/// 66 in its own order; docs/white-rabbit.md, "The server").
pub const ESTIMATE_RANKING: [&str; 3] = ["win", "score", "look-ahead"];

/// The order a hint list is in: exact values or estimates.
pub fn ranking(exact: bool) -> [&'static str; 3] {
    if exact { RANKING } else { ESTIMATE_RANKING }
}

/// Sorts exact hints by exactly the order the answer claims ([`RANKING`]): win probability,
/// then expected score, both higher first and on a grid of [`rabbit_solver::exact::EPS`] (the
/// solver's "equally good"; a grid, unlike a tolerance, is a total order), then expected
/// actions, fewer first. Ties keep the solver's order.
pub fn rank_hints(hints: &mut [rabbit_solver::Hint]) {
    let grid = |x: f64| (x / rabbit_solver::exact::EPS).round();
    hints.sort_by(|a, b| {
        grid(b.win)
            .total_cmp(&grid(a.win))
            .then(grid(b.score).total_cmp(&grid(a.score)))
            .then(a.actions.total_cmp(&b.actions))
    });
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

/// One decision of a finished game, judged: what was played, what was best (the first hint:
/// exact, or hint mode's choice), and what the choice cost (best minus taken in win
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
    /// How `best` was chosen ([`RANKING`] or, for estimates, [`ESTIMATE_RANKING`]).
    #[schema(value_type = Vec<String>)]
    pub ranking: [&'static str; 3],
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
/// at a position in progress, best first, and whether they are exact.
pub fn review_game(
    variant: rabbit_solver::white_rabbit::Variant,
    seed: u64,
    moves: &[String],
    mut values: impl FnMut(&WhiteRabbit) -> (Vec<rabbit_solver::Hint>, bool),
) -> Result<Vec<Decision>, String> {
    let mut game = WhiteRabbit::new(variant, seed);
    let mut out = Vec::with_capacity(moves.len());
    for (ply, mv) in moves.iter().enumerate() {
        let (hints, exact) = values(&game);
        let find = |action: &str| hints.iter().find(|h| h.action == action).cloned();
        let taken = find(mv).ok_or_else(|| format!("{mv} at ply {ply} is not legal"))?;
        let best = hints[0].clone();
        let vals = |h: &rabbit_solver::Hint| [h.win, h.score, h.actions];
        let optimal =
            rabbit_solver::exact::rank(&vals(&taken), &vals(&best)) != std::cmp::Ordering::Greater;
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
            ranking: ranking(exact),
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

    #[test]
    fn a_hint_back_to_a_position_of_this_turn_comes_last() {
        let variant = rabbit_solver::white_rabbit::Variant::Classic;
        let start = WhiteRabbit::new(variant, 11);
        let actions = start.legal_texts();
        let swaps: Vec<&String> = actions.iter().filter(|a| a.contains('~')).collect();
        assert!(!swaps.is_empty(), "deal 11 starts with a swap to make");
        let hint = |action: &str| rabbit_solver::Hint {
            action: action.to_string(),
            win: 0.5,
            score: 1.0,
            actions: 3.0,
        };
        let hints: Vec<_> = actions.iter().map(|a| hint(a)).collect();
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
