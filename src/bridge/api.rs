//! The bridge's side of the Bot API: requests with the bot's token, and the NDJSON streams
//! read a line at a time. A stream that says nothing for longer than a few of the server's
//! keep-alives (an empty line every 5 s) counts as dropped, so a dead connection is noticed.

use std::pin::Pin;
use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::{Stream, StreamExt};
use serde_json::Value;

/// How long a stream may stay silent before the bridge gives it up and connects again.
const SILENCE: Duration = Duration::from_secs(20);
/// How long an ordinary request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The server and the bot's token.
#[derive(Clone)]
pub struct Api {
    base: String,
    token: String,
    client: awc::Client,
}

/// A request's answer: its status and its JSON body (null when it had none).
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Api {
    pub fn new(server: &str, token: &str) -> Api {
        Api {
            base: server.trim_end_matches('/').to_string(),
            token: token.to_string(),
            // Streams last as long as games: only a request's own wait has a timeout.
            client: awc::Client::builder().disable_timeout().finish(),
        }
    }

    pub async fn get(&self, path: &str) -> anyhow::Result<Answer> {
        let request = self.client.get(format!("{}{path}", self.base));
        let response = request
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT)
            .send();
        answer(
            response
                .await
                .map_err(|e| anyhow::anyhow!("GET {path}: {e}"))?,
        )
        .await
    }

    pub async fn post(&self, path: &str, body: &Value) -> anyhow::Result<Answer> {
        let request = self.client.post(format!("{}{path}", self.base));
        let response = request
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT)
            .send_json(body);
        answer(
            response
                .await
                .map_err(|e| anyhow::anyhow!("POST {path}: {e}"))?,
        )
        .await
    }

    /// Opens the NDJSON stream at `path`; an answer other than 200 is an error that says the
    /// status (`Refused`, for the caller to tell a game gone from a network failure).
    pub async fn stream(&self, path: &str) -> anyhow::Result<Lines> {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("GET {path}: {e}"))?;
        let status = response.status().as_u16();
        if status != 200 {
            let body = answer(response).await.map(|a| a.body).unwrap_or_default();
            return Err(Refused { status, body }).context(format!("GET {path}"));
        }
        Ok(Lines {
            body: Box::pin(response),
            buffer: Vec::new(),
        })
    }
}

async fn answer<S>(mut response: awc::ClientResponse<S>) -> anyhow::Result<Answer>
where
    S: Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>> + Unpin,
{
    let status = response.status().as_u16();
    let bytes = response.body().await.context("read the answer")?;
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok(Answer { status, body })
}

/// A stream the server answered with a status other than 200.
#[derive(Debug)]
pub struct Refused {
    pub status: u16,
    pub body: Value,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refused with {}: {}", self.status, self.body)
    }
}

impl std::error::Error for Refused {}

type Body = Pin<Box<dyn Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>;

/// An open NDJSON stream.
pub struct Lines {
    body: Body,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next object, skipping keep-alives; `None` once the stream has ended, broken, or
    /// been silent too long.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if let Ok(value) = serde_json::from_slice::<Value>(&line)
                    && value.is_object()
                {
                    return Some(value);
                }
            }
            match tokio::time::timeout(SILENCE, self.body.next()).await {
                Ok(Some(Ok(bytes))) => self.buffer.extend_from_slice(&bytes),
                Ok(Some(Err(_)) | None) | Err(_) => return None,
            }
        }
    }
}

/// Whether `error` is the server refusing a stream for good (the game is not the bot's, or
/// the token lost its right), rather than a connection to try again.
pub fn refused_for_good(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<Refused>()
        .is_some_and(|r| matches!(r.status, 400..=499) && r.status != 429)
}

/// Fails unless `answer` is a success.
pub fn ok(what: &str, answer: &Answer) -> anyhow::Result<()> {
    if !(200..300).contains(&answer.status) {
        bail!("{what}: {} {}", answer.status, answer.body);
    }
    Ok(())
}
