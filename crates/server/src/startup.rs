//! Building and running the server: shared by `stolik serve` and the tests.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{App, HttpServer, middleware, web};
use anyhow::Context;

use crate::cpu_pool::CpuPool;
use crate::error::{ApiError, ErrorCode};
use crate::health::Health;
use crate::hub::Hub;
use crate::identity::{Keys, random_id};
use crate::limits::{Limits, LimitsConfig};
use crate::passwords::PasswordWork;
use crate::restoring::Restore;
use crate::security::SecurityConfig;
use crate::sessions::Sessions;
use crate::state::AppState;

#[derive(Debug, Clone)]
pub struct Config {
    /// `HOST:PORT`; port 0 picks a free one (tests).
    pub bind: String,
    /// Where `/metrics` is served (`HOST:PORT`, a listener of its own, never the public
    /// port); `None`: nowhere.
    pub metrics_bind: Option<String>,
    /// `sqlite://…` or `postgres://…`.
    pub database_url: String,
    /// The web client: the bundle built into the binary, or its sources (`--web-dir`).
    pub web_client: crate::web_client::WebClient,
    /// The longest a bot may think about one move, whatever its level (`None`: each level's
    /// own budget, up to 2 s for Hard). Tests and small machines lower it.
    pub bot_time_cap: Option<std::time::Duration>,
    /// Threads of the CPU pool, where bots, hints, reviews and the exact tables' build run
    /// (`None`: [`CpuPool::for_this_machine`]).
    pub bot_threads: Option<usize>,
    /// Rate limits and caps (see [`LimitsConfig::parse`]).
    pub limits: LimitsConfig,
    /// The public URL and the trusted proxies.
    pub security: SecurityConfig,
    /// The runtime the tables and the move writer run on (`stolik serve` gives a
    /// multi-threaded one, so that tables use every core); `None`: the caller's runtime.
    pub tables: Option<tokio::runtime::Handle>,
    /// How long a correspondence "day" lasts: a real day; tests shorten it.
    pub day: std::time::Duration,
    /// How long a minute of the tournaments' calendar lasts: a real minute; tests shorten it.
    pub tournament_minute: std::time::Duration,
    /// The site's own recurring tournaments (`--schedule`); `None`: none.
    pub schedule: Option<crate::tournaments::schedule::Schedule>,
    /// White Rabbit's exact tables, if any (`--rabbit-tables`).
    pub rabbit_tables: Option<crate::solo::TableSource>,
    /// How long a player of a live game may be gone before the opponent may claim it
    /// (30 s; tests shorten it).
    pub abandon_grace: std::time::Duration,
    /// How long a challenge waits for its answer before it expires.
    pub challenge_ttl: std::time::Duration,
    /// The bot ladder: how many games at once (0: off), and the pause between them.
    pub ladder: crate::ladder::LadderConfig,
    /// How far apart in rating quick match pairs players, widening as they wait.
    pub match_window: rating::Window,
    /// Redis, shared with the other nodes of the site (`--redis`); `None`: this node alone.
    pub cluster: Option<ClusterConfig>,
    /// Web Push: the contact the push services see, and which endpoints are accepted.
    pub push: crate::push::PushConfig,
}

/// Where the nodes of one site meet.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// `redis://…`.
    pub redis_url: String,
    /// This node's name among the others (`--node-id`; by default host name and process id).
    pub node_id: String,
    /// What every key and channel of this site starts with (`stolik:`), so that one Redis can
    /// serve several sites, or tests side by side.
    pub key_prefix: String,
}

impl ClusterConfig {
    /// The default node name: the host's name and this process's id, unique on a site.
    pub fn default_node_id() -> String {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .ok()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "node".to_string());
        format!("{host}-{}", std::process::id())
    }
}

