//! The caller's games in progress.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

/// The caller's games that have not ended, those waiting for their move first, then the
/// ones where their own clock is lowest, then the newest.
#[utoipa::path(
    get,
    path = "/api/me/playing",
    tag = "playing",
    responses(
        (status = 200, description = "`games`: each with `your_turn` and `time_left_ms`", body = Object),
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
        let table = match state.hub.table(&id).await {
            Ok(table) => table,
            // A game that does not replay is logged by the hub; the list goes on without it.
            Err(_) => continue,
        };
        games.extend(table.playing(&user.id).await);
    }
    games.sort_by_key(|g| (!g.your_turn, g.time_left_ms.unwrap_or(i64::MAX)));
    Ok(HttpResponse::Ok().json(serde_json::json!({ "games": games })))
}
