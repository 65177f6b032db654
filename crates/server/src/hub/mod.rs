//! The hub: the tables running on this node, the lobby and its watchers, and the quick-match
//! queue.
//!
//! The lobby (`lobby.rs`), quick match (`quick_match.rs`) and the "your turn" counters
//! (`turns.rs`) are parts of the hub in files of their own.
//!
//! State here is an in-memory cache in front of the database: every table can be rebuilt from
//! its stored record (`Hub::resume`), which is what a restart does.

use crate::ws::protocol::TableId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, broadcast, watch};

use crate::cpu_pool::CpuPool;
use crate::error::WsError;
use crate::identity::{random_id, unix_ms};
use crate::outbox::ConnId;
use crate::solo::Solo;
use crate::table::services::{BotPool, BotsOnlyLane, Opening, RematchOf, TableDirectory};
use crate::table::{NewTable, Services, Table, TableHandle, TableSettings};
use crate::ws::protocol::UserView;

mod forwarding;
mod links;
mod lobby;
mod lobby_pages;
mod notes;
pub(crate) use notes::NoteOp;
mod placement;
mod quick_match;
pub use quick_match::QueueKey;
mod site_live;
mod site_lobby;
mod site_queue;
mod site_users;
mod turns;

use lobby::{Lobby, send_lobby_changes};
use quick_match::pair_waiting_players;
use turns::Turns;

/// Table ends a slow listener may fall behind by before it misses some (the tournaments'
/// runner finds a missed one on its next pass).
const TABLE_ENDS_QUEUE: usize = 4096;

struct Inner {
    store: store::Store,
    /// Where table actors run: one runtime that outlives the HTTP workers, so that a table can
    /// finish its last write during a graceful shutdown.
    runtime: tokio::runtime::Handle,
    /// Where bots think, first of the CPU pool's jobs (see [`CpuPool`]).
    cpu: CpuPool,
    /// A correspondence day (shorter in tests).
    day: Duration,
    bot_time_cap: Option<std::time::Duration>,
    /// The lane where tables of house bots only (the ladder's) think, one move at a time.
    bots_only: BotsOnlyLane,
    /// The solo games' helpers: the daily deal's seeds, and what a finished solo game gets.
    solo: Arc<Solo>,
    tables: Mutex<HashMap<TableId, TableHandle>>,
    lobby: Mutex<Lobby>,
    /// Whose turn it is where, and who is connected: the "your turn" counters.
    turns: Mutex<Turns>,
    /// Notification changes, carried out in order by one task.
    notes: notes::Notes,
    /// Rung on every lobby change; the lobby task sends the result at most every
    /// [`LOBBY_EVERY`].
    lobby_changed: Arc<Notify>,
    /// This node's own part of the lobby changed since it last told the other nodes.
    lobby_own_changed: std::sync::atomic::AtomicBool,
    /// The public games being played now.
    live: crate::live::Live,
    abandon_grace: Duration,
    match_window: rating::Window,
    next_conn: AtomicU64,
    /// This node's part in a site of several (`--redis`); `None` on a node of its own.
    placement: Option<placement::Placement>,
    /// Flips to `true` when the server shuts down: every connection then closes with
    /// "service restart" so that clients reconnect (to this node when it is back, or another).
    closing: watch::Sender<bool>,
    /// Each table of this node whose game has ended (stored), for the arenas to hear of it at
    /// once.
    table_ended: broadcast::Sender<TableId>,
}

#[derive(Clone)]
pub struct Hub(Arc<Inner>);

/// How the hub's games run.
pub struct HubSettings {
    /// A correspondence day (shorter in tests).
    pub day: Duration,
    pub bot_time_cap: Option<std::time::Duration>,
    /// The rest before each move at a table of house bots only (the ladder's), which think
    /// one move at a time whatever their number.
    pub bots_only_rest: Duration,
    /// How long a live game's player may be gone before the opponent may claim the game.
    pub abandon_grace: Duration,
    /// How far apart in rating quick match pairs players, widening as they wait.
    pub match_window: rating::Window,
    /// The bus to the other nodes of the site, when there are several.
    pub bus: Option<cluster::Bus>,
    /// The solo games' helpers, shared with the routes (`AppState::solo`).
    pub solo: Arc<Solo>,
}

