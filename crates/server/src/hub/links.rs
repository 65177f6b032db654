//! Events between nodes: a connection on one node watching a table run by another.
//!
//! On the owner, each connection of another node that watches tables here is one local
//! subscriber (an [`Outbox`] like any socket's, under a connection id of this node); what the
//! tables put on it is carried to the connection's node on that node's frames channel,
//! consecutive copies of one encoded event to several of its connections in one Redis message.
//! When a table stops here, its remote watchers' nodes are told, so that they find its next
//! owner.
//!
//! On the watching node, [`Links`] remembers every such subscription (who, with what token, to
//! which owner) and hands each arriving frame to the connection's own outbox. When the owner
//! dies, stops the table, or Redis loses messages, the subscription is made again wherever the
//! table runs now, and the connection gets a fresh snapshot.

use crate::ws::protocol::TableId;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use cluster::Bus;
use tokio::sync::{Notify, mpsc};

use crate::outbox::{ConnId, Frame, Outbox};
use crate::sessions::MuteList;
use crate::ws::protocol::UserView;

/// Frames a remote connection may have waiting on the owner before it is cut (as a socket's
/// own outbox).
const REMOTE_OUTBOX: usize = 256;
/// Frames waiting to go to one node.
const LINK_QUEUE: usize = 8192;
/// At most this many frames go into one batch.
const BATCH: usize = 256;

const FRAME: u8 = 0;
const ENDED: u8 = 1;

/// The name of the channel on which `node` receives the frames of its connections.
pub(super) fn frames_channel(node: &str) -> String {
    format!("frames:{node}")
}

/// What goes to a node.
enum Out {
    Frame(ConnId, Frame),
    /// The table stopped on this node: the connection should find where it runs now.
    Ended(ConnId, TableId),
}

/// A connection of another node, seen from the owner.
struct RemoteConn {
    local: ConnId,
    out: Outbox,
    tables: HashSet<TableId>,
}

/// A subscription of this node's connection to a table of another node.
#[derive(Clone)]
pub(super) struct Proxied {
    pub user: UserView,
    pub token: Option<String>,
    pub out: Outbox,
    pub owner: String,
    /// The owner is gone or stopped the table: subscribe again where it runs now.
    pub stale: bool,
}

pub(super) struct Links {
    bus: Bus,
    /// Owner side: (node, its connection) → our subscriber standing for it.
    remote: Mutex<HashMap<(String, ConnId), RemoteConn>>,
    outgoing: Mutex<HashMap<String, mpsc::Sender<Out>>>,
    /// Watching side: (table, our connection) → the subscription; ordered, so that one
    /// table's subscriptions are a range.
    proxied: Mutex<BTreeMap<(TableId, ConnId), Proxied>>,
    /// Watching side: our connections with remote subscriptions, and how many.
    inbound: Mutex<HashMap<ConnId, (Outbox, usize)>>,
    /// Rung when a subscription turned stale.
    pub stale: Notify,
}

impl Links {
    pub fn new(bus: Bus) -> Links {
        Links {
            bus,
            remote: Mutex::new(HashMap::new()),
            outgoing: Mutex::new(HashMap::new()),
            proxied: Mutex::new(BTreeMap::new()),
            inbound: Mutex::new(HashMap::new()),
            stale: Notify::new(),
        }
    }

    // ---- owner side ----

