//! For tests that must stop and start Redis: a `redis-server` of their own on a free port,
//! killed when dropped. (Tests that only need a Redis use the machine's, under a prefix of
//! their own.)

use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct OwnRedis {
    port: u16,
    child: Option<Child>,
}

impl OwnRedis {
    /// Starts `redis-server` (keeping nothing on disk) and waits until it takes connections.
    pub async fn start() -> OwnRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut redis = OwnRedis { port, child: None };
        redis.restart().await;
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (SIGKILL: no goodbye to its clients).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port (empty), and waits until it takes connections.
    pub async fn restart(&mut self) {
        self.stop();
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is needed for this test");
        self.child = Some(child);
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("redis-server on port {} did not come up", self.port);
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.stop();
    }
}
