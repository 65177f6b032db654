//! The `stolik` binary's command line (clap): `serve` (the default), `referee`, `bot`,
//! `arena`, `solve` and `moderate`, each started from here. It also makes mimalloc the binary's
//! allocator (docs/performance.md, "The allocator").

use std::io::{self, BufRead, Write};

use clap::{Parser, Subcommand};

/// Stolik, the little table: board games and a dice puzzle, online.
// A move allocates on several threads (actix's workers, the tables' runtime, the writer);
// with glibc's malloc that was a sixth of the server's time. mimalloc costs 17 % less CPU a
// move, for some 25 % more memory an idle socket (docs/performance.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "stolik", version, about)]
struct Cli {
    /// What to run; `serve` when omitted.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server: HTTP API, WebSocket play and the web client on one port.
    // Boxed: the server's options are many times the size of the other commands'.
    Serve(Box<ServeArgs>),
    /// Speak the referee line protocol on standard input and output (see docs/spec/referee.md).
    Referee,
    /// Connect a bot account to an engine that speaks the referee protocol (see
    /// docs/bot-api.md, "Bridge").
    Bot(Box<stolik::bridge::BotArgs>),
    /// Play a match between two bots and print the score with a 95 % confidence interval.
    Arena(stolik::arena::ArenaArgs),
    /// Solve a White Rabbit position, or play seeded deals (see docs/white-rabbit.md).
    Solve(stolik::solve::SolveArgs),
    /// Moderation: flag an account (no chat, no public tables), unflag it, list its reports.
    Moderate(stolik::moderate::ModerateArgs),
}

