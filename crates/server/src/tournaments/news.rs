//! A game's end reaches its arena at once. The hub tells of every table that ends on this node;
//! on the node holding the `tournaments` role (or a node of its own) the end is recorded in its
//! arena there and then, and the feed is woken to send it. On a site of several nodes, another
//! node passes the end to the leader over the bus (`ended TABLE`), and the leader tells every
//! node which arena has a new result (`changed TOURNAMENT`), so that each feed reads the log
//! and sends it to its own sockets. A lost message costs only time: the runner's pass each
//! second records what the database says, and each feed reads the log once a second.

use crate::ws::protocol::TableId;
use std::collections::HashMap;
use std::sync::Weak;
use std::time::Duration;

use tokio::sync::broadcast;

use super::{Inner, Tournaments, runner};
use crate::error::ApiError;

/// The bus channel of the tournaments' news.
const CHANNEL: &str = "tournaments";

impl Tournaments {
    /// Whether this node runs the arenas: it holds the role, or is a node of its own.
    fn leading(&self) -> bool {
        self.0
            .leader
            .as_ref()
            .is_none_or(cluster::Leader::is_leader)
    }

    /// The game at `table` has ended: when it is an arena's, its end goes into the arena now
    /// (here on the leader; passed to the leader from any other node).
    async fn table_ended(&self, table: &str) {
        if !self.leading() {
            self.publish(&format!("ended {table}")).await;
            return;
        }
        if let Err(error) = self.record_end(table).await {
            tracing::warn!(%table, %error, "cannot record an arena game's end");
        }
    }

    /// Records the end of the arena game at `table` (if it is one, and not recorded yet), and
    /// tells every node's feed.
    async fn record_end(&self, table: &str) -> Result<(), ApiError> {
        // A running arena is loaded on the leader (its runner's pass loads it): with none, no
        // table's end is an arena's, and the store is not asked about each one.
        if self.0.loaded.lock().expect("tournaments lock").is_empty() {
            return Ok(());
        }
        let store = &self.0.store;
        let Some((id, game)) = store.arena_pairing_game(table).await? else {
            return Ok(());
        };
        let slot = self.slot(&id).await?;
        {
            let mut loaded = slot.lock().await;
            loaded.catch_up(store).await?;
            let games = HashMap::from([(game.pairing as u32, game)]);
            let events = runner::game_events(&loaded.arena, &games);
            if events.is_empty() {
                return Ok(());
            }
            for (event, happened) in events {
                loaded.apply_at(store, happened, &event, None).await?;
            }
        }
        self.0.feed.news(&id);
        self.publish(&format!("changed {id}")).await;
        Ok(())
    }

    async fn publish(&self, news: &str) {
        if let Some(bus) = &self.0.bus
            && let Err(error) = bus.publish(CHANNEL, news.as_bytes()).await
        {
            tracing::warn!(%error, "cannot tell the other nodes a tournament's news");
        }
    }

    /// What another node said.
    async fn heard(&self, news: &str) {
        match news.split_once(' ') {
            Some(("ended", table)) if self.leading() => {
                if let Err(error) = self.record_end(table).await {
                    tracing::warn!(%table, %error, "cannot record an arena game's end");
                }
            }
            Some(("changed", id)) => self.0.feed.news(id),
            _ => {}
        }
    }
}

/// Takes the tables' ends from the hub; ends with the service or the hub.
pub(super) async fn take_ends(inner: Weak<Inner>, mut ends: broadcast::Receiver<TableId>) {
    loop {
        let table = match ends.recv().await {
            Ok(table) => table,
            // Missed ends are the runner's pass's to find.
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(inner) = inner.upgrade() else { return };
        Tournaments(inner).table_ended(&table).await;
    }
}

/// Listens to the other nodes' news; ends with the service.
pub(super) async fn listen(inner: Weak<Inner>, bus: cluster::Bus) {
    let mut subscription = loop {
        match bus.subscribe(CHANNEL).await {
            Ok(subscription) => break subscription,
            Err(error) => {
                tracing::warn!(%error, "cannot follow the tournaments' news; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                if inner.strong_count() == 0 {
                    return;
                }
            }
        }
    };
    while let Some(delivery) = subscription.recv().await {
        let Some(inner) = inner.upgrade() else { return };
        if let cluster::Delivery::Message(bytes) = delivery
            && let Ok(news) = std::str::from_utf8(&bytes)
        {
            Tournaments(inner).heard(news).await;
        }
    }
}
