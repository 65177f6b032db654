//! The engine thinking about one position on demand, streamed (`POST /api/positions/think`):
//! the analysis board's engine switch. The search is run again at growing budgets, a quarter
//! of the review's to four times it, and each finished stage is one line of NDJSON (its value,
//! the engine's line, the work done), so that a first answer comes in a fraction of a second
//! and a better one keeps coming. The stage at the review's budget gives exactly the review's
//! value (the search is seeded from the position).
//!
//! Each stage is one job on the CPU pool at hint priority, so bots' moves go first between
//! stages. Thinking stops between stages when the client goes (the position changed: the page
//! aborts its request) or when the same player asks about another position; then the stream's
//! last line says why.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use ai::analysis::{self, Budget, Evaluation};
use catalog::AnyGame;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::analysis::{PositionView, position_view};
use crate::cpu_pool::{CpuPool, Priority};
use crate::ndjson::Lines;

/// The stages' budgets, as multiples of the review's ([`analysis::DEFAULT_BUDGET`]) over 4:
/// a quarter, a half, the review's own, twice and four times it.
const STAGES_IN_QUARTERS: [u64; 5] = [1, 2, 4, 8, 16];
/// The engine's line has at most this many moves.
const LINE_PLIES: usize = 3;

/// Who is thinking about what: one stream per player at a time, the newest wins.
#[derive(Default)]
pub struct Thinking {
    next: AtomicU64,
    current: Mutex<HashMap<String, u64>>,
}

/// One stage's answer, as the stream sends it.
#[derive(Serialize, ToSchema)]
pub(crate) struct ThoughtLine {
    /// `"stage"`.
    #[serde(rename = "type")]
    kind: &'static str,
    /// 1 for the first stage.
    stage: usize,
    stages: usize,
    /// What the search counts: `"nodes"` (alpha-beta) or `"playouts"` (Monte Carlo).
    unit: &'static str,
    /// How many of them this stage searched at most.
    amount: u64,
    evaluation: PositionView,
    /// The engine's best move and its best play after it.
    line: Vec<String>,
}

/// Why a stream ended before its last stage.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    /// The same player asked about another position.
    Superseded,
    /// The client went away.
    Gone,
    /// The pool dropped the job (the server is stopping).
    Stopping,
}

impl Stop {
    fn name(self) -> &'static str {
        match self {
            Stop::Superseded => "superseded",
            Stop::Gone => "gone",
            Stop::Stopping => "stopping",
        }
    }
}

