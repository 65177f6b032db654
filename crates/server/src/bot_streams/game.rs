//! `GET /api/bot/game/stream/{id}`: one game for one of its players. The stream subscribes
//! to the table like a socket, answers with `gameFull`, then a `gameState` whenever a move,
//! a clock, an offer, a takeback or the seats change, a `chatLine` for each line, and ends
//! after the state that ends the game. A client that reconnects (to this node or another)
//! starts again from `gameFull`.

use std::sync::Arc;

use actix_web::HttpResponse;
use serde_json::Value;
use tokio::sync::mpsc;

use super::game_views::{chat_line, game_full, game_state, is_over};
use super::{Ending, KEEP_ALIVE, Lines, outbox, parse, response};
use crate::error::{ApiError, ErrorCode};
use crate::identity::Identity;
use crate::outbox::{ConnId, Frame};
use crate::state::AppState;
use crate::table::TableHandle;
use crate::ws::protocol::TableId;
use crate::ws::protocol::encode;

/// What a table tells its subscribers that changes the game's state.
const STATE_CHANGES: &[&str] = &[
    "move", "offer", "takeback", "seats", "end", "table", "catchup",
];

/// Opens the stream of table `id` for its player `identity`.
pub async fn game_stream(
    state: Arc<AppState>,
    identity: Identity,
    token: String,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    let handle = state.hub.table(&TableId::parse(id)?).await?;
    let (out, frames, overflow) = outbox(&state, &identity).await?;
    let conn = state.hub.next_conn_id();
    let user = identity.user.clone();
    let snapshot = handle
        .subscribe(conn, user.clone(), out, None, None)
        .await?;
    let snapshot = parse(&Frame::from(encode(None, &snapshot)));
    let view = &snapshot["table"];
    if view["you"].is_null() {
        handle.unsubscribe(conn).await;
        return Err(ApiError::new(
            ErrorCode::NotSeated,
            "you do not play at this table: a game stream is for its players",
        ));
    }
    let (response, lines) = response();
    let first = game_full(view);
    let last = first["state"].clone();
    let ending = Ending::new(state.clone(), &identity, token, overflow);
    let follow = Follow {
        state,
        handle,
        conn,
        identity,
        lines,
        last,
    };
    actix_web::rt::spawn(follow.run(first, frames, ending));
    Ok(response)
}

struct Follow {
    state: Arc<AppState>,
    handle: TableHandle,
    conn: ConnId,
    identity: Identity,
    lines: Lines,
    /// The last state told, so that a change that alters nothing is not told twice.
    last: Value,
}

impl Follow {
    async fn run(mut self, first: Value, mut frames: mpsc::Receiver<Frame>, mut ending: Ending) {
        let over = is_over(&first["state"]);
        if self.lines.send(&first) && !over {
            self.follow(&mut frames, &mut ending).await;
        }
        drop(ending);
        self.state.sessions.unwatch(&self.identity.user.id);
        // Where the table runs now (it may have moved since the subscription).
        self.state.hub.unsubscribe(&self.handle.id, self.conn).await;
    }

    async fn follow(&mut self, frames: &mut mpsc::Receiver<Frame>, ending: &mut Ending) {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            tokio::select! {
                frame = frames.recv() => {
                    let Some(frame) = frame else { return };
                    // Everything already waiting is read at once: one state for a burst.
                    let mut batch = vec![frame];
                    while let Ok(more) = frames.try_recv() {
                        batch.push(more);
                    }
                    match self.tell(&batch).await {
                        Some(true) => {}
                        _ => return,
                    }
                }
                _ = keep_alive.tick() => {
                    if !self.lines.keep_alive() || !ending.token_works().await {
                        return;
                    }
                }
                () = ending.ended() => return,
            }
        }
    }

    /// Tells what `batch` changed: `Some(true)` to go on, `Some(false)` when the game is
    /// over, `None` when the client is gone.
    async fn tell(&mut self, batch: &[Frame]) -> Option<bool> {
        let mut changed = false;
        for frame in batch {
            let message = parse(frame);
            let kind = message["type"].as_str().unwrap_or_default();
            if kind == "chat" {
                if !self.lines.send(&chat_line(&message)) {
                    return None;
                }
            } else if STATE_CHANGES.contains(&kind) {
                changed = true;
            }
        }
        if !changed {
            return Some(true);
        }
        let user = self.identity.user.clone();
        let view = self.handle_now().await?.view(Some(user), None).await.ok()?;
        // The stream's lines are made from the view as the wire writes it, as from a socket's
        // snapshot.
        let view = serde_json::to_value(&view).ok()?;
        let state = game_state(&view);
        if state != self.last {
            if !self.lines.send(&state) {
                return None;
            }
            self.last = state;
        }
        Some(!is_over(&view))
    }

    /// The table's handle where it runs now.
    async fn handle_now(&mut self) -> Option<&TableHandle> {
        if self.handle.is_closed() {
            self.handle = self.state.hub.table(&self.handle.id).await.ok()?;
        }
        Some(&self.handle)
    }
}
