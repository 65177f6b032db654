//! Quick match: players wait in a queue per kind of game and are paired by rating within
//! both players' windows — on joining, and twice a second as the windows widen. Each player
//! is taken out under the lobby lock, so paired once.

use std::sync::Weak;
use std::time::Duration;

use super::{Hub, Inner};
use crate::error::{ErrorCode, WsError};
use crate::outbox::{ConnId, Frame, Outbox};
use crate::table::TableSettings;
use crate::ws::protocol::{Message, TableId, TimeControl, UserView, encode};

/// A quick-match queue: who waits for a game of this kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QueueKey {
    pub variant: catalog::VariantId,
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    /// Days a move, for correspondence.
    pub days: Option<u8>,
    /// Rated games are paired only with players who want one too.
    pub rated: bool,
}

pub(super) struct Waiting {
    pub(super) conn: ConnId,
    pub(super) user: UserView,
    pub(super) out: Outbox,
    /// The rating quick match pairs by (a newcomer's for guests).
    pub(super) rating: f64,
    pub(super) since: std::time::Instant,
}

/// What pairing looks at in a waiting player (here, or on another node).
pub(super) trait Standing {
    fn user_id(&self) -> &str;
    /// Their rating and how long they have waited.
    fn standing(&self, now: std::time::Instant) -> (f64, Duration);
    fn rating(&self) -> f64;
}

impl Standing for Waiting {
    fn user_id(&self) -> &str {
        &self.user.id
    }

    fn standing(&self, now: std::time::Instant) -> (f64, Duration) {
        (self.rating, now.duration_since(self.since))
    }

    fn rating(&self) -> f64 {
        self.rating
    }
}

/// How often waiting players are looked at again, so that widened windows can pair them.
const PAIR_EVERY: Duration = Duration::from_millis(500);

/// Takes out of `queue` every pair the rating windows admit: oldest first, each waiting
/// player with the closest-rated other player whose window and theirs both admit the gap.
/// Called under the lobby lock, so each player is paired exactly once.
pub(super) fn take_pairs<W: Standing>(queue: &mut Vec<W>, window: rating::Window) -> Vec<(W, W)> {
    let now = std::time::Instant::now();
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < queue.len() {
        let me = &queue[i];
        let closest = queue
            .iter()
            .enumerate()
            .filter(|(j, w)| *j != i && w.user_id() != me.user_id())
            .filter(|(_, w)| window.accepts(w.standing(now), me.standing(now)))
            .min_by(|(_, a), (_, b)| {
                (a.rating() - me.rating())
                    .abs()
                    .total_cmp(&(b.rating() - me.rating()).abs())
            })
            .map(|(j, _)| j);
        match closest {
            Some(j) => {
                // The later index goes first, so that the earlier one stays valid.
                let (first, second) = if i < j { (i, j) } else { (j, i) };
                let later = queue.remove(second);
                let earlier = queue.remove(first);
                pairs.push((earlier, later));
            }
            None => i += 1,
        }
    }
    pairs
}

/// Looks at the waiting players again every [`PAIR_EVERY`] while anyone waits; ends with
/// the hub.
pub(super) async fn pair_waiting_players(hub: Weak<Inner>) {
    loop {
        tokio::time::sleep(PAIR_EVERY).await;
        let Some(inner) = hub.upgrade() else { return };
        let hub = Hub(inner);
        if hub.placement().is_some() {
            hub.return_old_claims();
            hub.pair_across_nodes().await;
        }
        let waiting = hub
            .0
            .lobby
            .lock()
            .expect("lobby lock")
            .queues
            .values()
            .any(|q| q.len() > 1);
        if waiting {
            hub.pair_waiting().await;
        }
    }
}

