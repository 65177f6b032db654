//! Game records: one game's record and every position of it, and the games of a player.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::TokenQuery;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::UserView;
use crate::state::AppState;

/// The stored record of a game the caller may see: the same visibility as its table (a
/// private one needs its token unless the caller sits there or hosts it), read from the
/// database alone — the store has the seats, the host and the token the table would check.
pub(crate) async fn visible_record(
    req: &HttpRequest,
    state: &AppState,
    id: &str,
    token: Option<&str>,
) -> Result<store::GameRecord, ApiError> {
    let user = state.identify(req).await?;
    let record = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("table"))?;
    may_see(&record, user.as_ref(), token)?;
    Ok(record)
}

/// The table's rule for watching, applied to its record.
fn may_see(
    record: &store::GameRecord,
    user: Option<&UserView>,
    token: Option<&str>,
) -> Result<(), ApiError> {
    let insider = user.is_some_and(|u| {
        record
            .seats
            .iter()
            .any(|s| s.user_id.as_deref() == Some(u.id.as_str()))
            || record.host_id.as_deref() == Some(u.id.as_str())
    });
    let invited = token == Some(record.invite_token.as_deref().unwrap_or_default());
    if !record.private || insider || invited {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::Forbidden,
            "this table is private: open it through its invitation link",
        ))
    }
}

