//! nginx in front of several `stolik serve` nodes, as a site would run them: a master process
//! of its own, with a generated configuration in a temp dir, on a free loopback port. The
//! upstream is the nodes in round robin, with no sticky sessions; WebSocket upgrades pass
//! through, and a node that refuses connections (killed) is skipped for the next one, as is,
//! for a GET or an upgrade, one that answers 503 (restoring its tables after a start).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// A running nginx master, stopped (and its directory removed) when dropped.
pub struct Nginx {
    child: Option<Child>,
    pub port: u16,
    dir: PathBuf,
}

/// The nginx binary: `STOLIK_NGINX`, else Debian's `/usr/sbin/nginx`, else `nginx` on the
/// `PATH`; an error saying how to install it when there is none.
pub fn binary() -> anyhow::Result<PathBuf> {
    if let Some(path) = std::env::var_os("STOLIK_NGINX") {
        return Ok(PathBuf::from(path));
    }
    let debian = Path::new("/usr/sbin/nginx");
    if debian.exists() {
        return Ok(debian.to_path_buf());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("nginx"))
        .find(|candidate| candidate.exists());
    on_path.context(
        "nginx is needed here and was not found: install it (`apt-get install nginx`, as \
         .ci/run does) or point STOLIK_NGINX at the binary",
    )
}

/// The configuration: nginx on `port`, everything under `dir`, `nodes` as the upstream.
pub fn config(dir: &Path, port: u16, nodes: &[u16]) -> String {
    let dir = dir.display();
    let mut upstream = String::new();
    for node in nodes {
        // A refused connection sends the request on to the next node. `max_fails=0`: no node
        // is ever marked down for a while (as by default, for 10 s after one failure), which
        // would refuse everything with 502 "no live upstreams" when one node was restarted
        // and the other killed within that while. A refused connect on loopback costs little.
        let _ = writeln!(upstream, "        server 127.0.0.1:{node} max_fails=0;");
    }
    format!(
        r#"worker_processes 1;
# Each proxied socket holds two connections (the client's, the node's): room for the load
# generator's thousands.
worker_rlimit_nofile 65536;
error_log {dir}/error.log info;
pid {dir}/nginx.pid;
events {{
    worker_connections 32768;
}}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/tmp/client_body;
    proxy_temp_path {dir}/tmp/proxy;
    fastcgi_temp_path {dir}/tmp/fastcgi;
    uwsgi_temp_path {dir}/tmp/uwsgi;
    scgi_temp_path {dir}/tmp/scgi;
    upstream stolik {{
{upstream}    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        '' close;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://stolik;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_connect_timeout 1s;
            proxy_next_upstream error timeout http_503;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"#
    )
}

impl Nginx {
    /// Starts nginx in front of the nodes on these loopback ports and waits until it accepts
    /// connections.
    pub async fn start(nodes: &[u16]) -> anyhow::Result<Nginx> {
        let exe = binary()?;
        let port = crate::free_port()?;
        let dir = std::env::temp_dir().join(format!("stolik-nginx-{}-{port}", std::process::id()));
        for sub in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            let path = dir.join("tmp").join(sub);
            std::fs::create_dir_all(&path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            // Run as root, nginx's workers drop to `nobody`, who must be able to write there.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
        }
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, config(&dir, port, nodes))?;
        let stderr = std::fs::File::create(dir.join("stderr.log"))?;
        let child = Command::new(&exe)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(&conf)
            .arg("-e")
            .arg(dir.join("error.log"))
            .args(["-g", "daemon off; master_process on;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let mut nginx = Nginx {
            child: Some(child),
            port,
            dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = nginx
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                nginx.child = None;
                bail!("nginx exited at start ({status}):\n{}", nginx.errors());
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(nginx);
            }
            if Instant::now() > deadline {
                bail!("nginx did not listen in 20 s:\n{}", nginx.errors());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// What nginx said about itself (its error log and standard error), for a failure's message.
    pub fn errors(&self) -> String {
        let read = |name: &str| std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
        format!("{}{}", read("stderr.log"), read("error.log"))
    }

    /// Stops the master and its workers (SIGTERM, SIGKILL after 5 s).
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let pid = rustix::process::Pid::from_child(&child);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.stop();
        if std::thread::panicking() {
            eprintln!("nginx's logs are kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_names_every_node_and_passes_upgrades() {
        let conf = config(Path::new("/tmp/x"), 8080, &[9001, 9002]);
        assert!(conf.contains("server 127.0.0.1:9001 "), "{conf}");
        assert!(conf.contains("server 127.0.0.1:9002 "), "{conf}");
        assert!(conf.contains("listen 127.0.0.1:8080;"), "{conf}");
        assert!(conf.contains("proxy_set_header Upgrade $http_upgrade;"));
        assert!(conf.contains("proxy_next_upstream error timeout http_503;"));
        assert!(!conf.contains("ip_hash"), "no sticky sessions");
    }
}
