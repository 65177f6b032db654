//! A player's record of tournaments: the finished ones they took part in, newest first, with
//! their place and points (docs/protocol.md, "Tournaments").

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::tournaments::records::RecordPage;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct RecordQuery {
    /// The page, from 1 (20 tournaments a page; 1 by default).
    #[param(minimum = 1, maximum = 100_000)]
    page: Option<usize>,
}

/// The finished tournaments a player took part in, the most recently ended first, each with
/// the player's place among its final standings and their points.
#[utoipa::path(
    get,
    path = "/api/users/{id}/tournaments",
    tag = "tournaments",
    params(("id" = String, Path, description = "The player's id"), RecordQuery),
    responses(
        (status = 200, description = "A page of the player's tournaments", body = RecordPage),
        (status = 400, description = "A page out of range", body = ErrorBody),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
)]
pub(crate) async fn record(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<RecordQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page.unwrap_or(1);
    if !(1..=100_000).contains(&page) {
        return Err(ApiError::bad_request("page must be from 1 to 100000"));
    }
    // Bots (`bot:easy`) are not in tournaments' standings: they have no record, nor a row.
    if state.store.user(&id).await?.is_none() {
        return Err(ApiError::not_found("player"));
    }
    let records = state.tournaments.records_of(&id, page).await?;
    Ok(HttpResponse::Ok().json(records))
}
