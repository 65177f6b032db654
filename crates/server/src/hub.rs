//! The hub: the tables running on this node, the lobby and its watchers, and the quick-match
//! queue.
//!
//! State here is an in-memory cache in front of the database: every table can be rebuilt from
//! its stored record (`Hub::resume`), which is what a restart does.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{Notify, mpsc, watch};

use crate::cpu_pool::CpuPool;

use crate::error::{ErrorCode, WsError};
use crate::identity::{UserView, random_id, unix_ms};
use crate::sessions::MuteList;
use crate::table::clock::TimeControl;
use crate::table::{NewTable, SeatRating, Table, TableHandle, TableSettings};
use crate::ws::protocol::{Message, encode};

/// How many solver hints may be computed at once (each takes up to ~100 ms of one core).
pub const HINTS_AT_ONCE: usize = 2;

/// Identifies one WebSocket connection.
pub type ConnId = u64;

/// One encoded message on its way to connections: reference-counted, so a broadcast encodes
/// once and every subscriber's socket writes the same bytes.
pub type Frame = bytestring::ByteString;

/// The lobby is sent to its watchers at most this often: a burst of new tables is one update.
const LOBBY_EVERY: Duration = Duration::from_millis(250);

/// The sending side of one connection's outgoing queue. The queue is bounded: a client that
/// does not read is disconnected, not buffered for ever.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Frame>,
    overflow: Arc<Notify>,
    /// Whose chat lines this connection's user does not want delivered.
    pub muted: MuteList,
}

impl Outbox {
    pub fn new(capacity: usize, muted: MuteList) -> (Outbox, mpsc::Receiver<Frame>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(capacity);
        let overflow = Arc::new(Notify::new());
        (
            Outbox {
                tx,
                overflow: overflow.clone(),
                muted,
            },
            rx,
            overflow,
        )
    }

    /// Queues a message; `false` once the connection is gone (or was just cut for not
    /// reading), so callers can forget it.
    pub fn send(&self, text: Frame) -> bool {
        match self.tx.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                metrics::counter!("stolik_delivery_drops_total").increment(1);
                self.overflow.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// An open public table as the lobby lists it.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyEntry {
    pub id: String,
    pub game: &'static str,
    pub variant: &'static str,
    pub clock: Option<TimeControl>,
    /// Days a move, for a correspondence table.
    pub days: Option<u8>,
    pub seats: usize,
    pub players: Vec<String>,
    /// The seated players' ids, in the order of `players` (for links to their pages).
    pub player_ids: Vec<String>,
    pub rated: bool,
    /// The rating of the player waiting at the table, in its game and class.
    pub host_rating: Option<SeatRating>,
    /// Only opponents rated within this range may sit.
    pub rating_range: Option<[i64; 2]>,
}

/// A quick-match queue: who waits for a game of this kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QueueKey {
    pub variant: catalog::VariantId,
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    /// Days a move, for correspondence.
    pub days: Option<u8>,
    /// Rated games are paired only with players who want one too.
    pub rated: bool,
}

/// A queue as the lobby shows it.
#[derive(Debug, Clone, Serialize)]
pub struct QueueView {
    pub game: &'static str,
    pub variant: &'static str,
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    pub days: Option<u8>,
    pub rated: bool,
    pub waiting: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct LobbyView {
    pub tables: Vec<LobbyEntry>,
    pub queues: Vec<QueueView>,
}

struct Waiting {
    conn: ConnId,
    user: UserView,
    out: Outbox,
    /// The rating quick match pairs by (a newcomer's for guests).
    rating: f64,
    since: std::time::Instant,
}

impl Waiting {
    fn standing(&self, now: std::time::Instant) -> (f64, Duration) {
        (self.rating, now.duration_since(self.since))
    }
}

/// How often waiting players are looked at again, so that widened windows can pair them.
const PAIR_EVERY: Duration = Duration::from_millis(500);

#[derive(Default)]
struct Lobby {
    watchers: HashMap<ConnId, Outbox>,
    tables: BTreeMap<String, LobbyEntry>,
    queues: BTreeMap<QueueKey, Vec<Waiting>>,
}

impl Lobby {
    fn view(&self) -> LobbyView {
        LobbyView {
            tables: self.tables.values().cloned().collect(),
            queues: self
                .queues
                .iter()
                .filter(|(_, w)| !w.is_empty())
                .map(|(key, w)| QueueView {
                    game: key.variant.game().as_str(),
                    variant: key.variant.as_str(),
                    initial_ms: key.initial_ms,
                    increment_ms: key.increment_ms,
                    days: key.days,
                    rated: key.rated,
                    waiting: w.len(),
                })
                .collect(),
        }
    }

