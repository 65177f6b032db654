//! The `stolik serve` child process: started on a loopback port, waited for until `/healthz`
//! answers, killed with SIGKILL or stopped with SIGTERM, and started again on the same port
//! and database; its output kept in a log file ([`crate::Watch`] counts what matters).

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::client::http_client;
use crate::server_log::{Watch, follow};

/// How long a start may take to answer `/healthz` with 200.
const READY_PATIENCE: Duration = Duration::from_secs(60);

pub struct Server {
    exe: PathBuf,
    pub port: u16,
    /// The `/metrics` listener's port when one was chosen ([`Server::fresh`]); otherwise it
    /// listens on any free port.
    metrics_port: Option<u16>,
    /// `None` when the arguments name the database.
    database_url: Option<String>,
    web_dir: PathBuf,
    /// More arguments for `stolik serve`, after the launcher's own (`--redis`, `--node-id`, …).
    args: Vec<OsString>,
    /// The environment changed for the child: a value set, or `None` for one removed.
    env: Vec<(String, Option<String>)>,
    log: Arc<Mutex<File>>,
    log_path: PathBuf,
    child: Option<Child>,
    /// A directory of the server's own (its database and log), removed when it is dropped.
    scratch: Option<PathBuf>,
    /// From spawning to the first healthy answer, for each start.
    pub startups: Vec<Duration>,
    pub watch: Arc<Mutex<Watch>>,
}

/// A port on 127.0.0.1 that nothing listens on right now.
pub fn free_port() -> anyhow::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

impl Server {
    /// A server on `port` and `database_url`, logging into `log_path`, not started yet. It
    /// runs as the tests want it: no limits (many guests and sockets come from one address),
    /// and info lines of the server (a start's "unfinished games resumed").
    pub fn new(
        exe: &Path,
        port: u16,
        database_url: &str,
        web_dir: &Path,
        log_path: &Path,
    ) -> anyhow::Result<Server> {
        let log = File::create(log_path)
            .with_context(|| format!("cannot create the server log {}", log_path.display()))?;
        Ok(Server {
            exe: exe.to_path_buf(),
            port,
            metrics_port: None,
            database_url: Some(database_url.to_string()),
            web_dir: web_dir.to_path_buf(),
            args: Vec::new(),
            env: vec![
                ("STOLIK_LIMITS".to_string(), Some("off".to_string())),
                (
                    "RUST_LOG".to_string(),
                    Some("warn,server=info,stolik=info".to_string()),
                ),
            ],
            log: Arc::new(Mutex::new(log)),
            log_path: log_path.to_path_buf(),
            child: None,
            scratch: None,
            startups: Vec::new(),
            watch: Arc::new(Mutex::new(Watch::default())),
        })
    }

