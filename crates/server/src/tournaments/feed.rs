//! Live standings for the sockets that follow a tournament. At most once a second, for each
//! followed tournament, this node brings its director up to date with the log and sends each
//! watcher what changed since it last sent, of the page of standings it follows (a line that
//! moved onto or off that page included) and of its own line, with the players gone; never the
//! whole standings again, and nothing when nothing changed. Watchers of the same page share one
//! encoding. Every node does this for its own sockets, reading the same log, so a watcher's
//! node need not be the leader.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::Duration;

use super::views::{GameInProgress, Line, PER_PAGE};
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

/// One socket following a tournament.
struct Watcher {
    out: Outbox,
    /// The page of standings it follows, from 1.
    page: usize,
    /// Its player, when it is an account: its own line is sent wherever it stands.
    player: Option<String>,
}

#[derive(Default)]
struct Followed {
    watchers: HashMap<ConnId, Watcher>,
    /// What the watchers were last sent: the lines by player, the status, the games.
    lines: HashMap<String, Line>,
    status: String,
    games: Vec<GameInProgress>,
}

/// Whether `rank` is on page `page` of the standings.
fn on_page(rank: u32, page: usize) -> bool {
    let rank = rank as usize;
    rank > (page - 1) * PER_PAGE && rank <= page * PER_PAGE
}

impl Tournaments {
    /// Follows tournament `id` for connection `conn`: the answer is its page as `viewer` sees
    /// it (the first page of standings), and the changes come after.
    pub async fn watch(
        &self,
        id: &str,
        page: usize,
        viewer: Option<&str>,
        conn: ConnId,
        out: Outbox,
    ) -> Result<Message, ApiError> {
        if !(1..=100_000).contains(&page) {
            return Err(ApiError::bad_request("page must be from 1 to 100000"));
        }
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
        let view = self.page(id, page, viewer).await?;
        let tournament = serde_json::to_value(&view)
            .map_err(|e| ApiError::internal("a tournament page does not write", e))?;
        let mut followed = self.0.feed.followed.lock().expect("feed lock");
        followed.entry(id.to_string()).or_default().watchers.insert(
            conn,
            Watcher {
                out,
                page,
                player: viewer.map(str::to_string),
            },
        );
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
            let lines = loaded.lines(&names);
            let games = loaded.games(&names, &lines);
            (lines, games, status)
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
        let moved = followed.status != status || followed.games != games;
        if changed.is_empty() && removed.is_empty() && !moved {
            return Ok(());
        }
        let last = &followed.lines;
        // A changed line concerns a page when it stands there now or stood there before.
        let concerns = |line: &Line, page: usize| {
            on_page(line.rank, page)
                || last
                    .get(&line.player)
                    .is_some_and(|l| on_page(l.rank, page))
        };
        let lines_total = lines.len();
        let games_json: Vec<serde_json::Value> = games
            .iter()
            .map(|game| serde_json::to_value(game).unwrap_or_default())
            .collect();
        let frame = |lines: Vec<&Line>| {
            Frame::from(encode(
                None,
                &Message::TournamentChanges {
                    tournament: id.to_string(),
                    status: status.to_string(),
                    changed: lines
                        .iter()
                        .map(|line| serde_json::to_value(line).unwrap_or_default())
                        .collect(),
                    removed: removed.clone(),
                    total: lines_total,
                    games: games_json.clone(),
                },
            ))
        };
        // One encoding a page; a watcher whose own changed line is elsewhere gets its own.
        let mut pages: HashMap<usize, (Vec<&Line>, Option<Frame>)> = HashMap::new();
        followed.watchers.retain(|_, watcher| {
            let (on_it, shared) = pages.entry(watcher.page).or_insert_with(|| {
                let page = watcher.page;
                (
                    changed
                        .iter()
                        .copied()
                        .filter(|l| concerns(l, page))
                        .collect(),
                    None,
                )
            });
            let own = watcher.player.as_deref().and_then(|me| {
                changed
                    .iter()
                    .copied()
                    .find(|l| l.player == me && !on_it.iter().any(|o| o.player == me))
            });
            if on_it.is_empty() && own.is_none() && removed.is_empty() && !moved {
                return true;
            }
            match own {
                Some(own) => {
                    let mut lines = on_it.clone();
                    lines.push(own);
                    watcher.out.send(frame(lines))
                }
                None => {
                    let shared = shared.get_or_insert_with(|| frame(on_it.clone()));
                    watcher.out.send(shared.clone())
                }
            }
        });
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
