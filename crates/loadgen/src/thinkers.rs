//! Players at the analysis board with the engine switched on, kept thinking during a
//! measurement: each asks the server to think about a position (`POST /api/positions/think`)
//! and, as soon as the stream ends, asks again, so the engine's work on the compute pool never
//! stops beside the live games.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use testkit::Http;

/// Cephalopod 5×5 from its start: searched by playouts, five stages every time.
const BODY: &str = r#"{"game": "cephalopod", "variant": "5x5"}"#;

/// One guest thinking.
pub struct Thinker {
    http: Http,
    token: String,
}

/// What the thinkers did while measured.
#[derive(Default)]
pub struct Thought {
    pub streams: AtomicU64,
    pub stages: AtomicU64,
    pub refused: AtomicU64,
}

impl Thinker {
    pub async fn new(http: &Http) -> anyhow::Result<Thinker> {
        Ok(Thinker {
            http: http.clone(),
            token: http.guest().await?,
        })
    }

    /// Asks again and again until `until`, counting finished streams and their stages.
    pub async fn keep_thinking(self, until: Instant, thought: Arc<Thought>) {
        let body: serde_json::Value = serde_json::from_str(BODY).expect("a JSON body");
        while Instant::now() < until {
            let sent = self
                .http
                .client()
                .post(format!("{}/api/positions/think", self.http.base))
                .bearer_auth(&self.token)
                .send_json(&body)
                .await;
            let read = match sent {
                Ok(mut response) if response.status().is_success() => {
                    response.body().limit(1 << 20).await.ok()
                }
                _ => None,
            };
            let Some(lines) = read else {
                thought.refused.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                continue;
            };
            let stages = lines
                .split(|b| *b == b'\n')
                .filter_map(|line| serde_json::from_slice::<serde_json::Value>(line).ok())
                .filter(|line| line["type"] == "stage")
                .count();
            thought.streams.fetch_add(1, Ordering::Relaxed);
            thought.stages.fetch_add(stages as u64, Ordering::Relaxed);
        }
    }
}