    /// Our subscriber standing for `conn` of `node` at `table`: its connection id here and
    /// the outbox whose frames go to that node. `next_id` names a new one.
    pub fn remote_subscriber(
        self: &Arc<Self>,
        node: &str,
        conn: ConnId,
        table: &TableId,
        muted: Vec<String>,
        next_id: impl FnOnce() -> ConnId,
    ) -> (ConnId, Outbox) {
        let mut remote = self.remote.lock().expect("remote lock");
        if let Some(known) = remote.get_mut(&(node.to_string(), conn)) {
            known.tables.insert(table.clone());
            return (known.local, known.out.clone());
        }
        let local = next_id();
        let (out, mut rx, _overflow) = Outbox::new(REMOTE_OUTBOX, MuteList::fixed(muted));
        let link = self.link(node);
        tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                if link.try_send(Out::Frame(conn, frame)).is_err() {
                    metrics::counter!("stolik_delivery_drops_total").increment(1);
                }
            }
        });
        remote.insert(
            (node.to_string(), conn),
            RemoteConn {
                local,
                out: out.clone(),
                tables: HashSet::from([table.clone()]),
            },
        );
        (local, out)
    }

    /// Our id for `conn` of `node`, if it watches anything here.
    pub fn remote_id(&self, node: &str, conn: ConnId) -> Option<ConnId> {
        let remote = self.remote.lock().expect("remote lock");
        remote.get(&(node.to_string(), conn)).map(|r| r.local)
    }

    /// `conn` of `node` no longer watches `table`: our id for it there, if it did.
    pub fn remote_left(&self, node: &str, conn: ConnId, table: &TableId) -> Option<ConnId> {
        let mut remote = self.remote.lock().expect("remote lock");
        let key = (node.to_string(), conn);
        let known = remote.get_mut(&key)?;
        if !known.tables.remove(table) {
            return None;
        }
        let local = known.local;
        if known.tables.is_empty() {
            remote.remove(&key);
        }
        Some(local)
    }

    /// `table` stopped here: tells the nodes of its remote watchers.
    pub fn table_stopped(self: &Arc<Self>, table: &TableId) {
        let mut told = Vec::new();
        {
            let mut remote = self.remote.lock().expect("remote lock");
            remote.retain(|(node, conn), known| {
                if let Some(table) = known.tables.take(table) {
                    told.push((node.clone(), *conn, table));
                }
                !known.tables.is_empty()
            });
        }
        for (node, conn, table) in told {
            let _ = self.link(&node).try_send(Out::Ended(conn, table));
        }
    }

    /// `node` is gone: every subscriber standing for its connections, with their tables, to
    /// be unsubscribed.
    pub fn node_gone(&self, node: &str) -> Vec<(ConnId, Vec<TableId>)> {
        self.outgoing.lock().expect("outgoing lock").remove(node);
        let mut remote = self.remote.lock().expect("remote lock");
        let mut gone = Vec::new();
        remote.retain(|(n, _), known| {
            if n != node {
                return true;
            }
            gone.push((known.local, known.tables.drain().collect()));
            false
        });
        gone
    }

    /// Whether `local` is our subscriber standing for a connection of another node.
    pub fn stands_for_remote(&self, local: ConnId) -> bool {
        let remote = self.remote.lock().expect("remote lock");
        remote.values().any(|r| r.local == local)
    }

    /// The nodes whose connections watch tables here.
    pub fn watching_nodes(&self) -> Vec<String> {
        let remote = self.remote.lock().expect("remote lock");
        let nodes: HashSet<&String> = remote.keys().map(|(node, _)| node).collect();
        nodes.into_iter().cloned().collect()
    }

    /// The queue to `node`, with the task that empties it into Redis.
    fn link(self: &Arc<Self>, node: &str) -> mpsc::Sender<Out> {
        let mut outgoing = self.outgoing.lock().expect("outgoing lock");
        if let Some(link) = outgoing.get(node).filter(|l| !l.is_closed()) {
            return link.clone();
        }
        let (tx, rx) = mpsc::channel(LINK_QUEUE);
        outgoing.insert(node.to_string(), tx.clone());
        tokio::spawn(send_to_node(self.bus.clone(), node.to_string(), rx));
        tx
    }

    // ---- watching side ----

    /// Remembers a subscription of our `conn` to `table` run by `owner`, before asking for it
    /// (its first events may come before the answer).
    pub fn proxy(&self, table: &TableId, conn: ConnId, proxied: Proxied) {
        let out = proxied.out.clone();
        let before = self
            .proxied
            .lock()
            .expect("proxied lock")
            .insert((table.clone(), conn), proxied);
        if before.is_none() {
            let mut inbound = self.inbound.lock().expect("inbound lock");
            inbound.entry(conn).or_insert((out, 0)).1 += 1;
        }
    }

    /// Forgets the subscription of `conn` to `table`; returns it, if there was one.
    pub fn unproxy(&self, table: &TableId, conn: ConnId) -> Option<Proxied> {
        let key = (table.clone(), conn);
        let proxied = self.proxied.lock().expect("proxied lock").remove(&key)?;
        let mut inbound = self.inbound.lock().expect("inbound lock");
        if let Some((_, count)) = inbound.get_mut(&conn) {
            *count -= 1;
            if *count == 0 {
                inbound.remove(&conn);
            }
        }
        Some(proxied)
    }

    /// Forgets and returns every subscription of our connections to `table` (it now runs here).
    pub fn take_table(&self, table: &TableId) -> Vec<(ConnId, Proxied)> {
        let conns: Vec<ConnId> = {
            let proxied = self.proxied.lock().expect("proxied lock");
            of_table(&proxied, table)
                .map(|((_, conn), _)| *conn)
                .collect()
        };
        conns
            .into_iter()
            .filter_map(|conn| Some((conn, self.unproxy(table, conn)?)))
            .collect()
    }

    /// The owner of `table` as a live (not stale) subscription of ours knows it.
    pub fn known_owner(&self, table: &TableId) -> Option<String> {
        let proxied = self.proxied.lock().expect("proxied lock");
        of_table(&proxied, table)
            .find(|(_, p)| !p.stale && !p.owner.is_empty())
            .map(|(_, p)| p.owner.clone())
    }

    /// The owner of `table` as our subscriptions know it.
    pub fn owner_of(&self, table: &TableId, conn: ConnId) -> Option<String> {
        let key = (table.clone(), conn);
        let proxied = self.proxied.lock().expect("proxied lock");
        proxied.get(&key).map(|p| p.owner.clone())
    }

    /// Marks stale every subscription matching `which`, and wakes the watcher.
    pub fn mark_stale(&self, which: impl Fn(&TableId, ConnId, &Proxied) -> bool) {
        let mut any = false;
        for ((table, conn), proxied) in self.proxied.lock().expect("proxied lock").iter_mut() {
            if which(table, *conn, proxied) {
                proxied.stale = true;
                any = true;
            }
        }
        if any {
            self.stale.notify_one();
        }
    }

    /// The stale subscriptions, to be made again.
    pub fn stale_ones(&self) -> Vec<(TableId, ConnId, Proxied)> {
        let proxied = self.proxied.lock().expect("proxied lock");
        proxied
            .iter()
            .filter(|(_, p)| p.stale)
            .map(|((table, conn), p)| (table.clone(), *conn, p.clone()))
            .collect()
    }

    /// The owners our subscriptions point at.
    pub fn owners(&self) -> Vec<String> {
        let proxied = self.proxied.lock().expect("proxied lock");
        let owners: HashSet<&String> = proxied.values().map(|p| &p.owner).collect();
        owners.into_iter().cloned().collect()
    }

    /// Hands what arrived on our frames channel to our connections.
    pub fn arrived(&self, payload: Bytes) {
        let Some((kind, conns, rest)) = decode(payload) else {
            tracing::warn!("cluster: a malformed frames message");
            return;
        };
        match kind {
            FRAME => {
                let Ok(frame) = Frame::try_from(rest) else {
                    tracing::warn!("cluster: a frame that is not UTF-8");
                    return;
                };
                let inbound = self.inbound.lock().expect("inbound lock");
                for conn in conns {
                    if let Some((out, _)) = inbound.get(&conn) {
                        out.send(frame.clone());
                    }
                }
            }
            _ => {
                let table = String::from_utf8_lossy(&rest).into_owned();
                self.mark_stale(|t, conn, _| **t == *table && conns.contains(&conn));
            }
        }
    }
}