impl Hub {
    pub fn new(
        store: store::Store,
        runtime: tokio::runtime::Handle,
        cpu: CpuPool,
        settings: HubSettings,
    ) -> Hub {
        let lobby_changed = Arc::new(Notify::new());
        let (notes, note_ops) = tokio::sync::mpsc::unbounded_channel();
        let hub = Hub(Arc::new(Inner {
            store,
            live: crate::live::Live::start(&runtime),
            runtime: runtime.clone(),
            cpu,
            day: settings.day,
            bot_time_cap: settings.bot_time_cap,
            bots_only: BotsOnlyLane::new(settings.bots_only_rest),
            abandon_grace: settings.abandon_grace,
            match_window: settings.match_window,
            solo: settings.solo,
            tables: Mutex::new(HashMap::new()),
            lobby: Mutex::new(Lobby::default()),
            turns: Mutex::new(Turns::default()),
            notes,
            lobby_changed: lobby_changed.clone(),
            lobby_own_changed: std::sync::atomic::AtomicBool::new(false),
            next_conn: AtomicU64::new(1),
            placement: settings.bus.clone().map(placement::Placement::new),
            closing: watch::Sender::new(false),
            table_ended: broadcast::Sender::new(TABLE_ENDS_QUEUE),
        }));
        runtime.spawn(send_lobby_changes(Arc::downgrade(&hub.0), lobby_changed));
        runtime.spawn(pair_waiting_players(Arc::downgrade(&hub.0)));
        runtime.spawn(notes::carry_out(Arc::downgrade(&hub.0), note_ops));
        if let Some(bus) = &settings.bus {
            runtime.spawn(Hub::keep_leases(Arc::downgrade(&hub.0)));
            runtime.spawn(Hub::sweep_orphans(Arc::downgrade(&hub.0)));
            if let Some(incoming) = bus.incoming() {
                runtime.spawn(hub.clone().serve_other_nodes(incoming));
            }
            runtime.spawn(hub.clone().watch_other_nodes());
            runtime.spawn(hub.clone().hear_lobbies());
            runtime.spawn(hub.clone().hear_users());
            runtime.spawn(hub.clone().share_live_list());
        }
        hub
    }

    /// The live list of public games being played.
    pub fn live(&self) -> &crate::live::Live {
        &self.0.live
    }

    /// Keeps a table that has just started running, and counts the live tables.
    fn keep(tables: &mut HashMap<TableId, TableHandle>, handle: TableHandle) {
        tables.insert(handle.id.clone(), handle);
        metrics::gauge!("stolik_tables_live").set(tables.len() as f64);
    }

    pub fn store(&self) -> &store::Store {
        &self.0.store
    }

    /// The narrow handles a table actor runs with: this hub stands behind the lobby, the
    /// turn counters and the table directory.
    fn services(&self) -> Services {
        Services {
            store: self.store().clone(),
            lobby: Arc::new(self.clone()),
            turns: Arc::new(self.clone()),
            tables: Arc::new(self.clone()),
            live: self.0.live.clone(),
            bots: BotPool {
                cpu: self.0.cpu.clone(),
                time_cap: self.0.bot_time_cap,
                bots_only: self.0.bots_only.clone(),
            },
            solo: self.0.solo.clone(),
            day: self.0.day,
            abandon_grace: self.0.abandon_grace,
        }
    }

    /// The CPU pool: bots think there, and engine reviews queue their positions there one at
    /// a time.
    pub fn cpu_pool(&self) -> CpuPool {
        self.0.cpu.clone()
    }

    pub fn next_conn_id(&self) -> ConnId {
        ConnId(self.0.next_conn.fetch_add(1, Ordering::Relaxed))
    }

