//! What every request handler and socket can reach: built once at start-up (`startup.rs`).

use crate::health::Health;
use crate::hub::Hub;
use crate::limits::Limits;
use crate::passwords::PasswordWork;
use crate::restoring::Restore;
use crate::security::SecurityConfig;
use crate::sessions::Sessions;

pub struct AppState {
    pub store: store::Store,
    pub hub: Hub,
    pub sessions: Sessions,
    pub limits: Limits,
    pub security: SecurityConfig,
    pub passwords: PasswordWork,
    pub health: Health,
    /// The solo games' helpers: hints, reviews, the daily deal, the exact tables.
    pub solo: std::sync::Arc<crate::solo::Solo>,
    /// Whether the unfinished tables are back yet (`/healthz` reports it).
    pub restore: std::sync::Arc<Restore>,
    /// The site's Web Push keys and settings.
    pub push: std::sync::Arc<crate::push::Push>,
    /// This node's queue of engine reviews.
    pub reviews: crate::analysis::Reviews,
    /// The analysis board's engine: who is thinking about which position.
    pub thinking: crate::thinking::Thinking,
    /// Arenas: their directors, their runner and their live standings.
    pub tournaments: crate::tournaments::Tournaments,
    /// How long a challenge waits for its answer.
    pub challenge_ttl: std::time::Duration,
}
