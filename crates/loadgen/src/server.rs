//! The server under test: `stolik serve` as a child process on a free loopback port with a
//! fresh SQLite database, stopped (and its files removed) when dropped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

pub struct Server {
    child: Child,
    pub port: u16,
    /// Its `/metrics` listener (`--metrics-bind`); the echo server has none.
    metrics_port: u16,
    dir: PathBuf,
}

impl Server {
    /// Starts `exe serve` with `extra` arguments and waits until `/healthz` answers 200 (it
    /// answers 503 while the server restores its unfinished tables).
    pub async fn start(exe: &Path, web_dir: &Path, extra: &[&str]) -> anyhow::Result<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let dir = std::env::temp_dir().join(format!("stolik-load-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let database = format!("sqlite://{}", dir.join("load.db").display());
        let log = std::fs::File::create(dir.join("server.log"))?;
        // A `--database` among the extra arguments replaces the fresh SQLite file.
        let default_database = ["--database".to_string(), database];
        let database = if extra.contains(&"--database") {
            &[][..]
        } else {
            &default_database[..]
        };
        let child = Command::new(exe)
            .arg("serve")
            .args(["--bind", &format!("127.0.0.1:{port}")])
            .args(["--metrics-bind", &format!("127.0.0.1:{metrics_port}")])
            .args(database)
            .arg("--web-dir")
            .arg(web_dir)
            .args(extra)
            .env("RUST_LOG", "warn")
            // No White Rabbit tables built under the working directory unless the run asks for
            // them (`STOLIK_RABBIT_TABLES=DIR`: the load while a node builds).
            .env("STOLIK_RABBIT_TABLES", rabbit_tables())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let mut server = Server {
            child,
            port,
            metrics_port,
            dir,
        };
        let client = crate::client::http_client();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!(
                    "the server exited at start ({status}); see {}",
                    server.log().display()
                );
            }
            let health = client
                .get(format!("http://127.0.0.1:{port}/healthz"))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return Ok(server);
            }
            if Instant::now() > deadline {
                bail!(
                    "the server did not become healthy; see {}",
                    server.log().display()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The echo baseline (`stolik-load echo-server`, this same binary) on a free port, once
    /// it accepts connections.
    pub async fn start_echo() -> anyhow::Result<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let dir = std::env::temp_dir().join(format!("stolik-echo-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let child = Command::new(std::env::current_exe()?)
            .args(["echo-server", "--port", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start the echo server")?;
        // The echo server has no metrics: its port is never asked.
        let server = Server {
            child,
            port,
            metrics_port: port,
            dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            if Instant::now() > deadline {
                bail!("the echo server did not start");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(server)
    }

    /// The echo baseline with `count` sockets connected to it.
    pub async fn echo_with(count: usize) -> anyhow::Result<(Server, Vec<crate::client::Conn>)> {
        let echo = Server::start_echo().await?;
        let http = crate::client::Http::new(echo.port, "127.0.0.1");
        let mut conns = Vec::with_capacity(count);
        for _ in 0..count {
            conns.push(http.connect("none").await?);
        }
        Ok((echo, conns))
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory of the server process, in bytes.
    pub fn rss_bytes(&self) -> Option<u64> {
        rss_bytes(&self.child.id().to_string())
    }

    /// The server's `/metrics` page, if it serves one.
    pub async fn metrics(&self) -> Option<String> {
        let mut response = crate::client::http_client()
            .get(format!("http://127.0.0.1:{}/metrics", self.metrics_port))
            .send()
            .await
            .ok()?;
        if !response.status().is_success() {
            return None;
        }
        let body = response.body().limit(1 << 22).await.ok()?;
        String::from_utf8(body.to_vec()).ok()
    }

    pub fn log(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    /// CPU seconds (user + system) the server has used, from `/proc/PID/stat`.
    pub fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds(&self.child.id().to_string())
    }
}

/// Resident memory of a process, in bytes, from `/proc/PID/statm`.
pub fn rss_bytes(pid: &str) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// CPU seconds (user + system) of a process (`self` for this one), from `/proc/PID/stat`.
pub fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `STOLIK_RABBIT_TABLES` as the caller set it, or `off`.
fn rabbit_tables() -> String {
    std::env::var("STOLIK_RABBIT_TABLES").unwrap_or_else(|_| "off".to_string())
}