    /// Rebuilds every unfinished game from the database after a start: on a site of several
    /// nodes, those no live node runs. `progress` hears how many are back, and of how many
    /// when that is known.
    pub async fn resume(&self, progress: impl Fn(usize, Option<usize>)) -> Result<usize, WsError> {
        if self.placement().is_some() {
            let mut resumed = 0;
            loop {
                let adopted = self.adopt_orphans().await?;
                resumed += adopted;
                progress(resumed, None);
                if adopted == 0 {
                    return Ok(resumed);
                }
            }
        }
        let records = self.store().unfinished_games().await?;
        let of = Some(records.len());
        progress(0, of);
        let mut resumed = 0;
        for record in records {
            let chat = self.store().chat_tail(&record.id, 50).await?;
            match Table::restore(&record, chat, self.services()) {
                Ok(table) => {
                    let handle = table.spawn(&self.0.runtime);
                    Hub::keep(&mut self.0.tables.lock().expect("tables lock"), handle);
                    resumed += 1;
                    progress(resumed, of);
                }
                Err(e) => tracing::error!(game = %record.id, error = %e, "cannot resume a game"),
            }
        }
        Ok(resumed)
    }

    /// Lets the clocks of every resumed table run, and their bots think: called once the server
    /// takes requests, so that nobody's clock is charged for the start-up.
    pub async fn release_resumed(&self) {
        let handles: Vec<TableHandle> = self
            .0
            .tables
            .lock()
            .expect("tables lock")
            .values()
            .cloned()
            .collect();
        for handle in handles {
            handle.release().await;
        }
    }

    /// The table with this id: running here, loaded from the database, or (on a site of
    /// several nodes) run by another node.
    pub async fn table(&self, id: &TableId) -> Result<TableHandle, WsError> {
        if let Some(handle) = self.running(id) {
            return Ok(handle);
        }
        match self.place(id).await? {
            placement::Place::Here => self.load(id).await,
            placement::Place::At(_) => Ok(self.elsewhere(id)),
        }
    }

    /// Loads table `id` from the database and runs it here (unless it already runs).
    async fn load(&self, id: &TableId) -> Result<TableHandle, WsError> {
        let record = self
            .store()
            .game(id)
            .await?
            .ok_or_else(|| WsError::not_found("table"))?;
        let chat = self.store().chat_tail(id, 50).await?;
        let table = Table::restore(&record, chat, self.services())
            .map_err(|e| WsError::internal("a stored game does not replay", e))?;
        let handle = {
            let mut tables = self.0.tables.lock().expect("tables lock");
            // Another request may have loaded it meanwhile: keep the first.
            if let Some(handle) = tables.get(id).filter(|h| !h.is_closed()) {
                return Ok(handle.clone());
            }
            let handle = table.spawn(&self.0.runtime);
            Hub::keep(&mut tables, handle.clone());
            handle
        };
        // Loaded while serving: its clock runs from now.
        handle.release().await;
        self.watch_here_again(&handle).await;
        Ok(handle)
    }

    fn running(&self, id: &TableId) -> Option<TableHandle> {
        let tables = self.0.tables.lock().expect("tables lock");
        tables.get(id).filter(|h| !h.is_closed()).cloned()
    }

    fn running_tables(&self) -> Vec<TableHandle> {
        let tables = self.0.tables.lock().expect("tables lock");
        tables.values().cloned().collect()
    }

    /// Ends the subscription of connection `conn` to table `id`, wherever the table runs now.
    pub async fn unsubscribe(&self, id: &TableId, conn: ConnId) {
        match self.running(id) {
            Some(handle) => handle.unsubscribe(conn).await,
            None if self.placement().is_some() => self.elsewhere(id).unsubscribe(conn).await,
            None => {}
        }
    }

    /// Tells every connection to close (the first step of a graceful shutdown).
    pub fn close_connections(&self) {
        self.0.closing.send_replace(true);
    }

