//! Where long computations run: bots' moves, solver hints, reviews of finished games, and the
//! solver's exact tables being built. One bounded pool: a fixed number of threads, one core
//! fewer than the machine has, each at the lowest scheduling priority, taking jobs by
//! [`Priority`] (`queues.rs`: bots first, then hints, then reviews, then the bot ladder's games,
//! then the background build;
//! a job passed over too often goes next, so nothing waits for ever).
//!
//! Tokio's blocking pool would grow a thread per bot and run them at the priority of the
//! tables: ten Hard bots thinking on two cores would leave the tables a sixth of the machine,
//! and every human move would wait behind them. Here the bots get whatever the tables leave.
//!
//! A background job is long (a level of the exact tables takes minutes to hours) and must not
//! hold a thread that a bot's move needs: it calls [`CpuPool::yield_to_others`] between its
//! pieces (the solver's sweeps), which runs the jobs of higher priority waiting then, on its
//! own thread, before it goes on. So on a one-thread pool a bot's move waits at most one piece
//! of the build (seconds on the full game), and the build still moves on between bursts.
//!
//! `/metrics` has, per priority, the jobs waiting (`stolik_cpu_pool_queued`) and the threads
//! busy with one (`stolik_cpu_pool_busy`), and the pool's size (`stolik_cpu_pool_threads`).

mod queues;

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use tokio::sync::oneshot;

use queues::Queues;
pub use queues::{PATIENCE, Priority};

type Job = Box<dyn FnOnce() + Send>;

/// A cloneable handle to the pool; the threads end (after the jobs already queued) when the
/// last handle is dropped.
#[derive(Clone)]
pub struct CpuPool {
    handle: Arc<Handle>,
}

/// Owned by the handles only: its drop closes the pool.
struct Handle {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Rung when a job is queued or the pool closes.
    ready: Condvar,
}

#[derive(Default)]
struct State {
    queues: Queues<Job>,
    closed: bool,
}

/// The job panicked before answering.
#[derive(Debug, thiserror::Error)]
#[error("the computation failed")]
pub struct JobLost;

impl CpuPool {
    /// Starts `threads` worker threads (at least one).
    pub fn new(threads: usize) -> CpuPool {
        let shared = Arc::new(Shared {
            state: Mutex::default(),
            ready: Condvar::new(),
        });
        let threads = threads.max(1);
        metrics::gauge!("stolik_cpu_pool_threads").set(threads as f64);
        for i in 0..threads {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("stolik-cpu-{i}"))
                .spawn(move || {
                    lower_priority();
                    while let Some((priority, job)) = shared.next() {
                        run_job(priority, job);
                    }
                })
                .expect("cannot start a CPU pool thread");
        }
        CpuPool {
            handle: Arc::new(Handle { shared }),
        }
    }

    /// Sized for this machine: one thread per core but one, so that a core is always the
    /// tables'. Even at nice 19, bots on every core slowed human moves (their searches share
    /// the caches and the memory bus, which no priority divides): ten Hard bots on both of two
    /// cores made the p99 of a move 3–6 times that without bots, on one core 0.9–1.4 times
    /// (docs/performance.md, "Bots thinking beside people").
    pub fn for_this_machine() -> CpuPool {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        CpuPool::new(cores.saturating_sub(1).max(1))
    }

    /// Runs `f` on the pool at `priority` and waits for its answer without blocking the
    /// caller's thread.
    pub async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobLost> {
        let (tx, rx) = oneshot::channel();
        self.spawn(priority, move || {
            let _ = tx.send(f());
        });
        rx.await.map_err(|_| JobLost)
    }

    /// Queues `f` at `priority` without waiting for it.
    pub fn spawn(&self, priority: Priority, f: impl FnOnce() + Send + 'static) {
        let shared = &self.handle.shared;
        let mut state = shared.lock();
        state.queues.push(priority, Box::new(f));
        publish_queued(&state, priority);
        drop(state);
        shared.ready.notify_one();
    }

    /// Runs, on the calling thread, the jobs of a priority above `me` waiting now (as many as
    /// `me`'s patience at most, so that the caller moves on too), and answers how many ran.
    /// A long job of priority `me` calls it between its pieces.
    pub fn yield_to_others(&self, me: Priority) -> u32 {
        let mut ran = 0;
        while ran < me.patience().max(1) {
            let Some((priority, job)) = self.handle.shared.take_above(me) else {
                break;
            };
            // The thread works for the other job meanwhile, not for the caller's.
            metrics::gauge!("stolik_cpu_pool_busy", "priority" => me.name()).decrement(1.0);
            run_job(priority, job);
            metrics::gauge!("stolik_cpu_pool_busy", "priority" => me.name()).increment(1.0);
            ran += 1;
        }
        ran
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A job never runs under the lock, so a poisoned lock only means a panic in the
        // queue's few lines; its data is still whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for the next job; `None` once the pool is closed and nothing waits.
    fn next(&self) -> Option<(Priority, Job)> {
        let mut state = self.lock();
        loop {
            if let Some((priority, job)) = state.queues.take(None) {
                publish_queued(&state, priority);
                return Some((priority, job));
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A waiting job of a priority above `me`, if there is one.
    fn take_above(&self, me: Priority) -> Option<(Priority, Job)> {
        let mut state = self.lock();
        let (priority, job) = state.queues.take(Some(me))?;
        publish_queued(&state, priority);
        Some((priority, job))
    }
}

fn publish_queued(state: &State, priority: Priority) {
    metrics::gauge!("stolik_cpu_pool_queued", "priority" => priority.name())
        .set(state.queues.len(priority) as f64);
}

fn run_job(priority: Priority, job: Job) {
    metrics::gauge!("stolik_cpu_pool_busy", "priority" => priority.name()).increment(1.0);
    // A panicking job loses its own answer (the caller sees `JobLost`), not the thread: the
    // pool keeps its size.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
    metrics::gauge!("stolik_cpu_pool_busy", "priority" => priority.name()).decrement(1.0);
}

/// Makes the calling thread the last to be scheduled when the tables want the cores
/// (nice 19 applies to this thread only on Linux, and to the threads it starts). The threads
/// the `ai` crate starts for itself run it too (`ai::on_background_thread_start`).
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::warn!(error = %e, "cannot lower a CPU pool thread's priority");
    }
}

#[cfg(test)]
mod tests;
