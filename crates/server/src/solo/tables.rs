//! White Rabbit's exact tables at the server (`--rabbit-tables DIR`, `data/white-rabbit` by
//! default, `off` for none).
//!
//! Levels found in the directory are loaded and answer hints exactly; the others are answered
//! by hint mode. The work runs on the CPU pool at its lowest priority ([`Priority::Background`]),
//! one step a job: a job loads what is there and, when the directory is writable, solves what
//! is missing, one level at a time (`classic` first, each variant from green 1 up), and each
//! level is used as soon as it is written. A solve takes minutes to hours, so between its
//! sweeps it lets the pool's waiting jobs of higher priority run first
//! ([`CpuPool::yield_to_others`]): a bot's move waits for one sweep at most, never for a
//! level. A task of the runtime only waits between the steps, and looks again every
//! [`TableSource::poll`] for levels written by someone else, so several nodes can share one
//! directory and only those that can write it build.
//!
//! The solver writes a level under a temporary name and renames it (`rabbit_solver::tables`),
//! and only final names are opened, so a half-written file is never read.
//!
//! What the operator needs to know goes to the log, to `/healthz` (`rabbit_tables`: the
//! levels ready, the one being built, the bytes on disk; [`ExactTables::status`]) and to
//! `/metrics` (`stolik_rabbit_levels_ready`, `stolik_rabbit_building`,
//! `stolik_rabbit_tables_bytes`), never to a player: a player only sees whether a hint is
//! exact.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rabbit_solver::game::Game;
use rabbit_solver::tables::{self, Effort, GREENS, Level, Pause};
use rabbit_solver::white_rabbit::{Variant, WhiteRabbit};
use rabbit_solver::{Hint, Model};

use crate::cpu_pool::{CpuPool, Priority};

/// Where the exact tables are, and what this node may do with them.
#[derive(Debug, Clone)]
pub struct TableSource {
    pub dir: PathBuf,
    /// Solve the levels that are missing (only when the directory is writable).
    pub build: bool,
    /// How often the directory is looked at again for levels written elsewhere.
    pub poll: Duration,
    /// The models whose levels are loaded or built, in this order: the full game's `classic`
    /// then `no-wrap` ([`TableSource::building`]); reduced models in tests.
    pub models: Vec<Model>,
}

/// The directory a server started without `--rabbit-tables` uses, relative to where it runs
/// (beside the default database, `data/stolik.db`).
pub const DEFAULT_DIR: &str = "data/white-rabbit";

impl TableSource {
    /// `stolik serve --rabbit-tables DIR`: build what is missing of both variants of the full
    /// game, `classic` first, and look again every minute.
    pub fn building(dir: PathBuf) -> TableSource {
        TableSource {
            dir,
            build: true,
            poll: Duration::from_secs(60),
            models: vec![Model::of(Variant::Classic), Model::of(Variant::NoWrap)],
        }
    }

    /// What `--rabbit-tables` (or `STOLIK_RABBIT_TABLES`) says: `off` (or `none`) for no
    /// tables, otherwise the directory.
    pub fn parse(text: &str) -> Result<Option<TableSource>, String> {
        match text.trim() {
            "" => Err("--rabbit-tables takes a directory, or `off`".to_string()),
            "off" | "none" => Ok(None),
            dir => Ok(Some(TableSource::building(PathBuf::from(dir)))),
        }
    }
}

/// The name of a model in the status and the metrics: its files' name without the level
/// (`classic`, `no-wrap`, `b2r2t3f4-classic` for a reduced model).
pub fn model_name(m: &Model) -> String {
    let file = tables::path(std::path::Path::new(""), m, 1);
    let file = file.to_string_lossy();
    file.strip_suffix("-green1.bin")
        .unwrap_or(&file)
        .to_string()
}

/// What `/healthz` says of the tables.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TablesStatus {
    pub dir: String,
    /// This node solves the missing levels (the directory is writable).
    pub build: bool,
    /// Levels loaded, of `levels` in all, as `MODEL/GREEN`.
    pub ready: Vec<String>,
    pub levels: usize,
    /// The level being solved now.
    pub building: Option<String>,
    /// The size of the level files in the directory.
    pub bytes: u64,
    /// The last failure to write a level (a full disk, say), if any since the last success.
    pub error: Option<String>,
}

