//! The limits counted in Redis when the server runs with `--redis`, so that a client meets the
//! same limit whichever node it reaches: rates through [`cluster::Limiter`] (GCRA on Redis's
//! clock), and the failed-login lock-out as two keys per account — the run of failures, and
//! the wait it imposes, each with its own expiry.
//!
//! When Redis does not answer, the caller falls back to this node's own counts: an outage
//! makes limits per node for a while, never refuses an honest user, and `/healthz` says Redis
//! is missing.

use std::time::Duration;

use cluster::{Bus, ClusterError, Limiter, Quota, redis};

use super::Rate;

/// How long a run of failed logins is remembered after its last failure.
const FAILURES_KEPT: Duration = Duration::from_secs(30 * 60);

#[derive(Clone)]
pub(super) struct SharedLimits {
    bus: Bus,
    limiter: Limiter,
}

impl SharedLimits {
    pub(super) fn new(bus: Bus) -> SharedLimits {
        SharedLimits {
            limiter: Limiter::new(bus.clone()),
            bus,
        }
    }

    /// One more request of `key` (already naming the limit) at `rate`: `Some(wait)` when it
    /// is one too many.
    pub(super) async fn check(
        &self,
        key: &str,
        rate: Rate,
    ) -> Result<Option<Duration>, ClusterError> {
        let quota = Quota {
            per_second: f64::from(rate.count) / rate.per.as_secs_f64(),
            burst: rate.count,
        };
        self.limiter.check(key, quota).await
    }

    /// How long `account` must still wait before its next login attempt.
    pub(super) async fn login_wait(&self, account: &str) -> Result<Duration, ClusterError> {
        let mut conn = self.bus.connection();
        let left: i64 = redis::cmd("PTTL")
            .arg(self.wait_key(account))
            .query_async(&mut conn)
            .await?;
        // -2: no such key, -1: no expiry (never written so).
        Ok(Duration::from_millis(left.max(0) as u64))
    }

    /// Counts a failed login of `account`; `delay_after` says how long the next attempt must
    /// wait after so many failures in a row.
    pub(super) async fn login_failed(
        &self,
        account: &str,
        delay_after: impl Fn(u32) -> Duration,
    ) -> Result<(), ClusterError> {
        let mut conn = self.bus.connection();
        let (failures, _): (u32, i64) = redis::pipe()
            .atomic()
            .cmd("INCR")
            .arg(self.failures_key(account))
            .cmd("PEXPIRE")
            .arg(self.failures_key(account))
            .arg(FAILURES_KEPT.as_millis() as u64)
            .query_async(&mut conn)
            .await?;
        let wait = delay_after(failures);
        if !wait.is_zero() {
            let () = redis::cmd("SET")
                .arg(self.wait_key(account))
                .arg(failures)
                .arg("PX")
                .arg(wait.as_millis() as u64)
                .query_async(&mut conn)
                .await?;
        }
        Ok(())
    }

    pub(super) async fn login_succeeded(&self, account: &str) -> Result<(), ClusterError> {
        let mut conn = self.bus.connection();
        let _: i64 = redis::cmd("DEL")
            .arg(self.failures_key(account))
            .arg(self.wait_key(account))
            .query_async(&mut conn)
            .await?;
        Ok(())
    }

    /// Counts one more socket of `address` on this node, unless the site's count (over the
    /// nodes that are running) has reached `limit`; true when counted.
    pub(super) async fn open_socket(
        &self,
        address: &str,
        limit: u32,
    ) -> Result<bool, ClusterError> {
        let key = self.sockets_key(address);
        let me = self.bus.node();
        let mut conn = self.bus.connection();
        let (_, counts): (i64, std::collections::HashMap<String, i64>) = redis::pipe()
            .atomic()
            .cmd("HINCRBY")
            .arg(&key)
            .arg(me)
            .arg(1)
            .cmd("HGETALL")
            .arg(&key)
            .query_async(&mut conn)
            .await?;
        // A node that died left its count behind: forget it.
        let others: Vec<String> = counts.keys().filter(|n| *n != me).cloned().collect();
        let running = self.bus.running(&others).await?;
        let mut total = counts.get(me).copied().unwrap_or(0);
        for (node, up) in others.iter().zip(running) {
            if up {
                total += counts[node];
            } else {
                let _: i64 = redis::cmd("HDEL")
                    .arg(&key)
                    .arg(node)
                    .query_async(&mut conn)
                    .await?;
            }
        }
        if total > i64::from(limit) {
            self.close_socket(address).await?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Counts one socket of `address` on this node less.
    pub(super) async fn close_socket(&self, address: &str) -> Result<(), ClusterError> {
        let mut conn = self.bus.connection();
        let key = self.sockets_key(address);
        let left: i64 = redis::cmd("HINCRBY")
            .arg(&key)
            .arg(self.bus.node())
            .arg(-1)
            .query_async(&mut conn)
            .await?;
        if left <= 0 {
            // Only this node's field goes, and only while it is still zero.
            let _: i64 = redis::cmd("HDEL")
                .arg(&key)
                .arg(self.bus.node())
                .query_async(&mut conn)
                .await?;
        }
        Ok(())
    }

    fn sockets_key(&self, address: &str) -> String {
        self.bus.key(&format!("sockets:{address}"))
    }

    fn failures_key(&self, account: &str) -> String {
        self.bus.key(&format!("login-failures:{account}"))
    }

    fn wait_key(&self, account: &str) -> String {
        self.bus.key(&format!("login-wait:{account}"))
    }
}
