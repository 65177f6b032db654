//! The Bot API's NDJSON streams (docs/bot-api.md): the account's events
//! (`GET /api/stream/event`) and one game (`GET /api/bot/game/stream/{id}`). A stream is
//! another subscriber of the tables and of the player's messages: its outbox is fed by the
//! same delivery path as a socket, and it turns what arrives into lines of JSON, with an empty
//! line every [`KEEP_ALIVE`] so that a client (or a proxy) sees the stream is alive.
//!
//! A stream ends when its client goes, reads too slowly, when the server shuts down, and when
//! its token ends: at once on the node where it was revoked (the session watch), and within a
//! keep-alive elsewhere (the token is checked again on each).

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{Notify, mpsc};

use crate::error::ApiError;
use crate::identity::Identity;
use crate::ndjson::{Lines, response};
use crate::outbox::{Frame, Outbox};
use crate::sessions::SessionWatch;
use crate::state::AppState;

mod events;
mod game;
mod game_views;

pub use events::event_stream;
pub use game::game_stream;

/// An empty line this often keeps a quiet stream open.
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// Messages waiting in a stream's outbox before it is ended as too slow.
const OUTBOX_CAPACITY: usize = 256;

/// What every stream watches besides its own events: the token, the session, the server.
struct Ending {
    state: Arc<AppState>,
    /// The caller's token (a personal API token or a session's), checked on each keep-alive.
    token: String,
    watch: SessionWatch,
    closing: tokio::sync::watch::Receiver<bool>,
    overflow: Arc<Notify>,
}

impl Ending {
    fn new(
        state: Arc<AppState>,
        identity: &Identity,
        token: String,
        overflow: Arc<Notify>,
    ) -> Self {
        Ending {
            watch: state.sessions.watch(identity),
            closing: state.hub.closing(),
            state,
            token,
            overflow,
        }
    }

    /// Resolves when the stream must end: its session ended or its token was revoked here, the
    /// server is closing, or its outbox overflowed.
    async fn ended(&mut self) {
        tokio::select! {
            () = self.watch.ended() => {}
            _ = self.closing.wait_for(|c| *c) => {}
            () = self.overflow.notified() => {}
        }
    }

    /// Whether the token still works (revoked on another node, or its owner logged out
    /// everywhere there).
    async fn token_works(&self) -> bool {
        self.state.sessions.authenticate(&self.token).await.is_ok()
    }
}

/// A new outbox for a stream of `identity`, with the user's mute list.
async fn outbox(
    state: &AppState,
    identity: &Identity,
) -> Result<(Outbox, mpsc::Receiver<Frame>, Arc<Notify>), ApiError> {
    let muted = state.sessions.mute_list(&identity.user.id).await?;
    Ok(Outbox::new(OUTBOX_CAPACITY, muted))
}

/// A frame's JSON, or `Null` for one that does not parse (none should).
fn parse(frame: &Frame) -> Value {
    serde_json::from_str(frame).unwrap_or(Value::Null)
}
