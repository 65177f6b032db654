//! Streaming NDJSON responses (`application/x-ndjson`): one JSON value a line, sent as it
//! comes. The Bot API's streams and the engine's thinking on the analysis board use them.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::HttpResponse;
use actix_web::http::header::{CONTENT_ENCODING, HeaderValue};
use actix_web::web::Bytes;
use futures_core::Stream;
use serde_json::Value;
use tokio::sync::mpsc;

/// Lines waiting for a client that does not read before its stream is ended.
const LINES_QUEUED: usize = 128;
/// The media type of every stream.
pub const NDJSON: &str = "application/x-ndjson";

/// The lines of one stream on their way to the client.
pub struct Lines(mpsc::Sender<Bytes>);

impl Lines {
    /// Queues one JSON line; `false` once the client is gone or too slow (the stream ends).
    pub fn send(&self, value: &Value) -> bool {
        let mut line = serde_json::to_vec(value).expect("values serialise");
        line.push(b'\n');
        self.0.try_send(Bytes::from(line)).is_ok()
    }

    /// An empty line, which a client skips: it tells a proxy the stream is alive.
    pub fn keep_alive(&self) -> bool {
        self.0.try_send(Bytes::from_static(b"\n")).is_ok()
    }

    /// Whether the client has gone (the response body was dropped).
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// The response body: the queued lines, as they come.
struct LineBody(mpsc::Receiver<Bytes>);

impl Stream for LineBody {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|line| line.map(Ok))
    }
}

/// A streaming NDJSON response and the queue that feeds it. Never compressed: a gzip stream
/// would hold lines back until it had enough to squeeze.
pub fn response() -> (HttpResponse, Lines) {
    let (tx, rx) = mpsc::channel(LINES_QUEUED);
    let mut response = HttpResponse::Ok()
        .content_type(NDJSON)
        .insert_header(("Cache-Control", "no-store"))
        .streaming(LineBody(rx));
    // `Compress` leaves a response that names its coding alone; `compression::unmark` then
    // takes the name off.
    response
        .headers_mut()
        .insert(CONTENT_ENCODING, HeaderValue::from_static("identity"));
    (response, Lines(tx))
}
