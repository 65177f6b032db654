//! Live standings for the sockets that follow a tournament. At most once a second, for each
//! followed tournament, this node brings its director up to date with the log and sends the
//! lines that changed since it last sent (and the players gone), never the whole standings
//! again; nothing when nothing changed. Every node does this for its own sockets, reading the
//! same log, so a watcher's node need not be the leader.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::Duration;

use super::views::{GameInProgress, Line};
use super::{Inner, Tournaments};
use crate::error::{ApiError, ErrorCode};
use crate::outbox::{ConnId, Frame, Outbox};
use crate::ws::protocol::{Message, encode};

const EVERY: Duration = Duration::from_secs(1);
/// Tournaments one connection may follow at once: a page follows one; the bound keeps one
/// socket from making this node read many logs every second.
pub const MAX_FOLLOWED: usize = 8;

#[derive(Default)]
pub(super) struct Feed {
    followed: Mutex<HashMap<String, Followed>>,
}

#[derive(Default)]
struct Followed {
    watchers: HashMap<ConnId, Outbox>,
    /// What the watchers were last sent: the lines by player, the status, the games.
    lines: HashMap<String, Line>,
    status: String,
    games: Vec<GameInProgress>,
}

impl Tournaments {
    /// Follows tournament `id` for connection `conn`: the answer is its page as `viewer` sees
    /// it (the first page of standings), and the changes come after.
    pub async fn watch(
        &self,
        id: &str,
        viewer: Option<&str>,
        conn: ConnId,
        out: Outbox,
    ) -> Result<Message, ApiError> {
        let following = {
            let followed = self.0.feed.followed.lock().expect("feed lock");
            let count = followed
                .values()
                .filter(|f| f.watchers.contains_key(&conn))
                .count();
            (
                count,
                followed
                    .get(id)
                    .is_some_and(|f| f.watchers.contains_key(&conn)),
            )
        };
        if following.0 >= MAX_FOLLOWED && !following.1 {
            return Err(ApiError::new(
                ErrorCode::WrongState,
                format!(
                    "a connection follows at most {MAX_FOLLOWED} tournaments: unsubscribe from one first"
                ),
            ));
        }
        let page = self.page(id, 1, viewer).await?;
        let tournament = serde_json::to_value(&page)
            .map_err(|e| ApiError::internal("a tournament page does not write", e))?;
        let mut followed = self.0.feed.followed.lock().expect("feed lock");
        followed
            .entry(id.to_string())
            .or_default()
            .watchers
            .insert(conn, out);
        Ok(Message::Tournament { tournament })
    }

    /// Stops following tournament `id` (every tournament: `None`) for `conn`.
    pub fn unwatch(&self, id: Option<&str>, conn: ConnId) {
        let mut followed = self.0.feed.followed.lock().expect("feed lock");
        followed.retain(|tournament, f| {
            if id.is_none_or(|id| id == tournament) {
                f.watchers.remove(&conn);
            }
            !f.watchers.is_empty()
        });
    }

    /// Sends each followed tournament's changes to its watchers.
    async fn send_changes(&self) {
        let ids: Vec<String> = {
            let followed = self.0.feed.followed.lock().expect("feed lock");
            followed.keys().cloned().collect()
        };
        for id in ids {
            if let Err(error) = self.send_changes_of(&id).await {
                tracing::warn!(tournament = %id, %error, "cannot send a tournament's changes");
            }
        }
    }

    async fn send_changes_of(&self, id: &str) -> Result<(), ApiError> {
        let names = self.entrant_names(id).await?;
        let (lines, games, status) = {
            let slot = self.slot(id).await?;
            let mut loaded = slot.lock().await;
            loaded.catch_up(&self.0.store).await?;
            let status = match loaded.arena.phase() {
                tournament::arena::Phase::Upcoming => "upcoming",
                tournament::arena::Phase::Running => "running",
                tournament::arena::Phase::Finished => "finished",
            };
            (loaded.lines(&names), loaded.games(&names), status)
        };
        let mut followed = self.0.feed.followed.lock().expect("feed lock");
        let Some(followed) = followed.get_mut(id) else {
            return Ok(());
        };
        let changed: Vec<&Line> = lines
            .iter()
            .filter(|line| followed.lines.get(&line.player) != Some(*line))
            .collect();
        let removed: Vec<String> = followed
            .lines
            .keys()
            .filter(|player| !lines.iter().any(|line| &line.player == *player))
            .cloned()
            .collect();
        if changed.is_empty()
            && removed.is_empty()
            && followed.status == status
            && followed.games == games
        {
            return Ok(());
        }
        let message = Message::TournamentChanges {
            tournament: id.to_string(),
            status: status.to_string(),
            changed: changed
                .iter()
                .map(|line| serde_json::to_value(line).unwrap_or_default())
                .collect(),
            removed,
            total: lines.len(),
            games: games
                .iter()
                .map(|game| serde_json::to_value(game).unwrap_or_default())
                .collect(),
        };
        let frame = Frame::from(encode(None, &message));
        followed.watchers.retain(|_, out| out.send(frame.clone()));
        followed.lines = lines
            .into_iter()
            .map(|line| (line.player.clone(), line))
            .collect();
        followed.status = status.to_string();
        followed.games = games;
        Ok(())
    }
}

/// The feed's loop; ends with the service.
pub(super) async fn send_changes(inner: Weak<Inner>) {
    let mut ticks = tokio::time::interval(EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        ticks.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        Tournaments(inner).send_changes().await;
    }
}
