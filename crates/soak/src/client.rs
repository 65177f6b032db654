//! The wire: JSON over HTTP and one WebSocket per player, as a browser tab would use them.

use std::time::Duration;

use anyhow::{Context, anyhow};
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;

type Socket = actix_codec::Framed<awc::BoxedSocket, ws::Codec>;

pub fn http_client() -> awc::Client {
    awc::Client::builder()
        .timeout(Duration::from_secs(10))
        .finish()
}

/// The HTTP API of one server address.
#[derive(Clone)]
pub struct Http {
    pub base: String,
    client: awc::Client,
}

impl Http {
    pub fn new(base: &str) -> Http {
        Http {
            base: base.to_string(),
            client: http_client(),
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> anyhow::Result<(u16, Value)> {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let mut response = request
            .send()
            .await
            .map_err(|e| anyhow!("GET {path}: {e}"))?;
        let status = response.status().as_u16();
        let body = response
            .json::<Value>()
            .limit(1 << 26)
            .await
            .unwrap_or(Value::Null);
        Ok((status, body))
    }

    pub async fn post(
        &self,
        path: &str,
        token: &str,
        body: &Value,
    ) -> anyhow::Result<(u16, Value)> {
        let mut response = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send_json(body)
            .await
            .map_err(|e| anyhow!("POST {path}: {e}"))?;
        let status = response.status().as_u16();
        let body = response
            .json::<Value>()
            .limit(1 << 24)
            .await
            .unwrap_or(Value::Null);
        Ok((status, body))
    }

    /// An open WebSocket for this identity, past its `hello`.
    pub async fn connect(&self, token: &str) -> anyhow::Result<Conn> {
        let url = format!("{}/ws", self.base.replacen("http", "ws", 1));
        let connect = self
            .client
            .ws(url)
            .bearer_auth(token)
            .max_frame_size(1 << 24)
            .connect();
        let (_, socket) = tokio::time::timeout(Duration::from_secs(3), connect)
            .await
            .context("WebSocket connect timed out")?
            .map_err(|e| anyhow!("WebSocket connect: {e}"))?;
        let mut conn = Conn { socket, next_id: 1 };
        let hello = tokio::time::timeout(Duration::from_secs(3), conn.recv())
            .await
            .context("no hello")?
            .context("closed before hello")?;
        if hello["type"] != "hello" {
            return Err(anyhow!("expected hello, got {hello}"));
        }
        Ok(conn)
    }
}

/// One open WebSocket.
pub struct Conn {
    socket: Socket,
    next_id: u64,
}

impl Conn {
    /// The next JSON message; `None` once the socket is closed or broken. Pings are answered.
    pub async fn recv(&mut self) -> Option<Value> {
        loop {
            match self.socket.next().await? {
                Ok(ws::Frame::Text(bytes)) => {
                    if let Ok(value) = serde_json::from_slice(&bytes) {
                        return Some(value);
                    }
                }
                Ok(ws::Frame::Ping(bytes)) => {
                    self.socket.send(ws::Message::Pong(bytes)).await.ok()?;
                }
                Ok(ws::Frame::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// Sends a request under a fresh id, which is returned.
    pub async fn send(&mut self, mut body: Value) -> Option<u64> {
        let id = self.next_id;
        self.next_id += 1;
        body["id"] = Value::from(id);
        self.socket
            .send(ws::Message::Text(body.to_string().into()))
            .await
            .ok()?;
        Some(id)
    }

    pub async fn close(mut self) {
        let _ = tokio::time::timeout(
            Duration::from_secs(1),
            self.socket.send(ws::Message::Close(None)),
        )
        .await;
    }
}