    /// Resolves once [`Hub::close_connections`] was called.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.0.closing.subscribe()
    }

    /// Asks every table to finish the command it is on and stop, and waits for them.
    pub async fn shutdown(&self) {
        let tables: Vec<TableHandle> = self
            .0
            .tables
            .lock()
            .expect("tables lock")
            .drain()
            .map(|(_, handle)| handle)
            .collect();
        for table in tables {
            table.stop().await;
            // Another node may take it over at once; the nodes of its watchers are told.
            if let Some(placement) = self.placement() {
                let _ = self
                    .store()
                    .release_lease(&table.id, placement.node())
                    .await;
                placement.links.table_stopped(&table.id);
            }
        }
    }

    pub(crate) fn forget_table(&self, id: &TableId) {
        self.set_turn(id, None);
        {
            let mut tables = self.0.tables.lock().expect("tables lock");
            tables.remove(id);
            metrics::gauge!("stolik_tables_live").set(tables.len() as f64);
        }
        self.set_lobby_entry(id, None);
        if let Some(placement) = self.placement() {
            placement.links.table_stopped(id);
        }
        self.release_lease(id);
    }

    /// Creates, records and starts a table. `seats` are filled in order; a table whose seats
    /// are all taken starts at once.
    pub async fn create_table(
        &self,
        settings: TableSettings,
        host: Option<UserView>,
        seats: Vec<Option<UserView>>,
        rematch_of: Option<RematchOf>,
    ) -> Result<TableHandle, WsError> {
        let id = TableId::random();
        let token = match &rematch_of {
            Some(previous) => previous.token.clone(),
            None => random_id(24),
        };
        let seed = match settings.daily().or(settings.practice()) {
            Some(day) => self.0.solo.daily_seed(day),
            None => crate::solo::playable_seed(settings.variant(), |_| rand::random()),
        };
        let created_at = unix_ms();
        let new_game = store::NewGame {
            id: id.to_string(),
            game: settings.variant().game().as_str().to_string(),
            variant: settings.variant().as_str().to_string(),
            seed,
            private: settings.private(),
            invite_token: Some(token.clone()),
            clock_initial_ms: settings.control().map(|c| c.initial_ms as i64),
            clock_increment_ms: settings.control().map(|c| c.increment_ms as i64),
            move_days: settings.days().map(i64::from),
            host_id: host.as_ref().map(|h| h.id.clone()),
            rematch_of: rematch_of.map(|previous| previous.id),
            created_at,
            daily: settings.daily().map(str::to_string),
            rated: settings.rated(),
            rating_range: settings.rating_range(),
            seats: seats
                .iter()
                .map(|s| {
                    s.as_ref().map(|u| match crate::table::bot_level(u) {
                        Some(level) => store::Occupant::Bot(level.to_string()),
                        None => store::Occupant::User(u.id.clone()),
                    })
                })
                .collect(),
        };
        let table = Table::new(
            NewTable {
                id,
                settings,
                seed,
                token,
                host,
                seats,
                created_at,
            },
            self.services(),
        );
        // In the directory before anyone can hear of it: a start tells the players (a bot's
        // event stream among them), and whoever asks for the table then must find this one,
        // not load a second copy from the database whose end would take this one's place.
        let (mut table, handle) = table.address();
        Hub::keep(
            &mut self.0.tables.lock().expect("tables lock"),
            handle.clone(),
        );
        let opened = async {
            self.record_new_table(&new_game).await?;
            if new_game.seats.iter().all(Option::is_some) {
                table.start().await?;
            }
            Ok::<(), WsError>(())
        };
        if let Err(e) = opened.await {
            self.forget_table(&handle.id);
            return Err(e);
        }
        table.spawn(&self.0.runtime);
        Ok(handle)
    }
}

impl TableDirectory for Hub {
    fn open(
        &self,
        settings: TableSettings,
        host: Option<UserView>,
        seats: Vec<Option<UserView>>,
        rematch_of: Option<RematchOf>,
    ) -> Opening<'_> {
        Box::pin(self.create_table(settings, host, seats, rematch_of))
    }

    fn forget(&self, id: &TableId) {
        // The actor that ended has closed its queue: a live entry is another actor's.
        if self.running(id).is_none() {
            self.forget_table(id);
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Wakes the lobby task so that it sees the hub is gone and ends.
        self.lobby_changed.notify_one();
    }
}