impl Hub {
    /// Queues `user` for a game of `key`'s kind, or pairs them at once with the closest-rated
    /// player already waiting whom both windows admit (see [`take_pairs`]; in a new table,
    /// seats in random order). Both players hear `match` with the table.
    pub async fn join_queue(
        &self,
        key: QueueKey,
        conn: ConnId,
        user: UserView,
        out: Outbox,
    ) -> Result<(), WsError> {
        let class = rating::Class::of(key.initial_ms.zip(key.increment_ms), key.days);
        let rating = if user.guest {
            rating::Rating::default().rating
        } else {
            self.store()
                .rating(&user.id, key.variant.game().as_str(), class)
                .await?
                .rating
        };
        let joining = Waiting {
            conn,
            user,
            out,
            rating,
            since: std::time::Instant::now(),
        };
        let pairs = {
            let mut lobby = self.0.lobby.lock().expect("lobby lock");
            if lobby.queues.values().flatten().any(|w| w.conn == conn)
                || lobby.claimed.contains_key(&conn)
            {
                return Err(WsError::new(
                    ErrorCode::WrongState,
                    "you are already in a queue: leave it first",
                ));
            }
            let queue = lobby.queues.entry(key.clone()).or_default();
            queue.push(joining);
            take_pairs(queue, self.0.match_window)
        };
        self.lobby_changed();
        let mut result = Ok(());
        for (a, b) in pairs {
            result = result.and(self.start_match(&key, a, b).await);
        }
        result
    }

    /// Pairs the waiting players whose windows have widened enough (see [`take_pairs`]).
    pub(super) async fn pair_waiting(&self) {
        let pairs: Vec<(QueueKey, Waiting, Waiting)> = {
            let mut lobby = self.0.lobby.lock().expect("lobby lock");
            let window = self.0.match_window;
            lobby
                .queues
                .iter_mut()
                .flat_map(|(key, queue)| {
                    take_pairs(queue, window)
                        .into_iter()
                        .map(|(a, b)| (key.clone(), a, b))
                })
                .collect()
        };
        if pairs.is_empty() {
            return;
        }
        self.lobby_changed();
        for (key, a, b) in pairs {
            let (a_out, b_out) = (a.out.clone(), b.out.clone());
            if let Err(e) = self.start_match(&key, a, b).await {
                tracing::error!(error = %e, "could not start a quick-match game");
                let text = Frame::from(encode(
                    None,
                    &Message::Error {
                        code: e.code,
                        message: e.message.clone(),
                    },
                ));
                a_out.send(text.clone());
                b_out.send(text);
            }
        }
    }

    /// Creates the table of a quick-match pair and tells both players.
    pub(super) async fn start_match(
        &self,
        key: &QueueKey,
        a: Waiting,
        b: Waiting,
    ) -> Result<(), WsError> {
        let table = self.open_match(key, a.user.clone(), b.user.clone()).await?;
        let table = table.to_string();
        let text = Frame::from(encode(None, &Message::Match { table }));
        a.out.send(text.clone());
        b.out.send(text);
        Ok(())
    }

    /// Opens the table of a quick-match pair (seats in random order); its id.
    pub(super) async fn open_match(
        &self,
        key: &QueueKey,
        a: UserView,
        b: UserView,
    ) -> Result<TableId, WsError> {
        let control = match (key.initial_ms, key.increment_ms) {
            (Some(initial), Some(increment)) => {
                Some(TimeControl::new(initial, increment).map_err(WsError::bad_request)?)
            }
            _ => None,
        };
        let mut seats = vec![Some(a), Some(b)];
        if rand::random::<bool>() {
            seats.reverse();
        }
        let settings = TableSettings::quick_match(key.variant, control, key.days, key.rated);
        let table = self.create_table(settings, None, seats, None).await?;
        Ok(table.id.clone())
    }

    /// Leaves every queue this connection waits in; `true` if it waited anywhere.
    pub fn leave_queue(&self, conn: ConnId) -> bool {
        let mut lobby = self.0.lobby.lock().expect("lobby lock");
        let mut left = false;
        for queue in lobby.queues.values_mut() {
            let before = queue.len();
            queue.retain(|w| w.conn != conn);
            left |= queue.len() != before;
        }
        left |= lobby.claimed.remove(&conn).is_some();
        drop(lobby);
        if left {
            self.lobby_changed();
        }
        left
    }
}