/// The levels loaded so far; dropping it stops the work on them (within a sweep of a solve in
/// progress).
pub struct ExactTables {
    shared: Arc<Shared>,
}

struct Shared {
    levels: RwLock<HashMap<(Model, u8), Arc<Level>>>,
    stop: Arc<AtomicBool>,
    source: TableSource,
    /// Whether this node builds (known once the thread has probed the directory).
    builds: AtomicBool,
    building: Mutex<Option<(Model, u8)>>,
    error: Mutex<Option<String>>,
    cpu: CpuPool,
}

/// What the tables' work does after a step.
enum Next {
    /// Another step at once: a level was solved, or tried.
    Again,
    /// Look again after [`TableSource::poll`]: levels are missing that someone else builds,
    /// or writing one failed.
    Wait,
    /// Every level is loaded, or the tables were dropped.
    Done,
}

impl ExactTables {
    /// The tables of `source.models`, in that order of building, worked on `cpu`; the steps
    /// are driven by a task of the caller's Tokio runtime.
    pub fn start(source: TableSource, cpu: CpuPool) -> ExactTables {
        let shared = Arc::new(Shared {
            levels: RwLock::default(),
            stop: Arc::new(AtomicBool::new(false)),
            source,
            builds: AtomicBool::new(false),
            building: Mutex::default(),
            error: Mutex::default(),
            cpu,
        });
        shared.publish();
        tokio::spawn(Arc::clone(&shared).drive());
        ExactTables { shared }
    }

    /// The loaded level of a model, if it is there.
    pub fn level(&self, m: Model, green: u8) -> Option<Arc<Level>> {
        let levels = self.shared.levels.read().unwrap_or_else(|e| e.into_inner());
        levels.get(&(m, green)).cloned()
    }

    /// Exact hints at a game in progress whose level is loaded (a few microseconds a
    /// decision); `None` when it is not.
    pub fn hints(&self, game: &WhiteRabbit) -> Option<Vec<Hint>> {
        if game.is_over() {
            return None;
        }
        let lv = self.level(Model::of(game.variant()), game.green())?;
        Some(rabbit_solver::full_hints(game, &lv.solved))
    }

    /// What the operator needs to know: levels ready, the one being built, bytes on disk.
    pub fn status(&self) -> TablesStatus {
        self.shared.status()
    }
}

impl Drop for ExactTables {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Hands the pool one step after another, waiting between them when there is nothing
    /// to do but look again later.
    async fn drive(self: Arc<Self>) {
        let probe = Arc::clone(&self);
        let probed = self
            .cpu
            .run(Priority::Background, move || probe.probe())
            .await;
        if probed.is_err() {
            return;
        }
        loop {
            let step = Arc::clone(&self);
            match self
                .cpu
                .run(Priority::Background, move || step.step())
                .await
            {
                Ok(Next::Again) => {}
                Ok(Next::Wait) => self.wait(self.source.poll).await,
                Ok(Next::Done) | Err(_) => return,
            }
        }
    }

    /// Whether this node builds: only when asked to and the directory is writable.
    fn probe(&self) {
        let source = &self.source;
        let build = source.build && writable(&source.dir);
        self.builds.store(build, Ordering::Relaxed);
        tracing::info!(dir = %source.dir.display(), build, "White Rabbit tables");
    }

    /// Loads the levels present, then solves the first one missing if this node builds.
    fn step(&self) -> Next {
        let (source, models) = (&self.source, &self.source.models[..]);
        if self.stopped() {
            return Next::Done;
        }
        self.load_present(source, models);
        if self.builds.load(Ordering::Relaxed)
            && let Some((m, green)) = self.first_missing(models)
        {
            return self.build(source, m, green);
        }
        if self.first_missing(models).is_none() {
            tracing::info!(dir = %source.dir.display(), "every White Rabbit level is ready");
            return Next::Done;
        }
        Next::Wait
    }

