//! The live list over HTTP: the games being played now (sockets get it with
//! `live.subscribe`).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct LiveQuery {
    /// Only this game's.
    game: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct LiveView {
    /// Each with its `id`, `game`, `variant`, `clock` or `days`, its players and watchers.
    #[schema(value_type = Vec<Object>)]
    games: Vec<serde_json::Value>,
}

/// The public games being played now, most-watched first, then highest-rated.
#[utoipa::path(
    get,
    path = "/api/live",
    tag = "tables",
    params(LiveQuery),
    responses(
        (status = 200, description = "The games being played", body = LiveView),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub(crate) async fn live_games(
    state: web::Data<AppState>,
    query: web::Query<LiveQuery>,
) -> Result<HttpResponse, ApiError> {
    if let Some(game) = &query.game
        && game.parse::<catalog::GameId>().is_err()
    {
        return Err(ApiError::not_found(&format!("game {game:?}")));
    }
    let games = state.hub.live().list(query.game.as_deref());
    Ok(HttpResponse::Ok().json(LiveView { games }))
}
