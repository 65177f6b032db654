//! The engine's evaluation of one position on demand (the analysis board and its exercises):
//! the position a start and a line reach, valued as the review values every position (the
//! same search at the same budget, seeded from the position, so the same position gets the
//! same answer as in a review), with the engine's line from it. It runs on the CPU pool the
//! bots think on, one position at a time, and is limited per player and per address.

use actix_web::{HttpRequest, HttpResponse, web};
use ai::analysis;
use catalog::AnyGame;
use serde::Serialize;
use utoipa::ToSchema;

use crate::analysis::{PositionView, position_view};
use crate::cpu_pool::Priority;
use crate::domain::position_query::{PositionBody, PositionQuery};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::limits::Action;
use crate::state::AppState;
use crate::thinking::engine_line;

/// A position's evaluation and the engine's line from it.
#[derive(Serialize, ToSchema)]
pub(crate) struct EvaluatedPosition {
    /// The position's value, as in a review (`ply` counts the line's moves).
    evaluation: PositionView,
    /// The engine's best move and its best play after it, up to three moves (fewer when the
    /// game ends first).
    line: Vec<String>,
}

async fn evaluate_here(
    state: &AppState,
    game: &AnyGame,
    budget: analysis::Budget,
) -> Result<analysis::Evaluation, ApiError> {
    // A request does not wait out the 3×3 board's solution (made once a process, about half a
    // minute): asking starts it, and the caller asks again once it is there.
    if !analysis::ready(game) {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "the engine is still solving this board (once, about a minute): ask again shortly",
        ));
    }
    let here = game.clone();
    state
        .hub
        .cpu_pool()
        .run(Priority::Hint, move || analysis::evaluate(&here, budget))
        .await
        .map_err(|_| ApiError::new(ErrorCode::Busy, "the engine stopped: try again"))
}

/// The position a request's body asks about, for a caller with an identity, once `check`
/// allows it and it is counted against `action`'s limits: its place in its line, the game
/// there, and the caller. A refused position is refused before it counts.
async fn asked(
    req: &HttpRequest,
    state: &AppState,
    body: &web::Bytes,
    action: Action,
    check: impl FnOnce(&AnyGame) -> Result<(), ApiError>,
) -> Result<(usize, AnyGame, crate::identity::UserView), ApiError> {
    let body: PositionBody = super::json_body(req, body)?;
    let query = PositionQuery::parse(body)?;
    let user = state.require_identity(req).await?;
    let game = query.replay()?.last;
    check(&game)?;
    let address = state.security.client_ip(req);
    state.limits.check(action, address, Some(&user.id)).await?;
    Ok((query.moves.len(), game, user))
}

/// Evaluates the position a start and a line reach, as the engine's review would, and gives
/// the engine's line from it (up to three moves). Counts against `evaluations_per_identity`
/// and `evaluations_per_address`.
#[utoipa::path(
    post,
    path = "/api/positions/evaluate",
    tag = "analysis",
    request_body = PositionBody,
    responses(
        (status = 200, description = "The value (seat A's expected score, exact where proved) and the engine's line", body = EvaluatedPosition),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 409, description = "The position does not read or cannot occur (`impossible_position`), a move of the line is not legal (`illegal_move`), or the engine is still solving the board once for the whole process (`wrong_state`: ask again shortly)", body = ErrorBody),
        (status = 429, description = "Too many evaluations asked for by this player or from this address (`evaluations_per_identity`, `evaluations_per_address`)", body = ErrorBody),
        (status = 503, description = "The engine's job was lost (the server is stopping): try again", body = ErrorBody),
    ),
)]
pub(crate) async fn evaluate(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (ply, game, _) = asked(&req, &state, &body, Action::Evaluate, |_| Ok(())).await?;
    let first = evaluate_here(&state, &game, analysis::DEFAULT_BUDGET).await?;
    let line = engine_line(
        &game,
        &first,
        analysis::DEFAULT_BUDGET,
        async |here, budget| evaluate_here(&state, here, budget).await,
    )
    .await?;
    Ok(HttpResponse::Ok().json(EvaluatedPosition {
        evaluation: position_view(ply, &first),
        line,
    }))
}

/// The engine thinking about the position a start and a line reach, streamed as NDJSON: one
/// `stage` line for each of up to five growing budgets (a quarter of the review's to four
/// times it; the third is the review's own value), then `done`, or `stopped` with its reason
/// (`superseded` when the same player asks about another position, `gone`, `stopping`). Closing
/// the request stops the thinking. Counts once against `thinking_per_identity` and
/// `thinking_per_address`.
#[utoipa::path(
    post,
    path = "/api/positions/think",
    tag = "analysis",
    request_body = PositionBody,
    responses(
        (status = 200, description = "An NDJSON stream (`application/x-ndjson`) of `stage` lines (value, engine's line, work done), ending with `done` or `stopped` (docs/protocol.md)", content_type = "application/x-ndjson", body = String),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 409, description = "The position does not read or cannot occur (`impossible_position`), a move of the line is not legal (`illegal_move`), the game is over or has one player (`wrong_state`), or the engine is still solving the board once for the whole process (`wrong_state`: ask again shortly)", body = ErrorBody),
        (status = 429, description = "Too many questions to the engine from this player or this address (`thinking_per_identity`, `thinking_per_address`)", body = ErrorBody),
    ),
)]
pub(crate) async fn think(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (ply, game, user) = asked(&req, &state, &body, Action::Think, |game| {
        if game.is_over() || game.to_move().is_none() {
            return Err(ApiError::new(
                ErrorCode::WrongState,
                "there is nothing to think about: the game is over, or it has one player",
            ));
        }
        if !analysis::ready(game) {
            return Err(ApiError::new(
                ErrorCode::WrongState,
                "the engine is still solving this board (once, about a minute): ask again shortly",
            ));
        }
        Ok(())
    })
    .await?;
    let (response, lines) = crate::ndjson::response();
    let state = state.into_inner();
    // On this worker's own thread: the thinking only waits on the pool between stages.
    actix_web::rt::spawn(async move {
        let cpu = state.hub.cpu_pool();
        state.thinking.think(&cpu, &user.id, game, ply, lines).await;
    });
    Ok(response)
}
