//! Rate limits counted in Redis, so that a client meets the same limit whichever node it
//! reaches: the generic cell rate algorithm (GCRA, the one `governor` runs in memory), in one
//! Lua script on Redis's own clock.

use std::time::Duration;

use crate::{Bus, ClusterError};

/// `per_second` requests a second on average, with bursts of up to `burst` at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quota {
    pub per_second: f64,
    pub burst: u32,
}

/// Checks keys against quotas; cheap to clone.
#[derive(Clone)]
pub struct Limiter {
    bus: Bus,
    script: redis::Script,
}

/// KEYS[1]: the key; ARGV[1]: the interval between requests in µs; ARGV[2]: the burst.
/// Returns 0 when allowed, else the µs to wait. The theoretical arrival time (TAT) is stored
/// with an expiry, so idle keys cost nothing.
const GCRA: &str = r#"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
if tat - now > tolerance then
  return tat - now - tolerance
end
local next = tat + interval
redis.call('SET', KEYS[1], next, 'PX', math.ceil((next - now) / 1000))
return 0
"#;

impl Limiter {
    pub fn new(bus: Bus) -> Limiter {
        Limiter {
            bus,
            script: redis::Script::new(GCRA),
        }
    }

    /// Counts one request of `key` against `quota`: `Ok(None)` when allowed, `Ok(Some(wait))`
    /// when refused, with how long until the next one would be allowed.
    pub async fn check(&self, key: &str, quota: Quota) -> Result<Option<Duration>, ClusterError> {
        let interval_us = (1_000_000.0 / quota.per_second.max(1e-6)).round() as u64;
        let mut conn = self.bus.connection();
        let wait_us: u64 = self
            .script
            .key(self.bus.key(&format!("limit:{key}")))
            .arg(interval_us.max(1))
            .arg(quota.burst.max(1))
            .invoke_async(&mut conn)
            .await?;
        Ok((wait_us > 0).then(|| Duration::from_micros(wait_us)))
    }
}
