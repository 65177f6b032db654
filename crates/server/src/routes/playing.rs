//! The caller's games in progress.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::ws::protocol::PlayingEntry;
use crate::ws::protocol::TableId;

#[derive(Serialize, ToSchema)]
pub(crate) struct PlayingView {
    /// Each with its `id`, `game`, `variant`, `status`, the caller's seat (`you`), `your_turn`,
    /// `to_move`, the `opponent` and the caller's `time_left_ms`.
    #[schema(value_type = Vec<Object>)]
    games: Vec<PlayingEntry>,
}

/// The caller's games that have not ended, those waiting for their move first, then the
/// ones where their own clock is lowest, then the newest.
#[utoipa::path(
    get,
    path = "/api/me/playing",
    tag = "playing",
    responses(
        (status = 200, description = "The caller's games in progress", body = PlayingView),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn my_playing(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let mut games = Vec::new();
    for id in state.store.unfinished_game_ids_of(&user.id).await? {
        let Ok(id) = TableId::parse(&id) else {
            continue;
        };
        let table = match state.hub.table(&id).await {
            Ok(table) => table,
            // A game that does not replay is logged by the hub; the list goes on without it.
            Err(_) => continue,
        };
        games.extend(table.playing(&user.id).await);
    }
    games.sort_by_key(|g| (!g.your_turn, g.time_left_ms.unwrap_or(i64::MAX)));
    Ok(HttpResponse::Ok().json(PlayingView { games }))
}