    fn status(&self) -> TablesStatus {
        let source = &self.source;
        let ready = {
            let levels = self.levels.read().unwrap_or_else(|e| e.into_inner());
            source
                .models
                .iter()
                .flat_map(|&m| GREENS.map(move |g| (m, g)))
                .filter(|k| levels.contains_key(k))
                .map(|(m, g)| format!("{}/{g}", model_name(&m)))
                .collect()
        };
        let building = *self.building.lock().unwrap_or_else(|e| e.into_inner());
        TablesStatus {
            dir: source.dir.display().to_string(),
            build: self.builds.load(Ordering::Relaxed),
            ready,
            levels: source.models.len() * GREENS.count(),
            building: building.map(|(m, g)| format!("{}/{g}", model_name(&m))),
            bytes: self.bytes(),
            error: self.error.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }

    /// The size of the finished level files of this node's models.
    fn bytes(&self) -> u64 {
        let source = &self.source;
        source
            .models
            .iter()
            .flat_map(|m| GREENS.map(|g| tables::path(&source.dir, m, g)))
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|meta| meta.len())
            .sum()
    }

    /// The figures of `/metrics`.
    fn publish(&self) {
        metrics::describe_gauge!(
            "stolik_rabbit_levels_ready",
            "White Rabbit exact table levels loaded, per variant"
        );
        metrics::describe_gauge!(
            "stolik_rabbit_building",
            "1 while this node solves a White Rabbit level"
        );
        metrics::describe_gauge!(
            "stolik_rabbit_tables_bytes",
            "bytes of White Rabbit level files in the tables directory"
        );
        let levels = self.levels.read().unwrap_or_else(|e| e.into_inner());
        for m in &self.source.models {
            let n = GREENS.filter(|&g| levels.contains_key(&(*m, g))).count();
            metrics::gauge!("stolik_rabbit_levels_ready", "variant" => model_name(m)).set(n as f64);
        }
        drop(levels);
        let building = self
            .building
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some();
        metrics::gauge!("stolik_rabbit_building").set(if building { 1.0 } else { 0.0 });
        metrics::gauge!("stolik_rabbit_tables_bytes").set(self.bytes() as f64);
    }

    /// Loads every level in the directory that is not loaded yet.
    fn load_present(&self, source: &TableSource, models: &[Model]) {
        for &m in models {
            for green in GREENS {
                if self.stopped() {
                    return;
                }
                if self.has(m, green) || !tables::path(&source.dir, &m, green).exists() {
                    continue;
                }
                match tables::cached(&source.dir, m, green) {
                    Some(lv) => self.insert(m, green, lv),
                    None => tracing::warn!(?m, green, "a White Rabbit table file is not valid"),
                }
            }
        }
    }

    fn first_missing(&self, models: &[Model]) -> Option<(Model, u8)> {
        models
            .iter()
            .flat_map(|&m| GREENS.map(move |g| (m, g)))
            .find(|&(m, g)| !self.has(m, g))
    }

    /// Solves one level (loading the level below from the file) and uses it at once. Between
    /// its sweeps the pool's more urgent jobs run first.
    fn build(&self, source: &TableSource, m: Model, green: u8) -> Next {
        let cpu = self.cpu.clone();
        let effort = Effort {
            stop: Some(Arc::clone(&self.stop)),
            pause: Some(Pause(Arc::new(move || {
                cpu.yield_to_others(Priority::Background);
            }))),
            ..Effort::new(&m, 1)
        };
        let t = std::time::Instant::now();
        let name = model_name(&m);
        tracing::info!(model = %name, green, "solving a White Rabbit level");
        *self.building.lock().unwrap_or_else(|e| e.into_inner()) = Some((m, green));
        self.publish();
        let mut log = |s: &str| tracing::debug!(target: "rabbit_tables", "{s}");
        let solved = tables::level(&source.dir, m, green, effort, &mut log);
        *self.building.lock().unwrap_or_else(|e| e.into_inner()) = None;
        match solved {
            Ok(lv) => {
                let bytes = std::fs::metadata(tables::path(&source.dir, &m, green))
                    .map_or(0, |meta| meta.len());
                tracing::info!(model = %name, green, seconds = t.elapsed().as_secs(), bytes, "level solved");
                *self.error.lock().unwrap_or_else(|e| e.into_inner()) = None;
                self.insert(m, green, lv);
                Next::Again
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                self.publish();
                Next::Done
            }
            Err(e) => {
                // A disk that filled up, say: try again later rather than at once.
                tracing::error!(error = %e, model = %name, green, "cannot write a White Rabbit level");
                *self.error.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(format!("{name}/{green}: {e}"));
                self.publish();
                Next::Wait
            }
        }
    }

    fn has(&self, m: Model, green: u8) -> bool {
        let levels = self.levels.read().unwrap_or_else(|e| e.into_inner());
        levels.contains_key(&(m, green))
    }