    /// Sends the whole lobby to its watchers; nothing is encoded when nobody watches.
    fn broadcast(&mut self) {
        if self.watchers.is_empty() {
            return;
        }
        metrics::counter!("stolik_lobby_updates_total").increment(1);
        let text = Frame::from(encode(None, &Message::Lobby(self.view())));
        self.watchers.retain(|_, out| out.send(text.clone()));
    }
}

/// The games where each player is to move, and each player's open connections, so that a
/// player's every tab hears their "your turn" count change.
#[derive(Default)]
struct Turns {
    /// Table → the user to move there (people only: bots have no counter).
    mover: HashMap<Arc<str>, String>,
    /// User → how many tables wait for them.
    waiting: HashMap<String, usize>,
    conns: HashMap<String, HashMap<ConnId, Outbox>>,
}

impl Turns {
    fn count(&self, user: &str) -> usize {
        self.waiting.get(user).copied().unwrap_or(0)
    }

    fn tell(&mut self, user: &str) {
        if self.conns.contains_key(user) {
            let count = self.count(user);
            self.send(user, &Frame::from(encode(None, &Message::Turns { count })));
        }
    }

    /// Sends `text` to every open socket of `user`.
    fn send(&mut self, user: &str, text: &Frame) {
        if let Some(conns) = self.conns.get_mut(user) {
            conns.retain(|_, out| out.send(text.clone()));
        }
    }
}

struct Inner {
    store: store::Store,
    /// Where table actors run: one runtime that outlives the HTTP workers, so that a table can
    /// finish its last write during a graceful shutdown.
    runtime: tokio::runtime::Handle,
    /// Where bots think, at the lowest priority (see [`CpuPool`]).
    cpu: CpuPool,
    /// A correspondence day (shorter in tests).
    day: Duration,
    bot_time_cap: Option<std::time::Duration>,
    /// The key of every daily deal's seed (see [`crate::rabbit::daily_seed`]); it never
    /// leaves the server.
    daily_key: String,
    /// Solver hints run on the blocking pool; this many at a time, so that players asking for
    /// hints cannot crowd out the bots and the tables.
    hint_slots: Arc<tokio::sync::Semaphore>,
    tables: Mutex<HashMap<Arc<str>, TableHandle>>,
    lobby: Mutex<Lobby>,
    /// Whose turn it is where, and who is connected: the "your turn" counters.
    turns: Mutex<Turns>,
    /// Rung on every lobby change; the lobby task sends the result at most every
    /// [`LOBBY_EVERY`].
    lobby_changed: Arc<Notify>,
    /// The public games being played now.
    live: crate::live::Live,
    abandon_grace: Duration,
    match_window: rating::Window,
    next_conn: AtomicU64,
    /// Flips to `true` when the server shuts down: every connection then closes with
    /// "service restart" so that clients reconnect (to this node when it is back, or another).
    closing: watch::Sender<bool>,
}

#[derive(Clone)]
pub struct Hub(Arc<Inner>);

/// How the hub's games run.
pub struct HubSettings {
    /// A correspondence day (shorter in tests).
    pub day: Duration,
    pub bot_time_cap: Option<std::time::Duration>,
    /// The key of every daily deal's seed.
    pub daily_key: String,
    /// How long a live game's player may be gone before the opponent may claim the game.
    pub abandon_grace: Duration,
    /// How far apart in rating quick match pairs players, widening as they wait.
    pub match_window: rating::Window,
}

impl Hub {
    pub fn new(
        store: store::Store,
        runtime: tokio::runtime::Handle,
        cpu: CpuPool,
        settings: HubSettings,
    ) -> Hub {
        let lobby_changed = Arc::new(Notify::new());
        let hub = Hub(Arc::new(Inner {
            store,
            live: crate::live::Live::start(&runtime),
            runtime: runtime.clone(),
            cpu,
            day: settings.day,
            bot_time_cap: settings.bot_time_cap,
            daily_key: settings.daily_key,
            abandon_grace: settings.abandon_grace,
            match_window: settings.match_window,
            hint_slots: Arc::new(tokio::sync::Semaphore::new(HINTS_AT_ONCE)),
            tables: Mutex::new(HashMap::new()),
            lobby: Mutex::new(Lobby::default()),
            turns: Mutex::new(Turns::default()),
            lobby_changed: lobby_changed.clone(),
            next_conn: AtomicU64::new(1),
            closing: watch::Sender::new(false),
        }));
        runtime.spawn(send_lobby_changes(Arc::downgrade(&hub.0), lobby_changed));
        runtime.spawn(pair_waiting_players(Arc::downgrade(&hub.0)));
        hub
    }

