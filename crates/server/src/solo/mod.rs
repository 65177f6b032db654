//! What solo games (one player against the dice) have beside the table, in one place: White
//! Rabbit's hints, the review written when a game ends, the daily deal and the solver's exact
//! tables. The tables, the hub and the routes reach it through [`Solo`] and [`SoloGame`],
//! keyed by the catalogue's id, and name no game.
//!
//! - `daily.rs`: the daily deal's seeds and days, and what perfect play expects of a deal;
//! - `ranking.rs`: the one order of hint lists and reviews, and hint mode's budget;
//! - `hints.rs`: the hints at a game in progress;
//! - `review.rs`: the review of a finished game, written at its end and kept;
//! - `tables.rs`: the solver's exact tables, loaded and built in the background.
//!
//! Everything here that computes runs on the CPU pool: hints at the hints' priority, reviews
//! at the reviews', the tables' build at the lowest, yielding to the others between its
//! sweeps.

pub mod daily;
pub(crate) mod hints;
mod ranking;
pub(crate) mod review;
pub mod tables;

use std::sync::Arc;

use catalog::GameId;

pub use tables::{DEFAULT_DIR, ExactTables, TableSource, TablesStatus};

use crate::cpu_pool::CpuPool;
use crate::table::services::SoloEnd;

/// The solo games that have helpers here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoloGame {
    WhiteRabbit,
}

impl SoloGame {
    /// The helpers of `game`, if it has any.
    pub fn of(game: GameId) -> Option<SoloGame> {
        match game {
            GameId::WhiteRabbit => Some(SoloGame::WhiteRabbit),
            _ => None,
        }
    }

    /// The helpers of the game with the catalogue id `id` (as a stored record names it).
    pub fn named(id: &str) -> Option<SoloGame> {
        id.parse().ok().and_then(SoloGame::of)
    }
}

/// The helpers of solo games on this node: the daily deal's key, the exact tables, and the
/// store and the CPU pool they work with.
pub struct Solo {
    store: store::Store,
    cpu: CpuPool,
    /// The key of every daily deal's seed ([`daily::daily_seed`]); it never leaves the server.
    daily_key: String,
    tables: Option<Arc<ExactTables>>,
}

impl Solo {
    /// The helpers, with the exact tables of `tables` (if any) starting to load and build on
    /// `cpu` (the caller's Tokio runtime drives them).
    pub fn start(
        store: store::Store,
        cpu: CpuPool,
        daily_key: String,
        tables: Option<TableSource>,
    ) -> Solo {
        let tables = tables.map(|source| Arc::new(ExactTables::start(source, cpu.clone())));
        Solo {
            store,
            cpu,
            daily_key,
            tables,
        }
    }

    /// The seed of `day`'s daily deal: the same for every player on this deployment.
    pub fn daily_seed(&self, day: &str) -> u64 {
        daily::daily_seed(self.daily_key.as_bytes(), day)
    }

    /// What `/healthz` says of the exact tables (`None`: the server has none).
    pub fn tables_status(&self) -> Option<TablesStatus> {
        self.tables.as_ref().map(|t| t.status())
    }
}

/// The first seed `draw` gives (asked with attempts 0, 1, 2, …) whose game is not over before
/// its first action. A White Rabbit deal can start won (six equal table dice, the white die in
/// hand: about one deal in 9,000), which the rules count as a win at once; the site never
/// deals one, so that every table is something to play (docs/rules-decisions.md).
pub fn playable_seed(variant: catalog::VariantId, mut draw: impl FnMut(u32) -> u64) -> u64 {
    (0..)
        .map(&mut draw)
        .find(|&seed| !catalog::AnyGame::new(variant, seed).is_over())
        .expect("some deal starts unfinished")
}

impl SoloEnd for Solo {
    fn finished(&self, game: GameId, table: &str) {
        match SoloGame::of(game) {
            Some(SoloGame::WhiteRabbit) => review::write_in_background(
                self.store.clone(),
                &self.cpu,
                self.tables.clone(),
                table.to_string(),
            ),
            None => {}
        }
    }
}
