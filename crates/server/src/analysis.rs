//! The engine's review of finished two-player games, asked for by players
//! (`routes::analysis`), computed on the CPU pool at the reviews' priority and kept with the
//! game.
//!
//! Each node has one queue of reviews and works through it one review at a time, and a review
//! holds at most one job of the pool at a time: it hands the pool one position, waits for its
//! evaluation, then hands the next. A bot's move or a hint asked for meanwhile goes ahead of
//! the positions still waiting, and waits at most for the one being evaluated (36–112 ms at
//! the default budget, docs/bots.md), never behind a whole review. The finished review is kept
//! in the database ([`store::Store::keep_analysis`]): every later request, on any node, gets
//! the same bytes.
//! Values come from `ai::analysis` at a node budget with seeds taken from the positions, so
//! even two nodes that computed the same game at once would write the same review.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use ai::analysis::{self, Evaluation, Review};
use catalog::{AnyGame, VariantId};
use serde::Serialize;
use utoipa::ToSchema;

use crate::cpu_pool::{CpuPool, Priority};
use crate::unix_time::unix_ms;

/// Where a review is on this node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Waiting: `place` 1 is the next to run.
    Queued { place: usize },
    /// Being computed: `done` of `total` positions evaluated.
    Running { done: usize, total: usize },
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<String>,
    running: Option<(String, usize, usize)>,
    worker: bool,
}

/// This node's queue of reviews.
#[derive(Clone, Default)]
pub struct Reviews(Arc<Mutex<Queue>>);

impl Reviews {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Where the review of `id` is on this node, if it is queued or running here.
    pub fn progress(&self, id: &str) -> Option<Progress> {
        let q = self.lock();
        if let Some((running, done, total)) = &q.running
            && running == id
        {
            return Some(Progress::Running {
                done: *done,
                total: *total,
            });
        }
        let at = q.waiting.iter().position(|w| w == id)?;
        Some(Progress::Queued { place: at + 1 })
    }

    /// Queues the review of `id` (unless it is queued or running here already) and starts
    /// this node's worker if it is idle; answers where the review is.
    pub fn ask(&self, id: &str, store: store::Store, cpu: CpuPool) -> Progress {
        let start = {
            let mut q = self.lock();
            let known = q.running.as_ref().is_some_and(|(r, _, _)| r == id)
                || q.waiting.iter().any(|w| w == id);
            if !known {
                q.waiting.push_back(id.to_string());
            }
            !std::mem::replace(&mut q.worker, true)
        };
        if start {
            let reviews = self.clone();
            tokio::spawn(async move { reviews.work(store, cpu).await });
        }
        self.progress(id).unwrap_or(Progress::Queued { place: 1 })
    }

    /// Reviews the queued games one after another until the queue is empty.
    async fn work(self, store: store::Store, cpu: CpuPool) {
        loop {
            let id = {
                let mut q = self.lock();
                match q.waiting.pop_front() {
                    Some(id) => {
                        q.running = Some((id.clone(), 0, 0));
                        id
                    }
                    None => {
                        q.running = None;
                        q.worker = false;
                        return;
                    }
                }
            };
            if let Err(e) = self.one(&id, &store, &cpu).await {
                tracing::warn!(table = %id, error = %e, "could not review a game");
            }
        }
    }

    async fn one(&self, id: &str, store: &store::Store, cpu: &CpuPool) -> Result<(), String> {
        if store
            .analysis(id)
            .await
            .map_err(|e| e.to_string())?
            .is_some()
        {
            return Ok(());
        }
        let record = store
            .game(id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("the game is not stored")?;
        let variant =
            VariantId::parse(&record.game, Some(&record.variant)).map_err(|e| e.to_string())?;
        let moves: Vec<String> = record.moves.iter().map(|m| m.mv.clone()).collect();
        let total = moves.len() + 1;
        let mut game = AnyGame::new(variant, record.seed);
        let mut positions = Vec::with_capacity(total);
        let mut movers = Vec::with_capacity(moves.len());
        for i in 0..total {
            let here = game.clone();
            // The 3×3 board's solution (made once a process) is awaited here, not on the pool.
            while !analysis::ready(&here) {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            let evaluation = cpu
                .run(Priority::Review, move || {
                    analysis::evaluate(&here, analysis::DEFAULT_BUDGET)
                })
                .await
                .map_err(|e| e.to_string())?;
            positions.push(evaluation);
            if let Some((_, done, all)) = self.lock().running.as_mut() {
                (*done, *all) = (i + 1, total);
            }
            if let Some(mv) = moves.get(i) {
                movers.push(game.to_move().ok_or("a move after the end")?);
                game.play_text(mv).map_err(|e| format!("move {mv}: {e}"))?;
            }
        }
        let review = analysis::assemble(positions, &moves, &movers);
        let body = serde_json::to_string(&view(&record, &review)).map_err(|e| e.to_string())?;
        store
            .keep_analysis(id, &body, unix_ms())
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// A kept review.
#[derive(Serialize, ToSchema)]
pub(crate) struct ReviewView {
    table: String,
    game: String,
    variant: String,
    /// Whose expected score every `value` is: always `a`, the first player.
    value_of: &'static str,
    /// The search's budget at each position.
    nodes: u64,
    playouts: u64,
    /// The drops (in expected score) from which a move is good, an inaccuracy, a mistake, a
    /// blunder.
    thresholds: Thresholds,
    /// The position before each move, then the final position.
    positions: Vec<PositionView>,
    moves: Vec<MoveView>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Thresholds {
    good: f64,
    inaccuracy: f64,
    mistake: f64,
    blunder: f64,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct PositionView {
    /// Moves made before this position.
    ply: usize,
    /// Seat A's expected score, 0 to 1 (three decimals).
    value: f64,
    /// The engine's move here, in the game's notation.
    best: Option<String>,
    /// Present when the value is proved with perfect play; otherwise it is an estimate.
    exact: Option<ExactView>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct ExactView {
    /// `a`, `b` or `draw`.
    result: String,
    /// Plies to the end with perfect play, when known.
    plies: Option<u32>,
    /// The final dice margin of seat A, where the solver gives one (docs/bots.md).
    margin: Option<i32>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct MoveView {
    /// This move's number, from 1.
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    /// `a` or `b`.
    seat: &'static str,
    /// The mover's loss of expected score (three decimals).
    drop: f64,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    label: &'static str,
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

pub(crate) fn position_view(ply: usize, e: &Evaluation) -> PositionView {
    PositionView {
        ply,
        value: round(e.value),
        best: e.best.clone(),
        exact: e.exact.map(|x| ExactView {
            result: x.outcome.to_string(),
            plies: x.plies,
            margin: x.margin,
        }),
    }
}

fn view(record: &store::GameRecord, review: &Review) -> ReviewView {
    ReviewView {
        table: record.id.clone(),
        game: record.game.clone(),
        variant: record.variant.clone(),
        value_of: "a",
        nodes: analysis::DEFAULT_BUDGET.nodes,
        playouts: analysis::DEFAULT_BUDGET.playouts,
        thresholds: Thresholds {
            good: analysis::GOOD,
            inaccuracy: analysis::INACCURACY,
            mistake: analysis::MISTAKE,
            blunder: analysis::BLUNDER,
        },
        positions: review
            .positions
            .iter()
            .enumerate()
            .map(|(i, e)| position_view(i, e))
            .collect(),
        moves: review
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| MoveView {
                ply: i + 1,
                mv: m.mv.clone(),
                seat: m.mover.letter(),
                drop: round(m.drop),
                label: m.label.name(),
            })
            .collect(),
    }
}
