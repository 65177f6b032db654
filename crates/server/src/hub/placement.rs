//! Which node runs which table, when several nodes share one database and one Redis.
//!
//! A table runs on exactly one node at a time: the holder of its lease in the database
//! (`store::leases`: an owner and an expiry, taken by a conditional upsert). The owner renews
//! all its leases every [`RENEW_EVERY`]; a table whose lease it did not get back is stopped at
//! once. A node that dies stops renewing: after [`LEASE_TTL`] its tables are orphans, and the
//! sweeper of any live node takes them over, replaying each from the record (with every
//! acknowledged move), its clock running again from the takeover and its bot thinking again.
//!
//! Without `--redis` there is no placement: every table runs on the one node, as ever.

use crate::ws::protocol::TableId;
use std::time::Duration;

use cluster::Bus;

use super::Hub;
use super::links::Links;
use crate::error::{ErrorCode, WsError};
use crate::identity::unix_ms;

/// How long a lease lasts unless renewed: the longest a dead node's tables wait for a new owner.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
/// How often an owner renews its leases (three chances before they run out).
const RENEW_EVERY: Duration = Duration::from_secs(1);
/// How often each node looks for orphaned tables to take over.
const SWEEP_EVERY: Duration = Duration::from_millis(500);
/// How many orphans one sweep takes at most (the rest wait for the next sweep, or another node).
const SWEEP_BATCH: u32 = 50;

/// This node's part in a site of several.
pub(super) struct Placement {
    pub bus: Bus,
    pub links: std::sync::Arc<Links>,
    /// The quick-match role: its holder pairs players waiting on different nodes.
    pub leader: cluster::Leader,
    /// Turns and notifications for the other nodes' sockets.
    pub users: super::site_users::UserEvents,
}

impl Placement {
    pub fn new(bus: Bus) -> Placement {
        Placement {
            links: std::sync::Arc::new(Links::new(bus.clone())),
            leader: cluster::Leader::start(&bus, "quick-match", LEASE_TTL),
            users: Hub::start_user_events(bus.clone()),
            bus,
        }
    }

    pub fn node(&self) -> &str {
        self.bus.node()
    }