    /// The live list of public games being played.
    pub fn live(&self) -> &crate::live::Live {
        &self.0.live
    }

    /// How long a player of a live game may be gone before their opponent may claim it.
    pub fn abandon_grace(&self) -> Duration {
        self.0.abandon_grace
    }

    /// How long `days` correspondence days last.
    pub fn days(&self, days: u8) -> Duration {
        self.0.day * u32::from(days)
    }

    /// The pool bots think on.
    pub fn cpu(&self) -> &CpuPool {
        &self.0.cpu
    }

    /// Records who is to move at `table` (`None`: nobody, or a bot) and tells the players
    /// whose count changed.
    pub fn set_turn(&self, table: &Arc<str>, mover: Option<&str>) {
        let mut turns = self.0.turns.lock().expect("turns lock");
        let before = match mover {
            Some(user) => turns.mover.insert(table.clone(), user.to_string()),
            None => turns.mover.remove(table),
        };
        if before.as_deref() == mover {
            return;
        }
        if let Some(old) = before {
            if let Some(n) = turns.waiting.get_mut(&old) {
                *n -= 1;
                if *n == 0 {
                    turns.waiting.remove(&old);
                }
            }
            turns.tell(&old);
        }
        if let Some(new) = mover {
            *turns.waiting.entry(new.to_string()).or_default() += 1;
            turns.tell(new);
        }
    }

    /// Records a notification for `user_id` (a person, not a bot) and sends it to their open
    /// sockets. In the background: a table never waits for it, and a failure is only logged.
    pub fn notify(&self, user_id: &str, kind: &'static str, table: &str) {
        if user_id.starts_with("bot:") {
            return;
        }
        let (hub, user, table) = (self.clone(), user_id.to_string(), table.to_string());
        self.0.runtime.spawn(async move {
            match hub.store().notify(&user, kind, &table, unix_ms()).await {
                Ok(notification) => {
                    let text = Frame::from(encode(None, &Message::Notification { notification }));
                    hub.0.turns.lock().expect("turns lock").send(&user, &text);
                }
                Err(e) => {
                    tracing::warn!(%user, %table, error = %e, "could not record a notification")
                }
            }
        });
    }

    /// Registers a connection of `user` for their "your turn" count; returns the count now.
    pub fn watch_turns(&self, user: &str, conn: ConnId, out: Outbox) -> usize {
        let mut turns = self.0.turns.lock().expect("turns lock");
        turns
            .conns
            .entry(user.to_string())
            .or_default()
            .insert(conn, out);
        turns.count(user)
    }

