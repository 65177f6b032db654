//! The review of a finished White Rabbit game, computed once and kept with the game.
//!
//! The first request for a game's review computes it and stores the JSON answer; every later
//! request, on any node, gets those bytes back ([`store::Store::keep_rabbit_review`] keeps the
//! first one written if two nodes race). A decision is judged with the exact tables when its
//! level is loaded, otherwise with hint mode under a fixed budget: its rollouts are seeded
//! from the position and stopped by a count, not by the clock, so the same game always gets
//! the same estimates. Each decision says which it got; the summary says how many were exact.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::rabbit::{Decision, HINT_BUDGET, Loss, RANKING, review_game};
use crate::state::AppState;
use crate::unix_time::unix_ms;

#[derive(Serialize, ToSchema)]
pub(crate) struct ReviewView {
    table: String,
    variant: String,
    /// `won SCORE` or `lost`.
    #[schema(value_type = Option<String>)]
    result: Option<catalog::Outcome>,
    /// `exact` (every decision from the tables), `estimates` (hint mode's, none exact) or
    /// `mixed`.
    mode: &'static str,
    /// What "best" means: the order of every hint list.
    #[schema(value_type = Vec<String>)]
    ranking: [&'static str; 3],
    summary: Summary,
    decisions: Vec<Decision>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Summary {
    decisions: usize,
    /// Decisions with more than one legal action.
    choices: usize,
    /// Optimal choices.
    optimal: usize,
    /// Decisions judged with exact values.
    exact: usize,
    /// The losses added up.
    loss: Loss,
}

/// The kept review of a finished game (`record`), computed and kept first if it is not there.
pub(crate) async fn kept_review(
    state: &actix_web::web::Data<AppState>,
    record: store::GameRecord,
) -> Result<String, ApiError> {
    if let Some(body) = state.store.rabbit_review(&record.id).await? {
        return Ok(body);
    }
    let body = compute(state, record.clone()).await?;
    Ok(state
        .store
        .keep_rabbit_review(&record.id, &body, unix_ms())
        .await?)
}

async fn compute(
    state: &actix_web::web::Data<AppState>,
    record: store::GameRecord,
) -> Result<String, ApiError> {
    let variant = <rabbit_solver::white_rabbit::Variant as rabbit_solver::game::Variant>::from_id(
        &record.variant,
    )
    .ok_or_else(|| ApiError::internal("a stored variant", &record.variant))?;
    let moves: Vec<String> = record.moves.iter().map(|m| m.mv.clone()).collect();
    // Hint mode costs tens of milliseconds a decision: a review takes a hint slot.
    let slot = state.hub.hint_slot().await;
    let state = state.clone();
    let seed = record.seed;
    let decisions = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        review_game(variant, seed, &moves, |game| {
            match state.rabbit_tables.as_ref().and_then(|t| t.hints(game)) {
                Some(h) => (h, true),
                None => (rabbit_solver::hints_with(game, HINT_BUDGET), false),
            }
        })
    })
    .await
    .map_err(|e| ApiError::internal("the solver failed", e))?
    .map_err(|e| ApiError::internal("a stored game does not replay", e))?;
    let view = summarise(record, decisions);
    serde_json::to_string(&view).map_err(|e| ApiError::internal("a review as JSON", e))
}

fn summarise(record: store::GameRecord, decisions: Vec<Decision>) -> ReviewView {
    let mut total = Loss::default();
    for d in &decisions {
        total.win += d.loss.win;
        total.score += d.loss.score;
        total.actions += d.loss.actions;
    }
    let exact = decisions.iter().filter(|d| d.exact).count();
    let mode = match exact {
        0 => "estimates",
        n if n == decisions.len() => "exact",
        _ => "mixed",
    };
    ReviewView {
        table: record.id,
        variant: record.variant,
        result: record.result,
        mode,
        ranking: RANKING,
        summary: Summary {
            decisions: decisions.len(),
            choices: decisions.iter().filter(|d| !d.forced).count(),
            optimal: decisions.iter().filter(|d| d.optimal && !d.forced).count(),
            exact,
            loss: total,
        },
        decisions,
    }
}