impl Thinking {
    /// Makes `player`'s newest stream the only one that goes on; returns its number.
    fn begin(&self, player: &str) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.lock().insert(player.to_string(), id);
        id
    }

    fn is_current(&self, player: &str, id: u64) -> bool {
        self.lock().get(player) == Some(&id)
    }

    fn end(&self, player: &str, id: u64) {
        let mut current = self.lock();
        if current.get(player) == Some(&id) {
            current.remove(player);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Thinks about `game` for `player`, stage by stage, into `lines`; `ply` is the position's
    /// place in the line it was reached by. Runs until the last stage, an exact answer, or a
    /// stop; the last line is `{"type":"done"}` or `{"type":"stopped","reason":…}`.
    pub async fn think(
        &self,
        cpu: &CpuPool,
        player: &str,
        game: AnyGame,
        ply: usize,
        lines: Lines,
    ) {
        let id = self.begin(player);
        let ended = self.stages(cpu, player, id, &game, ply, &lines).await;
        self.end(player, id);
        let last = match ended {
            Ok(()) => json!({"type": "done"}),
            Err(stop) => {
                metrics::counter!("stolik_thinking_stopped_total", "reason" => stop.name())
                    .increment(1);
                json!({"type": "stopped", "reason": stop.name()})
            }
        };
        lines.send(&last);
    }

    async fn stages(
        &self,
        cpu: &CpuPool,
        player: &str,
        id: u64,
        game: &AnyGame,
        ply: usize,
        lines: &Lines,
    ) -> Result<(), Stop> {
        let unit = analysis::search_unit(game);
        for (i, quarters) in STAGES_IN_QUARTERS.into_iter().enumerate() {
            let budget = scaled(quarters);
            let first = self.step(cpu, player, id, lines, game, budget).await?;
            let exact = first.exact.is_some();
            let line = engine_line(game, &first, budget, async |here, later| {
                self.step(cpu, player, id, lines, here, later).await
            })
            .await?;
            let sent = lines.send(
                &serde_json::to_value(ThoughtLine {
                    kind: "stage",
                    stage: i + 1,
                    stages: STAGES_IN_QUARTERS.len(),
                    unit,
                    amount: match unit {
                        "playouts" => budget.playouts,
                        _ => budget.nodes,
                    },
                    evaluation: position_view(ply, &first),
                    line,
                })
                .expect("a thought serialises"),
            );
            if !sent {
                return Err(Stop::Gone);
            }
            // A proved value does not change with more search; a position the engine does
            // not search (a setup valued even by the pie rule) neither.
            if exact || first.best.is_none() {
                break;
            }
        }
        Ok(())
    }

    /// One search on the pool, unless the stream should stop first.
    async fn step(
        &self,
        cpu: &CpuPool,
        player: &str,
        id: u64,
        lines: &Lines,
        game: &AnyGame,
        budget: Budget,
    ) -> Result<Evaluation, Stop> {
        if !self.is_current(player, id) {
            return Err(Stop::Superseded);
        }
        if lines.is_closed() {
            return Err(Stop::Gone);
        }
        let here = game.clone();
        cpu.run(Priority::Hint, move || analysis::evaluate(&here, budget))
            .await
            .map_err(|_| Stop::Stopping)
    }
}

/// The engine's best move from `first` (found at `budget`), then its best play after it, up to
/// [`LINE_PLIES`] moves in all: each later move found by `search` at a quarter of `budget` (they
/// only show the way).
pub(crate) async fn engine_line<E>(
    game: &AnyGame,
    first: &Evaluation,
    budget: Budget,
    mut search: impl AsyncFnMut(&AnyGame, Budget) -> Result<Evaluation, E>,
) -> Result<Vec<String>, E> {
    let later = Budget {
        nodes: budget.nodes / 4,
        playouts: budget.playouts / 4,
    };
    let mut here = game.clone();
    let mut line = Vec::new();
    let mut next = first.best.clone();
    while let Some(mv) = next.take() {
        if here.play_text(&mv).is_err() {
            break;
        }
        line.push(mv);
        if line.len() < LINE_PLIES && !here.is_over() {
            next = search(&here, later).await?.best;
        }
    }
    Ok(line)
}

fn scaled(quarters: u64) -> Budget {
    Budget {
        nodes: analysis::DEFAULT_BUDGET.nodes * quarters / 4,
        playouts: analysis::DEFAULT_BUDGET.playouts * quarters / 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stages_grow_and_one_of_them_is_the_reviews_budget() {
        let budgets: Vec<Budget> = STAGES_IN_QUARTERS.into_iter().map(scaled).collect();
        assert!(budgets.windows(2).all(|w| w[0].nodes < w[1].nodes));
        assert!(budgets.contains(&analysis::DEFAULT_BUDGET));
    }

    #[test]
    fn the_newest_stream_of_a_player_is_the_only_current_one() {
        let thinking = Thinking::default();
        let first = thinking.begin("p");
        let other = thinking.begin("q");
        assert!(thinking.is_current("p", first));
        let second = thinking.begin("p");
        assert!(!thinking.is_current("p", first));
        assert!(thinking.is_current("p", second));
        assert!(thinking.is_current("q", other));
        // The superseded stream ending does not end its successor.
        thinking.end("p", first);
        assert!(thinking.is_current("p", second));
        thinking.end("p", second);
        assert!(!thinking.is_current("p", second));
    }
}
