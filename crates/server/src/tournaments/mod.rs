//! Tournaments on the server: the pure directors of crate `tournament` driven by the
//! database and the tables (docs/tournaments.md).
//!
//! - `log.rs`: a director rebuilt from its stored event log and kept up to date with it;
//! - `create.rs`: a new arena as a player asks for it, checked;
//! - `runner.rs`: the loop on the node holding the `tournaments` role — time passing, game
//!   endings fed in, statuses and frozen standings written;
//! - `pairings.rs`: a pairing's table opened and its players told;
//! - `news.rs`: a game's end recorded in its arena at once, and every node's feed told;
//! - `feed.rs`: the live standings for the sockets that watch them (`patch.rs`: a line's
//!   change as sent);
//! - `chat.rs`: each tournament's chat room, stored and read back by every node;
//! - `start_push.rs`: the players pushed a few minutes before a tournament starts;
//! - `views.rs`: what the API and the socket show;
//! - `round_robin/`: round robins, run the same way by their own director;
//! - `schedule/`: the site's own events, from the schedule in its configuration, created
//!   ahead by the runner;
//! - `records.rs`: the tournaments a player took part in, with their places.
//!
//! [`Tournaments`] is the narrow handle the routes and sockets hold (`AppState`). Players'
//! requests (join, withdraw, pause, resume) are applied by whichever node receives them:
//! the log's key keeps the nodes in one order. Only the leader acts on what the director
//! decides, by comparing the director with the database (a pairing without a table gets
//! one; a game over in the database is fed in), so a restart in the middle resumes where
//! the database says.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tournament::{Event, PlayerId};

use crate::error::{ApiError, ErrorCode};
use crate::hub::Hub;
use crate::identity::UserView;

pub mod chat;
pub mod create;
mod feed;
mod log;
mod news;
mod pairings;
mod patch;
pub mod records;
pub mod round_robin;
mod runner;
pub mod schedule;
pub mod start_push;
pub mod views;

pub use log::Loaded;

/// How long the `tournaments` role is held without renewal: a dead leader's successor takes
/// over within this time.
const LEADER_TTL: Duration = Duration::from_secs(5);

/// One tournament, loaded once per node and shared by its requests.
type Slot = Arc<tokio::sync::Mutex<Loaded>>;

struct Inner {
    store: store::Store,
    hub: Hub,
    /// A minute of the tournaments' calendar (shorter in tests).
    minute: Duration,
    loaded: Mutex<HashMap<String, Slot>>,
    /// The round robins loaded here, apart from the arenas.
    round_robins: Mutex<HashMap<String, round_robin::RoundRobinSlot>>,
    feed: feed::Feed,
    rooms: chat::Rooms,
    /// The `tournaments` role on a site of several nodes, held while this value lives.
    leader: Option<cluster::Leader>,
    /// The bus to the other nodes, for the tournaments' news.
    bus: Option<cluster::Bus>,
}

#[derive(Clone)]
pub struct Tournaments(Arc<Inner>);

/// What a player may ask of a tournament they are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Join,
    Withdraw,
    Pause,
    Resume,
}

impl Tournaments {
    /// The service, with its runner (on the node holding the `tournaments` role when the
    /// site has several nodes, `bus`; on this node alone otherwise), which also creates the
    /// occurrences of `schedule`, and its feed.
    pub fn start(
        store: store::Store,
        hub: Hub,
        minute: Duration,
        bus: Option<&cluster::Bus>,
        schedule: Option<schedule::Schedule>,
        runtime: &tokio::runtime::Handle,
    ) -> Tournaments {
        let leader = bus.map(|bus| cluster::Leader::start(bus, "tournaments", LEADER_TTL));
        let holding = leader.as_ref().map(cluster::Leader::watch);
        let tournaments = Tournaments(Arc::new(Inner {
            store,
            hub,
            minute,
            loaded: Mutex::new(HashMap::new()),
            round_robins: Mutex::new(HashMap::new()),
            feed: feed::Feed::default(),
            rooms: chat::Rooms::default(),
            leader,
            bus: bus.cloned(),
        }));
        runtime.spawn(runner::run(
            Arc::downgrade(&tournaments.0),
            holding,
            schedule,
        ));
        runtime.spawn(feed::send_changes(
            Arc::downgrade(&tournaments.0),
            tournaments.0.feed.woken.clone(),
        ));
        runtime.spawn(news::take_ends(
            Arc::downgrade(&tournaments.0),
            tournaments.0.hub.table_ends(),
        ));
        if let Some(bus) = bus {
            runtime.spawn(news::listen(Arc::downgrade(&tournaments.0), bus.clone()));
        }
        runtime.spawn(chat::send_chat(Arc::downgrade(&tournaments.0)));
        tournaments
    }

    pub fn store(&self) -> &store::Store {
        &self.0.store
    }

    pub fn minute(&self) -> Duration {
        self.0.minute
    }

    /// The names of tournament `id`'s entrants, by user id.
    pub(super) async fn entrant_names(
        &self,
        id: &str,
    ) -> Result<HashMap<String, String>, ApiError> {
        Ok(self
            .0
            .store
            .tournament_entrants(id)
            .await?
            .into_iter()
            .collect())
    }

    /// Tournament `id`, loaded (404 when there is none).
    pub async fn slot(&self, id: &str) -> Result<Slot, ApiError> {
        if let Some(slot) = self.0.loaded.lock().expect("tournaments lock").get(id) {
            return Ok(slot.clone());
        }
        let row = self
            .0
            .store
            .tournament(id)
            .await?
            .ok_or_else(|| ApiError::not_found("tournament"))?;
        if row.kind == round_robin::KIND {
            return Err(ApiError::new(
                ErrorCode::WrongState,
                "a round robin is not followed live: read GET /api/tournaments/{id}",
            ));
        }
        let loaded = Loaded::load(&self.0.store, row).await?;
        let mut all = self.0.loaded.lock().expect("tournaments lock");
        // Another request may have loaded it meanwhile: keep the first.
        Ok(all
            .entry(id.to_string())
            .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(loaded)))
            .clone())
    }

    /// Forgets a tournament that is over and frozen (its record is read from the row).
    fn unload(&self, id: &str) {
        self.0.loaded.lock().expect("tournaments lock").remove(id);
    }

    /// Carries out a player's request in tournament `id`. Accounts only.
    pub async fn ask(&self, id: &str, user: &UserView, request: Request) -> Result<(), ApiError> {
        if user.guest {
            return Err(ApiError::new(
                ErrorCode::Forbidden,
                "tournaments are for accounts: sign up to take part",
            ));
        }
        if let Some(slot) = self.round_robin(id).await? {
            return self.ask_round_robin(slot, user, request).await;
        }
        let slot = self.slot(id).await?;
        let mut loaded = slot.lock().await;
        let player = PlayerId::new(user.id.clone());
        let (event, entrant) = match request {
            Request::Join => {
                let row = &loaded.row;
                let class = rating::Class::of(
                    Some((row.clock_initial_ms as u64, row.clock_increment_ms as u64)),
                    None,
                );
                let rating = self.0.store.rating(&user.id, &row.game, class).await?;
                let rating = rating.rating.round() as i32;
                (Event::Join { player, rating }, Some(user.id.as_str()))
            }
            Request::Withdraw => (Event::Withdraw { player }, None),
            Request::Pause => (Event::Pause { player }, None),
            Request::Resume => (Event::Resume { player }, None),
        };
        loaded.apply(&self.0.store, &event, entrant).await?;
        Ok(())
    }
}
