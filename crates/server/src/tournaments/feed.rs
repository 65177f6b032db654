//! Live standings for the sockets that follow a tournament. For each followed tournament,
//! this node brings its director up to date with the log and sends each watcher what changed
//! since it last sent, of the page of standings it follows (a line that moved onto or off that
//! page included) and of its own line, with the players gone; nothing when nothing changed.
//! A line the watcher has is sent as its change (`patch.rs`), a line new to it whole.
//! Watchers of the same page share one encoding. Every node does this for its own sockets,
//! reading the same log, so a watcher's node need not be the leader.
//!
//! When: a tournament with news (a result recorded here, or heard of from the leader) is sent
//! at once if nothing went to its watchers in the last second, and otherwise at the end of
//! that second, with whatever came meanwhile; every followed tournament is also read once a
//! second, which is how a node that heard of nothing learns of the log's changes.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use super::patch::patch;
use super::views::{GameInProgress, Line, on_page};
use super::{Inner, Tournaments};
use crate::error::{ApiError, ErrorCode};
use crate::outbox::{ConnId, Frame, Outbox};
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, encode};

const EVERY: Duration = Duration::from_secs(1);
/// Tournaments one connection may follow at once: a page follows one; the bound keeps one
/// socket from making this node read many logs every second.
pub const MAX_FOLLOWED: usize = 8;

#[derive(Default)]
pub(super) struct Feed {
    followed: Mutex<HashMap<String, Followed>>,
    /// The tournaments with news since they were last read, and the feed's loop to wake.
    news: Mutex<HashSet<String>>,
    pub(super) woken: Arc<Notify>,
}

impl Feed {
    /// Tournament `id` has news: its watchers are sent it as soon as the once-a-second rule
    /// allows.
    pub(super) fn news(&self, id: &str) {
        self.news.lock().expect("feed lock").insert(id.to_string());
        self.woken.notify_one();
    }
}

/// One socket following a tournament.
struct Watcher {
    out: Outbox,
    /// The page of standings it follows, from 1.
    page: usize,
    /// Its player, when it is an account: its own line is sent wherever it stands.
    player: Option<String>,
    /// Nothing was sent to it since it followed: its page may be newer than what the other
    /// watchers were last sent, so its next lines go whole.
    fresh: bool,
}

#[derive(Default)]
struct Followed {
    watchers: HashMap<ConnId, Watcher>,
    /// What the watchers were last sent: the lines that concern them by player (those on a
    /// page they follow, and their own), every player then, the status, the games.
    lines: HashMap<String, Line>,
    players: HashSet<String>,
    status: String,
    games: Vec<GameInProgress>,
    /// When something was last sent to its watchers.
    sent_at: Option<Instant>,
}