pub struct Application {
    port: u16,
    server: Server,
    /// The `/metrics` listener's port and server, when there is one.
    metrics: Option<(u16, Server)>,
    hub: Hub,
    store: store::Store,
    restore: Arc<Restore>,
    push: Arc<crate::push::Push>,
    /// The task restoring the unfinished tables (see [`restore_tables`]).
    restoring: tokio::task::JoinHandle<()>,
}

impl Application {
    /// Connects the database (applying migrations), binds the listener and starts restoring
    /// every unfinished game in the background: until that is done, requests are answered
    /// 503 `restoring` ([`Application::restored`] waits for it). Must run inside the runtime
    /// that will drive the tables.
    pub async fn build(config: Config) -> anyhow::Result<Application> {
        crate::telemetry::install();
        let runtime = config
            .tables
            .clone()
            .unwrap_or_else(tokio::runtime::Handle::current);
        // Connected on the tables' runtime: the move writer runs where the tables do.
        let url = config.database_url.clone();
        let store = runtime
            .spawn(async move { store::Store::connect(&url).await })
            .await
            .context("the database connection task failed")?
            .with_context(|| {
                format!("cannot open the database {}", redact(&config.database_url))
            })?;
        let bus = match &config.cluster {
            None => None,
            Some(cluster) => {
                let (url, node) = (cluster.redis_url.clone(), cluster.node_id.clone());
                let prefix = cluster.key_prefix.clone();
                // On the tables' runtime, like the store: the bus's subscriber task runs there.
                let bus = runtime
                    .spawn(async move { cluster::Bus::connect(&url, &prefix, &node).await })
                    .await
                    .context("the redis connection task failed")?
                    .with_context(|| {
                        format!("cannot reach redis at {}", redact(&cluster.redis_url))
                    })?;
                tracing::info!(node = bus.node(), "connected to redis");
                Some(bus)
            }
        };
        let secret = store
            .setting_or_insert("identity_secret", || random_id(48))
            .await
            .context("cannot read the identity secret")?;
        // A new setting, not the old `daily_secret`: seeds made from that one could be worked
        // out from a finished game's record.
        let daily_key = store
            .setting_or_insert("daily_deal_key", || random_id(43))
            .await
            .context("cannot read the daily-deal key")?;
        let push = Arc::new(
            crate::push::Push::start(&store, config.push.clone())
                .await
                .context("cannot read or make the Web Push keys")?,
        );
        let cpu = config
            .bot_threads
            .map_or_else(CpuPool::for_this_machine, CpuPool::new);
        // The 3×3 solver's whole-game solution (half a minute of a core) runs below the
        // tables, like the pool.
        ai::on_background_thread_start(crate::cpu_pool::lower_priority);
        // Shared by the routes (hints, reviews, the daily deal) and the tables (told when a
        // solo game ends).
        let solo = Arc::new(crate::solo::Solo::start(
            store.clone(),
            cpu.clone(),
            daily_key,
            config.rabbit_tables.clone(),
        ));
        let hub = Hub::new(
            store.clone(),
            runtime.clone(),
            cpu,
            crate::hub::HubSettings {
                day: config.day,
                bot_time_cap: config.bot_time_cap,
                bots_only_rest: config.ladder.move_rest,
                abandon_grace: config.abandon_grace,
                match_window: config.match_window,
                bus: bus.clone(),
                solo: solo.clone(),
            },
        );
        let tournaments = crate::tournaments::Tournaments::start(
            store.clone(),
            hub.clone(),
            config.tournament_minute,
            bus.as_ref(),
            config.schedule.clone(),
            &runtime,
        );
        let listener = TcpListener::bind(&config.bind)
            .with_context(|| format!("cannot listen on {}", config.bind))?;
        let port = listener.local_addr()?.port();
        let metrics = match &config.metrics_bind {
            Some(bind) => Some(crate::telemetry::serve(bind)?),
            None => None,
        };
        backfill_skeletons(&store).await?;
        let restore = Arc::new(Restore::new());
        crate::ladder::start(
            hub.clone(),
            config.ladder,
            config.challenge_ttl,
            restore.clone(),
            bus.as_ref(),
            &runtime,
        );
        let state = web::Data::new(AppState {
            store: store.clone(),
            hub: hub.clone(),
            sessions: Sessions::new(Keys::from_secret(secret.as_bytes()), store.clone()),
            limits: Limits::new(config.limits.clone(), bus.clone()),
            security: config.security.clone(),
            passwords: web::block(PasswordWork::new)
                .await
                .context("cannot prepare password checks")?,
            health: Health::new(bus.clone()),
            solo,
            restore: restore.clone(),
            push: push.clone(),
            reviews: Default::default(),
            thinking: Default::default(),
            tournaments,
            challenge_ttl: config.challenge_ttl,
        });
        // The security middleware reads its configuration on its own, before any handler.
        let security = web::Data::new(config.security.clone());
        // So does the one that holds requests off while the tables are restored.
        let restore_data = web::Data::from(restore.clone());
        let web_client = config.web_client.clone();
        let server =
            HttpServer::new(move || {
                App::new()
                    .app_data(state.clone())
                    .app_data(security.clone())
                    .app_data(restore_data.clone())
                    .app_data(
                        web::JsonConfig::default()
                            .limit(16 * 1024)
                            .error_handler(|e, _| json_error(e).into()),
                    )
                    .app_data(web::QueryConfig::default().error_handler(|e, _| {
                        ApiError::bad_request(format!("bad query string: {e}")).into()
                    }))
                    .app_data(web::PathConfig::default().error_handler(|e, _| {
                        ApiError::bad_request(format!("bad path: {e}")).into()
                    }))
                    .wrap(middleware::from_fn(crate::restoring::refuse_until_restored))
                    .wrap(middleware::from_fn(crate::security::guard))
                    .wrap(middleware::Logger::new("%r %s %Dms"))
                    .wrap(middleware::from_fn(crate::compression::mark_small))
                    .wrap(middleware::Compress::default())
                    .wrap(middleware::from_fn(crate::compression::unmark))
                    .configure(crate::telemetry::not_on_the_public_port)
                    .configure(crate::routes::configure(web_client.clone()))
                    // Last: the client's files, and its index for any other path.
                    .configure(web_client.configure())
            })
            // Small frames go out at once: without this, a move's event waits for the client's
            // delayed ACK of the reply before it (Nagle), some 40 ms.
            .on_connect(|connection, _| {
                if let Some(tcp) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() {
                    let _ = tcp.set_nodelay(true);
                }
            })
            .listen(listener)?
            // Signals are ours (see `run_until_stopped`): sockets must be told to close first.
            .disable_signals()
            .shutdown_timeout(10)
            .run();
        runtime.spawn(crate::challenges::sweep(hub.clone()));
        let restoring = runtime.spawn(restore_tables(
            hub.clone(),
            restore.clone(),
            server.handle(),
        ));
        Ok(Application {
            port,
            server,
            metrics,
            hub,
            store,
            restore,
            push,
            restoring,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port `/metrics` is served on, if it is served.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics.as_ref().map(|(port, _)| *port)
    }

    /// Waits until every unfinished table is back and requests are taken; an error when the
    /// restore failed (the server then stops by itself).
    pub async fn restored(&self) -> anyhow::Result<()> {
        self.restore
            .finished()
            .await
            .map_err(|e| anyhow::anyhow!("cannot resume unfinished games: {e}"))
    }

    /// What stops the server gracefully from another task (tests, signal handling).
    pub fn stopper(&self) -> Stopper {
        Stopper {
            server: self.server.handle(),
            metrics: self.metrics.as_ref().map(|(_, m)| m.handle()),
            hub: self.hub.clone(),
        }
    }

    /// Serves until stopped (Ctrl-C, SIGTERM or a [`Stopper`]), then lets every table finish
    /// what it is writing and closes the database. An error when the unfinished tables could
    /// not be restored (which stops the server).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let stopper = self.stopper();
        actix_web::rt::spawn(async move {
            shutdown_signal().await;
            tracing::info!("shutting down");
            stopper.stop().await;
        });
        let metrics = self.metrics.map(|(_, m)| actix_web::rt::spawn(m));
        // Beside the tables, on this (actix) runtime: its HTTP client is actix's.
        let pushes = actix_web::rt::spawn(crate::push::sender::run(
            self.store.clone(),
            self.push.clone(),
        ));
        let served = self.server.await;
        pushes.abort();
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        // Stopped while restoring: the tables started so far are stopped with the others.
        self.restoring.abort();
        let _ = self.restoring.await;
        self.hub.shutdown().await;
        self.store.close().await;
        if let crate::restoring::Phase::Failed(error) = self.restore.phase() {
            return Err(std::io::Error::other(format!(
                "cannot resume unfinished games: {error}"
            )));
        }
        served
    }
}

/// Stops a running [`Application`] gracefully.
#[derive(Clone)]
pub struct Stopper {
    server: ServerHandle,
    metrics: Option<ServerHandle>,
    hub: Hub,
}

impl Stopper {
    /// Closes every WebSocket (clients reconnect when the server is back), stops accepting
    /// requests and waits for those in flight.
    pub async fn stop(&self) {
        self.hub.close_connections();
        self.server.stop(true).await;
        if let Some(metrics) = &self.metrics {
            metrics.stop(true).await;
        }
    }
}

/// Brings the unfinished tables back while the server already answers, then lets their
/// clocks run and lets requests in. A failure stops the server: a node that cannot restore its
/// tables must not serve, and would otherwise answer 503 forever.
async fn restore_tables(hub: Hub, restore: Arc<Restore>, server: ServerHandle) {
    match hub.resume(|back, of| restore.progress(back, of)).await {
        Ok(resumed) => {
            tracing::info!(resumed, "unfinished games resumed");
            // Clocks run again from here, just before requests are let in: nobody is charged
            // for the restore.
            hub.release_resumed().await;
            restore.finish();
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot resume unfinished games: stopping");
            restore.fail(e.to_string());
            server.stop(true).await;
        }
    }
}

/// Ctrl-C, or SIGTERM from a service manager. A signal that cannot be listened for never
/// fires (rather than stopping the server at once).
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                // `None` means the signal driver went away, not that a signal came.
                if term.recv().await.is_none() {
                    std::future::pending::<()>().await;
                }
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}

