//! One WebSocket, as a browser tab holds it.
//!
//! The load generator reads its latencies through [`Conn::next`]: a message costs one frame
//! read and one JSON parse, and nothing here adds to that ([`Conn::read_text`] leaves out the
//! parse).

use std::time::Duration;

use actix_codec::Framed;
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

/// How long [`Conn::next`] waits for a message (the server pings every few seconds).
const SILENCE: Duration = Duration::from_secs(30);

/// Why a socket gives no more messages.
#[derive(Debug)]
pub enum Ended {
    /// The server closed it, with this reason.
    Closed(Option<ws::CloseReason>),
    /// It broke, or sent what is not JSON.
    Failed(String),
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Closed(reason) => write!(f, "closed: {reason:?}"),
            Ended::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Ended {}

/// One open WebSocket.
pub struct Conn {
    framed: Framed<awc::BoxedSocket, ws::Codec>,
    next_id: u64,
}

impl Conn {
    /// Opens the socket at `url` for `token`, from `address` (named in `X-Forwarded-For`) if
    /// given. Nothing is read: the server's `hello` is the first message.
    pub async fn open(
        client: &awc::Client,
        url: &str,
        token: &str,
        address: Option<&str>,
    ) -> anyhow::Result<Conn> {
        let mut request = client.ws(url).bearer_auth(token).max_frame_size(1 << 24);
        if let Some(address) = address {
            request = request.set_header("x-forwarded-for", address);
        }
        let (_, framed) = request
            .connect()
            .await
            .map_err(|e| anyhow::anyhow!("WebSocket connect: {e}"))?;
        Ok(Conn { framed, next_id: 1 })
    }

    /// The next JSON message, answering pings on the way; waits as long as it takes.
    pub async fn read(&mut self) -> Result<Value, Ended> {
        let text = self.read_text().await?;
        serde_json::from_str(&text).map_err(|e| Ended::Failed(format!("not JSON: {e}")))
    }

    /// The next message as it came, unparsed (for a reader that parses only some of them),
    /// answering pings on the way; waits as long as it takes.
    pub async fn read_text(&mut self) -> Result<String, Ended> {
        loop {
            match self.framed.next().await {
                Some(Ok(ws::Frame::Text(bytes))) => {
                    return String::from_utf8(bytes.to_vec())
                        .map_err(|e| Ended::Failed(format!("not text: {e}")));
                }
                Some(Ok(ws::Frame::Ping(bytes))) => {
                    self.framed
                        .send(ws::Message::Pong(bytes))
                        .await
                        .map_err(|e| Ended::Failed(format!("socket error: {e}")))?;
                }
                Some(Ok(ws::Frame::Close(reason))) => return Err(Ended::Closed(reason)),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(Ended::Failed(format!("socket error: {e}"))),
                None => return Err(Ended::Failed("the socket closed".to_string())),
            }
        }
    }

    /// The next JSON message; `None` once the socket is closed or broken.
    pub async fn recv(&mut self) -> Option<Value> {
        self.read().await.ok()
    }

    /// The next JSON message; an error once the socket is gone or silent for 30 s.
    pub async fn next(&mut self) -> anyhow::Result<Value> {
        tokio::time::timeout(SILENCE, self.read())
            .await
            .map_err(|_| anyhow::anyhow!("nothing from the server for 30 s"))?
            .map_err(anyhow::Error::from)
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

    /// Sends a text frame as it is.
    pub async fn send_text(&mut self, text: String) -> anyhow::Result<()> {
        self.framed.send(ws::Message::Text(text.into())).await?;
        Ok(())
    }

    /// Sends a request under a fresh id, which is returned.
    pub async fn send(&mut self, mut body: Value) -> anyhow::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        body["id"] = json!(id);
        self.send_text(body.to_string()).await?;
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

    /// Sends a close frame (giving up after a second) and lets the socket go.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(
            Duration::from_secs(1),
            self.framed.send(ws::Message::Close(None)),
        )
        .await;
    }

    /// Closes as a browser tab closing would, and waits (5 s at most for each frame) for the
    /// server's answering close, so that the server has let go of the connection.
    pub async fn close_and_wait(mut self) {
        let _ = self.framed.send(ws::Message::Close(None)).await;
        while let Ok(Some(Ok(frame))) =
            tokio::time::timeout(Duration::from_secs(5), self.framed.next()).await
        {
            if matches!(frame, ws::Frame::Close(_)) {
                break;
            }
        }
    }
}