    pub fn unwatch_turns(&self, user: &str, conn: ConnId) {
        let mut turns = self.0.turns.lock().expect("turns lock");
        if let Some(conns) = turns.conns.get_mut(user) {
            conns.remove(&conn);
            if conns.is_empty() {
                turns.conns.remove(user);
            }
        }
    }

    /// The lobby changed: its watchers hear of it with the next update.
    fn lobby_changed(&self) {
        self.0.lobby_changed.notify_one();
    }

    /// Keeps a table that has just started running, and counts the live tables.
    fn keep(tables: &mut HashMap<Arc<str>, TableHandle>, handle: TableHandle) {
        tables.insert(handle.id.clone(), handle);
        metrics::gauge!("stolik_tables_live").set(tables.len() as f64);
    }

    pub fn store(&self) -> &store::Store {
        &self.0.store
    }

    /// How long a bot of `level` may think about one move.
    pub fn bot_budget(&self, level: ai::Level) -> std::time::Duration {
        let budget = ai::default_budget(level);
        self.0.bot_time_cap.map_or(budget, |cap| budget.min(cap))
    }

    /// The seed of `day`'s daily deal: the same for every player on this deployment.
    pub fn daily_seed(&self, day: &str) -> u64 {
        crate::rabbit::daily_seed(self.0.daily_key.as_bytes(), day)
    }

    /// A turn to run the solver; waits while [`HINTS_AT_ONCE`] hints are being computed.
    pub async fn hint_slot(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.0
            .hint_slots
            .clone()
            .acquire_owned()
            .await
            .expect("the hint semaphore is never closed")
    }