/// A database URL without its password, for logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…{}", &url[..scheme], &url[at..]),
        _ => url.to_string(),
    }
}

/// A body that is not JSON is `bad_json`; JSON of the wrong shape or with values out of range
/// (`"seat": 256`) is `bad_request`; a body of another media type says so.
fn json_error(error: actix_web::error::JsonPayloadError) -> ApiError {
    use actix_web::error::JsonPayloadError;
    match &error {
        JsonPayloadError::Deserialize(e) if e.classify() == serde_json::error::Category::Data => {
            ApiError::bad_request(e.to_string())
        }
        JsonPayloadError::ContentType => {
            ApiError::new(ErrorCode::BadJson, "send the body as application/json")
        }
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::new(ErrorCode::TooLong, error.to_string())
        }
        _ => ApiError::new(ErrorCode::BadJson, error.to_string()),
    }
}

/// Accounts registered before confusable skeletons were kept get theirs. Two old accounts
/// whose names look alike both keep their names; the later one is left without a skeleton
/// (and logged), so nobody new can take a third look-alike of the first.
async fn backfill_skeletons(store: &store::Store) -> anyhow::Result<()> {
    for (id, username) in store.users_without_skeleton().await? {
        let skeleton = crate::names::skeleton_of(&username);
        match store.set_skeleton(&id, &skeleton).await {
            Ok(()) => {}
            Err(store::StoreError::NameTaken) => {
                tracing::warn!(%id, %username, "an old username looks like another account's");
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}
