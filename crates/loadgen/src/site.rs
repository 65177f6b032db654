//! A site of several `stolik serve` nodes as child processes: one throwaway PostgreSQL
//! database, the machine's Redis under a prefix of the run's own, each node on a free loopback
//! port. Nodes can be SIGKILLed and started again on the same port and database (the soak's
//! [`testkit::Server`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use store::testing::TestDatabase;

/// Where the site's database and Redis are.
#[derive(clap::Args, Debug, Clone)]
pub struct SiteArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// A PostgreSQL admin URL: a throwaway database is made through it, and dropped at the end
    /// (by default `STOLIK_TEST_POSTGRES`, or the local server).
    #[arg(long)]
    pub postgres: Option<String>,
    /// The Redis the nodes meet in; every key is under a prefix of this run's own.
    #[arg(long, default_value = "redis://127.0.0.1:6379")]
    pub redis: String,
}

pub struct Site {
    pub nodes: Vec<testkit::Server>,
    /// Keeps the nodes' logs when the site is dropped (a run that failed says where).
    pub keep_logs: bool,
    lives: Vec<usize>,
    dir: PathBuf,
    // Dropped after the nodes: they are killed before their database goes.
    _database: TestDatabase,
}

impl Site {
    /// Starts nodes named `names`, each with `extra` arguments too, and waits until each is
    /// healthy.
    pub async fn start(args: &SiteArgs, names: &[&str], extra: &[&str]) -> anyhow::Result<Site> {
        let admin = args
            .postgres
            .clone()
            .unwrap_or_else(store::testing::postgres_admin_url);
        store::testing::postgres_answers(&admin)
            .await
            .map_err(|e| anyhow::anyhow!("PostgreSQL does not answer at {admin}: {e}"))?;
        let database = TestDatabase::postgres(&admin)
            .await
            .context("cannot make a throwaway PostgreSQL database")?;
        let prefix = format!("stolik-load-{}:", store::new_id());
        let dir = std::env::temp_dir().join(format!("stolik-site-{}", store::new_id()));
        std::fs::create_dir_all(&dir)?;
        let mut nodes = Vec::new();
        for name in names {
            let server = testkit::Server::new(
                &args.stolik,
                testkit::free_port()?,
                &database.url,
                &args.web_dir,
                &dir.join(format!("{name}.log")),
            )?
            .with_args(["--redis", &args.redis, "--redis-prefix", &prefix])
            .with_args(["--node-id", name])
            .with_args(extra.iter().copied());
            nodes.push(server);
        }
        let mut site = Site {
            keep_logs: false,
            lives: vec![0; nodes.len()],
            nodes,
            dir,
            _database: database,
        };
        for i in 0..site.nodes.len() {
            site.start_node(i).await?;
        }
        Ok(site)
    }

    /// Starts node `i` (again) and waits until it is healthy.
    pub async fn start_node(&mut self, i: usize) -> anyhow::Result<()> {
        let life = self.lives[i];
        self.lives[i] += 1;
        self.nodes[i]
            .start(life)
            .await
            .with_context(|| format!("node {i} does not start; logs in {}", self.dir.display()))?;
        Ok(())
    }

    pub fn port(&self, i: usize) -> u16 {
        self.nodes[i].port
    }

    /// SIGKILL.
    pub fn kill(&mut self, i: usize) {
        self.nodes[i].kill();
    }

    pub fn logs(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            node.kill();
        }
        if self.keep_logs {
            eprintln!("stolik-load: the nodes' logs are in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The load average, as `/proc/loadavg` has it (its first three fields).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "—".into())
}