#[derive(Parser)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "STOLIK_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// Address of the `/metrics` listener (Prometheus text), never the public one: `off` for
    /// none.
    #[arg(long, env = "STOLIK_METRICS_BIND", default_value = "127.0.0.1:9091")]
    metrics_bind: String,
    /// Database URL: `sqlite://FILE` (created on first run) or `postgres://…`.
    #[arg(
        long = "database",
        env = "DATABASE_URL",
        default_value = "sqlite://data/stolik.db"
    )]
    database_url: String,
    /// Serve the web client's sources from this folder (`web`), unbundled and checked again on
    /// every load, instead of the bundle built into the binary: for working on the client.
    #[arg(long, env = "STOLIK_WEB_DIR")]
    web_dir: Option<std::path::PathBuf>,
    /// The most milliseconds a bot thinks about a move, whatever its level.
    #[arg(long, env = "STOLIK_BOT_TIME_CAP_MS")]
    bot_time_cap_ms: Option<u64>,
    /// Threads the bots think on, at the lowest priority (by default one for each core but
    /// one, at least one).
    #[arg(long, env = "STOLIK_BOT_THREADS", value_parser = clap::value_parser!(u16).range(1..=256))]
    bot_threads: Option<u16>,
    /// How long (ms) a player of a live game may be gone before their opponent may claim the
    /// game or call it a draw.
    #[arg(long, env = "STOLIK_ABANDON_GRACE_MS", default_value_t = 30_000)]
    abandon_grace_ms: u64,
    /// How long a minute of the tournaments' calendar lasts, in milliseconds (a real minute;
    /// tests shorten it so that an arena ends within the test).
    #[arg(long, env = "STOLIK_TOURNAMENT_MINUTE_MS", default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..))]
    tournament_minute_ms: u64,
    /// The site's own recurring tournaments: a JSON file (docs/tournaments.md, "Scheduled
    /// events"), or `off` for none; the built-in schedule when absent.
    #[arg(long, env = "STOLIK_SCHEDULE")]
    schedule: Option<String>,
    /// How long (ms) a challenge waits for its answer before it expires.
    #[arg(long, env = "STOLIK_CHALLENGE_TTL_MS", default_value_t = 10 * 60 * 1000)]
    challenge_ttl_ms: u64,
    /// Games of the bot ladder going on at once, at most: the site's bots and the bot
    /// accounts that joined it playing each other, at the lowest priority (docs/bots.md).
    /// 0 turns the ladder off.
    #[arg(long, env = "STOLIK_LADDER_GAMES", default_value_t = 1)]
    ladder_games: usize,
    /// The wait (ms) after a ladder game ends before the next one starts.
    #[arg(long, env = "STOLIK_LADDER_PAUSE_MS", default_value_t = 10_000)]
    ladder_pause_ms: u64,
    /// The rest (ms) before each move of a ladder game between the site's bots, which keeps
    /// the ladder's share of the bots' thread small; those games think one move at a time,
    /// however many run at once.
    #[arg(long, env = "STOLIK_LADDER_MOVE_REST_MS", default_value_t = 800)]
    ladder_move_rest_ms: u64,
    /// Rate limits: `off`, or changes to the defaults such as
    /// `guests_per_address=60/min,sockets_per_address=100` (see docs/protocol.md).
    #[arg(long, env = "STOLIK_LIMITS", default_value = "", value_parser = server::LimitsConfig::parse)]
    limits: server::LimitsConfig,
    /// The site's public address when it is served behind a proxy (`https://…`): the one
    /// origin allowed to change anything, and `Secure` cookies when it is https.
    #[arg(long, env = "STOLIK_PUBLIC_URL")]
    public_url: Option<String>,
    /// Addresses of proxies whose X-Forwarded-For and X-Forwarded-Proto are believed.
    #[arg(
        long = "trusted-proxy",
        env = "STOLIK_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// White Rabbit's exact tables: levels found in this directory give exact hints; missing
    /// ones are solved in the background, on one thread at the lowest priority, when the
    /// directory is writable (see docs/white-rabbit.md). `off`: hint mode's estimates only.
    #[arg(long, env = "STOLIK_RABBIT_TABLES", default_value = server::solo::DEFAULT_DIR)]
    rabbit_tables: String,
    /// Redis shared by the nodes of one site (`redis://HOST:PORT`): rate limits and login
    /// lock-outs are then counted there, the same on every node (docs/protocol.md, "Limits").
    #[arg(long = "redis", env = "REDIS_URL")]
    redis_url: Option<String>,
    /// This node's name among the site's nodes; by default the host name and process id.
    #[arg(long, env = "STOLIK_NODE_ID")]
    node_id: Option<String>,
    /// What every Redis key and channel of this site starts with: several sites (or tests
    /// side by side) may then share one Redis. Every node of a site must use the same.
    #[arg(long, env = "STOLIK_REDIS_PREFIX", default_value = "stolik:")]
    redis_prefix: String,
    /// Who the push services may write to about this site's Web Push messages (`mailto:…` or
    /// `https://…`, the VAPID `sub` claim).
    #[arg(long, env = "STOLIK_PUSH_CONTACT")]
    push_contact: Option<String>,
    /// Accept `http://` push subscription endpoints besides `https://` ones: for a stand-in
    /// push service on loopback (the load generator's), never on a public site, whose server
    /// would then post wherever a caller's endpoint points.
    #[arg(long, env = "STOLIK_PUSH_ALLOW_HTTP")]
    push_allow_http: bool,
}

