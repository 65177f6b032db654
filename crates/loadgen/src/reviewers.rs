//! Players asking for the engine's review of finished games, kept asking during a
//! measurement: finished games are made first (pairs playing the first legal move to the end),
//! then each reviewer asks for the review of the next one (`POST /api/records/{id}/analysis`),
//! reads where it is every half second until it is done, and asks for the next, so the node's
//! review queue (one review computed at a time, on the bots' CPU pool) never runs dry.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::pair::{Game, Pair};
use futures_util::StreamExt;
use testkit::Http;

/// A finished game's record and the invitation that lets anyone read it.
struct Finished {
    id: String,
    invite: String,
}

/// The finished games still to be reviewed, shared by the reviewers.
#[derive(Clone)]
pub struct Backlog(Arc<Mutex<VecDeque<Finished>>>);

/// What the reviewers did while measured.
#[derive(Default)]
pub struct Reviewed {
    /// Reviews read back as done.
    pub done: AtomicU64,
    /// Positions evaluated, read from the reviews' progress.
    pub positions: AtomicU64,
    /// Asks or reads answered with an error.
    pub refused: AtomicU64,
    /// Reviewers that stopped because no finished game was left.
    pub ran_out: AtomicU64,
    /// Set when the measurement is over: the reviewers stop before their server does.
    pub stop: AtomicBool,
}

impl Backlog {
    /// `count` games of `game` played to their end by as many pairs, a few at a time.
    pub async fn make(http: &Http, count: usize, game: Game) -> anyhow::Result<Backlog> {
        let made: Vec<anyhow::Result<Finished>> = futures_util::stream::iter(0..count)
            .map(|_| async {
                let mut pair = Pair::new(http, game).await?;
                let table = pair.table().to_string();
                while !pair.finished() {
                    pair.one_move().await?;
                }
                let invite = pair.invite.as_str().unwrap_or_default().to_string();
                anyhow::Ok(Finished { id: table, invite })
            })
            .buffer_unordered(8)
            .collect()
            .await;
        let games = made.into_iter().collect::<anyhow::Result<VecDeque<_>>>()?;
        Ok(Backlog(Arc::new(Mutex::new(games))))
    }

    fn next(&self) -> Option<Finished> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).pop_front()
    }
}

/// One guest asking for reviews.
pub struct Reviewer {
    http: Http,
    token: String,
}

impl Reviewer {
    pub async fn new(http: &Http) -> anyhow::Result<Reviewer> {
        Ok(Reviewer {
            http: http.clone(),
            token: http.guest().await?,
        })
    }

    /// Asks for one review after another until `until`, until told to stop, or until the
    /// backlog is empty.
    pub async fn keep_reviewing(self, backlog: Backlog, until: Instant, reviewed: Arc<Reviewed>) {
        let going = || Instant::now() < until && !reviewed.stop.load(Ordering::Relaxed);
        while going() {
            let Some(game) = backlog.next() else {
                reviewed.ran_out.fetch_add(1, Ordering::Relaxed);
                return;
            };
            let path = format!("/api/records/{}/analysis?token={}", game.id, game.invite);
            let (mut status, mut body) =
                self.http.call("POST", &path, Some(&self.token), None).await;
            // Positions of this review already counted.
            let mut seen = 0;
            loop {
                let done = if body["status"] == "done" {
                    body["review"]["positions"].as_array().map_or(0, Vec::len)
                } else {
                    body["done"].as_u64().unwrap_or(0) as usize
                };
                let more = done.saturating_sub(seen);
                reviewed.positions.fetch_add(more as u64, Ordering::Relaxed);
                seen += more;
                if body["status"] == "done" {
                    reviewed.done.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                if status != 200 && status != 202 || !going() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                (status, body) = self.http.call("GET", &path, Some(&self.token), None).await;
            }
            if status != 200 && status != 202 && going() {
                reviewed.refused.fetch_add(1, Ordering::Relaxed);
                eprintln!("stolik-load: a review was refused: {status} {body}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// The reviewers' work in a sentence.
pub fn sentence(reviewers: usize, reviewed: &Reviewed) -> String {
    let read = |n: &AtomicU64| n.load(Ordering::Relaxed);
    let mut out = format!(
        "{reviewers} players asking for engine reviews: {} reviews done, {} positions evaluated, {} refused",
        read(&reviewed.done),
        read(&reviewed.positions),
        read(&reviewed.refused),
    );
    if read(&reviewed.ran_out) > 0 {
        out.push_str(&format!(
            ", {} reviewers ran out of finished games",
            read(&reviewed.ran_out)
        ));
    }
    out
}
