//! Calls to a table run by another node: sent to its owner over the bus, answered there by the
//! table's actor, and the answer carried back (messages already encoded, views as JSON).
//!
//! A call that finds the owner gone waits for the table's next owner (at most a lease and a
//! little more) rather than failing: to the client, a failover is a slow answer.

use crate::ws::protocol::TableId;
use std::sync::Arc;
use std::time::Duration;

use cluster::{ClusterError, Delivery, Incoming};
use serde::{Deserialize, Serialize};

use super::Hub;
use super::links::{Proxied, frames_channel};
use super::placement::{LEASE_TTL, Place, moving};
use super::site_lobby::WireKey;
use crate::error::{ErrorCode, WsError};
use crate::outbox::{ConnId, Frame};
use crate::table::{Answer, Call, Forwarder, Forwarding, SoloPosition, TableHandle};
use crate::ws::protocol::{Message, PlayingEntry, TableView, UserView, encode};

/// How long a node waits for another's answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a node waits for another's answer to a ping before it takes it for dead.
const PING_TIMEOUT: Duration = Duration::from_secs(1);
/// How often a node checks that the owners of the tables its connections watch are alive.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// A request to another node.
#[derive(Serialize, Deserialize)]
pub(super) enum Ask {
    Ping,
    Call {
        table: TableId,
        call: WireCall,
    },
    /// Quick match across nodes (`site_queue.rs`): take this waiting player out of their queue
    /// for a match; put them back; their table is ready.
    Claim {
        conn: ConnId,
        key: WireKey,
    },
    Unclaim {
        conn: ConnId,
    },
    Matched {
        conn: ConnId,
        table: TableId,
    },
}

/// A [`Call`] as it travels: the subscriber's outbox stays home, its mute list goes along.
pub(super) type WireCall = Call<Vec<String>>;

/// The answer to an [`Ask`].
#[derive(Serialize, Deserialize)]
pub(super) enum Reply {
    Pong,
    Message(Option<String>),
    View(Box<TableView>),
    Playing(Option<Box<PlayingEntry>>),
    /// A quick-match candidate claimed on its node (`None`: gone meanwhile).
    Claimed(Option<UserView>),
    /// A solo game's record, for its helpers.
    Solo {
        game: String,
        variant: String,
        seed: u64,
        moves: Vec<String>,
    },
    Done,
    /// The table does not run on the asked node (any more): find its owner again.
    NotHere,
    Error {
        code: ErrorCode,
        message: String,
        retry_after: Option<u64>,
    },
}

impl From<WsError> for Reply {
    fn from(e: WsError) -> Reply {
        Reply::Error {
            code: e.code,
            message: e.message,
            retry_after: e.retry_after,
        }
    }
}

/// How one try at a forwarded call went.
enum Attempt {
    Answered(Answer),
    /// The table is between owners: the call, to try again.
    Moving(Call),
}

/// The hub as the [`Forwarder`] of tables run elsewhere.
pub(super) struct Remote(pub Hub);

impl Forwarder for Remote {
    fn forward<'a>(&'a self, table: &'a TableId, call: Call) -> Forwarding<'a> {
        Box::pin(self.0.forward(table, call))
    }
}

impl Hub {
    /// A handle for table `id` run by another node.
    pub(super) fn elsewhere(&self, id: &TableId) -> TableHandle {
        TableHandle::elsewhere(id.clone(), Arc::new(Remote(self.clone())))
    }

