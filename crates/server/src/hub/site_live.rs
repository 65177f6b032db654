//! The live list of a site of several nodes: each node tells its part on the `live` channel
//! when it changed (checked every second, as the list's own updates) and every
//! [`REPEAT_EVERY`] besides, and hands the others' parts to its [`crate::live::Live`].

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Hub;

const CHANNEL: &str = "live";
const CHECK_EVERY: Duration = Duration::from_secs(1);
const REPEAT_EVERY: Duration = Duration::from_secs(2);

#[derive(Serialize, Deserialize)]
struct Part {
    node: String,
    games: Vec<Value>,
}

impl Hub {
    /// Tells the other nodes this node's live games and keeps theirs, for as long as the hub
    /// lives.
    pub(super) async fn share_live_list(self) {
        let placement = self
            .placement()
            .expect("sharing the live list needs a placement");
        let me = placement.node().to_string();
        let mut parts = placement.follow(CHANNEL).await;
        let mut tick = tokio::time::interval(CHECK_EVERY);
        let (mut version, mut told) = (u64::MAX, Instant::now());
        let mut closing = self.closing();
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let since = if told.elapsed() >= REPEAT_EVERY { u64::MAX } else { version };
                    if let Some((now, games)) = self.live().part_since(since) {
                        let part = Part { node: me.clone(), games };
                        let payload = serde_json::to_vec(&part).expect("live parts serialise");
                        match placement.bus.publish(CHANNEL, &payload).await {
                            Ok(_) => (version, told) = (now, Instant::now()),
                            Err(e) => tracing::warn!(error = %e, "cannot share the live list"),
                        }
                    }
                }
                delivery = parts.recv() => match delivery {
                    Some(cluster::Delivery::Message(payload)) => {
                        match serde_json::from_slice::<Part>(&payload) {
                            Ok(part) if part.node != me => self.live().heard(&part.node, part.games),
                            Ok(_) => {}
                            Err(e) => tracing::warn!(error = %e, "a live part that does not parse"),
                        }
                    }
                    // Parts are repeated: what was lost comes again.
                    Some(cluster::Delivery::Gap) => {}
                    None => return,
                },
                _ = async { let _ = closing.wait_for(|c| *c).await; } => return,
            }
        }
    }
}
