//! JSON over HTTP to one server address, and the WebSocket it opens.

use std::time::Duration;

use anyhow::{Context, anyhow};
use awc::http::Method;
use serde_json::{Value, json};

use crate::socket::Conn;

/// The largest JSON body read (a long game's record, a full lobby page).
const BODY_LIMIT: usize = 1 << 26;

/// An HTTP client whose requests give up after `timeout`.
pub fn http_client(timeout: Duration) -> awc::Client {
    awc::Client::builder()
        // Every open WebSocket holds one of the connector's connections: no cap, or the HTTP
        // requests of a run with many sockets would wait for ever.
        .connector(awc::Connector::new().limit(0))
        .timeout(timeout)
        .finish()
}

/// The HTTP API of one server address, as one client.
#[derive(Clone)]
pub struct Http {
    pub base: String,
    /// The client address named in `X-Forwarded-For` (which only a server that trusts
    /// loopback as its proxy believes); none by default.
    pub address: Option<String>,
    client: awc::Client,
    /// How long a WebSocket may take to open and greet.
    open_patience: Duration,
}

impl Http {
    /// A client that gives up quickly (10 s a request, 3 s for a socket to open and greet), as
    /// a test wants when a server may be down.
    pub fn new(base: &str) -> Http {
        Http::with_patience(base, Duration::from_secs(10), Duration::from_secs(3))
    }

    /// A client whose requests wait `request` and whose sockets wait `open`.
    pub fn with_patience(base: &str, request: Duration, open: Duration) -> Http {
        Http {
            base: base.to_string(),
            address: None,
            client: http_client(request),
            open_patience: open,
        }
    }

    /// A client at `address` on the server at loopback `port`, patient (30 s) as a loaded
    /// server needs: every byte still goes to 127.0.0.1.
    pub fn from_address(port: u16, address: &str) -> Http {
        let patience = Duration::from_secs(30);
        Http {
            address: Some(address.to_string()),
            ..Http::with_patience(&format!("http://127.0.0.1:{port}"), patience, patience)
        }
    }

    /// `(status, body)` of a request; the body is `null` when it is not JSON.
    pub async fn exchange(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, Value)> {
        let mut request = self
            .client
            .request(method.clone(), format!("{}{path}", self.base));
        if let Some(address) = &self.address {
            request = request.insert_header(("x-forwarded-for", address.as_str()));
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let sent = match body {
            Some(body) => request.send_json(body).await,
            None => request.send().await,
        };
        let mut response = sent.map_err(|e| anyhow!("{method} {path}: {e}"))?;
        let status = response.status().as_u16();
        let body = response
            .json::<Value>()
            .limit(BODY_LIMIT)
            .await
            .unwrap_or(Value::Null);
        Ok((status, body))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> anyhow::Result<(u16, Value)> {
        self.exchange(Method::GET, path, token, None).await
    }

    pub async fn post(
        &self,
        path: &str,
        token: &str,
        body: &Value,
    ) -> anyhow::Result<(u16, Value)> {
        self.exchange(Method::POST, path, Some(token), Some(body))
            .await
    }

    /// `(status, body)` of a GET or a POST; a transport failure is status 0 with the error as
    /// the body.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let method = if method == "POST" {
            Method::POST
        } else {
            Method::GET
        };
        self.exchange(method, path, token, body)
            .await
            .unwrap_or_else(|e| (0, Value::String(format!("no answer: {e}"))))
    }

    /// A new guest's token.
    pub async fn guest(&self) -> anyhow::Result<String> {
        let (status, body) = self.call("GET", "/api/me", None, None).await;
        body["token"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| anyhow!("no guest token ({status}): {body}"))
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

    /// The WebSocket URL of this address.
    pub fn ws_url(&self) -> String {
        format!("{}/ws", self.base.replacen("http", "ws", 1))
    }

    /// An open WebSocket for this identity, past its `hello`.
    pub async fn connect(&self, token: &str) -> anyhow::Result<Conn> {
        let url = self.ws_url();
        let open = Conn::open(&self.client, &url, token, self.address.as_deref());
        let mut conn = tokio::time::timeout(self.open_patience, open)
            .await
            .context("WebSocket connect timed out")??;
        let hello = tokio::time::timeout(self.open_patience, conn.recv())
            .await
            .context("no hello")?
            .context("closed before hello")?;
        anyhow::ensure!(hello["type"] == "hello", "expected hello, got {hello}");
        Ok(conn)
    }

    /// The HTTP client itself, for requests of other kinds.
    pub fn client(&self) -> &awc::Client {
        &self.client
    }
}
