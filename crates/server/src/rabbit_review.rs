//! The review of a finished White Rabbit game, written with the game and kept.
//!
//! When a White Rabbit game finishes with a result, its table hands the review to the CPU pool
//! the bots think on ([`write_in_background`]) and goes on without waiting; the JSON answer is
//! then stored, and every request, on any node, gets those bytes back. A game finished before
//! this (or whose review could not be written) gets its review computed on its first view
//! instead (`routes::rabbit`'s `kept_review`); [`store::Store::keep_rabbit_review`] keeps the first one written
//! if two race. An aborted game has no review. Both ways run the one [`compute`]: a decision
//! is judged with the exact tables when its level is loaded, otherwise with hint mode under a
//! fixed budget: its rollouts are seeded from the position and stopped by a count, not by the
//! clock, so the same game always gets the same estimates. Each decision says which it got;
//! the summary says how many were exact.

use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use crate::cpu_pool::CpuPool;
use crate::rabbit::{Decision, HINT_BUDGET, Loss, RANKING, review_game};
use crate::rabbit_tables::ExactTables;
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

/// Writes the review of the finished game `id` in the background: its record is read, the
/// review computed on the CPU pool (at the bots' priority, never on the tables' runtime) and
/// kept. Nobody waits for it; if it fails (or the server stops first), the first view
/// computes the review instead (`routes::rabbit`).
pub(crate) fn write_in_background(
    store: store::Store,
    cpu: &CpuPool,
    tables: Option<Arc<ExactTables>>,
    id: String,
) {
    let cpu = cpu.clone();
    tokio::spawn(async move {
        let written = async {
            let record = store
                .game(&id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or("the game is not stored")?;
            let body = cpu
                .run(move || compute(tables.as_deref(), record))
                .await
                .map_err(|e| e.to_string())??;
            store
                .keep_rabbit_review(&id, &body, unix_ms())
                .await
                .map_err(|e| e.to_string())
        };
        if let Err(e) = written.await {
            tracing::warn!(table = %id, error = %e, "could not write a White Rabbit review");
        }
    });
}

/// The review of a finished game as the JSON answer to keep: the one computation, blocking
/// (tens of milliseconds a decision judged by hint mode), for a pool thread.
pub(crate) fn compute(
    tables: Option<&ExactTables>,
    record: store::GameRecord,
) -> Result<String, String> {
    let variant = <rabbit_solver::white_rabbit::Variant as rabbit_solver::game::Variant>::from_id(
        &record.variant,
    )
    .ok_or_else(|| format!("unknown variant {}", record.variant))?;
    let moves: Vec<String> = record.moves.iter().map(|m| m.mv.clone()).collect();
    let decisions = review_game(variant, record.seed, &moves, |game| {
        match tables.and_then(|t| t.hints(game)) {
            Some(h) => (h, true),
            None => (rabbit_solver::hints_with(game, HINT_BUDGET), false),
        }
    })
    .map_err(|e| format!("the game does not replay: {e}"))?;
    let view = summarise(record, decisions);
    serde_json::to_string(&view).map_err(|e| format!("a review as JSON: {e}"))
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