    fn insert(&self, m: Model, green: u8, lv: Level) {
        // The class map is built on first use (seconds for the full game): here, not in the
        // first request that reads the level.
        lv.solved.ix.orbits();
        let mut levels = self.levels.write().unwrap_or_else(|e| e.into_inner());
        levels.insert((m, green), Arc::new(lv));
        drop(levels);
        tracing::info!(model = %model_name(&m), green, "White Rabbit level loaded: exact hints there");
        self.publish();
    }

    /// Waits `total` on the runtime, ending early once the tables are dropped.
    async fn wait(&self, total: Duration) {
        let step = Duration::from_millis(50);
        let mut slept = Duration::ZERO;
        while slept < total && !self.stopped() {
            tokio::time::sleep(step).await;
            slept += step;
        }
    }
}

/// Whether this node can write levels into `dir` (creating it): a node with the directory
/// mounted read-only only reads what others build.
fn writable(dir: &std::path::Path) -> bool {
    let probe = dir.join(format!(".write-probe-{}", std::process::id()));
    let ok = std::fs::create_dir_all(dir).is_ok() && std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn small(wrap: bool) -> Model {
        Model {
            blacks: 2,
            reds: 2,
            table: 3,
            faces: 4,
            wrap,
        }
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("server-tables-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    async fn wait_for(tables: &ExactTables, m: Model, green: u8, limit: Duration) -> Arc<Level> {
        let t = Instant::now();
        loop {
            if let Some(lv) = tables.level(m, green) {
                return lv;
            }
            assert!(
                t.elapsed() < limit,
                "{m:?} green {green} not there in {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// From an empty directory every level is built in the background, and equals what the
    /// solver gives on its own in another directory.
    // The steps are driven by a task of the runtime, so the tests wait on it, never block it.
    #[tokio::test]
    async fn missing_levels_are_built_and_used() {
        let (d, alone) = (dir("build"), dir("alone"));
        let models = vec![small(true), small(false)];
        let source = TableSource {
            dir: d.clone(),
            build: true,
            poll: Duration::from_millis(100),
            models: models.clone(),
        };
        let t = ExactTables::start(source, CpuPool::new(1));
        for &m in &models {
            for green in GREENS {
                let lv = wait_for(&t, m, green, Duration::from_secs(120)).await;
                let own = tables::level(&alone, m, green, Effort::new(&m, 1), &mut |_| {}).unwrap();
                assert_eq!(lv.starts, own.starts, "{m:?} green {green}");
            }
        }
        let status = t.status();
        assert_eq!(status.ready.len(), status.levels, "{status:?}");
        assert_eq!(status.levels, 12);
        assert!(
            status.ready.contains(&"b2r2t3f4-no-wrap/6".to_string()),
            "{status:?}"
        );
        assert!(status.build && status.building.is_none() && status.error.is_none());
        let on_disk: u64 = std::fs::read_dir(&d)
            .unwrap()
            .map(|f| f.unwrap().metadata().unwrap().len())
            .sum();
        assert_eq!(status.bytes, on_disk);
        drop(t);
        for d in [d, alone] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// A node that does not build reads only complete files under their final names: a whole
    /// level under a temporary name is not loaded; once renamed it is, at the next look.
    #[tokio::test]
    async fn a_reading_node_uses_a_level_once_renamed_and_never_a_temporary() {
        let (d, src) = (dir("read"), dir("src"));
        let m = small(true);
        tables::level(&src, m, 1, Effort::new(&m, 1), &mut |_| {}).unwrap();
        std::fs::create_dir_all(&d).unwrap();
        let file = tables::path(&d, &m, 1);
        let tmp = d.join("b2r2t3f4-classic-green1.bin.777-0.tmp");
        std::fs::copy(tables::path(&src, &m, 1), &tmp).unwrap();
        let source = TableSource {
            dir: d.clone(),
            build: false,
            poll: Duration::from_millis(50),
            models: vec![m],
        };
        let t = ExactTables::start(source, CpuPool::new(1));
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(t.level(m, 1).is_none(), "a temporary file was read");
        std::fs::rename(&tmp, &file).unwrap();
        wait_for(&t, m, 1, Duration::from_secs(10)).await;
        assert!(t.level(m, 2).is_none(), "not built by a reading node");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "nothing written");
        drop(t);
        for d in [d, src] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}