/// A game's record.
#[derive(Serialize, ToSchema)]
pub(crate) struct RecordView {
    id: String,
    game: String,
    variant: String,
    /// Null while the game is on, and for a daily deal until its day is over.
    seed: Option<u64>,
    /// `open`, `playing`, `finished` or `aborted`.
    status: &'static str,
    /// The winning seat `a` or `b`, `draw`, or for the solo puzzle `won SCORE` / `lost`.
    #[schema(value_type = Option<String>)]
    result: Option<catalog::Outcome>,
    /// Why it ended: `rules`, `resign`, `time`, `agreement`, `abandoned`, … (docs/protocol.md).
    #[schema(value_type = Option<String>)]
    reason: Option<catalog::EndReason>,
    clock: Option<ClockView>,
    players: Vec<PlayerView>,
    /// In the game's notation.
    moves: Vec<String>,
    created_at: i64,
    finished_at: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct ClockView {
    initial_ms: i64,
    increment_ms: i64,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct PlayerView {
    /// `a` or `b`.
    seat: Option<&'static str>,
    user: Option<String>,
    name: Option<String>,
    /// The bot's level when a bot played this seat.
    bot: Option<String>,
}

/// Every position of a game, for a replay.
#[derive(Serialize, ToSchema)]
pub(crate) struct PositionsView {
    game: String,
    variant: String,
    moves: Vec<String>,
    /// One more than the moves: the start, then after each move.
    positions: Vec<String>,
}

/// A game record to export and replay: game, variant, seed, players, moves, result. The seed
/// of a game still in progress is withheld (for a dice game it would reveal the next rolls),
/// and so is a daily deal's until its day is over (everyone else is playing the same dice).
#[utoipa::path(
    get,
    path = "/api/records/{id}",
    tag = "records",
    params(("id" = String, Path, description = "The game's id"), TokenQuery),
    responses(
        (status = 200, description = "The record", body = RecordView),
        (status = 403, description = "A private game, without its token", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub(crate) async fn record(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = visible_record(&req, &state, &id, query.token.as_deref()).await?;
    let over =
        record.status.is_over() && !crate::solo::daily::daily_still_open(record.daily.as_deref());
    let players = record
        .seats
        .iter()
        .map(|s| PlayerView {
            seat: catalog::Seat::from_index(s.seat as usize).map(catalog::Seat::letter),
            user: s.user_id.clone(),
            name: s.display_name.clone(),
            bot: s.bot.clone(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(RecordView {
        clock: record.clock_initial_ms.zip(record.clock_increment_ms).map(
            |(initial_ms, increment_ms)| ClockView {
                initial_ms,
                increment_ms,
            },
        ),
        seed: over.then_some(record.seed),
        status: record.status.as_str(),
        moves: record.moves.into_iter().map(|m| m.mv).collect(),
        players,
        id: record.id,
        game: record.game,
        variant: record.variant,
        result: record.result,
        reason: record.end_reason,
        created_at: record.created_at,
        finished_at: record.finished_at,
    }))
}

/// Every position of a game, from the start to after its last move (one more than the
/// moves), for the replay viewer: the client has no engine.
#[utoipa::path(
    get,
    path = "/api/records/{id}/positions",
    tag = "records",
    params(("id" = String, Path, description = "The game's id"), TokenQuery),
    responses(
        (status = 200, description = "Every position", body = PositionsView),
        (status = 403, description = "A private game, without its token", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub(crate) async fn record_positions(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = visible_record(&req, &state, &id, query.token.as_deref()).await?;
    let variant = catalog::VariantId::parse(&record.game, Some(&record.variant))
        .map_err(|e| ApiError::internal("a stored game's variant", e))?;
    let mut game = catalog::AnyGame::new(variant, record.seed);
    let mut positions = vec![game.position()];
    for row in &record.moves {
        game.play_text(&row.mv)
            .map_err(|e| ApiError::internal("a stored game does not replay", e))?;
        positions.push(game.position());
    }
    Ok(HttpResponse::Ok().json(PositionsView {
        moves: record.moves.into_iter().map(|m| m.mv).collect(),
        game: record.game,
        variant: record.variant,
        positions,
    }))
}

/// A line of a player's list of games.
#[derive(Serialize)]
struct GameSummaryView {
    id: String,
    game: String,
    variant: String,
    private: bool,
    status: store::GameStatus,
    result: Option<catalog::Outcome>,
    end_reason: Option<catalog::EndReason>,
    rated: bool,
    created_at: i64,
    finished_at: Option<i64>,
    move_count: u32,
    seats: Vec<SummarySeatView>,
}

impl From<&store::GameSummary> for GameSummaryView {
    fn from(game: &store::GameSummary) -> GameSummaryView {
        GameSummaryView {
            id: game.id.clone(),
            game: game.game.clone(),
            variant: game.variant.clone(),
            private: game.private,
            status: game.status,
            result: game.result,
            end_reason: game.end_reason,
            rated: game.rated,
            created_at: game.created_at,
            finished_at: game.finished_at,
            move_count: game.move_count,
            seats: game.seats.iter().map(SummarySeatView::from).collect(),
        }
    }
}

/// A seat of a listed game, with the rating its player left it with.
#[derive(Serialize)]
struct SummarySeatView {
    seat: u8,
    user_id: Option<String>,
    display_name: Option<String>,
    guest: bool,
    bot: Option<String>,
    bot_account: bool,
    rating_after: Option<i32>,
    rating_change: Option<i32>,
    rating_provisional: Option<bool>,
}

impl From<&store::SeatRow> for SummarySeatView {
    fn from(seat: &store::SeatRow) -> SummarySeatView {
        SummarySeatView {
            seat: seat.seat,
            user_id: seat.user_id.clone(),
            display_name: seat.display_name.clone(),
            guest: seat.guest,
            bot: seat.bot.clone(),
            bot_account: seat.bot_account,
            rating_after: seat.rating_after,
            rating_change: seat.rating_change,
            rating_provisional: seat.rating_provisional,
        }
    }
}

fn summaries(games: &[store::GameSummary]) -> Vec<GameSummaryView> {
    games.iter().map(GameSummaryView::from).collect()
}

/// The caller's games, newest first (at most 100).
#[utoipa::path(
    get,
    path = "/api/me/games",
    tag = "records",
    responses(
        (status = 200, description = "A list of game summaries", body = Vec<Object>),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn my_games(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let games = state.store.games_of_user(&user.id, 100).await?;
    Ok(HttpResponse::Ok().json(summaries(&games)))
}

/// A player's games, newest first (at most 100).
#[utoipa::path(
    get,
    path = "/api/users/{id}/games",
    tag = "records",
    params(("id" = String, Path, description = "The player's id")),
    responses((status = 200, description = "A list of game summaries", body = Vec<Object>)),
)]
pub(crate) async fn user_games(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let games = state.store.games_of_user(&id, 100).await?;
    Ok(HttpResponse::Ok().json(summaries(&games)))
}
