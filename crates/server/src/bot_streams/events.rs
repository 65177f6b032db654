//! `GET /api/stream/event`: what happens to an account, one line each. On opening: a
//! `gameStart` for each game it is playing and a `challenge` for each challenge waiting for
//! an answer; then `challenge` (sent or received), `challengeCanceled` (cancelled by the
//! challenger, or expired), `challengeDeclined`, `gameStart` and `gameFinish`.
//!
//! The stream listens beside the player's sockets (challenges come as the sockets'
//! `challenge` messages) and follows each game it announced, to tell its end. A game started
//! otherwise than by a challenge (someone sat at the account's open table) is found when the
//! player's turn count moves, and at the latest on the next keep-alive.

use crate::ws::protocol::TableId;
use std::collections::HashSet;
use std::sync::Arc;

use actix_web::HttpResponse;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{Ending, KEEP_ALIVE, Lines, outbox, parse, response};
use crate::error::ApiError;
use crate::identity::Identity;
use crate::outbox::{ConnId, Frame, Outbox};
use crate::state::AppState;
use crate::ws::protocol::encode;
use record::GameStatus;

/// Opens the event stream of `identity`.
pub async fn event_stream(
    state: Arc<AppState>,
    identity: Identity,
    token: String,
) -> Result<HttpResponse, ApiError> {
    let (out, frames, overflow) = outbox(&state, &identity).await?;
    let conn = state.hub.next_conn_id();
    let (incoming, outgoing) = crate::challenges::open_of(&state.hub, &identity.user).await?;
    let (response, lines) = response();
    let ending = Ending::new(state.clone(), &identity, token, overflow);
    state.hub.watch_turns(&identity.user.id, conn, out.clone());
    let mut events = Events {
        state,
        identity,
        conn,
        out,
        lines,
        games: HashSet::new(),
    };
    actix_web::rt::spawn(async move {
        let opened = incoming.into_iter().chain(outgoing).all(|c| {
            events
                .lines
                .send(&json!({"type": "challenge", "challenge": c}))
        });
        if opened && events.find_games().await {
            events.follow(frames, ending).await;
        }
        events.leave().await;
    });
    Ok(response)
}

struct Events {
    state: Arc<AppState>,
    identity: Identity,
    conn: ConnId,
    out: Outbox,
    lines: Lines,
    /// The games announced by a `gameStart` and not yet finished.
    games: HashSet<TableId>,
}

impl Events {
    async fn follow(&mut self, mut frames: mpsc::Receiver<Frame>, mut ending: Ending) {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let going = tokio::select! {
                frame = frames.recv() => match frame {
                    Some(frame) => self.tell(&parse(&frame)).await,
                    None => false,
                },
                _ = keep_alive.tick() => {
                    self.lines.keep_alive()
                        && ending.token_works().await
                        && self.find_games().await
                }
                () = ending.ended() => false,
            };
            if !going {
                return;
            }
        }
    }

    /// Tells what one message means for the account; `false` once the client is gone.
    async fn tell(&mut self, message: &Value) -> bool {
        match message["type"].as_str().unwrap_or_default() {
            "challenge" => {
                let challenge = &message["challenge"];
                let kind = match message["event"].as_str().unwrap_or_default() {
                    "created" => "challenge",
                    "declined" => "challengeDeclined",
                    "canceled" | "expired" => "challengeCanceled",
                    "accepted" => return self.announce(challenge["game_id"].as_str()).await,
                    _ => return true,
                };
                self.lines
                    .send(&json!({"type": kind, "challenge": challenge}))
            }
            "end" => {
                let Ok(table) = TableId::parse(message["table"].as_str().unwrap_or_default())
                else {
                    return true;
                };
                if !self.games.remove(&table) {
                    return true;
                }
                self.state.hub.unsubscribe(&table, self.conn).await;
                self.lines.send(&json!({
                    "type": "gameFinish",
                    "game": {
                        "id": table,
                        "status": message["status"],
                        "result": message["result"],
                        "reason": message["reason"],
                    },
                }))
            }
            // The player's turn count moved: a game may have started.
            "turns" => self.find_games().await,
            _ => true,
        }
    }

    /// Announces every game the account plays that was not announced yet; `false` once the
    /// client is gone.
    async fn find_games(&mut self) -> bool {
        let ids = match self
            .state
            .store
            .unfinished_game_ids_of(&self.identity.user.id)
            .await
        {
            Ok(ids) => ids,
            // The database is away: the next keep-alive looks again.
            Err(_) => return true,
        };
        for id in ids {
            if !self.games.contains(id.as_str()) && !self.announce(Some(&id)).await {
                return false;
            }
        }
        true
    }

    /// A `gameStart` for table `id` if the account plays there and the game has begun (once
    /// per game), and a subscription to hear its end; `false` once the client is gone.
    async fn announce(&mut self, id: Option<&str>) -> bool {
        let Some(Ok(id)) = id.map(TableId::parse) else {
            return true;
        };
        if self.games.contains(&id) {
            return true;
        }
        let Ok(handle) = self.state.hub.table(&id).await else {
            return true;
        };
        let user = &self.identity.user;
        let Some(entry) = handle.playing(&user.id).await else {
            return true;
        };
        if entry.status != GameStatus::Playing.as_str() {
            return true;
        }
        let Ok(snapshot) = handle
            .subscribe(self.conn, user.clone(), self.out.clone(), None, None)
            .await
        else {
            return true;
        };
        // Ended between the two calls: nothing to announce, and no end to wait for.
        let snapshot = parse(&Frame::from(encode(None, &snapshot)));
        if snapshot["table"]["status"] != "playing" {
            self.state.hub.unsubscribe(&id, self.conn).await;
            return true;
        }
        self.games.insert(id);
        self.lines
            .send(&json!({"type": "gameStart", "game": entry}))
    }

    async fn leave(&mut self) {
        let hub = &self.state.hub;
        hub.unwatch_turns(&self.identity.user.id, self.conn);
        self.state.sessions.unwatch(&self.identity.user.id);
        for table in self.games.drain() {
            hub.unsubscribe(&table, self.conn).await;
        }
    }
}
