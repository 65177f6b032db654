//! Challenges over HTTP (docs/bot-api.md): the caller's open challenges, challenging a
//! player, and accepting, declining or cancelling one. The rules are in `challenges.rs`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::challenges::{self, Ask};
use crate::error::{ApiError, ErrorBody};
use crate::limits::Action;
use crate::state::AppState;
use crate::ws::protocol::ClockSpec;

/// A challenge: what game, and how it is played.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewChallenge {
    /// A two-player game's id.
    game: String,
    /// The game's default variant when absent.
    variant: Option<String>,
    /// `{"initial": seconds, "increment": seconds}`, or `{"days": N}` (1, 2, 3, 5, 7 or 14)
    /// for correspondence; no clock when absent.
    #[schema(value_type = Option<Object>)]
    clock: Option<ClockSpec>,
    /// The challenger's side: `a` (moves first), `b`, or `random` (the default).
    #[schema(pattern = "^(a|b|random)$")]
    side: Option<String>,
    /// The result moves both players' ratings (accounts only).
    #[serde(default)]
    rated: bool,
}

/// Why a challenge is declined.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Decline {
    /// One of `generic` (the default), `later`, `too_fast`, `too_slow`, `time_control`,
    /// `rated`, `casual`, `game`, `variant`, `no_bot`, `only_bot`.
    #[schema(
        pattern = "^(generic|later|too_fast|too_slow|time_control|rated|casual|game|variant|no_bot|only_bot)$"
    )]
    reason: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct ChallengeList {
    /// Challenges to the caller waiting for their answer, oldest first.
    #[schema(value_type = Vec<Object>)]
    incoming: Vec<serde_json::Value>,
    /// The caller's challenges waiting for an answer.
    #[schema(value_type = Vec<Object>)]
    outgoing: Vec<serde_json::Value>,
}

/// The caller's challenges that wait for an answer.
#[utoipa::path(
    get,
    path = "/api/challenge",
    tag = "challenges",
    responses(
        (status = 200, description = "Challenges sent and received, each `{id, challenger, dest, game, variant, clock, side, rated, status, decline_reason, game_id, created_at, expires_at}`", body = ChallengeList),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let (incoming, outgoing) = challenges::open_of(&state.hub, &user).await?;
    Ok(HttpResponse::Ok().json(ChallengeList { incoming, outgoing }))
}

/// Challenges an account to a game; the challenge waits for its answer until it expires.
#[utoipa::path(
    post,
    path = "/api/challenge/{user}",
    tag = "challenges",
    params(("user" = String, Path, description = "The id of the account challenged")),
    request_body = NewChallenge,
    responses(
        (status = 201, description = "The challenge, `created`", body = Object),
        (status = 400, description = "Settings the catalogue does not have, a solo puzzle, or yourself", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A rated challenge from a guest, or a token without the challenge scope", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 429, description = "Too many challenges sent, or waiting", body = ErrorBody),
    ),
)]
pub(crate) async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: NewChallenge = super::json_body(&req, &body)?;
    let challenger = state.require_identity(&req).await?;
    let address = state.security.client_ip(&req);
    state
        .limits
        .check(Action::Challenge, address, Some(&challenger.id))
        .await?;
    state.sessions.ensure_row(&challenger).await?;
    let ask = Ask {
        game: &body.game,
        variant: body.variant.as_deref(),
        clock: body.clock,
        side: body.side.as_deref(),
        rated: body.rated,
    };
    let challenge =
        challenges::create(&state.hub, &challenger, &user, ask, state.challenge_ttl).await?;
    Ok(HttpResponse::Created().json(challenge))
}

/// The player challenged accepts: a table starts with both players seated.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/accept",
    tag = "challenges",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge, `accepted`, with its table in `game_id`", body = Object),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "The caller sent it, or a token without the challenge scope", body = ErrorBody),
        (status = 404, description = "No challenge of the caller's by this id", body = ErrorBody),
        (status = 409, description = "Answered, cancelled or expired already", body = ErrorBody),
    ),
)]
pub(crate) async fn accept(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let challenge = challenges::accept(&state.hub, &user, &id).await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// The player challenged declines, with a reason.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/decline",
    tag = "challenges",
    params(("id" = String, Path, description = "The challenge's id")),
    request_body = Decline,
    responses(
        (status = 200, description = "The challenge, `declined`", body = Object),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "The caller sent it, or a token without the challenge scope", body = ErrorBody),
        (status = 404, description = "No challenge of the caller's by this id", body = ErrorBody),
        (status = 409, description = "Answered, cancelled or expired already", body = ErrorBody),
    ),
)]
pub(crate) async fn decline(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: Decline = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    let challenge = challenges::decline(&state.hub, &user, &id, body.reason.as_deref()).await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// The challenger takes the challenge back.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/cancel",
    tag = "challenges",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge, `canceled`", body = Object),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "The caller was challenged, or a token without the challenge scope", body = ErrorBody),
        (status = 404, description = "No challenge of the caller's by this id", body = ErrorBody),
        (status = 409, description = "Answered, cancelled or expired already", body = ErrorBody),
    ),
)]
pub(crate) async fn cancel(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let challenge = challenges::cancel(&state.hub, &user, &id).await?;
    Ok(HttpResponse::Ok().json(challenge))
}
