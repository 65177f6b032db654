//! An NDJSON stream read line by line (the Bot API's streams, `docs/bot-api.md`): one JSON
//! value a line, the keep-alive's empty lines skipped.

use std::pin::Pin;
use std::time::Duration;

use futures_util::{Stream, StreamExt};
use serde_json::Value;
use testkit::Http;

/// How long a line may take: the server sends a keep-alive every 5 s.
const SILENCE: Duration = Duration::from_secs(30);

pub struct Lines {
    body: Pin<Box<dyn Stream<Item = Result<Vec<u8>, String>>>>,
    buffer: Vec<u8>,
}

impl Lines {
    /// Opens `GET path` with `token`; an error for any status but 200.
    pub async fn open(http: &Http, path: &str, token: &str) -> anyhow::Result<Lines> {
        // The client's own timeout would cut a stream that lives for minutes.
        let client = testkit::http_client(Duration::from_secs(24 * 60 * 60));
        let response = client
            .get(format!("{}{path}", http.base))
            .bearer_auth(token)
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("GET {path}: {e}"))?;
        let status = response.status().as_u16();
        anyhow::ensure!(status == 200, "GET {path}: {status}");
        let body = response.map(|chunk| chunk.map(|b| b.to_vec()).map_err(|e| e.to_string()));
        Ok(Lines {
            body: Box::pin(body),
            buffer: Vec::new(),
        })
    }

    /// The next JSON line; an error once the stream has ended or is silent for 30 s.
    pub async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Ok(serde_json::from_slice(&line)?);
            }
            let chunk = tokio::time::timeout(SILENCE, self.body.next())
                .await
                .map_err(|_| anyhow::anyhow!("nothing on the stream for 30 s"))?;
            match chunk {
                Some(Ok(bytes)) => self.buffer.extend_from_slice(&bytes),
                Some(Err(e)) => anyhow::bail!("the stream broke: {e}"),
                None => anyhow::bail!("the stream ended"),
            }
        }
    }

    /// Reads until a line matches.
    pub async fn until(&mut self, want: impl Fn(&Value) -> bool) -> anyhow::Result<Value> {
        loop {
            let line = self.next().await?;
            if want(&line) {
                return Ok(line);
            }
        }
    }
}
