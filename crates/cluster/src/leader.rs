//! One node at a time holds a named role: a Redis key holding the node's name with an expiry,
//! taken with `SET NX`, renewed by its holder a third of the way through its lifetime and
//! released on drop. A holder that stops renewing (it died, or lost Redis) loses the role when
//! the key expires, and another node takes it.

use std::time::Duration;

use redis::AsyncCommands;
use tokio::sync::watch;

use crate::Bus;

/// Extends the key only while it still holds this node's name.
const RENEW: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"#;

/// Deletes the key only while it still holds this node's name.
const RELEASE: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"#;

/// Whether this node holds the role now; the role is given up when this value drops.
pub struct Leader {
    holding: watch::Receiver<bool>,
    task: tokio::task::JoinHandle<()>,
    bus: Bus,
    key: String,
}

impl Leader {
    /// Starts competing for `role`, held for `ttl` at a time.
    pub fn start(bus: &Bus, role: &str, ttl: Duration) -> Leader {
        let (tx, holding) = watch::channel(false);
        let key = bus.key(&format!("leader:{role}"));
        let task = tokio::spawn(compete(bus.clone(), key.clone(), ttl, tx));
        Leader {
            holding,
            task,
            bus: bus.clone(),
            key,
        }
    }

    pub fn is_leader(&self) -> bool {
        *self.holding.borrow()
    }

    /// Changes of the role, for a task that must start or stop with it.
    pub fn watch(&self) -> watch::Receiver<bool> {
        self.holding.clone()
    }
}

impl Drop for Leader {
    fn drop(&mut self) {
        self.task.abort();
        if *self.holding.borrow() {
            let mut conn = self.bus.connection();
            let key = self.key.clone();
            let node = self.bus.node().to_owned();
            tokio::spawn(async move {
                let _: Result<i64, _> = redis::Script::new(RELEASE)
                    .key(key)
                    .arg(node)
                    .invoke_async(&mut conn)
                    .await;
            });
        }
    }
}

async fn compete(bus: Bus, key: String, ttl: Duration, holding: watch::Sender<bool>) {
    let ttl_ms = ttl.as_millis().max(1) as u64;
    let renew = redis::Script::new(RENEW);
    let mut conn = bus.connection();
    loop {
        let held = if *holding.borrow() {
            let renewed: Result<i64, _> = renew
                .key(&key)
                .arg(bus.node())
                .arg(ttl_ms)
                .invoke_async(&mut conn)
                .await;
            matches!(renewed, Ok(1))
        } else {
            let options = redis::SetOptions::default()
                .conditional_set(redis::ExistenceCheck::NX)
                .with_expiration(redis::SetExpiry::PX(ttl_ms));
            let taken: Result<Option<String>, _> =
                conn.set_options(&key, bus.node(), options).await;
            matches!(taken, Ok(Some(_)))
        };
        holding.send_if_modified(|now| std::mem::replace(now, held) != held);
        tokio::time::sleep(ttl / 3).await;
    }
}
