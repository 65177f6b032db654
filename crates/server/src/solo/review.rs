//! The review of a finished White Rabbit game, written with the game and kept.
//!
//! When a White Rabbit game finishes with a result, its table tells the solo helpers
//! (`table::services::SoloEnd`), which hand the review to the CPU pool at the reviews'
//! priority ([`write_in_background`]); the table goes on without waiting. The JSON answer is
//! then stored, and every request, on any node, gets those bytes back. A game finished before
//! this (or whose review could not be written) gets its review computed on its first view
//! instead ([`kept`]); [`store::Store::keep_rabbit_review`] keeps the first one written if two
//! race. An aborted game has no review. Both ways run the one [`compute`]: a decision
//! is judged with the exact tables when its level is loaded, otherwise with hint mode under a
//! fixed budget: its rollouts are seeded from the position and stopped by a count, not by the
//! clock, so the same game always gets the same estimates. Each decision says which it got;
//! the summary says how many were exact.

use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use rabbit_solver::game::Game;
use rabbit_solver::white_rabbit::WhiteRabbit;

use super::Solo;
use super::ranking::{HINT_BUDGET, RANKING, order, present};
use super::tables::ExactTables;
use crate::cpu_pool::{CpuPool, Priority};
use crate::error::ApiError;
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
                .run(Priority::Review, move || compute(tables.as_deref(), record))
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

/// The kept review of a finished game (`record`), computed and kept first if it is not there
/// (a game that finished before reviews were written at the end, or whose writing failed).
pub(crate) async fn kept(solo: &Solo, record: store::GameRecord) -> Result<String, ApiError> {
    if let Some(body) = solo.store.rabbit_review(&record.id).await? {
        return Ok(body);
    }
    let id = record.id.clone();
    let tables = solo.tables.clone();
    let body = solo
        .cpu
        .run(Priority::Review, move || compute(tables.as_deref(), record))
        .await
        .map_err(|e| ApiError::internal("the solver failed", e))?
        .map_err(|e| ApiError::internal("a stored game does not review", e))?;
    Ok(solo.store.keep_rabbit_review(&id, &body, unix_ms()).await?)
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

/// One decision of a finished game, judged: what was played, what was best (the first by
/// [`order`]), and what the choice cost (best minus taken in win
/// probability and score, taken minus best in expected actions; all 0 for an optimal choice).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Decision {
    pub ply: u32,
    pub green: u8,
    /// The position the decision was made in.
    pub position: String,
    #[schema(value_type = Object)]
    pub taken: rabbit_solver::Hint,
    #[schema(value_type = Object)]
    pub best: rabbit_solver::Hint,
    /// As good as the best by the ranking (to the solver's 1e-9 in each value).
    pub optimal: bool,
    pub loss: Loss,
    /// The values are exact (the level's tables were loaded), not hint mode's estimates.
    pub exact: bool,
    /// The only legal action: no choice was made.
    pub forced: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct Loss {
    pub win: f64,
    pub score: f64,
    pub actions: f64,
}

/// Replays a finished game decision by decision. `values` gives every legal action's values
/// at a position in progress, and whether they are exact; they are put in the one order here
/// ([`present`]), as the hints show them.
pub fn review_game(
    variant: rabbit_solver::white_rabbit::Variant,
    seed: u64,
    moves: &[String],
    mut values: impl FnMut(&WhiteRabbit) -> (Vec<rabbit_solver::Hint>, bool),
) -> Result<Vec<Decision>, String> {
    let mut game = WhiteRabbit::new(variant, seed);
    let mut out = Vec::with_capacity(moves.len());
    for (ply, mv) in moves.iter().enumerate() {
        let (mut hints, exact) = values(&game);
        present(&mut hints, exact);
        let find = |action: &str| hints.iter().find(|h| h.action == action).cloned();
        let taken = find(mv).ok_or_else(|| format!("{mv} at ply {ply} is not legal"))?;
        let best = hints[0].clone();
        let optimal = order(&taken, &best) != std::cmp::Ordering::Greater;
        let loss = if optimal {
            Loss::default()
        } else {
            Loss {
                win: best.win - taken.win,
                score: best.score - taken.score,
                actions: taken.actions - best.actions,
            }
        };
        out.push(Decision {
            ply: ply as u32,
            green: game.green(),
            position: game.position(),
            forced: hints.len() == 1,
            taken,
            best,
            optimal,
            loss,
            exact,
        });
        game.play_text(mv)
            .map_err(|e| format!("{mv} at ply {ply}: {e}"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solo::ranking::rank_hints;

    /// Hint mode with [`HINT_BUDGET`] gives a decision the same values every time: a review
    /// computed twice (on two nodes, say) says the same, and so does the hint at that moment.
    #[test]
    fn a_review_in_hint_mode_is_the_same_every_time() {
        let variant = rabbit_solver::white_rabbit::Variant::Classic;
        let mut game = WhiteRabbit::new(variant, 7);
        let mut moves = Vec::new();
        while moves.len() < 5 && !game.is_over() {
            let mut hints = rabbit_solver::hints_with(&game, HINT_BUDGET);
            rank_hints(&mut hints);
            let mv = hints.last().unwrap().action.clone();
            game.play_text(&mv).unwrap();
            moves.push(mv);
        }
        let review = || {
            let decisions = review_game(variant, 7, &moves, |g| {
                (rabbit_solver::hints_with(g, HINT_BUDGET), false)
            })
            .unwrap();
            serde_json::to_string(&decisions).unwrap()
        };
        let first = review();
        assert_eq!(first, review());
        assert!(
            first.contains("\"optimal\":false"),
            "the worst actions were taken: {first}"
        );
    }
}
