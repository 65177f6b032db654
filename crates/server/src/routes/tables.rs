//! Tables: the lobby, creating a table, and one table's state.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::ToSchema;

use super::TokenQuery;
use crate::domain::LobbyQuery;
use crate::domain::bots::parse_bot_level;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::UserView;
use crate::limits::Action;
use crate::state::AppState;
use crate::table::TableSettings;
use crate::ws::protocol::ClockSpec;
use crate::ws::protocol::TableId;

/// Which page of the lobby to read.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct LobbyPage {
    /// Only this game's tables (every game's when absent).
    game: Option<String>,
    /// How many tables to skip (0 by default).
    #[param(minimum = 0, maximum = 10_000)]
    offset: Option<usize>,
    /// How many tables to list, 1 to 100 (50 by default).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<usize>,
}

/// One page of the open public tables, newest first, and the quick-match queues.
#[utoipa::path(
    get,
    path = "/api/tables",
    tag = "tables",
    params(LobbyPage),
    responses(
        (status = 200, description = "The lobby: a page of `tables` waiting for players, their `total`, and the quick-match `queues` (docs/protocol.md, `lobby`)", body = Object),
        (status = 400, description = "An unknown game or a page out of range", body = ErrorBody),
    ),
)]
pub(crate) async fn lobby(
    state: web::Data<AppState>,
    page: web::Query<LobbyPage>,
) -> Result<HttpResponse, ApiError> {
    let query = LobbyQuery::parse(page.game.as_deref(), page.offset, page.limit)?;
    Ok(HttpResponse::Ok().json(state.hub.lobby_view(&query)))
}

/// One end of a rating range.
#[derive(ToSchema)]
#[schema(minimum = 0, maximum = 4000)]
#[allow(dead_code)]
pub(crate) struct RatingBound(i64);

/// A new table: its game, and how it is played.
#[derive(Deserialize, ToSchema)]
pub(crate) struct CreateTable {
    /// The game's id.
    game: String,
    /// The game's default variant when absent.
    variant: Option<String>,
    #[serde(default)]
    private: bool,
    /// `{"initial": seconds, "increment": seconds}`, or `{"days": N}` (1, 2, 3, 5, 7 or 14)
    /// for correspondence; no clock when absent.
    #[schema(value_type = Option<Object>)]
    clock: Option<ClockSpec>,
    /// The seat the creator takes (0 or 1; 0 by default).
    #[schema(minimum = 0, maximum = 1)]
    seat: Option<u8>,
    /// Play against a bot of this level (`easy`, `medium`, `hard`), seated opposite.
    #[schema(pattern = "^(easy|medium|hard)$")]
    bot: Option<String>,
    /// The result moves both players' ratings (accounts only).
    #[serde(default)]
    rated: bool,
    /// Only opponents rated within `[lowest, highest]` may sit (each 0 to 4000).
    #[schema(min_items = 2, max_items = 2, value_type = Option<Vec<RatingBound>>)]
    rating_range: Option<[i64; 2]>,
}

#[utoipa::path(
    post,
    path = "/api/tables",
    tag = "tables",
    request_body = CreateTable,
    responses(
        (status = 201, description = "The new table, as its creator sees it (docs/protocol.md, `table`)", body = Object),
        (status = 400, description = "Settings the catalogue does not have", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A rated table for a guest, or a public one for a restricted account", body = ErrorBody),
        (status = 429, description = "Too many tables, or correspondence games", body = ErrorBody),
    ),
)]
pub(crate) async fn create_table(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: CreateTable = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    let settings = TableSettings::parse(
        &body.game,
        body.variant.as_deref(),
        body.private,
        body.clock,
    )?
    .with_rating(&user, body.rated, body.rating_range)?;
    let info = settings.variant().game().info();
    let seat = body.seat.unwrap_or(0) as usize;
    if seat >= info.seats as usize {
        return Err(ApiError::bad_request(format!(
            "{} has no seat {seat}",
            info.id
        )));
    }
    let mut seats = vec![None; info.seats as usize];
    seats[seat] = Some(user.clone());
    if let Some(level) = &body.bot {
        let level = parse_bot_level(level)?;
        if info.seats != 2 {
            return Err(ApiError::bad_request("bots play the two-player games"));
        }
        seats[1 - seat] = Some(crate::table::bot_user(level));
    }
    let listed = !body.private && body.bot.is_none() && info.seats > 1;
    may_create_table(&state, &req, &user, listed, body.bot.is_some()).await?;
    if body.clock.is_some_and(|clock| clock.days.is_some()) {
        let address = state.security.client_ip(&req);
        state
            .limits
            .check(Action::Correspondence, address, Some(&user.id))
            .await?;
    }
    let handle = state
        .hub
        .create_table(settings, Some(user.clone()), seats, None)
        .await?;
    let view = handle.view(Some(user), None).await?;
    Ok(HttpResponse::Created().json(view))
}

/// One table as the caller sees it.
#[utoipa::path(
    get,
    path = "/api/tables/{id}",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id"), TokenQuery),
    responses(
        (status = 200, description = "The table (docs/protocol.md, `table`)", body = Object),
        (status = 403, description = "A private table, without its token", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
    ),
)]
pub(crate) async fn table(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let user = state.identify(&req).await?;
    let handle = state.hub.table(&TableId::parse(&id)?).await?;
    let view = handle.view(user, query.token.clone()).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Whether `user` may create one more table now: the rate per identity and address, the
/// open tables and unfinished bot games they already have, and no listed (public, open to
/// anyone) tables for a flagged account. Writes the guest's row when all is well.
pub(crate) async fn may_create_table(
    state: &AppState,
    req: &HttpRequest,
    user: &UserView,
    listed: bool,
    bot: bool,
) -> Result<(), ApiError> {
    let address = state.security.client_ip(req);
    state
        .limits
        .check(Action::CreateTable, address, Some(&user.id))
        .await?;
    if listed {
        state
            .limits
            .check(Action::PublicTable, address, None)
            .await?;
    }
    if listed && state.sessions.flagged(&user.id).await? {
        return Err(ApiError::forbidden(
            "a moderator has restricted this account: it cannot open public tables",
        ));
    }
    let config = state.limits.config();
    if config.enabled {
        let (open, bots) = state.store.active_tables_of(&user.id).await?;
        if listed && open >= config.open_tables_per_identity as i64 {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "you already have {open} open tables waiting for players: \
                     start or close one first"
                ),
            )
            .because("open_tables"));
        }
        if bot && bots >= config.bot_games_per_identity as i64 {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!("you already have {bots} unfinished bot games: finish one first"),
            )
            .because("bot_games"));
        }
    }
    state.sessions.ensure_row(user).await
}
