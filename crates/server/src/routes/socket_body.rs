//! The bytes a WebSocket connection sends: the session loop's own frames (replies, pings,
//! the close) and, straight from the connection's outbox, the events tables and the hub put
//! there. Events skip the session loop: a broadcast to a thousand sockets wakes a thousand
//! response bodies, not a thousand loops that each hand the frame on to a body.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_http::ws::{OpCode, Parser};
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::web::{Bytes, BytesMut};
use tokio::sync::mpsc;

use crate::outbox::Frame;

/// Events queued at most while one poll writes them out: bounds one chunk handed to the
/// connection, so a long queue is written in pieces the dispatcher can flush between.
const EVENTS_PER_CHUNK: usize = 64;

/// Held by the session loop while it answers a request. The reply must go out before any
/// event the request caused (a subscription's snapshot before the table's next move, a
/// move's `ok` before its event), so events wait until the reply is queued.
///
/// The loop and the body run on the same worker thread (`Rc`): neither runs while the other
/// is between its steps, so a request's events cannot slip past its reply.
#[derive(Clone, Default)]
pub(super) struct ReplyGate(Rc<Cell<bool>>);

impl ReplyGate {
    pub(super) fn hold(&self) {
        self.0.set(true);
    }

    /// Lets events through again; called once the reply is queued, in the same step, so the
    /// body sees the reply (its wake-up) and the open gate together.
    pub(super) fn release(&self) {
        self.0.set(false);
    }

    fn held(&self) -> bool {
        self.0.get()
    }
}

/// The response body of a WebSocket connection: actix-ws's own body (the session loop's
/// frames, which end the connection when the loop closes it or is gone) and then the outbox.
pub(super) struct SocketBody {
    session: BoxBody,
    events: mpsc::Receiver<Frame>,
    gate: ReplyGate,
    buf: BytesMut,
}

impl SocketBody {
    pub(super) fn new(session: BoxBody, events: mpsc::Receiver<Frame>, gate: ReplyGate) -> Self {
        SocketBody {
            session,
            events,
            gate,
            buf: BytesMut::new(),
        }
    }
}

impl MessageBody for SocketBody {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        // The session's frames first: a reply, then the events that followed it. When the
        // session's body ends (a close frame was sent, or the loop is gone), so does this one.
        match Pin::new(&mut this.session).poll_next(cx) {
            Poll::Ready(Some(chunk)) => return Poll::Ready(Some(chunk)),
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        if this.gate.held() {
            // Woken again by the reply, which is queued before the gate opens.
            return Poll::Pending;
        }
        for _ in 0..EVENTS_PER_CHUNK {
            match this.events.poll_recv(cx) {
                Poll::Ready(Some(frame)) => Parser::write_message(
                    &mut this.buf,
                    frame.as_bytes(),
                    OpCode::Text,
                    true,
                    false,
                ),
                // Every sender is gone only when the connection is: the session ends it.
                Poll::Ready(None) | Poll::Pending => break,
            }
        }
        if this.buf.is_empty() {
            Poll::Pending
        } else {
            // Taken whole: an idle connection keeps no buffer.
            Poll::Ready(Some(Ok(std::mem::take(&mut this.buf).freeze())))
        }
    }
}
