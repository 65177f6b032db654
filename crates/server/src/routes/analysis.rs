//! The engine's review of a finished two-player game over HTTP: asked for with a POST, then
//! read (queued with its place, running with its progress, done with the review) with GETs.
//! The queue and the computation are [`crate::analysis`]'s.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::TokenQuery;
use super::records::visible_record;
use crate::analysis::{Progress, ReviewView};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::limits::Action;
use crate::state::AppState;

/// Where a review is. `review` is present when `status` is `done`.
#[derive(Serialize, ToSchema)]
pub(crate) struct AnalysisStatus {
    /// `none` (never asked for, or asked on a node that has not finished it), `queued`,
    /// `running` or `done`.
    status: &'static str,
    /// `queued`: 1 is the next review to run on the node that holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    place: Option<usize>,
    /// `running`: positions evaluated so far, of `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    done: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<ReviewView>,
}

fn status_of(progress: Option<Progress>) -> AnalysisStatus {
    let mut s = AnalysisStatus {
        status: "none",
        place: None,
        done: None,
        total: None,
        review: None,
    };
    match progress {
        Some(Progress::Queued { place }) => {
            s.status = "queued";
            s.place = Some(place);
        }
        Some(Progress::Running { done, total }) => {
            s.status = "running";
            s.done = Some(done);
            s.total = Some(total);
        }
        None => {}
    }
    s
}

/// The kept review as the answer, its bytes as they were written.
fn done(body: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(format!("{{\"status\":\"done\",\"review\":{body}}}"))
}

/// The record of `id` if it may be reviewed: seen by the caller, over, two-player.
async fn reviewable(
    req: &HttpRequest,
    state: &AppState,
    id: &str,
    token: Option<&str>,
) -> Result<store::GameRecord, ApiError> {
    let record = visible_record(req, state, id, token).await?;
    if crate::solo::SoloGame::named(&record.game).is_some() {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "White Rabbit games have their own review: GET /api/records/{id}/review",
        ));
    }
    if !record.status.is_over() {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "the game is still going: the engine reviews finished games only",
        ));
    }
    Ok(record)
}

/// Asks for the engine's review of a finished two-player game. It is queued on this node's
/// review queue, computed on the CPU pool the bots think on (one position at a time, so live
/// bots wait at most one position), and kept with the game: every answer after that, on every
/// node, is the same. A review already kept, queued or running is answered as it is, without
/// counting against the limits.
#[utoipa::path(
    post,
    path = "/api/records/{id}/analysis",
    tag = "analysis",
    params(("id" = String, Path, description = "A finished two-player game"), TokenQuery),
    responses(
        (status = 200, description = "The review is kept already", body = AnalysisStatus),
        (status = 202, description = "Queued (with its place) or running (with its progress)", body = AnalysisStatus),
        (status = 403, description = "A private game without its token", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is still going, or a White Rabbit game", body = ErrorBody),
        (status = 429, description = "Too many reviews asked for by this player or from this address (`reviews_per_identity`, `reviews_per_address`)", body = ErrorBody),
    ),
)]
pub(crate) async fn ask(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let record = reviewable(&req, &state, &id, query.token.as_deref()).await?;
    if let Some(body) = state.store.analysis(&record.id).await? {
        return Ok(done(&body));
    }
    if state.reviews.progress(&record.id).is_none() {
        let address = state.security.client_ip(&req);
        state
            .limits
            .check(Action::Review, address, Some(&user.id))
            .await?;
    }
    let progress = state
        .reviews
        .ask(&record.id, state.store.clone(), state.hub.cpu_pool());
    Ok(HttpResponse::Accepted().json(status_of(Some(progress))))
}

/// Where the engine's review of a finished game is: `none`, `queued` with its place,
/// `running` with its progress, or `done` with the review (identical on every fetch and every
/// node).
#[utoipa::path(
    get,
    path = "/api/records/{id}/analysis",
    tag = "analysis",
    params(("id" = String, Path, description = "A finished two-player game"), TokenQuery),
    responses(
        (status = 200, description = "Where the review is", body = AnalysisStatus),
        (status = 403, description = "A private game without its token", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is still going, or a White Rabbit game", body = ErrorBody),
    ),
)]
pub(crate) async fn status(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = reviewable(&req, &state, &id, query.token.as_deref()).await?;
    if let Some(body) = state.store.analysis(&record.id).await? {
        return Ok(done(&body));
    }
    Ok(HttpResponse::Ok().json(status_of(state.reviews.progress(&record.id))))
}
