//! Where long computations run: bots thinking and solver hints. A fixed number of threads,
//! one core fewer than the machine has, each at the lowest scheduling priority, taking jobs
//! from one queue.
//!
//! Tokio's blocking pool would grow a thread per bot and run them at the priority of the
//! tables: ten Hard bots thinking on two cores would leave the tables a sixth of the machine,
//! and every human move would wait behind them. Here the bots get whatever the tables leave.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// A cloneable handle to the pool; the threads end when the last handle is dropped.
#[derive(Clone)]
pub struct CpuPool {
    jobs: mpsc::Sender<Job>,
}

/// The job panicked before answering.
#[derive(Debug, thiserror::Error)]
#[error("the computation failed")]
pub struct JobLost;

impl CpuPool {
    /// Starts `threads` worker threads (at least one).
    pub fn new(threads: usize) -> CpuPool {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("stolik-cpu-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only while waiting for the next job, never while
                        // running one.
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        metrics::gauge!("stolik_cpu_pool_busy").increment(1.0);
                        // A panicking job loses its own answer (the caller sees `JobLost`),
                        // not the thread: the pool keeps its size.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        metrics::gauge!("stolik_cpu_pool_busy").decrement(1.0);
                    }
                })
                .expect("cannot start a CPU pool thread");
        }
        CpuPool { jobs }
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

    /// Runs `f` on the pool and waits for its answer without blocking the caller's thread.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobLost> {
        let (tx, rx) = oneshot::channel();
        self.spawn(move || {
            let _ = tx.send(f());
        });
        rx.await.map_err(|_| JobLost)
    }

    /// Queues `f` without waiting for it.
    pub fn spawn(&self, f: impl FnOnce() + Send + 'static) {
        // The threads live as long as any handle, and this is one: the send cannot fail
        // unless every thread has panicked, and then there is nobody to run it anyway.
        let _ = self.jobs.send(Box::new(f));
    }
}

/// Makes the calling thread the last to be scheduled when the tables want the cores
/// (nice 19 applies to this thread only on Linux).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::warn!(error = %e, "cannot lower a CPU pool thread's priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_and_answer() {
        let pool = CpuPool::new(2);
        let mut answers = Vec::new();
        for i in 0..8u64 {
            answers.push(pool.run(move || i * i).await.unwrap());
        }
        assert_eq!(answers, (0..8).map(|i| i * i).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_panicking_job_is_reported_and_the_pool_goes_on() {
        let pool = CpuPool::new(1);
        let lost = pool.run(|| -> u8 { panic!("a bot bug") }).await;
        assert!(lost.is_err());
        // The pool's one thread is still there for the next job.
        assert_eq!(pool.run(|| 7).await.unwrap(), 7);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_threads_run_at_the_lowest_priority() {
        let pool = CpuPool::new(1);
        let nice = pool
            .run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())))
            .await
            .unwrap();
        assert_eq!(nice.unwrap(), 19);
    }
}
