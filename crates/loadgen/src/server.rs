//! The process under load: `stolik serve` as the test kit launches it (a free loopback port,
//! a fresh SQLite database, removed when dropped), or the echo baseline; and what the
//! generator measures of a process.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

pub struct Server {
    pub port: u16,
    process: Process,
}

enum Process {
    Stolik(Box<testkit::Server>),
    /// The echo baseline: no database, no metrics, no log.
    Echo(Child),
}

impl Server {
    /// Starts `exe serve` with `extra` arguments and waits until `/healthz` answers 200 (it
    /// answers 503 while the server restores its unfinished tables). A `--database` among
    /// the extra arguments replaces the fresh SQLite file.
    pub async fn start(exe: &Path, web_dir: &Path, extra: &[&str]) -> anyhow::Result<Server> {
        let mut stolik = testkit::Server::fresh(exe, web_dir, extra)?;
        stolik.start(0).await?;
        Ok(Server {
            port: stolik.port,
            process: Process::Stolik(Box::new(stolik)),
        })
    }

    /// The echo baseline (`stolik-load echo-server`, this same binary) on a free port, once
    /// it accepts connections.
    pub async fn start_echo() -> anyhow::Result<Server> {
        let port = testkit::free_port()?;
        let child = Command::new(std::env::current_exe()?)
            .args(["echo-server", "--port", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start the echo server")?;
        let server = Server {
            port,
            process: Process::Echo(child),
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
    pub async fn echo_with(count: usize) -> anyhow::Result<(Server, Vec<testkit::Conn>)> {
        let echo = Server::start_echo().await?;
        let http = testkit::Http::from_address(echo.port, "127.0.0.1");
        let mut conns = Vec::with_capacity(count);
        for _ in 0..count {
            conns.push(http.connect("none").await?);
        }
        Ok((echo, conns))
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        match &self.process {
            Process::Stolik(stolik) => stolik.pid().expect("a started server"),
            Process::Echo(child) => child.id(),
        }
    }

    /// Resident memory of the server process, in bytes.
    pub fn rss_bytes(&self) -> Option<u64> {
        rss_bytes(&self.pid().to_string())
    }

    /// The server's `/metrics` page, if it serves one.
    pub async fn metrics(&self) -> Option<String> {
        let Process::Stolik(stolik) = &self.process else {
            return None;
        };
        let url = format!("http://127.0.0.1:{}/metrics", stolik.metrics_port()?);
        let mut response = testkit::http_client(Duration::from_secs(30))
            .get(url)
            .send()
            .await
            .ok()?;
        if !response.status().is_success() {
            return None;
        }
        let body = response.body().limit(1 << 22).await.ok()?;
        String::from_utf8(body.to_vec()).ok()
    }

    /// CPU seconds (user + system) the server has used, from `/proc/PID/stat`.
    pub fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds(&self.pid().to_string())
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
        // The kit's server stops itself when dropped.
        if let Process::Echo(child) = &mut self.process {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
