//! The schedule's pass, run by the tournaments' runner on the node holding the `tournaments`
//! role: every occurrence starting within its entry's reach ahead is created, owned by the
//! site (no creator). Nothing is remembered but to save work: the database's unique key
//! (entry id and start time) lets each occurrence be created once, whichever node or
//! restart tries again.

use std::collections::HashSet;

use super::{Entry, Kind, Schedule};
use crate::error::ApiError;
use crate::tournaments::Tournaments;
use crate::tournaments::create;
use crate::tournaments::round_robin::create as rr_create;
use crate::unix_time::unix_ms;

/// What the pass has seen done: the occurrences this node knows exist.
#[derive(Default)]
pub struct Made(HashSet<String>);

impl Tournaments {
    /// Creates every occurrence of `schedule` due by now and not yet made; how many it created.
    pub(in crate::tournaments) async fn create_scheduled(
        &self,
        schedule: &Schedule,
        made: &mut Made,
    ) -> Result<usize, ApiError> {
        let now = unix_ms();
        let mut created = 0;
        for entry in &schedule.entries {
            for starts_at in entry.recurrence.starts_between(now, now + entry.ahead_ms) {
                let key = entry.key(starts_at);
                if made.0.contains(&key) {
                    continue;
                }
                let row = self.occurrence(entry, starts_at, now).await?;
                if self.store().create_scheduled_tournament(&row, &key).await? {
                    tracing::info!(%key, tournament = %row.id, "a scheduled tournament is created");
                    created += 1;
                }
                made.0.insert(key);
            }
        }
        // Occurrences that have started are never asked for again.
        made.0.retain(|key| {
            key.rsplit_once('@')
                .and_then(|(_, at)| at.parse::<i64>().ok())
                .is_some_and(|at| at > now)
        });
        Ok(created)
    }

    /// The tournament `entry` holds at `starts_at`, as created at `now`.
    async fn occurrence(
        &self,
        entry: &Entry,
        starts_at: i64,
        now: i64,
    ) -> Result<store::TournamentRow, ApiError> {
        let start = starts_at.max(0) as u64;
        match entry.text.kind {
            Kind::Arena => {
                let request = entry.arena().map_err(ApiError::bad_request)?;
                let arena = create::parse(&request, start, self.minute())?;
                self.arena_row(arena, None, now).await
            }
            Kind::RoundRobin => {
                let new = rr_create::parse(&entry.round_robin(), start, self.minute())?;
                rr_create::round_robin_row(&new, None, now)
            }
        }
    }
}