fn main() -> anyhow::Result<()> {
    let command = Cli::parse()
        .command
        .unwrap_or_else(|| Command::Serve(Box::new(ServeArgs::parse_from(["stolik serve"]))));
    match command {
        Command::Serve(args) => serve(*args),
        Command::Referee => run_referee(),
        Command::Bot(args) => {
            log_to_stderr();
            stolik::bridge::run(*args)
        }
        Command::Arena(args) => stolik::arena::run(&args, &mut io::stdout().lock()).map(|_| ()),
        Command::Solve(args) => stolik::solve::run(&args, &mut io::stdout().lock()),
        Command::Moderate(args) => stolik::moderate::run(&args, &mut io::stdout().lock()),
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    // Tables and the move writer get every core; actix's own workers serve the sockets.
    let tables = tokio::runtime::Builder::new_multi_thread()
        .thread_name("stolik-tables")
        .enable_all()
        .build()?;
    let config = server::Config {
        bind: args.bind,
        metrics_bind: Some(args.metrics_bind).filter(|b| b != "off"),
        database_url: args.database_url,
        web_client: args
            .web_dir
            .map_or(server::WebClient::Bundled, server::WebClient::Sources),
        bot_time_cap: args.bot_time_cap_ms.map(std::time::Duration::from_millis),
        bot_threads: args.bot_threads.map(usize::from),
        limits: args.limits,
        security: server::SecurityConfig {
            public_url: args.public_url,
            trusted_proxies: args.trusted_proxies,
        },
        tables: Some(tables.handle().clone()),
        day: std::time::Duration::from_secs(24 * 60 * 60),
        tournament_minute: std::time::Duration::from_millis(args.tournament_minute_ms),
        schedule: server::Schedule::from_option(args.schedule.as_deref())
            .map_err(anyhow::Error::msg)?,
        rabbit_tables: server::TableSource::parse(&args.rabbit_tables)
            .map_err(anyhow::Error::msg)?,
        abandon_grace: std::time::Duration::from_millis(args.abandon_grace_ms),
        challenge_ttl: std::time::Duration::from_millis(args.challenge_ttl_ms),
        ladder: server::LadderConfig {
            games: args.ladder_games,
            pause: std::time::Duration::from_millis(args.ladder_pause_ms),
            move_rest: std::time::Duration::from_millis(args.ladder_move_rest_ms),
        },
        match_window: rating::Window::default(),
        cluster: args.redis_url.map(|redis_url| server::ClusterConfig {
            redis_url,
            node_id: args
                .node_id
                .unwrap_or_else(server::ClusterConfig::default_node_id),
            key_prefix: args.redis_prefix,
        }),
        push: server::PushConfig {
            contact: args.push_contact,
            allow_http: args.push_allow_http,
            ..server::PushConfig::default()
        },
    };
    actix_web::rt::System::new().block_on(async move {
        let app = server::Application::build(config).await?;
        tracing::info!(port = app.port(), "Stolik is serving");
        app.run_until_stopped().await?;
        anyhow::Ok(())
    })?;
    // Every table has stopped and the database is closed: what is left may be dropped.
    tables.shutdown_timeout(std::time::Duration::from_secs(1));
    Ok(())
}

/// The bridge's log, on standard error.
fn log_to_stderr() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(io::stderr)
        .init();
}

fn run_referee() -> anyhow::Result<()> {
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    let mut referee = stolik::referee::Referee::default();
    // Bytes, not `lines()`: a line that is not UTF-8 is answered with an error like any other
    // garbage instead of ending the process (only `quit` and the end of input do).
    for line in stdin.split(b'\n') {
        let bytes = line?;
        let line = String::from_utf8_lossy(&bytes);
        let line = line.strip_suffix('\r').unwrap_or(&line);
        match referee.answer(line) {
            Some(reply) => {
                writeln!(stdout, "{reply}")?;
                stdout.flush()?;
            }
            None => break,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_args(args: &[&str]) -> ServeArgs {
        let mut all = vec!["stolik serve"];
        all.extend_from_slice(args);
        ServeArgs::try_parse_from(all).expect("valid arguments")
    }

    /// With no flag the server builds and uses the tables under `data/`; `off` turns them off.
    #[test]
    fn a_server_without_flags_builds_the_tables_under_data() {
        // The environment counts as a flag: this test is about none at all.
        assert!(std::env::var_os("STOLIK_RABBIT_TABLES").is_none());
        let source = server::TableSource::parse(&serve_args(&[]).rabbit_tables)
            .unwrap()
            .expect("tables by default");
        assert_eq!(source.dir, std::path::Path::new("data/white-rabbit"));
        assert!(source.build);
        assert_eq!(source.models.len(), 2, "classic and no-wrap");
        let off = serve_args(&["--rabbit-tables", "off"]);
        assert!(
            server::TableSource::parse(&off.rabbit_tables)
                .unwrap()
                .is_none()
        );
        let elsewhere = serve_args(&["--rabbit-tables", "/srv/rabbit"]);
        let source = server::TableSource::parse(&elsewhere.rabbit_tables)
            .unwrap()
            .unwrap();
        assert_eq!(source.dir, std::path::Path::new("/srv/rabbit"));
        assert!(server::TableSource::parse(" ").is_err());
    }

    /// With no flag the site holds its built-in schedule of events; `off` holds none.
    #[test]
    fn a_server_without_flags_holds_the_built_in_schedule() {
        assert!(std::env::var_os("STOLIK_SCHEDULE").is_none());
        let schedule = server::Schedule::from_option(serve_args(&[]).schedule.as_deref())
            .unwrap()
            .expect("the built-in schedule");
        assert!(!schedule.entries.is_empty());
        let off = serve_args(&["--schedule", "off"]);
        assert!(
            server::Schedule::from_option(off.schedule.as_deref())
                .unwrap()
                .is_none()
        );
    }
}
