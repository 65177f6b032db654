//! "A tournament about to start": [`LEAD_MINUTES`] minutes (of the tournaments' calendar)
//! before an upcoming tournament starts, the runner's pass on the node holding the
//! `tournaments` role queues one push to each of its players still in it, on every device
//! they subscribed, unless they switched the kind off. The store marks the tournament in the
//! transaction that queues the pushes, so a pass done again, a restarted node or the next
//! leader never queues them twice. None is sent for a tournament set up less than that long
//! before its start (whoever joins it is on the site then), nor once it has started (a site
//! that was down would bring the news late).

use super::Tournaments;
use crate::error::ApiError;
use crate::unix_time::unix_ms;

/// How many minutes before the start the players are told.
pub const LEAD_MINUTES: i64 = 5;

/// The push kind, which a player can switch off.
pub const KIND: record::NoteKind = record::NoteKind::TournamentStart;

impl Tournaments {
    /// Queues the start's pushes for the players `players` gives when they are due (at most
    /// once); the players are asked for only then, since every pass comes here.
    pub(super) async fn announce_start(
        &self,
        row: &mut store::TournamentRow,
        players: impl FnOnce() -> Vec<String>,
    ) -> Result<(), ApiError> {
        let now = unix_ms();
        let minute_ms = self.0.minute.as_millis() as i64;
        if !due(row, minute_ms, now) {
            return Ok(());
        }
        let players = players();
        let first = self
            .0
            .store
            .queue_tournament_start(&row.id, &row.kind, &row.game, &players, KIND, now)
            .await?;
        if first {
            tracing::info!(tournament = %row.id, players = players.len(), "its start is announced");
        }
        row.start_pushed = true;
        Ok(())
    }
}

/// Whether `row`'s start is to be announced at `now` (unix ms).
fn due(row: &store::TournamentRow, minute_ms: i64, now: i64) -> bool {
    let from = row.starts_at - LEAD_MINUTES * minute_ms;
    row.status == "upcoming"
        && !row.start_pushed
        && row.created_at < from
        && (from..row.starts_at).contains(&now)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(created_at: i64, starts_at: i64) -> store::TournamentRow {
        store::TournamentRow {
            id: "t".into(),
            kind: "arena".into(),
            // Which game does not matter here.
            game: "a-game".into(),
            variant: "its-variant".into(),
            clock_initial_ms: 60_000,
            clock_increment_ms: 0,
            rated: true,
            starts_at,
            ends_at: starts_at + 600_000,
            status: "upcoming".into(),
            creator_id: None,
            settings: "{}".into(),
            standings: None,
            created_at,
            players: 2,
            move_days: None,
            vacation: true,
            start_pushed: false,
            scheduled: false,
        }
    }

    #[test]
    fn due_in_the_last_minutes_before_the_start_once() {
        let minute = 60_000;
        let t = row(0, 60 * minute);
        assert!(!due(&t, minute, 54 * minute), "too early");
        assert!(due(&t, minute, 55 * minute));
        assert!(due(&t, minute, 60 * minute - 1));
        assert!(!due(&t, minute, 60 * minute), "started: late news");
        let told = store::TournamentRow {
            start_pushed: true,
            ..t.clone()
        };
        assert!(!due(&told, minute, 56 * minute), "told already");
        let running = store::TournamentRow {
            status: "running".into(),
            ..t
        };
        assert!(!due(&running, minute, 56 * minute));
    }

    #[test]
    fn none_for_a_tournament_set_up_just_before_its_start() {
        let minute = 60_000;
        assert!(!due(&row(56 * minute, 60 * minute), minute, 57 * minute));
        assert!(!due(&row(55 * minute, 60 * minute), minute, 57 * minute));
        assert!(due(&row(55 * minute - 1, 60 * minute), minute, 57 * minute));
    }
}