    /// A server of its own, as a benchmark runs one: free ports for it and its `/metrics`, a
    /// fresh SQLite database in a directory removed when it is dropped (unless `args` name a
    /// `--database`), only warnings logged, and the limits the arguments give (the server's
    /// defaults if none). Not started yet.
    pub fn fresh(exe: &Path, web_dir: &Path, args: &[&str]) -> anyhow::Result<Server> {
        let port = free_port()?;
        let scratch =
            std::env::temp_dir().join(format!("stolik-server-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&scratch)?;
        let database = format!("sqlite://{}", scratch.join("server.db").display());
        let mut server = Server::new(exe, port, &database, web_dir, &scratch.join("server.log"))?
            .with_args(args.iter().copied())
            .with_env("RUST_LOG", Some("warn"))
            .with_env("STOLIK_LIMITS", None);
        server.metrics_port = Some(free_port()?);
        server.scratch = Some(scratch);
        if args.contains(&"--database") {
            server.database_url = None;
        }
        Ok(server)
    }

    /// The same server started with `args` after its own, at every start.
    pub fn with_args<I, S>(mut self, args: I) -> Server
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// The same server started with the variable `key` set to `value`, or removed for `None`.
    pub fn with_env(mut self, key: &str, value: Option<&str>) -> Server {
        self.env.retain(|(k, _)| k != key);
        self.env.push((key.to_string(), value.map(str::to_string)));
        self
    }

    /// Whether the process runs (started, and not killed or stopped since).
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// The running process's id.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The `/metrics` listener's port, when one was chosen ([`Server::fresh`]).
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics_port
    }

    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    /// Spawns `stolik serve`; `life` numbers the start (0 for the first) in the log.
    fn spawn(&mut self, life: usize) -> anyhow::Result<()> {
        // Several nodes on one machine: no two may take the same metrics port.
        let metrics = format!("127.0.0.1:{}", self.metrics_port.unwrap_or(0));
        let mut command = Command::new(&self.exe);
        command
            .arg("serve")
            .args(["--bind", &format!("127.0.0.1:{}", self.port)])
            .args(["--metrics-bind", &metrics]);
        if let Some(database) = &self.database_url {
            command.args(["--database", database]);
        }
        command
            .arg("--web-dir")
            .arg(&self.web_dir)
            .args(&self.args)
            // No White Rabbit tables built under the working directory unless asked for
            // (`STOLIK_RABBIT_TABLES=DIR`: the load while a node builds).
            .env(
                "STOLIK_RABBIT_TABLES",
                std::env::var("STOLIK_RABBIT_TABLES").unwrap_or_else(|_| "off".to_string()),
            )
            // Nor the site's own tournaments, which would change what tests count, unless a
            // test gives its schedule (`--schedule FILE`, which wins over the variable).
            .env(
                "STOLIK_SCHEDULE",
                std::env::var("STOLIK_SCHEDULE").unwrap_or_else(|_| "off".to_string()),
            )
            // No bot ladder unless asked for (`--ladder-games N` among the arguments, or
            // `STOLIK_LADDER_GAMES`): its games would join every list a test reads.
            .env(
                "STOLIK_LADDER_GAMES",
                std::env::var("STOLIK_LADDER_GAMES").unwrap_or_else(|_| "0".to_string()),
            )
            .env("NO_COLOR", "1");
        for (key, value) in &self.env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", self.exe.display()))?;
        self.watch.lock().expect("watch lock").expect_life(life);
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        for stream in [
            Box::new(stdout) as Box<dyn std::io::Read + Send>,
            Box::new(stderr),
        ] {
            let log = self.log.clone();
            let watch = self.watch.clone();
            std::thread::spawn(move || follow(stream, life, &log, &watch));
        }
        self.child = Some(child);
        Ok(())
    }

    /// Starts the server and waits until `/healthz` answers 200 (503 `restoring` until every
    /// unfinished table is back); returns that moment. A start that fails (the port still
    /// held a moment after a kill) is tried again a few times.
    pub async fn start(&mut self, life: usize) -> anyhow::Result<Instant> {
        let probe = http_client(Duration::from_secs(10));
        let mut last_error = None;
        for _ in 0..10 {
            let spawned = Instant::now();
            self.spawn(life)?;
            match self.wait_ready(&probe).await {
                Ok(ready) => {
                    self.startups.push(ready - spawned);
                    return Ok(ready);
                }
                Err(e) => {
                    self.kill();
                    last_error = Some(e);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
        Err(last_error.expect("at least one attempt"))
    }

    async fn wait_ready(&mut self, probe: &awc::Client) -> anyhow::Result<Instant> {
        let url = format!("{}/healthz", self.base());
        let deadline = Instant::now() + READY_PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                self.child = None;
                bail!(
                    "the server exited with {status} (log {}):\n{}",
                    self.log_path.display(),
                    self.tail()
                );
            }
            let answer = tokio::time::timeout(Duration::from_secs(1), probe.get(&url).send()).await;
            if let Ok(Ok(response)) = answer
                && response.status().is_success()
            {
                return Ok(Instant::now());
            }
            // Fine-grained: the moment of readiness anchors the soak's clock-drift figures and
            // the load generator's start-up time.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        bail!(
            "the server did not answer /healthz in {} s (log {}):\n{}",
            READY_PATIENCE.as_secs(),
            self.log_path.display(),
            self.tail()
        )
    }

    /// SIGKILL: no chance to finish anything.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, then waits for the exit; SIGKILL after `patience` (reported as `None`).
    pub async fn terminate(&mut self, patience: Duration) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        let pid = rustix::process::Pid::from_child(&child);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        let deadline = Instant::now() + patience;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }

    fn tail(&self) -> String {
        self.watch.lock().expect("watch lock").tail()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Never leave a server behind, whatever happened to the test.
        self.kill();
        if let Some(scratch) = &self.scratch {
            let _ = std::fs::remove_dir_all(scratch);
        }
    }
}
