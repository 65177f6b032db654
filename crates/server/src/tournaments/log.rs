//! A tournament's director rebuilt from its stored event log, and kept up to date with it.
//!
//! The log (`tournament_events`) is the truth: every node may append to it, each event under
//! the next number, and the `(tournament, seq)` key lets exactly one writer take a number. A
//! writer that loses catches up on the events it missed and tries again, so that the director
//! in memory always equals a replay of the log. A tick that decides nothing is not logged: it
//! moves only the director's idea of the time, which the next event's time moves anyway.
//! The log's functions serve both kinds of director ([`Director`]).

use tournament::arena::Arena;
use tournament::round_robin::RoundRobin;
use tournament::{Decision, Event};

use crate::error::{ApiError, ErrorCode};
use crate::unix_time::unix_ms;

/// How many times an append is tried when other writers keep taking the number.
const APPEND_TRIES: usize = 8;

/// One tournament as this node knows it.
pub struct Loaded {
    pub row: store::TournamentRow,
    pub arena: Arena,
    /// The number of the last event applied (-1 before any).
    pub seq: i64,
}

/// A director whose events are logged: the arena's and the round robin's.
pub(super) trait Director: Clone {
    fn take(&mut self, at: u64, event: &Event) -> Result<Vec<Decision>, tournament::Error>;
    /// Whether `take` would accept `event` at `at`, changing nothing.
    fn accepts(&self, at: u64, event: &Event) -> Result<(), tournament::Error>;
}

impl Director for Arena {
    fn take(&mut self, at: u64, event: &Event) -> Result<Vec<Decision>, tournament::Error> {
        self.apply(at, event)
    }

    fn accepts(&self, at: u64, event: &Event) -> Result<(), tournament::Error> {
        Arena::accepts(self, at, event)
    }
}

impl Director for RoundRobin {
    fn take(&mut self, at: u64, event: &Event) -> Result<Vec<Decision>, tournament::Error> {
        self.apply(at, event)
    }

    fn accepts(&self, at: u64, event: &Event) -> Result<(), tournament::Error> {
        RoundRobin::accepts(self, at, event)
    }
}

/// Applies to `director` (which has applied events up to `seq`) the events of tournament
/// `id` other writers logged since.
pub(super) async fn catch_up<D: Director>(
    store: &store::Store,
    id: &str,
    seq: &mut i64,
    director: &mut D,
) -> Result<(), ApiError> {
    for stored in store.tournament_events_after(id, *seq).await? {
        let event: Event = serde_json::from_str(&stored.event)
            .map_err(|e| ApiError::internal("a stored tournament event does not read", e))?;
        // A logged event was accepted once; replayed in order it is accepted again.
        director
            .take(stored.at as u64, &event)
            .map_err(|e| ApiError::internal("a logged tournament event is refused", e))?;
        *seq = stored.seq;
    }
    Ok(())
}

/// Applies `event` (that happened at `happened`, or now) to `director` and logs it under the
/// next number, catching up and trying again when another writer took that number.
pub(super) async fn append<D: Director>(
    store: &store::Store,
    id: &str,
    seq: &mut i64,
    director: &mut D,
    happened: Option<u64>,
    event: &Event,
    entrant: Option<&str>,
) -> Result<Vec<Decision>, ApiError> {
    for _ in 0..APPEND_TRIES {
        catch_up(store, id, seq, director).await?;
        let at = happened.unwrap_or_else(|| unix_ms().max(0) as u64);
        // A tick is logged only when it decides something, which only taking it tells: it is
        // taken on a copy (once a second). Any other event is checked, logged, then taken, so
        // that a game's end does not copy an arena of thousands of games.
        let ticked = match event {
            Event::Tick => {
                let mut next = director.clone();
                let decisions = next.take(at, event).map_err(refusal)?;
                if decisions.is_empty() {
                    *director = next;
                    return Ok(decisions);
                }
                Some((next, decisions))
            }
            _ => {
                director.accepts(at, event).map_err(refusal)?;
                None
            }
        };
        let stored = store::TournamentEvent {
            seq: *seq + 1,
            at: at as i64,
            event: serde_json::to_string(event)
                .map_err(|e| ApiError::internal("a tournament event does not write", e))?,
        };
        match store.append_tournament_event(id, &stored, entrant).await {
            Ok(()) => {
                *seq = stored.seq;
                return match ticked {
                    Some((next, decisions)) => {
                        *director = next;
                        Ok(decisions)
                    }
                    None => director.take(at, event).map_err(|e| {
                        ApiError::internal("a checked tournament event is refused", e)
                    }),
                };
            }
            Err(store::StoreError::Conflict) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::new(
        ErrorCode::Busy,
        "the tournament is busy: try again in a moment",
    ))
}

impl Loaded {
    /// Builds the director from the row's settings and replays the whole log.
    pub async fn load(store: &store::Store, row: store::TournamentRow) -> Result<Loaded, ApiError> {
        let settings = serde_json::from_str(&row.settings)
            .map_err(|e| ApiError::internal("a stored tournament's settings do not read", e))?;
        let arena =
            Arena::new(settings).map_err(|e| ApiError::internal("a stored tournament", e))?;
        let mut loaded = Loaded {
            row,
            arena,
            seq: -1,
        };
        loaded.catch_up(store).await?;
        Ok(loaded)
    }

    /// Applies the events other writers logged since this node last looked.
    pub async fn catch_up(&mut self, store: &store::Store) -> Result<(), ApiError> {
        catch_up(store, &self.row.id, &mut self.seq, &mut self.arena).await
    }

    /// Applies `event` now and logs it (with `entrant` recorded as having entered). A refused
    /// event changes nothing and says why.
    pub async fn apply(
        &mut self,
        store: &store::Store,
        event: &Event,
        entrant: Option<&str>,
    ) -> Result<Vec<Decision>, ApiError> {
        self.apply_at(store, None, event, entrant).await
    }

    /// [`Loaded::apply`] for an event that happened at `happened` (unix ms) rather than now:
    /// a game that ended before the tournament did counts, however late the pass that sees
    /// it (the director takes the later of this and its last event's time).
    pub async fn apply_at(
        &mut self,
        store: &store::Store,
        happened: Option<u64>,
        event: &Event,
        entrant: Option<&str>,
    ) -> Result<Vec<Decision>, ApiError> {
        let (id, seq, arena) = (&self.row.id, &mut self.seq, &mut self.arena);
        append(store, id, seq, arena, happened, event, entrant).await
    }
}

/// What a player is told when the director refuses their request. Each error has its status:
/// the match has no wildcard arm, so a new error cannot compile without one.
fn refusal(error: tournament::Error) -> ApiError {
    use tournament::Error as E;
    let message = error.to_string();
    match error {
        E::AlreadyJoined(_)
        | E::NotJoined(_)
        | E::Withdrew(_)
        | E::NotPaused(_)
        | E::AlreadyPaused(_)
        | E::Full(_)
        | E::Started
        | E::NotStarted
        | E::Over
        | E::BerserkOff
        | E::HouseBot(_) => ApiError::new(ErrorCode::WrongState, message),
        E::BadSettings(_) => ApiError::bad_request(message),
        E::NotHere(..)
        | E::UnknownPairing(_)
        | E::GameStartedAlready(_)
        | E::GameNotRunning(_)
        | E::NotTwoPlayers(_) => ApiError::internal("the tournament refused the server", message),
    }
}