    pub fn next_conn_id(&self) -> ConnId {
        self.0.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Rebuilds every unfinished game from the database after a start.
    pub async fn resume(&self) -> Result<usize, store::StoreError> {
        let records = self.store().unfinished_games().await?;
        let mut resumed = 0;
        for record in records {
            let chat = self.store().chat_tail(&record.id, 50).await?;
            match Table::restore(&record, chat, self.clone()) {
                Ok(table) => {
                    let handle = table.spawn(&self.0.runtime);
                    Hub::keep(&mut self.0.tables.lock().expect("tables lock"), handle);
                    resumed += 1;
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

    /// The table with this id: running here, or loaded from the database.
    pub async fn table(&self, id: &str) -> Result<TableHandle, WsError> {
        if let Some(handle) = self.running(id) {
            return Ok(handle);
        }
        let record = self
            .store()
            .game(id)
            .await?
            .ok_or_else(|| WsError::not_found("table"))?;
        let chat = self.store().chat_tail(id, 50).await?;
        let table = Table::restore(&record, chat, self.clone())
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
        Ok(handle)
    }

    fn running(&self, id: &str) -> Option<TableHandle> {
        let tables = self.0.tables.lock().expect("tables lock");
        tables.get(id).filter(|h| !h.is_closed()).cloned()
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
        }
    }

    pub(crate) fn forget_table(&self, id: &Arc<str>) {
        self.set_turn(id, None);
        {
            let mut tables = self.0.tables.lock().expect("tables lock");
            tables.remove(id);
            metrics::gauge!("stolik_tables_live").set(tables.len() as f64);
        }
        self.set_lobby_entry(id, None);
    }

    /// Creates, records and starts a table. `seats` are filled in order; a table whose seats
    /// are all taken starts at once.
    pub async fn create_table(
        &self,
        settings: TableSettings,
        host: Option<UserView>,
        seats: Vec<Option<UserView>>,
        rematch_of: Option<String>,
    ) -> Result<TableHandle, WsError> {
        let id = random_id(8);
        let token = random_id(24);
        let seed = match settings.daily.as_ref().or(settings.practice.as_ref()) {
            Some(day) => self.daily_seed(day),
            None => rand::random(),
        };
        let new_game = store::NewGame {
            id: id.clone(),
            game: settings.variant.game().as_str().to_string(),
            variant: settings.variant.as_str().to_string(),
            seed,
            private: settings.private,
            invite_token: Some(token.clone()),
            clock_initial_ms: settings.control.map(|c| c.initial_ms as i64),
            clock_increment_ms: settings.control.map(|c| c.increment_ms as i64),
            move_days: settings.days.map(i64::from),
            host_id: host.as_ref().map(|h| h.id.clone()),
            rematch_of,
            created_at: unix_ms(),
            daily: settings.daily.clone(),
            rated: settings.rated,
            rating_range: settings.rating_range,
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
        let mut table = Table::new(
            NewTable {
                id,
                settings,
                seed,
                token,
                host,
                seats,
            },
            self.clone(),
        );
        self.store().create_game(&new_game).await?;
        if new_game.seats.iter().all(Option::is_some) {
            table.start().await?;
        }
        let handle = table.spawn(&self.0.runtime);
        Hub::keep(
            &mut self.0.tables.lock().expect("tables lock"),
            handle.clone(),
        );
        Ok(handle)
    }

    pub fn set_lobby_entry(&self, id: &str, entry: Option<LobbyEntry>) {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        let changed = match entry {
            Some(entry) => {
                lobby.tables.insert(id.to_string(), entry);
                true
            }
            None => lobby.tables.remove(id).is_some(),
        };
        drop(lobby);
        if changed {
            self.lobby_changed();
        }
    }

    pub fn lobby_view(&self) -> LobbyView {
        self.0.lobby.lock().expect("lobby lock").view()
    }

    pub fn watch_lobby(&self, conn: ConnId, out: Outbox) -> LobbyView {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        lobby.watchers.insert(conn, out);
        lobby.view()
    }

    pub fn unwatch_lobby(&self, conn: ConnId) {
        self.0
            .lobby
            .lock()
            .expect("lobby lock")
            .watchers
            .remove(&conn);
    }

    /// Queues `user` for a game of `key`'s kind, or pairs them at once with the closest-rated
    /// player already waiting whom both windows admit (see [`take_pairs`]; in a new table,
    /// seats in random order). Both players hear `match` with the table.
    pub async fn join_queue(
        &self,
        key: QueueKey,
        conn: ConnId,
        user: UserView,
        out: Outbox,
    ) -> Result<(), WsError> {
        let class = rating::Class::of(key.initial_ms.zip(key.increment_ms), key.days);
        let rating = if user.guest {
            rating::Rating::default().rating
        } else {
            self.store()
                .rating(&user.id, key.variant.game().as_str(), class)
                .await?
                .rating
        };
        let joining = Waiting {
            conn,
            user,
            out,
            rating,
            since: std::time::Instant::now(),
        };
        let pairs = {
            let mut lobby = self.0.lobby.lock().expect("lobby lock");
            if lobby.queues.values().flatten().any(|w| w.conn == conn) {
                return Err(WsError::new(
                    ErrorCode::WrongState,
                    "you are already in a queue: leave it first",
                ));
            }
            let queue = lobby.queues.entry(key.clone()).or_default();
            queue.push(joining);
            take_pairs(queue, self.0.match_window)
        };
        self.lobby_changed();
        let mut result = Ok(());
        for (a, b) in pairs {
            result = result.and(self.start_match(&key, a, b).await);
        }
        result
    }

    /// Pairs the waiting players whose windows have widened enough (see [`take_pairs`]).
    async fn pair_waiting(&self) {
        let pairs: Vec<(QueueKey, Waiting, Waiting)> = {
            let mut lobby = self.0.lobby.lock().expect("lobby lock");
            let window = self.0.match_window;
            lobby
                .queues
                .iter_mut()
                .flat_map(|(key, queue)| {
                    take_pairs(queue, window)
                        .into_iter()
                        .map(|(a, b)| (key.clone(), a, b))
                })
                .collect()
        };
        if pairs.is_empty() {
            return;
        }
        self.lobby_changed();
        for (key, a, b) in pairs {
            let (a_out, b_out) = (a.out.clone(), b.out.clone());
            if let Err(e) = self.start_match(&key, a, b).await {
                tracing::error!(error = %e, "could not start a quick-match game");
                let text = Frame::from(encode(
                    None,
                    &Message::Error {
                        code: e.code,
                        message: e.message.clone(),
                    },
                ));
                a_out.send(text.clone());
                b_out.send(text);
            }
        }
    }

    /// Creates the table of a quick-match pair and tells both players.
    async fn start_match(&self, key: &QueueKey, a: Waiting, b: Waiting) -> Result<(), WsError> {
        let control = match (key.initial_ms, key.increment_ms) {
            (Some(initial), Some(increment)) => {
                Some(TimeControl::new(initial, increment).map_err(WsError::bad_request)?)
            }
            _ => None,
        };
        let mut seats = vec![Some(a.user.clone()), Some(b.user.clone())];
        if rand::random::<bool>() {
            seats.reverse();
        }
        let settings = TableSettings {
            variant: key.variant,
            private: false,
            control,
            days: key.days,
            daily: None,
            practice: None,
            rated: key.rated,
            rating_range: None,
        };
        let table = self.create_table(settings, None, seats, None).await?;
        let text = Frame::from(encode(
            None,
            &Message::Match {
                table: table.id.to_string(),
            },
        ));
        a.out.send(text.clone());
        b.out.send(text);
        Ok(())
    }

    /// Leaves every queue this connection waits in; `true` if it waited anywhere.
    pub fn leave_queue(&self, conn: ConnId) -> bool {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        let mut left = false;
        for queue in lobby.queues.values_mut() {
            let before = queue.len();
            queue.retain(|w| w.conn != conn);
            left |= queue.len() != before;
        }
        drop(lobby);
        if left {
            self.lobby_changed();
        }
        left
    }
}

/// Sends the lobby to its watchers after each change, at most every [`LOBBY_EVERY`]; ends
/// with the hub.
async fn send_lobby_changes(hub: Weak<Inner>, changed: Arc<Notify>) {
    loop {
        changed.notified().await;
        let Some(inner) = hub.upgrade() else { return };
        inner.lobby.lock().expect("lobby lock").broadcast();
        drop(inner);
        tokio::time::sleep(LOBBY_EVERY).await;
    }
}

/// Takes out of `queue` every pair the rating windows admit: oldest first, each waiting
/// player with the closest-rated other player whose window and theirs both admit the gap.
/// Called under the lobby lock, so each player is paired exactly once.
fn take_pairs(queue: &mut Vec<Waiting>, window: rating::Window) -> Vec<(Waiting, Waiting)> {
    let now = std::time::Instant::now();
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < queue.len() {
        let me = &queue[i];
        let closest = queue
            .iter()
            .enumerate()
            .filter(|(j, w)| *j != i && w.user.id != me.user.id)
            .filter(|(_, w)| window.accepts(w.standing(now), me.standing(now)))
            .min_by(|(_, a), (_, b)| {
                (a.rating - me.rating)
                    .abs()
                    .total_cmp(&(b.rating - me.rating).abs())
            })
            .map(|(j, _)| j);
        match closest {
            Some(j) => {
                // The later index goes first, so that the earlier one stays valid.
                let (first, second) = if i < j { (i, j) } else { (j, i) };
                let later = queue.remove(second);
                let earlier = queue.remove(first);
                pairs.push((earlier, later));
            }
            None => i += 1,
        }
    }
    pairs
}

/// Looks at the waiting players again every [`PAIR_EVERY`] while anyone waits; ends with
/// the hub.
async fn pair_waiting_players(hub: Weak<Inner>) {
    loop {
        tokio::time::sleep(PAIR_EVERY).await;
        let Some(inner) = hub.upgrade() else { return };
        let hub = Hub(inner);
        let waiting = hub
            .0
            .lobby
            .lock()
            .expect("lobby lock")
            .queues
            .values()
            .any(|q| q.len() > 1);
        if waiting {
            hub.pair_waiting().await;
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Wakes the lobby task so that it sees the hub is gone and ends.
        self.lobby_changed.notify_one();
    }
}
