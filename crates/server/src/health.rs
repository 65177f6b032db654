//! What `/healthz` reports: whether the database accepts writes and, with `--redis`, whether
//! Redis answers — probed with a tiny write and a `PING` at most every [`PROBE_EVERY`] (a load
//! balancer polling every second costs one write a couple of seconds), each probe bounded by
//! [`PROBE_TIMEOUT`] so a stuck service reads as down.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::unix_time::unix_ms;

pub const PROBE_EVERY: Duration = Duration::from_secs(2);
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// Which part failed, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub part: &'static str,
    pub detail: String,
}

pub struct Health {
    last: Mutex<Option<(Instant, Result<(), Failure>)>>,
    redis: Option<cluster::Bus>,
}

impl Health {
    /// The health of this node, and of its Redis when it has one.
    pub fn new(redis: Option<cluster::Bus>) -> Health {
        Health {
            last: Mutex::new(None),
            redis,
        }
    }

    pub async fn check(&self, store: &store::Store) -> Result<(), Failure> {
        if let Some((at, outcome)) = self.last.lock().expect("health lock").as_ref()
            && at.elapsed() < PROBE_EVERY
        {
            return outcome.clone();
        }
        let mut outcome =
            match tokio::time::timeout(PROBE_TIMEOUT, store.probe_write(unix_ms())).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(Failure {
                    part: "database",
                    detail: format!("the database refuses writes: {e}"),
                }),
                Err(_) => Err(Failure {
                    part: "database",
                    detail: format!("a write did not finish within {PROBE_TIMEOUT:?}"),
                }),
            };
        if let (Ok(()), Some(bus)) = (&outcome, &self.redis) {
            outcome = probe_redis(bus).await;
        }
        if let Err(failure) = &outcome {
            tracing::error!(part = failure.part, detail = %failure.detail, "health check failed");
        }
        *self.last.lock().expect("health lock") = Some((Instant::now(), outcome.clone()));
        outcome
    }
}

async fn probe_redis(bus: &cluster::Bus) -> Result<(), Failure> {
    let mut conn = bus.connection();
    let ping = cluster::redis::cmd("PING");
    match tokio::time::timeout(PROBE_TIMEOUT, ping.query_async::<String>(&mut conn)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(Failure {
            part: "redis",
            detail: format!("redis does not answer: {e}"),
        }),
        Err(_) => Err(Failure {
            part: "redis",
            detail: format!("redis did not answer within {PROBE_TIMEOUT:?}"),
        }),
    }
}
