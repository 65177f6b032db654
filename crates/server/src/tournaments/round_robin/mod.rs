//! Round robins run by the server (docs/tournaments.md): the pure director of
//! `tournament::round_robin` driven by the database and the tables, as arenas are.
//!
//! - `create.rs`: a new round robin as a player asks for it, checked;
//! - `runner.rs`: its pass on the node holding the `tournaments` role — games opened, endings
//!   fed in, a withdrawn player's running games ended, the record kept at the end;
//! - `views.rs`: its page: the cross table and the games.
//!
//! A round robin is loaded once per node, beside the arenas, and its event log is the same
//! table's (`log.rs` serves both directors). Its clock is a live one or days per move; a
//! correspondence round robin may forbid vacation days, which its games then never take
//! (`tournaments.vacation`, read by the table when a deadline passes).

use std::sync::Arc;

use tournament::round_robin::RoundRobin;
use tournament::{Decision, Event, PlayerId};

use super::log::{append, catch_up};
use super::{Request, Tournaments};
use crate::error::{ApiError, ErrorCode};
use crate::identity::UserView;

pub mod create;
mod runner;
pub mod views;

/// The row's `kind` for a round robin.
pub const KIND: &str = "round_robin";

/// One round robin as this node knows it.
pub struct LoadedRoundRobin {
    pub row: store::TournamentRow,
    pub director: RoundRobin,
    /// The number of the last event applied (-1 before any).
    pub seq: i64,
}

pub(super) type RoundRobinSlot = Arc<tokio::sync::Mutex<LoadedRoundRobin>>;

impl LoadedRoundRobin {
    async fn load(store: &store::Store, row: store::TournamentRow) -> Result<Self, ApiError> {
        let settings = serde_json::from_str(&row.settings)
            .map_err(|e| ApiError::internal("a stored round robin's settings do not read", e))?;
        let director =
            RoundRobin::new(settings).map_err(|e| ApiError::internal("a stored round robin", e))?;
        let mut loaded = LoadedRoundRobin {
            row,
            director,
            seq: -1,
        };
        loaded.catch_up(store).await?;
        Ok(loaded)
    }

    pub async fn catch_up(&mut self, store: &store::Store) -> Result<(), ApiError> {
        catch_up(store, &self.row.id, &mut self.seq, &mut self.director).await
    }

    /// Applies `event` (that happened at `happened`, or now) and logs it.
    pub async fn apply_at(
        &mut self,
        store: &store::Store,
        happened: Option<u64>,
        event: &Event,
        entrant: Option<&str>,
    ) -> Result<Vec<Decision>, ApiError> {
        let (id, seq, director) = (&self.row.id, &mut self.seq, &mut self.director);
        append(store, id, seq, director, happened, event, entrant).await
    }

    /// The rating class its games are played in.
    fn class(&self) -> rating::Class {
        let row = &self.row;
        let days = row.move_days.and_then(|d| u8::try_from(d).ok());
        let clock = (row.clock_initial_ms as u64, row.clock_increment_ms as u64);
        rating::Class::of(days.is_none().then_some(clock), days)
    }
}

impl Tournaments {
    /// Tournament `id` when it is a round robin, loaded; `None` for an arena (404 when there is
    /// no such tournament).
    pub(super) async fn round_robin(&self, id: &str) -> Result<Option<RoundRobinSlot>, ApiError> {
        if let Some(slot) = self
            .0
            .round_robins
            .lock()
            .expect("round robins lock")
            .get(id)
        {
            return Ok(Some(slot.clone()));
        }
        if self
            .0
            .loaded
            .lock()
            .expect("tournaments lock")
            .contains_key(id)
        {
            return Ok(None);
        }
        let row = self
            .0
            .store
            .tournament(id)
            .await?
            .ok_or_else(|| ApiError::not_found("tournament"))?;
        if row.kind != KIND {
            return Ok(None);
        }
        let loaded = LoadedRoundRobin::load(&self.0.store, row).await?;
        let mut all = self.0.round_robins.lock().expect("round robins lock");
        // Another request may have loaded it meanwhile: keep the first.
        Ok(Some(
            all.entry(id.to_string())
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(loaded)))
                .clone(),
        ))
    }

    /// Forgets a round robin that is over (its record is read from the row and the log).
    fn unload_round_robin(&self, id: &str) {
        let mut all = self.0.round_robins.lock().expect("round robins lock");
        all.remove(id);
    }

    /// A player's request in a round robin: join or withdraw (a round robin has no pause).
    pub(super) async fn ask_round_robin(
        &self,
        slot: RoundRobinSlot,
        user: &UserView,
        request: Request,
    ) -> Result<(), ApiError> {
        let store = &self.0.store;
        let mut loaded = slot.lock().await;
        let player = PlayerId::new(user.id.clone());
        let (event, entrant) = match request {
            Request::Join => {
                let class = loaded.class();
                let rating = store.rating(&user.id, &loaded.row.game, class).await?;
                let rating = rating.rating.round() as i32;
                (Event::Join { player, rating }, Some(user.id.as_str()))
            }
            Request::Withdraw => (Event::Withdraw { player }, None),
            Request::Pause | Request::Resume => {
                return Err(ApiError::new(
                    ErrorCode::WrongState,
                    "a round robin has no pause: each game has its own clock",
                ));
            }
        };
        loaded.apply_at(store, None, &event, entrant).await?;
        Ok(())
    }
}