/// The changed lines that concern a page, and their encoding once made.
type PageChanges<'a> = (Vec<&'a Line>, Option<Frame>);

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
                fresh: true,
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

    /// Sends the changes of the followed tournaments that are due (all of them on a second's
    /// read, `read_all`; otherwise those with news), each at most once a second.
    async fn send_due(&self, read_all: bool) {
        let now = Instant::now();
        let ids: Vec<String> = {
            let followed = self.0.feed.followed.lock().expect("feed lock");
            let mut news = self.0.feed.news.lock().expect("feed lock");
            news.retain(|id| followed.contains_key(id));
            let ids: Vec<String> = (followed.iter())
                .filter(|(id, f)| {
                    (read_all || news.contains(*id)) && f.sent_at.is_none_or(|at| now >= at + EVERY)
                })
                .map(|(id, _)| id.clone())
                .collect();
            for id in &ids {
                news.remove(id);
            }
            ids
        };
        for id in ids {
            if let Err(error) = self.send_changes_of(&id).await {
                tracing::warn!(tournament = %id, %error, "cannot send a tournament's changes");
            }
        }
    }

    /// When the feed's loop should next look: at the next second's read, `read_at`, or sooner
    /// when a tournament's news waits for its second to end.
    fn next_look(&self, read_at: Instant) -> Instant {
        let followed = self.0.feed.followed.lock().expect("feed lock");
        let news = self.0.feed.news.lock().expect("feed lock");
        (news.iter())
            .filter_map(|id| followed.get(id))
            .map(|f| f.sent_at.map_or_else(Instant::now, |at| at + EVERY))
            .fold(read_at, Instant::min)
    }

    async fn send_changes_of(&self, id: &str) -> Result<(), ApiError> {
        let names = self.entrant_names(id).await?;
        // The lines worth making (with every mark they carry): those on a page someone
        // follows, those that stood there when last sent, and the watchers' own.
        let (pages, own, had) = {
            let followed = self.0.feed.followed.lock().expect("feed lock");
            let Some(followed) = followed.get(id) else {
                return Ok(());
            };
            let pages: HashSet<usize> = followed.watchers.values().map(|w| w.page).collect();
            let own: HashSet<String> = (followed.watchers.values())
                .filter_map(|w| w.player.clone())
                .collect();
            let had: HashSet<String> = followed.lines.keys().cloned().collect();
            (pages, own, had)
        };
        let on_a_page = |rank: u32| pages.iter().any(|page| on_page(rank, *page));
        let (lines, players, games, status) = {
            let slot = self.slot(id).await?;
            let mut loaded = slot.lock().await;
            loaded.catch_up(&self.0.store).await?;
            let status = match loaded.arena.phase() {
                tournament::arena::Phase::Upcoming => "upcoming",
                tournament::arena::Phase::Running => "running",
                tournament::arena::Phase::Finished => "finished",
            };
            let standings = loaded.arena.standings_unmarked();
            let lines = loaded.lines_of(&names, &standings, |line| {
                let player = line.player.as_str();
                on_a_page(line.rank) || own.contains(player) || had.contains(player)
            });
            let games = loaded.games(&names, &standings);
            let players: HashSet<String> = (standings.into_iter())
                .map(|line| line.player.as_str().to_string())
                .collect();
            (lines, players, games, status)
        };
        let mut followed = self.0.feed.followed.lock().expect("feed lock");
        let Some(followed) = followed.get_mut(id) else {
            return Ok(());
        };
        let changed: Vec<&Line> = lines
            .iter()
            .filter(|line| followed.lines.get(&line.player) != Some(*line))
            .collect();
        let removed: Vec<String> = (followed.players.iter())
            .filter(|player| !players.contains(*player))
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
        // As a watcher of `page` is sent `line`: its change when the watcher has it (it stood
        // on that page when last sent), whole otherwise.
        let as_sent = |line: &Line, page: usize, fresh: bool| match last.get(&line.player) {
            Some(before) if !fresh && on_page(before.rank, page) => patch(before, line),
            _ => serde_json::to_value(line).unwrap_or_default(),
        };
        let lines_total = players.len();
        let games_json: Vec<serde_json::Value> = games
            .iter()
            .map(|game| serde_json::to_value(game).unwrap_or_default())
            .collect();
        let at = unix_ms();
        let frame = |changed: Vec<serde_json::Value>| {
            Frame::from(encode(
                None,
                &Message::TournamentChanges {
                    tournament: id.to_string(),
                    status: status.to_string(),
                    changed,
                    removed: removed.clone(),
                    total: lines_total,
                    games: games_json.clone(),
                    at,
                },
            ))
        };
        // One encoding a page (and freshness); a watcher whose own changed line is elsewhere
        // gets its own.
        let mut pages: HashMap<(usize, bool), PageChanges> = HashMap::new();
        let mut sent = false;
        followed.watchers.retain(|_, watcher| {
            let key = (watcher.page, watcher.fresh);
            let (on_it, shared) = pages.entry(key).or_insert_with(|| {
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
            let (page, fresh) = key;
            watcher.fresh = false;
            sent = true;
            match own {
                Some(own) => {
                    let mut lines: Vec<serde_json::Value> =
                        on_it.iter().map(|l| as_sent(l, page, fresh)).collect();
                    lines.push(as_sent(own, page, fresh));
                    watcher.out.send(frame(lines))
                }
                None => {
                    let shared = shared.get_or_insert_with(|| {
                        frame(on_it.iter().map(|l| as_sent(l, page, fresh)).collect())
                    });
                    watcher.out.send(shared.clone())
                }
            }
        });
        // Kept for the next send: the lines a watcher may have, by where they stand now.
        followed.lines = (lines.into_iter())
            .filter(|line| on_a_page(line.rank) || own.contains(&line.player))
            .map(|line| (line.player.clone(), line))
            .collect();
        followed.players = players;
        followed.status = status.to_string();
        followed.games = games;
        if sent {
            followed.sent_at = Some(Instant::now());
        }
        Ok(())
    }
}

/// The feed's loop, woken by `woken` when a tournament has news; ends with the service.
pub(super) async fn send_changes(inner: Weak<Inner>, woken: Arc<Notify>) {
    let mut read_at = Instant::now();
    loop {
        let look_at = match inner.upgrade() {
            Some(inner) => Tournaments(inner).next_look(read_at),
            None => return,
        };
        tokio::select! {
            () = woken.notified() => {}
            () = tokio::time::sleep_until(look_at) => {}
        }
        let Some(inner) = inner.upgrade() else { return };
        let read_all = Instant::now() >= read_at;
        if read_all {
            read_at = Instant::now() + EVERY;
        }
        Tournaments(inner).send_due(read_all).await;
    }
}
