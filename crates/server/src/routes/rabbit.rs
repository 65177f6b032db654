//! White Rabbit over HTTP: the solver's hints at a table, the review of a finished game, and
//! the daily deal with its leaderboard. The work is the solo helpers' ([`crate::solo`]); the
//! rules of the deal are in [`crate::solo::daily`].

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::TokenQuery;
use super::records::visible_record;
use super::tables::may_create_table;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::UserView;
use crate::solo::SoloGame;
use crate::solo::daily::{DAILY_VARIANT, chosen_day, daily_still_open, day_text, today};
use crate::solo::hints::{HintSchema, HintsView};
use crate::solo::review::ReviewView;
use crate::state::AppState;
use crate::table::TableSettings;
use crate::ws::protocol::TableId;

/// How many lines of a day's leaderboard are shown.
const LEADERBOARD_LINES: u32 = 50;

#[derive(Serialize, ToSchema)]
pub(crate) struct DailyView {
    day: String,
    today: String,
    variant: &'static str,
    /// The caller's table of that day, if any.
    table: Option<String>,
    /// How the caller's attempt of that day went, if they made one.
    mine: Option<MyAttempt>,
    /// Whether the caller's attempt of that day is (or would be) ranked: an account's attempt
    /// on the day itself. A guest's attempt, and any game of a past day, is practice.
    ranked: bool,
    /// The day's ranked attempts: started, ended, won.
    #[schema(value_type = Object)]
    figures: DailyFiguresView,
    /// The day's won attempts, best first.
    #[schema(value_type = Vec<Object>)]
    leaderboard: Vec<DailyEntryView>,
    /// What perfect play expects from the first position, when the tables are loaded.
    #[schema(value_type = Option<HintSchema>)]
    perfect: Option<rabbit_solver::Hint>,
}

/// How a day's ranked attempts went.
#[derive(Serialize)]
struct DailyFiguresView {
    attempts: u32,
    finished: u32,
    solved: u32,
}

impl From<&store::DailyFigures> for DailyFiguresView {
    fn from(figures: &store::DailyFigures) -> DailyFiguresView {
        DailyFiguresView {
            attempts: figures.attempts,
            finished: figures.finished,
            solved: figures.solved,
        }
    }
}

/// A line of a day's leaderboard.
#[derive(Serialize)]
struct DailyEntryView {
    rank: u32,
    user_id: String,
    display_name: String,
    game_id: String,
    score: i32,
    actions: u32,
    finished_at: i64,
}

impl From<&store::DailyEntry> for DailyEntryView {
    fn from(entry: &store::DailyEntry) -> DailyEntryView {
        DailyEntryView {
            rank: entry.rank,
            user_id: entry.user_id.clone(),
            display_name: entry.display_name.clone(),
            game_id: entry.game_id.clone(),
            score: entry.score,
            actions: entry.actions,
            finished_at: entry.finished_at,
        }
    }
}

/// The caller's attempt of a day, as the daily page and the end screen show it.
#[derive(Serialize, ToSchema)]
pub(crate) struct MyAttempt {
    table: String,
    /// `playing`, `finished` or `aborted`.
    status: String,
    /// `won SCORE` or `lost`, once it has ended.
    #[schema(value_type = Option<String>)]
    result: Option<catalog::Outcome>,
    /// Actions played so far.
    actions: u32,
    /// On the day's leaderboard.
    ranked: bool,
    /// Its place on the leaderboard, when it is there.
    rank: Option<u32>,
}

/// Every legal action of the caller's White Rabbit game, best first, with its three values:
/// exact when the tables of its variant and level are loaded (`"exact": true`), from hint
/// mode otherwise; `"ranking"` names the order, the same for both.
#[utoipa::path(
    get,
    path = "/api/tables/{id}/hints",
    tag = "white-rabbit",
    params(("id" = String, Path, description = "The caller's White Rabbit table")),
    responses(
        (status = 200, description = "Every legal action, best first", body = HintsView),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not the caller's game, or a daily deal", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "Not a White Rabbit game, or not being played", body = ErrorBody),
    ),
)]
pub(crate) async fn hints(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let position = state
        .hub
        .table(&TableId::parse(&id)?)
        .await?
        .solo_position(user)
        .await?;
    let hints = crate::solo::hints::hints(&state.solo, id.into_inner(), position).await?;
    Ok(HttpResponse::Ok().json(hints))
}

/// The review of a finished White Rabbit game: every decision with the action taken, the best
/// one and what the choice cost, exact where the server had the tables (each decision says,
/// and `mode` sums it up), and a summary. Written when the game finishes and kept (a game
/// finished before that was done gets it on its first request): every answer, on every node,
/// is the same bytes. A daily deal's review waits, like its seed, until its day is over.
#[utoipa::path(
    get,
    path = "/api/records/{id}/review",
    tag = "white-rabbit",
    params(("id" = String, Path, description = "A finished White Rabbit game"), TokenQuery),
    responses(
        (status = 200, description = "The review", body = ReviewView),
        (status = 403, description = "A private game without its token, or a daily deal whose day is not over", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is still going, or not a White Rabbit game", body = ErrorBody),
    ),
)]
pub(crate) async fn review(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = visible_record(&req, &state, &id, query.token.as_deref()).await?;
    if SoloGame::named(&record.game).is_none() {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "reviews are for White Rabbit games",
        ));
    }
    if !record.status.is_over() {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "the game is still going: its review comes when it ends",
        ));
    }
    if daily_still_open(record.daily.as_deref()) {
        return Err(ApiError::new(
            ErrorCode::Forbidden,
            "the review of a daily deal opens when its day is over",
        ));
    }
    let body = crate::solo::review::kept(&state.solo, record).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DayQuery {
    /// `YYYY-MM-DD`; today (UTC) when absent.
    #[param(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    day: Option<String>,
}

