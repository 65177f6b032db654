//! HTTP and WebSocket clients that speak for one pretended client address: the server under
//! test trusts 127.0.0.1 as a proxy, so `X-Forwarded-For` tells it which address a request
//! comes from (every byte still goes to loopback).

use std::time::Duration;

use actix_codec::Framed;
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

pub fn http_client() -> awc::Client {
    awc::Client::builder()
        // Every open WebSocket holds one of the connector's connections: no cap, or the HTTP
        // requests of a run with many sockets would wait for ever.
        .connector(awc::Connector::new().limit(0))
        .timeout(Duration::from_secs(30))
        .finish()
}

/// Requests as one client address.
#[derive(Clone)]
pub struct Http {
    pub base: String,
    pub address: String,
    client: awc::Client,
}

impl Http {
    pub fn new(port: u16, address: &str) -> Http {
        Http {
            base: format!("http://127.0.0.1:{port}"),
            address: address.to_string(),
            client: http_client(),
        }
    }

    /// `(status, body)`; a transport failure is status 0.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let mut request = match method {
            "POST" => self.client.post(url),
            _ => self.client.get(url),
        }
        .insert_header(("x-forwarded-for", self.address.as_str()));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let sent = match body {
            Some(body) => request.send_json(body).await,
            None => request.send().await,
        };
        match sent {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let body = response.json::<Value>().await.unwrap_or(Value::Null);
                (status, body)
            }
            Err(e) => (0, Value::String(format!("no answer: {e}"))),
        }
    }

    /// A new guest's token.
    pub async fn guest(&self) -> anyhow::Result<String> {
        let (status, body) = self.call("GET", "/api/me", None, None).await;
        body["token"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| anyhow::anyhow!("no guest token ({status}): {body}"))
    }

    /// A new guest opens a public table of `game`; its id.
    pub async fn open_public_table(&self, game: &str) -> anyhow::Result<String> {
        let token = self.guest().await?;
        let body = json!({"game": game});
        let (status, table) = self
            .call("POST", "/api/tables", Some(&token), Some(&body))
            .await;
        anyhow::ensure!(status == 201, "cannot create a table: {status} {table}");
        Ok(table["id"].as_str().unwrap_or_default().to_string())
    }

    pub async fn connect(&self, token: &str) -> anyhow::Result<Conn> {
        let url = format!("{}/ws", self.base.replacen("http", "ws", 1));
        let (_, framed) = self
            .client
            .ws(url)
            .bearer_auth(token)
            .header("x-forwarded-for", self.address.as_str())
            .max_frame_size(1 << 24)
            .connect()
            .await
            .map_err(|e| anyhow::anyhow!("the WebSocket did not open: {e}"))?;
        let mut conn = Conn { framed, next_id: 1 };
        conn.until(|m| m["type"] == "hello").await?;
        Ok(conn)
    }
}

/// One WebSocket.
pub struct Conn {
    framed: Framed<awc::BoxedSocket, ws::Codec>,
    next_id: u64,
}

impl Conn {
    /// The next JSON message (answering pings on the way); an error once the socket is gone.
    pub async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(30), self.framed.next())
                .await
                .map_err(|_| anyhow::anyhow!("nothing from the server for 30 s"))?;
            match frame {
                Some(Ok(ws::Frame::Text(bytes))) => return Ok(serde_json::from_slice(&bytes)?),
                Some(Ok(ws::Frame::Ping(bytes))) => {
                    self.framed.send(ws::Message::Pong(bytes)).await?;
                }
                Some(Ok(ws::Frame::Close(reason))) => anyhow::bail!("closed: {reason:?}"),
                Some(Ok(_)) => {}
                Some(Err(e)) => anyhow::bail!("socket error: {e}"),
                None => anyhow::bail!("the socket closed"),
            }
        }
    }

    /// Reads until a message matches.
    pub async fn until(&mut self, want: impl Fn(&Value) -> bool) -> anyhow::Result<Value> {
        loop {
            let message = self.next().await?;
            if want(&message) {
                return Ok(message);
            }
        }
    }

    /// Sends a request and returns its id.
    pub async fn send(&mut self, mut body: Value) -> anyhow::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        body["id"] = json!(id);
        self.framed
            .send(ws::Message::Text(body.to_string().into()))
            .await?;
        Ok(id)
    }

    /// Sends a request and waits for its reply (events read meanwhile are dropped); one
    /// refused by the socket's request rate is sent again a moment later, as a client would.
    pub async fn request(&mut self, body: Value) -> anyhow::Result<Value> {
        loop {
            let id = self.send(body.clone()).await?;
            let reply = self.until(|m| m["id"] == json!(id)).await?;
            if reply["code"] != "rate_limited" {
                return Ok(reply);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
