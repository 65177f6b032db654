//! The tournaments' clock: once a second, on the node holding the `tournaments` role (or on a
//! node of its own), each upcoming or running tournament is brought in line with the database
//! and with the time.
//!
//! Nothing here remembers what it did: each pass compares the director with the database. A
//! pairing whose table exists is started, one whose game is over in the database is
//! finished, a pairing with no table gets one, and the tournament's status follows its
//! director's phase (its standings frozen at the end). So a pass that a crash cut short is
//! simply done again by the next one, on this node or the next leader.
//!
//! A game's end does not wait for the pass: `news.rs` records it the moment its table ends,
//! through the same events; the pass finds what a lost message left undone.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Weak;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tournament::arena::{PairingStatus, Phase};
use tournament::{Event, PairingId};

use super::schedule::{Made, Schedule};
use super::{Inner, Tournaments};
use crate::error::ApiError;

const EVERY: Duration = Duration::from_secs(1);
/// How often the schedule is read for occurrences to create (and at the first pass).
const SCHEDULE_EVERY: Duration = Duration::from_secs(30);
/// Upcoming and running tournaments directed in one pass, at most, of each status.
const AT_ONCE: i64 = 500;

pub(super) async fn run(
    inner: Weak<Inner>,
    leader: Option<watch::Receiver<bool>>,
    schedule: Option<Schedule>,
) {
    let mut ticks = tokio::time::interval(EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut made = Made::default();
    let mut scheduled_at: Option<Instant> = None;
    loop {
        ticks.tick().await;
        if leader.as_ref().is_some_and(|holding| !*holding.borrow()) {
            // Another node creates the occurrences; this one reads the schedule afresh when it
            // takes the role.
            scheduled_at = None;
            continue;
        }
        let Some(inner) = inner.upgrade() else { return };
        let tournaments = Tournaments(inner);
        if let Some(schedule) = &schedule
            && scheduled_at.is_none_or(|at| at.elapsed() >= SCHEDULE_EVERY)
        {
            match tournaments.create_scheduled(schedule, &mut made).await {
                Ok(_) => scheduled_at = Some(Instant::now()),
                Err(error) => tracing::warn!(%error, "the schedule's pass failed"),
            }
        }
        for status in ["upcoming", "running"] {
            let rows = match tournaments
                .0
                .store
                .tournaments_with_status(status, AT_ONCE)
                .await
            {
                Ok(rows) => rows,
                Err(error) => {
                    tracing::warn!(%error, "cannot list the tournaments to direct");
                    continue;
                }
            };
            for row in rows {
                let pass = match row.kind.as_str() {
                    super::round_robin::KIND => tournaments.direct_round_robin(&row.id).await,
                    _ => tournaments.direct(&row.id).await,
                };
                if let Err(error) = pass {
                    tracing::warn!(tournament = %row.id, %error, "a tournament's pass failed");
                }
            }
        }
    }
}

impl Tournaments {
    /// One pass over tournament `id`.
    pub(super) async fn direct(&self, id: &str) -> Result<(), ApiError> {
        let store = &self.0.store;
        let slot = self.slot(id).await?;
        // Only the games from the oldest pairing still open are read: those before it are over
        // in the director, which nothing in the database changes. The director read without
        // catching up may be behind, which only moves that pairing earlier (a pairing made
        // since has a higher number).
        let from = {
            let loaded = slot.lock().await;
            let arena = &loaded.arena;
            (arena.pairings())
                .find(|(_, record)| {
                    matches!(
                        record.status,
                        PairingStatus::Created | PairingStatus::Playing
                    )
                })
                .map_or(arena.pairings().count(), |(pairing, _)| pairing.0 as usize)
        };
        // Read before the arena is locked, so that a game's end recorded meanwhile (news.rs)
        // does not wait for this read. Only this pass links tables to pairings, so a pairing
        // without a game here has no table yet; an end not seen here is the next pass's, or
        // already recorded.
        let games: HashMap<u32, store::TournamentGame> = store
            .tournament_games_from(id, from as i64)
            .await?
            .into_iter()
            .map(|game| (game.pairing as u32, game))
            .collect();
        let unopened: Vec<_> = {
            let mut loaded = slot.lock().await;
            loaded.catch_up(store).await?;
            for (event, happened) in game_events(&loaded.arena, &games) {
                loaded.apply_at(store, happened, &event, None).await?;
            }
            loaded.apply(store, &Event::Tick, None).await?;
            // Through the guard once, so that the director and the row are borrowed apart.
            let loaded = &mut *loaded;
            let arena = &loaded.arena;
            let players = || {
                (arena.standings_unmarked().into_iter())
                    .filter(|line| !line.withdrawn)
                    .map(|line| line.player.as_str().to_string())
                    .collect()
            };
            self.announce_start(&mut loaded.row, players).await?;
            (arena.pairings())
                .skip(from)
                .filter(|(pairing, record)| {
                    record.status == PairingStatus::Created && !games.contains_key(&pairing.0)
                })
                .map(|(pairing, record)| (pairing, record.seats.clone()))
                .collect()
        };
        // Tables are opened with the arena unlocked: a game's end and the standings' readers
        // do not wait for the pass to open a second's worth of tables.
        for (pairing, seats) in unopened {
            self.open_pairing(&slot, pairing, seats).await?;
        }
        let mut loaded = slot.lock().await;
        loaded.catch_up(store).await?;
        let status = match loaded.arena.phase() {
            Phase::Upcoming => "upcoming",
            Phase::Running => "running",
            Phase::Finished => "finished",
        };
        if status != loaded.row.status {
            let standings = match loaded.arena.phase() {
                Phase::Finished => Some(
                    serde_json::to_string(&loaded.arena.standings())
                        .map_err(|e| ApiError::internal("standings do not write", e))?,
                ),
                _ => None,
            };
            store
                .set_tournament_status(id, status, standings.as_deref())
                .await?;
            loaded.row.status = status.to_string();
            loaded.row.standings = standings;
            if loaded.arena.phase() == Phase::Finished {
                // Nothing more happens to it: a later reader replays its log once.
                self.unload(id);
            }
        }
        Ok(())
    }
}

/// What the database knows of the tournament's games that the director does not yet: tables
/// that started, games that ended (with when they ended).
pub(super) fn game_events(
    arena: &tournament::arena::Arena,
    games: &HashMap<u32, store::TournamentGame>,
) -> Vec<(Event, Option<u64>)> {
    let mut events = Vec::new();
    for (pairing, record) in arena.pairings() {
        let Some(game) = games.get(&pairing.0) else {
            continue;
        };
        let playing = match record.status {
            PairingStatus::Created => {
                let started = Event::GameStarted {
                    pairing,
                    game: game.game_id.clone(),
                };
                events.push((started, None));
                true
            }
            PairingStatus::Playing => true,
            _ => false,
        };
        if playing && let Some(end) = ending(pairing, game) {
            let happened = game.finished_at.map(|at| at.max(0) as u64);
            events.push((end, happened));
        }
    }
    events
}

/// The event for a game over in the database, if it is (round robins' too).
pub(super) fn ending(pairing: PairingId, game: &store::TournamentGame) -> Option<Event> {
    match game.status.as_str() {
        "aborted" => Some(Event::GameAborted { pairing }),
        "finished" => {
            let outcome = game
                .result
                .as_deref()
                .and_then(|text| catalog::Outcome::from_str(text).ok());
            Some(match outcome {
                Some(outcome @ (catalog::Outcome::Win(_) | catalog::Outcome::Draw)) => {
                    Event::GameFinished {
                        pairing,
                        outcome,
                        plies: game.plies.max(0) as u32,
                        berserk: game.berserk,
                    }
                }
                // A finished game without a two-player result counts for nobody.
                _ => Event::GameAborted { pairing },
            })
        }
        _ => None,
    }
}
