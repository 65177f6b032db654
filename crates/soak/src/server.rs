//! The `stolik serve` child process: started on a fixed loopback port and database, killed
//! with SIGKILL or stopped with SIGTERM, its output kept in a log file. Other tests and tools
//! use it too (the cluster tests, `stolik-load failover`), with arguments of their own.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// What the server printed, as far as the soak cares.
#[derive(Default)]
pub struct Watch {
    /// When each start's "unfinished games resumed" line arrived (the tables' clocks were
    /// restarted just before it).
    pub resumed: Vec<Option<Instant>>,
    pub error_lines: u64,
    pub warn_lines: u64,
    pub panics: u64,
    /// The last lines, for an error message when a start fails.
    tail: VecDeque<String>,
    /// The first few ERROR and panic lines, for the report.
    pub first_errors: Vec<String>,
}

pub struct Server {
    exe: PathBuf,
    pub port: u16,
    database_url: String,
    web_dir: PathBuf,
    /// More arguments for `stolik serve`, after the soak's own (`--redis`, `--node-id`, …).
    args: Vec<std::ffi::OsString>,
    log: Arc<Mutex<File>>,
    child: Option<Child>,
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
            database_url: database_url.to_string(),
            web_dir: web_dir.to_path_buf(),
            args: Vec::new(),
            log: Arc::new(Mutex::new(log)),
            child: None,
            startups: Vec::new(),
            watch: Arc::new(Mutex::new(Watch::default())),
        })
    }

    /// The same server started with `args` after its own, at every start.
    pub fn with_args<I, S>(mut self, args: I) -> Server
    where
        I: IntoIterator<Item = S>,
        S: Into<std::ffi::OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
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

    /// Spawns `stolik serve`; `life` numbers the start (0 for the first) in the log.
    fn spawn(&mut self, life: usize) -> anyhow::Result<()> {
        let mut child = Command::new(&self.exe)
            .arg("serve")
            .arg("--bind")
            .arg(format!("127.0.0.1:{}", self.port))
            .arg("--database")
            .arg(&self.database_url)
            .arg("--web-dir")
            .arg(&self.web_dir)
            // Several nodes on one machine: no two may take the same metrics port.
            .args(["--metrics-bind", "127.0.0.1:0"])
            .args(&self.args)
            // The soak makes many guests, tables and sockets from one address.
            .env("STOLIK_LIMITS", "off")
            // No White Rabbit tables built under the working directory unless asked for.
            .env(
                "STOLIK_RABBIT_TABLES",
                std::env::var("STOLIK_RABBIT_TABLES").unwrap_or_else(|_| "off".to_string()),
            )
            .env("RUST_LOG", "warn,server=info,stolik=info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", self.exe.display()))?;
        {
            let mut watch = self.watch.lock().expect("watch lock");
            while watch.resumed.len() <= life {
                watch.resumed.push(None);
            }
        }
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
    pub async fn start(&mut self, life: usize, http: &awc::Client) -> anyhow::Result<Instant> {
        let mut last_error = None;
        for _ in 0..10 {
            let spawned = Instant::now();
            self.spawn(life)?;
            match self.wait_ready(http).await {
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

    async fn wait_ready(&mut self, http: &awc::Client) -> anyhow::Result<Instant> {
        let url = format!("{}/healthz", self.base());
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                self.child = None;
                bail!("the server exited with {status}:\n{}", self.tail());
            }
            let probe = tokio::time::timeout(Duration::from_secs(1), http.get(&url).send()).await;
            if let Ok(Ok(response)) = probe
                && response.status().is_success()
            {
                return Ok(Instant::now());
            }
            // Fine-grained: the moment of readiness anchors the clock-drift figures.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        bail!(
            "the server did not answer /healthz in 60 s:\n{}",
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
        let watch = self.watch.lock().expect("watch lock");
        watch.tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Never leave a server behind, whatever happened to the soak.
        self.kill();
    }
}

/// Copies one output stream of the child into the log and notes what matters.
fn follow(
    stream: Box<dyn std::io::Read + Send>,
    life: usize,
    log: &Mutex<File>,
    watch: &Mutex<Watch>,
) {
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { break };
        let now = Instant::now();
        {
            let mut watch = watch.lock().expect("watch lock");
            if line.contains("unfinished games resumed")
                && let Some(slot) = watch.resumed.get_mut(life)
            {
                *slot = Some(now);
            }
            let error = line.contains(" ERROR ");
            let panic = line.contains("panicked");
            watch.error_lines += u64::from(error);
            watch.warn_lines += u64::from(line.contains(" WARN "));
            watch.panics += u64::from(panic);
            if (error || panic) && watch.first_errors.len() < 10 {
                watch.first_errors.push(format!("[life {life}] {line}"));
            }
            watch.tail.push_back(line.clone());
            if watch.tail.len() > 30 {
                watch.tail.pop_front();
            }
        }
        let _ = writeln!(log.lock().expect("log lock"), "[life {life}] {line}");
    }
}
