//! The pool's threads, order and yielding, with real threads: a job that blocks on a channel
//! holds the only worker while the others are queued, so the order is exact, never timed.

use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// Generous: only a broken pool waits this long.
const STUCK: Duration = Duration::from_secs(30);

/// Occupies the pool's one thread until the returned sender is used (or dropped).
fn hold(pool: &CpuPool) -> mpsc::Sender<()> {
    let (release, wait) = mpsc::channel::<()>();
    let (started, running) = mpsc::channel();
    pool.spawn(Priority::Bot, move || {
        started.send(()).unwrap();
        let _ = wait.recv();
    });
    running
        .recv_timeout(STUCK)
        .expect("the holding job started");
    release
}

#[tokio::test]
async fn jobs_run_and_answer() {
    let pool = CpuPool::new(2);
    let mut answers = Vec::new();
    for i in 0..8u64 {
        answers.push(pool.run(Priority::Bot, move || i * i).await.unwrap());
    }
    assert_eq!(answers, (0..8).map(|i| i * i).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_panicking_job_is_reported_and_the_pool_goes_on() {
    let pool = CpuPool::new(1);
    let lost = pool
        .run(Priority::Hint, || -> u8 { panic!("a bot bug") })
        .await;
    assert!(lost.is_err());
    // The pool's one thread is still there for the next job.
    assert_eq!(pool.run(Priority::Bot, || 7).await.unwrap(), 7);
}

#[test]
fn a_low_job_queued_first_runs_after_a_high_job_queued_later() {
    let pool = CpuPool::new(1);
    let release = hold(&pool);
    let (done, order) = mpsc::channel();
    for (priority, name) in [
        (Priority::Background, "build"),
        (Priority::Review, "review"),
        (Priority::Hint, "hint"),
        (Priority::Bot, "bot"),
    ] {
        let done = done.clone();
        pool.spawn(priority, move || done.send(name).unwrap());
    }
    release.send(()).unwrap();
    let ran: Vec<&str> = (0..4).map(|_| order.recv_timeout(STUCK).unwrap()).collect();
    assert_eq!(ran, ["bot", "hint", "review", "build"]);
}

#[test]
fn a_review_is_not_starved_by_a_stream_of_bots() {
    let pool = CpuPool::new(1);
    let release = hold(&pool);
    let (done, order) = mpsc::channel();
    let review = done.clone();
    pool.spawn(Priority::Review, move || review.send("review").unwrap());
    let bots = 4 * Priority::Review.patience();
    for _ in 0..bots {
        let done = done.clone();
        pool.spawn(Priority::Bot, move || done.send("bot").unwrap());
    }
    release.send(()).unwrap();
    let ran: Vec<&str> = (0..=bots)
        .map(|_| order.recv_timeout(STUCK).unwrap())
        .collect();
    let at = ran.iter().position(|j| *j == "review").unwrap();
    assert_eq!(at as u32, Priority::Review.patience(), "{ran:?}");
}

/// A long background job that yields between its pieces lets a bot's move queued meanwhile
/// run on its thread, the only one, and then goes on to its end.
#[test]
fn a_background_job_yields_to_a_bot_between_its_pieces() {
    let pool = CpuPool::new(1);
    let (bot_done, bot_ran) = mpsc::channel();
    let (piece_done, pieces) = mpsc::channel();
    let (go, wait) = mpsc::channel::<()>();
    let (build_done, build_ended) = mpsc::channel();
    let own = pool.clone();
    pool.spawn(Priority::Background, move || {
        let mut yielded = 0;
        for piece in 0..3 {
            piece_done.send(piece).unwrap();
            // The test queues the bot's move after the first piece.
            if piece == 0 {
                wait.recv().unwrap();
            }
            yielded += own.yield_to_others(Priority::Background);
        }
        build_done.send(yielded).unwrap();
    });
    assert_eq!(pieces.recv_timeout(STUCK).unwrap(), 0);
    pool.spawn(Priority::Bot, move || bot_done.send("bot").unwrap());
    go.send(()).unwrap();
    assert_eq!(bot_ran.recv_timeout(STUCK).unwrap(), "bot");
    assert_eq!(build_ended.recv_timeout(STUCK).unwrap(), 1);
    assert_eq!(pieces.try_iter().collect::<Vec<_>>(), [1, 2]);
}

/// Yielding runs only what is above the caller: another background job waits its turn.
#[test]
fn yielding_runs_nothing_of_the_callers_priority_or_below() {
    let pool = CpuPool::new(1);
    let release = hold(&pool);
    pool.spawn(Priority::Background, || {});
    pool.spawn(Priority::Review, || {});
    let own = pool.clone();
    let (answer, ran) = mpsc::channel();
    pool.spawn(Priority::Bot, move || {
        answer
            .send((
                own.yield_to_others(Priority::Review),
                own.yield_to_others(Priority::Hint),
            ))
            .unwrap()
    });
    release.send(()).unwrap();
    assert_eq!(ran.recv_timeout(STUCK).unwrap(), (0, 0));
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_threads_run_at_the_lowest_priority() {
    let pool = CpuPool::new(1);
    let nice = pool
        .run(Priority::Bot, || {
            rustix::process::getpriority_process(Some(rustix::thread::gettid()))
        })
        .await
        .unwrap();
    assert_eq!(nice.unwrap(), 19);
}