    /// Follows `channel`, trying again every second while Redis cannot be reached.
    pub async fn follow(&self, channel: &str) -> cluster::Subscription {
        loop {
            match self.bus.subscribe(channel).await {
                Ok(subscription) => return subscription,
                Err(e) => {
                    tracing::warn!(channel, error = %e, "cannot follow a channel; trying again");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }
}

/// Where a table is to run now.
pub(super) enum Place {
    /// On this node: it holds the lease (or just took it).
    Here,
    /// On that node, which holds the lease.
    At(String),
}

fn ttl_ms() -> i64 {
    LEASE_TTL.as_millis() as i64
}

/// The answer while a table is between owners.
pub(super) fn moving() -> WsError {
    WsError::new(
        ErrorCode::Busy,
        "this table is moving to another server: try again in a few seconds",
    )
}

impl Hub {
    pub(super) fn placement(&self) -> Option<&Placement> {
        self.0.placement.as_ref()
    }

    /// Where table `id` runs now, taking its lease when nobody holds it. Not-found when there
    /// is no such table.
    pub(super) async fn place(&self, id: &TableId) -> Result<Place, WsError> {
        let Some(placement) = self.placement() else {
            return Ok(Place::Here);
        };
        let me = placement.node();
        for _ in 0..2 {
            match self.store().lease_owner(id, unix_ms()).await? {
                Some(owner) if owner == me => return Ok(Place::Here),
                Some(owner) => return Ok(Place::At(owner)),
                None => {}
            }
            // Nobody runs it: a table that exists is ours for the taking.
            if !self.store().game_exists(id).await? {
                return Err(WsError::not_found("table"));
            }
            if self.take_lease(id).await? {
                return Ok(Place::Here);
            }
            // Another node took it in the meantime: ask again who.
        }
        Err(moving())
    }

    /// Takes (or renews) the lease of `id` for this node; true when this node holds it now.
    pub(super) async fn take_lease(&self, id: &TableId) -> Result<bool, WsError> {
        let Some(placement) = self.placement() else {
            return Ok(true);
        };
        Ok(self
            .store()
            .take_lease(id, placement.node(), unix_ms(), ttl_ms())
            .await?)
    }

    /// Records a new table; on a site of several nodes with its lease, in the same
    /// transaction: a new table runs where it was made, and no other node may see it ownerless.
    pub(super) async fn record_new_table(&self, game: &store::NewGame) -> Result<(), WsError> {
        match self.placement() {
            None => self.store().create_game(game).await?,
            Some(placement) => {
                let expires_at = unix_ms() + ttl_ms();
                self.store()
                    .create_leased_game(game, placement.node(), expires_at)
                    .await?
            }
        }
        Ok(())
    }

    /// Gives up the lease of a table that stopped here, so that another node may run it at
    /// once (rather than after the lease ran out).
    pub(super) fn release_lease(&self, id: &TableId) {
        let Some(placement) = self.placement() else {
            return;
        };
        let (store, id, node) = (
            self.store().clone(),
            id.to_string(),
            placement.node().to_string(),
        );
        self.0.runtime.spawn(async move {
            if let Err(e) = store.release_lease(&id, &node).await {
                tracing::warn!(game = %id, error = %e, "cannot release a lease");
            }
        });
    }

    /// Renews this node's leases for as long as the hub lives; stops every table whose lease
    /// was lost (taken over while this node could not renew), and every table when the
    /// database has not answered for a whole lease.
    pub(super) async fn keep_leases(hub: std::sync::Weak<super::Inner>) {
        let mut tick = tokio::time::interval(RENEW_EVERY);
        let mut last_renewed = tokio::time::Instant::now();
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade().map(Hub) else {
                return;
            };
            let Some(placement) = hub.placement() else {
                return;
            };
            // The tables running before the renewal: one started meanwhile took its lease after
            // the renewal read them, and is not lost for being missing from its answer.
            let running = hub.running_tables();
            let renewed = hub
                .store()
                .renew_leases(placement.node(), unix_ms(), ttl_ms())
                .await;
            let lost: Vec<_> = match renewed {
                Ok(renewed) => {
                    last_renewed = tokio::time::Instant::now();
                    let renewed: std::collections::HashSet<String> = renewed.into_iter().collect();
                    running
                        .into_iter()
                        .filter(|t| !renewed.contains(&*t.id))
                        .collect()
                }
                Err(e) if last_renewed.elapsed() >= LEASE_TTL => {
                    tracing::error!(error = %e, "leases could not be renewed: stopping every table");
                    running
                }
                Err(e) => {
                    tracing::warn!(error = %e, "leases could not be renewed; trying again");
                    Vec::new()
                }
            };
            for table in lost {
                tracing::warn!(game = %table.id, "lost this table's lease: it stops here");
                metrics::counter!("stolik_leases_lost_total").increment(1);
                hub.forget_table(&table.id);
                if let Some(watchers) = table.stop().await {
                    hub.follow_elsewhere(&table.id, watchers);
                }
            }
        }
    }

    /// This node's sockets that watched a table stopped here follow it to wherever it runs
    /// next: subscribed again there (a fresh snapshot) as soon as it has an owner.
    fn follow_elsewhere(&self, table: &TableId, watchers: crate::table::Watchers) {
        let Some(placement) = self.placement() else {
            return;
        };
        let links = &placement.links;
        let id = table.clone();
        for (conn, user, out) in watchers.list {
            // Another node's connection: its node was told (`Links::table_stopped`).
            if links.stands_for_remote(conn) {
                continue;
            }
            let proxied = super::links::Proxied {
                user,
                token: Some(watchers.token.clone()),
                out,
                owner: String::new(),
                stale: true,
            };
            links.proxy(&id, conn, proxied);
        }
        links.stale.notify_one();
    }

    /// Subscribes, at a table that has just started to run here, this node's sockets that
    /// watched it at its former node: each gets a fresh snapshot at once (rather than with the
    /// next check of the owners, when a forwarded move might already have been played here).
    pub(super) async fn watch_here_again(&self, handle: &crate::table::TableHandle) {
        let Some(placement) = self.placement() else {
            return;
        };
        for (conn, proxied) in placement.links.take_table(&handle.id) {
            let out = proxied.out.clone();
            match handle
                .subscribe(conn, proxied.user, proxied.out, proxied.token, None)
                .await
            {
                Ok(snapshot) => {
                    out.send(crate::outbox::Frame::from(crate::ws::protocol::encode(
                        None, &snapshot,
                    )));
                }
                Err(e) => {
                    tracing::info!(game = %handle.id, error = %e, "a watcher is not let back")
                }
            }
        }
    }

    /// Takes over the tables no live node runs (their node died or stopped), for as long as the
    /// hub lives.
    pub(super) async fn sweep_orphans(hub: std::sync::Weak<super::Inner>) {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade().map(Hub) else {
                return;
            };
            if let Err(e) = hub.adopt_orphans().await {
                tracing::warn!(error = %e, "cannot look for orphaned tables");
            }
        }
    }

    /// Takes the lease of up to [`SWEEP_BATCH`] orphaned tables and runs them here; returns how
    /// many this node took.
    pub(super) async fn adopt_orphans(&self) -> Result<usize, WsError> {
        let orphans = self.store().orphaned_games(unix_ms(), SWEEP_BATCH).await?;
        let mut adopted = 0;
        for id in orphans {
            let Ok(id) = TableId::parse(&id) else {
                tracing::warn!(game = %id, "an orphaned table with an id no table has");
                continue;
            };
            if self.running(&id).is_some() || !self.take_lease(&id).await? {
                continue;
            }
            match self.load(&id).await {
                Ok(_) => {
                    tracing::info!(game = %id, "took over an orphaned table");
                    metrics::counter!("stolik_tables_adopted_total").increment(1);
                    adopted += 1;
                }
                Err(e) => tracing::error!(game = %id, error = %e, "cannot take over a table"),
            }
        }
        Ok(adopted)
    }
}