/// A day's leaderboard, and the caller's own table of that day if they have one.
#[utoipa::path(
    get,
    path = "/api/daily",
    tag = "white-rabbit",
    params(DayQuery),
    responses(
        (status = 200, description = "The day's deal", body = DailyView),
        (status = 400, description = "Not a day (`YYYY-MM-DD`)", body = ErrorBody),
        (status = 404, description = "No deal that day: not a day of the calendar, not out yet, or before the first", body = ErrorBody),
    ),
)]
pub(crate) async fn daily(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<DayQuery>,
) -> Result<HttpResponse, ApiError> {
    let day = day_text(chosen_day(query.day.as_deref())?);
    let leaderboard = state
        .store
        .daily_leaderboard(&day, LEADERBOARD_LINES)
        .await?;
    let user = state.identify(&req).await?;
    let mine = match &user {
        Some(user) => my_attempt(&state, &day, &user.id).await?,
        None => None,
    };
    let ranked = match &mine {
        Some(attempt) => attempt.ranked,
        None => day == day_text(today()) && user.as_ref().is_some_and(|u| !u.guest),
    };
    let figures = state.store.daily_figures(&day).await?;
    let perfect = state.solo.perfect_play(&day);
    Ok(HttpResponse::Ok().json(DailyView {
        today: day_text(today()),
        variant: DAILY_VARIANT,
        table: mine.as_ref().map(|m| m.table.clone()),
        mine,
        ranked,
        figures: DailyFiguresView::from(&figures),
        leaderboard: leaderboard.iter().map(DailyEntryView::from).collect(),
        perfect,
        day,
    }))
}

/// The caller's attempt of `day`, with its result and its place on the leaderboard.
async fn my_attempt(
    state: &AppState,
    day: &str,
    user_id: &str,
) -> Result<Option<MyAttempt>, ApiError> {
    let Some(id) = state.store.daily_game_of(day, user_id).await? else {
        return Ok(None);
    };
    let Some(record) = state.store.game(&id).await? else {
        return Ok(None);
    };
    let rank = if record.rated {
        state.store.daily_rank(day, user_id).await?
    } else {
        None
    };
    Ok(Some(MyAttempt {
        table: id,
        status: record.status.as_str().to_string(),
        result: record.result,
        actions: record.moves.len() as u32,
        ranked: record.rated,
        rank,
    }))
}

#[derive(Deserialize, Default, ToSchema)]
pub(crate) struct PlayDaily {
    /// `YYYY-MM-DD`; today (UTC) when absent.
    #[schema(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    day: Option<String>,
}

/// Starts the caller's attempt at today's deal (201), or returns the one they already have
/// (200): one attempt per player and day, ranked for accounts and practice for guests
/// (`rated` in the table says which). For a past day it returns the attempt they made on
/// that day if any, and otherwise starts a practice table on that deal (201, unranked).
#[utoipa::path(
    post,
    path = "/api/daily",
    tag = "white-rabbit",
    request_body(content = Option<PlayDaily>, description = "The day; today when the body is absent"),
    responses(
        (status = 200, description = "The attempt the caller already has (docs/protocol.md, `table`)", body = Object),
        (status = 201, description = "A new attempt, or a practice table for a past day", body = Object),
        (status = 400, description = "A body that is not JSON (`bad_json`), or not a day (`YYYY-MM-DD`)", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 404, description = "No deal that day: not a day of the calendar, not out yet, or before the first", body = ErrorBody),
    ),
)]
pub(crate) async fn play_daily(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        PlayDaily::default()
    } else {
        super::json_body::<Option<PlayDaily>>(&req, &body)?.unwrap_or_default()
    };
    let chosen = chosen_day(body.day.as_deref())?;
    let day = day_text(chosen);
    if let Some(existing) = existing_attempt(&state, &day, &user).await? {
        return Ok(existing);
    }
    may_create_table(&state, &req, &user, false, false).await?;
    let base = TableSettings::parse("white-rabbit", Some(DAILY_VARIANT), true, None)?;
    let settings = if chosen < today() {
        base.daily_practice(day.clone())
    } else {
        // Ranked on the day's leaderboard for accounts only: a guest's attempt is practice
        // (guests cost nothing to make, so they could scout the deal; docs/security.md).
        base.daily_attempt(day.clone(), !user.guest)
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
    user: &UserView,
) -> Result<Option<HttpResponse>, ApiError> {
    let Some(id) = state.store.daily_game_of(day, &user.id).await? else {
        return Ok(None);
    };
    let id = TableId::parse(&id)?;
    let view = state
        .hub
        .table(&id)
        .await?
        .view(Some(user.clone()), None)
        .await?;
    Ok(Some(HttpResponse::Ok().json(view)))
}
