//! The White Rabbit extras: the solver's hints at a table, and the daily deal with its
//! leaderboard.
//!
//! The daily deal is one seed per UTC day for everyone: an HMAC of the day under a key that
//! never leaves the server ([`daily_seed`]), so no finished game of one day tells anything
//! about another day's dice. Each player gets one attempt on the day itself: asking again
//! returns the same table, finished or not, so a bad start cannot be thrown away. A won
//! attempt is ranked by score, then by fewest actions. Daily tables are private and their seed
//! stays hidden until the day is over. A past day's deal can be replayed as often as one likes
//! for practice: an ordinary private table on that deal, outside the leaderboard. Days to come,
//! and days before the first deal, cannot be played.

use actix_web::{HttpRequest, HttpResponse, web};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use time::{
    Date, OffsetDateTime,
    macros::{date, format_description},
};

use crate::error::{ApiError, ErrorCode, WsError};
use crate::startup::AppState;
use crate::table::TableSettings;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/tables/{id}/hints", web::get().to(hints))
        .route("/api/daily", web::get().to(daily))
        .route("/api/daily", web::post().to(play_daily));
}

/// The variant of the daily deal: one competition, on the default rules.
const DAILY_VARIANT: &str = "classic";

/// How many lines of a day's leaderboard are shown.
const LEADERBOARD_LINES: u32 = 50;

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
fn parse_day(text: &str) -> Result<Date, WsError> {
    let day = Date::parse(text.trim(), format_description!("[year]-[month]-[day]"))
        .map_err(|_| WsError::bad_request(format!("{text:?} is not a day (YYYY-MM-DD)")))?;
    if day > today() {
        return Err(WsError::bad_request(format!(
            "the deal of {day} is not out yet"
        )));
    }
    if day < FIRST_DAY {
        return Err(WsError::bad_request(format!(
            "the first daily deal is the one of {FIRST_DAY}"
        )));
    }
    Ok(day)
}

fn chosen_day(text: Option<&str>) -> Result<Date, WsError> {
    text.map_or_else(|| Ok(today()), parse_day)
}

/// What the hint list is sorted by, in this order, as every answer says: win probability and
/// expected score higher first, expected actions fewer first (see [`rank_hints`]).
pub const RANKING: [&str; 3] = ["win", "score", "actions"];

/// Every legal action of the caller's White Rabbit game, best first, with its three values:
/// exact when the tables of its variant and level are loaded (`"exact": true`), from hint
/// mode otherwise.
async fn hints(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let (game, ply) = state.hub.table(&id).await?.hint_position(user).await?;
    // Exact hints are table look-ups (microseconds): no need for the blocking pool.
    let exact = state.rabbit_tables.as_ref().and_then(|t| t.hints(&game));
    let (exact, mut hints) = match exact {
        Some(hints) => (true, hints),
        None => {
            let slot = state.hub.hint_slot().await;
            let hints = tokio::task::spawn_blocking(move || {
                let _slot = slot;
                rabbit_solver::hints(&game)
            })
            .await
            .map_err(|e| WsError::internal("the solver failed", e))?;
            (false, hints)
        }
    };
    rank_hints(&mut hints);
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "table": id.as_str(),
        "ply": ply,
        "exact": exact,
        "ranking": RANKING,
        "hints": hints,
    })))
}

/// Sorts hints by exactly the order the answer claims ([`RANKING`]): win probability, then
/// expected score, both higher first and on a grid of [`rabbit_solver::exact::EPS`] (the
/// solver's "equally good"; a grid, unlike a tolerance, is a total order), then expected
/// actions, fewer first. Ties keep the solver's order. Hint mode orders estimates within
/// their error as equal, so its list can differ from this one (issue #19, item 11).
pub fn rank_hints(hints: &mut [rabbit_solver::Hint]) {
    let grid = |x: f64| (x / rabbit_solver::exact::EPS).round();
    hints.sort_by(|a, b| {
        grid(b.win)
            .total_cmp(&grid(a.win))
            .then(grid(b.score).total_cmp(&grid(a.score)))
            .then(a.actions.total_cmp(&b.actions))
    });
}

#[derive(Deserialize)]
struct DayQuery {
    day: Option<String>,
}

/// A day's leaderboard, and the caller's own table of that day if they have one.
async fn daily(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<DayQuery>,
) -> Result<HttpResponse, ApiError> {
    let day = day_text(chosen_day(query.day.as_deref())?);
    let leaderboard = state
        .store
        .daily_leaderboard(&day, LEADERBOARD_LINES)
        .await?;
    let mine = match state.identify(&req).await? {
        Some(user) => state.store.daily_game_of(&day, &user.id).await?,
        None => None,
    };
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "day": day,
        "today": day_text(today()),
        "variant": DAILY_VARIANT,
        "table": mine,
        "leaderboard": leaderboard,
    })))
}

#[derive(Deserialize, Default)]
struct PlayDaily {
    /// Today when absent.
    day: Option<String>,
}

/// Starts the caller's attempt at today's deal (201), or returns the one they already have
/// (200): one attempt per player and day. For a past day it returns the attempt they made on
/// that day if any, and otherwise starts a practice table on that deal (201, unranked).
async fn play_daily(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: Option<web::Json<PlayDaily>>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let body = body.map(web::Json::into_inner).unwrap_or_default();
    let chosen = chosen_day(body.day.as_deref())?;
    let day = day_text(chosen);
    if let Some(existing) = existing_attempt(&state, &day, &user).await? {
        return Ok(existing);
    }
    state.may_create_table(&req, &user, false, false).await?;
    let base = crate::api::table_settings("white-rabbit", Some(DAILY_VARIANT), true, None)?;
    let settings = if chosen < today() {
        TableSettings {
            practice: Some(day.clone()),
            ..base
        }
    } else {
        TableSettings {
            daily: Some(day.clone()),
            // Private: nobody can watch the day's dice fall for someone else before their try.
            ..base
        }
    };
    let created = state
        .hub
        .create_table(settings, Some(user.clone()), vec![Some(user.clone())], None)
        .await;
    match created {
        Ok(handle) => {
            let view = handle.view(Some(user), None).await?;
            Ok(HttpResponse::Created().json(view))
        }
        // Two requests raced and the other one created it: answer with that table.
        Err(e) if e.code == ErrorCode::Internal => {
            existing_attempt(&state, &day, &user).await?.ok_or(e)
        }
        Err(e) => Err(e),
    }
}

/// The caller's table of `day`, as a 200 answer, if they already have one.
async fn existing_attempt(
    state: &AppState,
    day: &str,
    user: &crate::identity::UserView,
) -> Result<Option<HttpResponse>, WsError> {
    let Some(id) = state.store.daily_game_of(day, &user.id).await? else {
        return Ok(None);
    };
    let view = state
        .hub
        .table(&id)
        .await?
        .view(Some(user.clone()), None)
        .await?;
    Ok(Some(HttpResponse::Ok().json(view)))
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
}
