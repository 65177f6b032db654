//! NDJSON streams read line by line, as a client of the Bot API or of the engine's thinking
//! reads them.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;

use crate::helpers::TestApp;

/// An NDJSON stream read line by line; empty lines (keep-alives) are counted, not returned.
pub struct Lines {
    body: std::pin::Pin<
        Box<
            dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>,
        >,
    >,
    buffer: Vec<u8>,
    keep_alives: usize,
}

impl Lines {
    /// A `GET` stream.
    pub async fn open(app: &TestApp, path: &str, token: &str) -> Result<Lines, (u16, Value)> {
        let client = awc::Client::builder().disable_timeout().finish();
        let response = client
            .get(format!("{}{path}", app.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        Self::read(response).await
    }

    /// A `POST` stream with a JSON body.
    pub async fn post(
        app: &TestApp,
        path: &str,
        token: &str,
        body: &Value,
    ) -> Result<Lines, (u16, Value)> {
        let client = awc::Client::builder().disable_timeout().finish();
        let response = client
            .post(format!("{}{path}", app.base))
            .bearer_auth(token)
            .send_json(body)
            .await
            .unwrap();
        Self::read(response).await
    }

    async fn read(
        mut response: awc::ClientResponse<
            impl futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>
            + Unpin
            + 'static,
        >,
    ) -> Result<Lines, (u16, Value)> {
        let status = response.status().as_u16();
        if status != 200 {
            return Err((status, response.json().await.unwrap_or(Value::Null)));
        }
        let kind = response.headers().get("content-type").unwrap();
        assert_eq!(kind.to_str().unwrap(), "application/x-ndjson");
        Ok(Lines {
            body: Box::pin(response),
            buffer: Vec::new(),
            keep_alives: 0,
        })
    }

    /// The next line of JSON, or `None` when the stream has ended.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(line) = self.item().await? {
                return Some(line);
            }
        }
    }

    /// The next line: `Some(None)` for a keep-alive (counted), `None` when the stream has
    /// ended.
    async fn item(&mut self) -> Option<Option<Value>> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.len() == 1 {
                    self.keep_alives += 1;
                    return Some(None);
                }
                return Some(Some(serde_json::from_slice(&line).expect("a line of JSON")));
            }
            let chunk = tokio::time::timeout(Duration::from_secs(20), self.body.next())
                .await
                .expect("a line within 20 s");
            match chunk {
                Some(Ok(bytes)) => self.buffer.extend_from_slice(&bytes),
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Reads until the next keep-alive (an empty line), skipping other lines.
    pub async fn keep_alive(&mut self) {
        loop {
            match self.item().await {
                Some(None) => return,
                Some(Some(_)) => {}
                None => panic!("the stream ended before a keep-alive"),
            }
        }
    }

    /// The next line of type `kind`, skipping others.
    pub async fn expect(&mut self, kind: &str) -> Value {
        loop {
            let line = self.next().await.unwrap_or_else(|| {
                panic!("the stream ended while waiting for {kind}");
            });
            if line["type"] == kind {
                return line;
            }
        }
    }
}