/// The subscriptions to `table`.
fn of_table<'a>(
    proxied: &'a BTreeMap<(TableId, ConnId), Proxied>,
    table: &TableId,
) -> impl Iterator<Item = (&'a (TableId, ConnId), &'a Proxied)> {
    let table = table.clone();
    proxied.range((table.clone(), ConnId(u64::MIN))..=(table, ConnId(u64::MAX)))
}

/// Empties the queue to `node` into its frames channel, consecutive copies of one frame in one
/// message, until the node is gone (nobody listens on its channel).
async fn send_to_node(bus: Bus, node: String, mut rx: mpsc::Receiver<Out>) {
    let channel = frames_channel(&node);
    let mut batch = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        let mut groups: Vec<(u8, Vec<ConnId>, Bytes)> = Vec::new();
        for out in batch.drain(..) {
            let (kind, conn, body) = match out {
                Out::Frame(conn, frame) => (FRAME, conn, frame.into_bytes()),
                Out::Ended(conn, table) => (ENDED, conn, Bytes::copy_from_slice(table.as_bytes())),
            };
            match groups.last_mut() {
                // The same encoded event (one allocation shared by every subscriber).
                Some((k, conns, b))
                    if *k == kind && b.as_ptr() == body.as_ptr() && b.len() == body.len() =>
                {
                    conns.push(conn)
                }
                _ => groups.push((kind, vec![conn], body)),
            }
        }
        for (kind, conns, body) in groups {
            match bus.publish(&channel, &encode(kind, &conns, &body)).await {
                Ok(0) => {
                    tracing::info!(node, "a node watching tables here is gone");
                    return;
                }
                Ok(_) => {}
                Err(e) => {
                    metrics::counter!("stolik_delivery_drops_total").increment(conns.len() as u64);
                    tracing::warn!(node, error = %e, "cannot send events to a node");
                }
            }
        }
    }
}

fn encode(kind: u8, conns: &[ConnId], body: &[u8]) -> Bytes {
    let mut buf = BytesMut::with_capacity(5 + conns.len() * 8 + body.len());
    buf.put_u8(kind);
    buf.put_u32(conns.len() as u32);
    for conn in conns {
        buf.put_u64(conn.0);
    }
    buf.put_slice(body);
    buf.freeze()
}

fn decode(mut payload: Bytes) -> Option<(u8, Vec<ConnId>, Bytes)> {
    if payload.remaining() < 5 {
        return None;
    }
    let kind = payload.get_u8();
    let n = payload.get_u32() as usize;
    if payload.remaining() < n.checked_mul(8)? {
        return None;
    }
    let conns = (0..n).map(|_| ConnId(payload.get_u64())).collect();
    Some((kind, conns, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frames_message_decodes_to_what_was_encoded() {
        let bytes = encode(FRAME, &[ConnId(3), ConnId(9)], b"{\"type\":\"move\"}");
        let (kind, conns, body) = decode(bytes).unwrap();
        assert_eq!((kind, conns), (FRAME, vec![ConnId(3), ConnId(9)]));
        assert_eq!(&body[..], b"{\"type\":\"move\"}");
    }

    #[test]
    fn a_short_or_lying_frames_message_is_refused() {
        assert!(decode(Bytes::from_static(b"\0\0")).is_none());
        let mut lying = BytesMut::new();
        lying.put_u8(FRAME);
        lying.put_u32(1000);
        assert!(decode(lying.freeze()).is_none());
    }
}
