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

/// The engine's line from the position has at most this many moves (each one more evaluation).
const LINE_PLIES: usize = 3;

/// A position's evaluation and the engine's line from it.
#[derive(Serialize, ToSchema)]
pub(crate) struct EvaluatedPosition {
    /// The position's value, as in a review (`ply` counts the line's moves).
    evaluation: PositionView,
    /// The engine's best move and its best play after it, up to three moves (fewer when the
    /// game ends first).
    line: Vec<String>,
}

/// The budget of the line's later moves: they only show the way, so a quarter of the review's
/// keeps an answer within a few seconds on a busy machine.
const LINE_BUDGET: analysis::Budget = analysis::Budget {
    nodes: analysis::DEFAULT_BUDGET.nodes / 4,
    playouts: analysis::DEFAULT_BUDGET.playouts / 4,
};

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
    let body: PositionBody = super::json_body(&req, &body)?;
    let query = PositionQuery::parse(body)?;
    let user = state.require_identity(&req).await?;
    let mut game = query.replay()?.last;
    let address = state.security.client_ip(&req);
    state
        .limits
        .check(Action::Evaluate, address, Some(&user.id))
        .await?;
    let first = evaluate_here(&state, &game, analysis::DEFAULT_BUDGET).await?;
    let mut line = Vec::new();
    let mut next = first.best.clone();
    while let Some(mv) = next.take() {
        if game.play_text(&mv).is_err() {
            break;
        }
        line.push(mv);
        if line.len() < LINE_PLIES && !game.is_over() {
            next = evaluate_here(&state, &game, LINE_BUDGET).await?.best;
        }
    }
    Ok(HttpResponse::Ok().json(EvaluatedPosition {
        evaluation: position_view(query.moves.len(), &first),
        line,
    }))
}