    /// Runs `call` on table `table` wherever it runs now.
    async fn forward(&self, table: &TableId, call: Call) -> Result<Answer, WsError> {
        let links = &self
            .placement()
            .expect("forwarding needs a placement")
            .links;
        // Unsubscribing goes to the owner the subscription was made with.
        if let Call::Unsubscribe { conn } = call {
            if let Some(handle) = self.running(table) {
                return handle.run(Call::Unsubscribe { conn }).await;
            }
            if let Some(owner) = links.owner_of(table, conn) {
                links.unproxy(table, conn);
                let ask = Ask::Call {
                    table: table.clone(),
                    call: WireCall::Unsubscribe { conn },
                };
                let _ = self.ask(&owner, &ask).await;
            }
            return Ok(Answer::Done);
        }
        let deadline = tokio::time::Instant::now() + LEASE_TTL + Duration::from_secs(3);
        let mut call = call;
        loop {
            match self.attempt(table, call).await? {
                Attempt::Answered(answer) => return Ok(answer),
                // The owner is gone or has just let the table go: wait for the next one.
                Attempt::Moving(_) if tokio::time::Instant::now() >= deadline => {
                    return Err(moving());
                }
                Attempt::Moving(again) => call = again,
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// One try at running `call` where table `table` runs now: here, or at its owner. A
    /// subscription is remembered (before asking: its events may come first) unless refused.
    async fn attempt(&self, table: &TableId, call: Call) -> Result<Attempt, WsError> {
        let links = &self
            .placement()
            .expect("forwarding needs a placement")
            .links;
        if let Some(handle) = self.running(table) {
            return Ok(Attempt::Answered(self.run_here(handle, table, call).await?));
        }
        // This node's subscriptions know the owner (a move usually comes from a socket that
        // watches the table): the database is asked only when none does.
        let owner = match links.known_owner(table) {
            Some(owner) => owner,
            None => match self.place(table).await? {
                Place::Here => {
                    let handle = self.load(table).await?;
                    return Ok(Attempt::Answered(self.run_here(handle, table, call).await?));
                }
                Place::At(owner) => owner,
            },
        };
        let (wire, subscriber) = wire_call(&call);
        let subscribing = subscriber.as_ref().map(|(conn, _)| *conn);
        if let Some((conn, proxied)) = subscriber {
            let owner = owner.clone();
            links.proxy(table, conn, Proxied { owner, ..proxied });
        }
        let forget = || {
            if let Some(conn) = subscribing {
                links.unproxy(table, conn);
            }
        };
        let ask = Ask::Call {
            table: table.clone(),
            call: wire,
        };
        metrics::counter!("stolik_forwarded_calls_total").increment(1);
        match self.ask(&owner, &ask).await {
            Ok(Reply::NotHere) | Err(ClusterError::NoSuchNode(_) | ClusterError::Timeout(_)) => {
                forget();
                // What this node knew of the owner is out of date: made again, and not used.
                links.mark_stale(|t, _, p| t == table && p.owner == owner);
                Ok(Attempt::Moving(call))
            }
            Ok(reply) => {
                if let Reply::Error { .. } = reply {
                    forget();
                }
                Ok(Attempt::Answered(answer(reply)?))
            }
            Err(e) => {
                forget();
                Err(WsError::new(
                    ErrorCode::Busy,
                    format!("the servers cannot reach each other ({e}): try again soon"),
                ))
            }
        }
    }

    /// Runs `call` on a table of this node; a subscription made elsewhere before is forgotten.
    async fn run_here(
        &self,
        handle: TableHandle,
        table: &TableId,
        call: Call,
    ) -> Result<Answer, WsError> {
        if let (Call::Subscribe { conn, .. }, Some(placement)) = (&call, self.placement()) {
            placement.links.unproxy(table, *conn);
        }
        handle.run(call).await
    }

    pub(super) async fn ask(&self, node: &str, ask: &Ask) -> Result<Reply, ClusterError> {
        let bus = &self.placement().expect("asking needs a placement").bus;
        let payload = serde_json::to_vec(ask).expect("requests serialise");
        let timeout = match ask {
            Ask::Ping => PING_TIMEOUT,
            _ => ASK_TIMEOUT,
        };
        let reply = bus.request(node, &payload, timeout).await?;
        Ok(
            serde_json::from_slice(&reply).unwrap_or_else(|e| Reply::Error {
                code: ErrorCode::Internal,
                message: format!("another server's answer does not parse: {e}"),
                retry_after: None,
            }),
        )
    }

    /// Answers the requests of other nodes, for as long as the bus lives.
    pub(super) async fn serve_other_nodes(
        self,
        mut incoming: tokio::sync::mpsc::Receiver<Incoming>,
    ) {
        let mut closing = self.closing();
        loop {
            let request = tokio::select! {
                request = incoming.recv() => match request {
                    Some(request) => request,
                    None => return,
                },
                _ = async { let _ = closing.wait_for(|c| *c).await; } => return,
            };
            let hub = self.clone();
            tokio::spawn(async move {
                let reply = match serde_json::from_slice::<Ask>(request.payload()) {
                    Ok(Ask::Ping) => Reply::Pong,
                    Ok(Ask::Claim { conn, key }) => hub.answer_claim(conn, &key),
                    Ok(Ask::Unclaim { conn }) => {
                        hub.unclaim_here(conn);
                        Reply::Done
                    }
                    Ok(Ask::Matched { conn, table }) => {
                        hub.matched_here(conn, &table);
                        Reply::Done
                    }
                    Ok(Ask::Call { table, call }) => hub
                        .answer_call(request.from(), &table, call)
                        .await
                        .unwrap_or_else(Reply::from),
                    Err(e) => Reply::Error {
                        code: ErrorCode::BadJson,
                        message: format!("a request from another server does not parse: {e}"),
                        retry_after: None,
                    },
                };
                let payload = serde_json::to_vec(&reply).expect("replies serialise");
                if let Err(e) = request.reply(&payload).await {
                    tracing::warn!(error = %e, "cannot answer another server");
                }
            });
        }
    }

    /// Runs a call of node `from` on table `table`, if it runs here.
    async fn answer_call(
        &self,
        from: &str,
        table: &TableId,
        call: WireCall,
    ) -> Result<Reply, WsError> {
        let links = &self.placement().expect("answering needs a placement").links;
        let handle = match self.running(table) {
            Some(handle) => handle,
            None => match self.place(table).await? {
                Place::Here => self.load(table).await?,
                Place::At(_) => return Ok(Reply::NotHere),
            },
        };
        // `from`'s connections are known here under ids of this node.
        let id = table.clone();
        let (call, subscribing) = match call {
            Call::Subscribe {
                conn,
                user,
                out: muted,
                token,
                since,
            } => {
                let (local, out) =
                    links.remote_subscriber(from, conn, &id, muted, || self.next_conn_id());
                let call = Call::Subscribe {
                    conn: local,
                    user,
                    out,
                    token,
                    since,
                };
                (call, Some(conn))
            }
            Call::Unsubscribe { conn } => match links.remote_left(from, conn, table) {
                Some(local) => (Call::Unsubscribe { conn: local }, None),
                None => return Ok(Reply::Done),
            },
            // A connection that does not watch here acts under an id of its own.
            other => {
                let local = |conn| {
                    links
                        .remote_id(from, conn)
                        .unwrap_or_else(|| self.next_conn_id())
                };
                let call = other.with(local, |_| unreachable!("subscriptions are matched above"));
                (call, None)
            }
        };
        match handle.run(call).await {
            Ok(answer) => Ok(reply_of(answer)),
            Err(e) => {
                if let Some(conn) = subscribing {
                    links.remote_left(from, conn, table);
                }
                Err(e)
            }
        }
    }

    /// Delivers what other nodes send to this node's connections, and makes again the
    /// subscriptions whose owner died or let the table go, for as long as the hub lives.
    pub(super) async fn watch_other_nodes(self) {
        let placement = self.placement().expect("watching needs a placement");
        let channel = frames_channel(placement.node());
        let mut frames = placement.follow(&channel).await;
        let mut tick = tokio::time::interval(WATCH_EVERY);
        let mut closing = self.closing();
        loop {
            tokio::select! {
                delivery = frames.recv() => match delivery {
                    Some(Delivery::Message(payload)) => placement.links.arrived(payload),
                    // Events may have been lost: every remote subscription gets a snapshot.
                    Some(Delivery::Gap) => placement.links.mark_stale(|_, _, _| true),
                    None => return,
                },
                _ = tick.tick() => self.check_owners().await,
                _ = placement.links.stale.notified() => self.subscribe_again().await,
                _ = async { let _ = closing.wait_for(|c| *c).await; } => return,
            }
        }
    }

    /// Pings the owners our connections' tables run on, and the nodes whose connections watch
    /// tables here; a dead owner's subscriptions are made again, a dead watcher's
    /// subscribers leave.
    async fn check_owners(&self) {
        let placement = self.placement().expect("checking needs a placement");
        let links = &placement.links;
        for owner in links.owners() {
            if self.ask(&owner, &Ask::Ping).await.is_err() {
                links.mark_stale(|_, _, p| p.owner == owner);
            }
        }
        for node in links.watching_nodes() {
            if matches!(
                self.ask(&node, &Ask::Ping).await,
                Err(ClusterError::NoSuchNode(_))
            ) {
                for (local, tables) in links.node_gone(&node) {
                    for table in tables {
                        if let Some(handle) = self.running(&table) {
                            handle.unsubscribe(local).await;
                        }
                    }
                }
            }
        }
        if !links.stale_ones().is_empty() {
            self.subscribe_again().await;
        }
    }

    /// Makes every stale subscription again where its table runs now; the connection gets
    /// the table's snapshot as an event. One still without an owner stays stale for the next
    /// round.
    async fn subscribe_again(&self) {
        let links = &self
            .placement()
            .expect("resubscribing needs a placement")
            .links;
        for (table, conn, proxied) in links.stale_ones() {
            let call = Call::Subscribe {
                conn,
                user: proxied.user.clone(),
                out: proxied.out.clone(),
                token: proxied.token.clone(),
                since: None,
            };
            match self.attempt(&table, call).await {
                Ok(Attempt::Answered(Answer::Message(Some(message)))) => {
                    proxied.out.send(Frame::from(encode(None, &message)));
                }
                Ok(Attempt::Answered(_)) => {}
                Ok(Attempt::Moving(_)) => {
                    // Still between owners: keep it stale, with its old owner, and try later.
                    let stale = Proxied {
                        stale: true,
                        ..proxied
                    };
                    links.proxy(&table, conn, stale);
                }
                // Still between owners, or the database is away: the stale entry stays for
                // the next round.
                Err(e) if matches!(e.code, ErrorCode::Busy | ErrorCode::Internal) => {}
                Err(e) => {
                    tracing::info!(game = %table, error = %e, "a remote subscription ends");
                    links.unproxy(&table, conn);
                }
            }
        }
    }
}

/// `call` as it travels, and for a subscription what this node keeps of it.
fn wire_call(call: &Call) -> (WireCall, Option<(ConnId, Proxied)>) {
    let subscriber = match call {
        Call::Subscribe {
            conn,
            user,
            out,
            token,
            ..
        } => Some((
            *conn,
            Proxied {
                user: user.clone(),
                token: token.clone(),
                out: out.clone(),
                owner: String::new(),
                stale: false,
            },
        )),
        _ => None,
    };
    (
        call.clone().with(|conn| conn, |out| out.muted.ids()),
        subscriber,
    )
}

/// A table's answer as it travels back to the node that asked.
fn reply_of(answer: Answer) -> Reply {
    match answer {
        Answer::Message(message) => Reply::Message(message.map(|m| encode(None, &m))),
        Answer::View(view) => Reply::View(view),
        Answer::Playing(entry) => Reply::Playing(entry),
        Answer::Solo(position) => Reply::Solo {
            game: position.variant.game().as_str().to_string(),
            variant: position.variant.as_str().to_string(),
            seed: position.seed,
            moves: position.moves,
        },
        Answer::Done => Reply::Done,
    }
}

/// The owner's reply as the answer of the handle's call.
fn answer(reply: Reply) -> Result<Answer, WsError> {
    Ok(match reply {
        Reply::Message(message) => Answer::Message(message.map(Message::Forwarded)),
        Reply::View(view) => Answer::View(view),
        Reply::Playing(entry) => Answer::Playing(entry),
        Reply::Solo {
            game,
            variant,
            seed,
            moves,
        } => {
            let variant = catalog::VariantId::parse(&game, Some(&variant))
                .map_err(|e| WsError::internal("a table of another server", e))?;
            Answer::Solo(SoloPosition {
                variant,
                seed,
                moves,
            })
        }
        Reply::Done | Reply::Pong | Reply::NotHere | Reply::Claimed(_) => Answer::Done,
        Reply::Error {
            code,
            message,
            retry_after,
        } => {
            // A table's refusals carry no reason (those are the HTTP routes' own).
            return Err(WsError {
                code,
                message,
                retry_after,
                reason: None,
            });
        }
    })
}
