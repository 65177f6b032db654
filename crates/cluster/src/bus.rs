//! Channels and node-to-node requests over Redis pub/sub.
//!
//! One task per bus owns the subscribing connection: it keeps one Redis subscription per
//! channel that has local subscribers (plus the node's own inbox), fans each message out to
//! them, and when the connection breaks it reconnects, subscribes again and tells every
//! subscriber [`Delivery::Gap`]. Publishing and requests go over a separate multiplexed
//! connection that reconnects by itself.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use futures_util::StreamExt;
use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::{mpsc, oneshot};

use crate::ClusterError;

/// How many messages a local subscriber may have waiting before it is told it fell behind.
const SUBSCRIBER_QUEUE: usize = 1024;
/// How many requests may wait for the node's handler.
const INBOX_QUEUE: usize = 4096;
const REQUEST: u8 = 0;
const REPLY: u8 = 1;

/// What a subscriber receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Message(Bytes),
    /// Messages may have been lost since the last delivery (Redis went away and came back, or
    /// this subscriber fell behind): catch up from the record.
    Gap,
}

/// A cheap, cloneable handle to the bus of one node.
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Inner>,
}

struct Inner {
    prefix: String,
    node: String,
    conn: ConnectionManager,
    control: mpsc::UnboundedSender<Control>,
    subscribers: Mutex<HashMap<String, Vec<Local>>>,
    next_id: AtomicU64,
    pending: Mutex<HashMap<u64, oneshot::Sender<Bytes>>>,
    incoming: Mutex<Option<mpsc::Receiver<Incoming>>>,
    inbox_tx: mpsc::Sender<Incoming>,
}

struct Local {
    id: u64,
    tx: mpsc::Sender<Delivery>,
    lagged: Arc<AtomicBool>,
}

enum Control {
    Subscribe(String, oneshot::Sender<Result<(), ClusterError>>),
    Unsubscribe(String),
}

impl Bus {
    /// Connects to Redis at `url` as node `node`; every key and channel is under `prefix`.
    /// Fails when Redis cannot be reached now; later outages are survived.
    pub async fn connect(url: &str, prefix: &str, node: &str) -> Result<Bus, ClusterError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_secs(1));
        let conn = ConnectionManager::new_with_config(client.clone(), config).await?;
        // The subscribing connection must exist before anyone can be asked to reply to us.
        let first = client.get_async_pubsub().await?;
        let (control, control_rx) = mpsc::unbounded_channel();
        let (inbox_tx, inbox_rx) = mpsc::channel(INBOX_QUEUE);
        let inner = Arc::new(Inner {
            prefix: prefix.to_owned(),
            node: node.to_owned(),
            conn,
            control,
            subscribers: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            incoming: Mutex::new(Some(inbox_rx)),
            inbox_tx,
        });
        let inbox = inner.inbox_of(node);
        let mut first = first;
        first.subscribe(&inbox).await?;
        tokio::spawn(run_subscriber(
            client,
            Arc::downgrade(&inner),
            first,
            inbox,
            control_rx,
        ));
        Ok(Bus { inner })
    }

    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// The full name of a key under this bus's prefix.
    pub fn key(&self, name: &str) -> String {
        format!("{}{name}", self.inner.prefix)
    }

    /// A connection for plain commands (the same multiplexed one the bus publishes on).
    pub fn connection(&self) -> ConnectionManager {
        self.inner.conn.clone()
    }

    /// Which of `nodes` are running now (someone follows their inbox), in their order.
    pub async fn running(&self, nodes: &[String]) -> Result<Vec<bool>, ClusterError> {
        if nodes.is_empty() {
            return Ok(Vec::new());
        }
        let mut cmd = redis::cmd("PUBSUB");
        cmd.arg("NUMSUB");
        for node in nodes {
            cmd.arg(self.inner.inbox_of(node));
        }
        let mut conn = self.inner.conn.clone();
        // Channel, count, channel, count, … in the order asked.
        let answer: Vec<redis::Value> = cmd.query_async(&mut conn).await?;
        Ok(answer
            .chunks(2)
            .map(|pair| matches!(pair.get(1), Some(redis::Value::Int(n)) if *n > 0))
            .collect())
    }

    /// Sends `payload` to every subscriber of `channel` on every node; returns how many
    /// nodes received it.
    pub async fn publish(&self, channel: &str, payload: &[u8]) -> Result<usize, ClusterError> {
        let mut conn = self.inner.conn.clone();
        let receivers: usize = conn.publish(self.key(channel), payload).await?;
        metrics::counter!("cluster_bus_published_total").increment(1);
        Ok(receivers)
    }

    /// Follows `channel`. When this returns, Redis has confirmed the subscription, so every
    /// message published from now on is delivered (or a [`Delivery::Gap`] says it was lost).
    pub async fn subscribe(&self, channel: &str) -> Result<Subscription, ClusterError> {
        let full = self.key(channel);
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(SUBSCRIBER_QUEUE);
        let lagged = Arc::new(AtomicBool::new(false));
        self.inner
            .subscribers
            .lock()
            .expect("subscribers lock")
            .entry(full.clone())
            .or_default()
            .push(Local {
                id,
                tx,
                lagged: lagged.clone(),
            });
        // Dropped on an early return, which unregisters it again.
        let subscription = Subscription {
            channel: full.clone(),
            id,
            rx,
            lagged,
            bus: Arc::downgrade(&self.inner),
        };
        let (ack, confirmed) = oneshot::channel();
        self.inner
            .control
            .send(Control::Subscribe(full, ack))
            .map_err(|_| ClusterError::Closed)?;
        confirmed.await.map_err(|_| ClusterError::Closed)??;
        Ok(subscription)
    }

    /// The requests other nodes send to this one. There is one stream per bus: the first call
    /// takes it, later calls get `None`.
    pub fn incoming(&self) -> Option<mpsc::Receiver<Incoming>> {
        self.inner.incoming.lock().expect("incoming lock").take()
    }

    /// Asks node `node` and waits for its reply. A node that is not running is known at once
    /// (nobody subscribes to its inbox); one that does not answer within `timeout` is a
    /// [`ClusterError::Timeout`].
    pub async fn request(
        &self,
        node: &str,
        payload: &[u8],
        timeout: Duration,
    ) -> Result<Bytes, ClusterError> {
        let corr = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.inner
            .pending
            .lock()
            .expect("pending lock")
            .insert(corr, tx);
        let forget = || {
            self.inner
                .pending
                .lock()
                .expect("pending lock")
                .remove(&corr);
        };
        let envelope = encode(REQUEST, corr, &self.inner.node, payload);
        let mut conn = self.inner.conn.clone();
        let receivers: usize = match conn.publish(self.inner.inbox_of(node), &envelope[..]).await {
            Ok(n) => n,
            Err(e) => {
                forget();
                return Err(e.into());
            }
        };
        if receivers == 0 {
            forget();
            return Err(ClusterError::NoSuchNode(node.to_owned()));
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(_)) => Err(ClusterError::Closed),
            Err(_) => {
                forget();
                Err(ClusterError::Timeout(node.to_owned()))
            }
        }
    }
}

impl Inner {
    fn inbox_of(&self, node: &str) -> String {
        format!("{}node:{node}", self.prefix)
    }

    fn channels(&self) -> Vec<String> {
        let subscribers = self.subscribers.lock().expect("subscribers lock");
        subscribers
            .iter()
            .filter(|(_, locals)| !locals.is_empty())
            .map(|(channel, _)| channel.clone())
            .collect()
    }

    fn has_subscribers(&self, channel: &str) -> bool {
        let subscribers = self.subscribers.lock().expect("subscribers lock");
        subscribers.get(channel).is_some_and(|l| !l.is_empty())
    }

    fn deliver(&self, channel: &str, payload: Bytes) {
        let subscribers = self.subscribers.lock().expect("subscribers lock");
        for local in subscribers.get(channel).into_iter().flatten() {
            if local
                .tx
                .try_send(Delivery::Message(payload.clone()))
                .is_err()
            {
                local.lagged.store(true, Ordering::Relaxed);
            }
        }
    }

    fn tell_everyone_gap(&self) {
        metrics::counter!("cluster_bus_gaps_total").increment(1);
        let subscribers = self.subscribers.lock().expect("subscribers lock");
        for local in subscribers.values().flatten() {
            if local.tx.try_send(Delivery::Gap).is_err() {
                local.lagged.store(true, Ordering::Relaxed);
            }
        }
    }

    fn arrived_in_inbox(self: &Arc<Self>, envelope: Bytes) {
        let Some((kind, corr, from, payload)) = decode(envelope) else {
            tracing::warn!("cluster: a malformed message in this node's inbox");
            return;
        };
        match kind {
            REPLY => {
                if let Some(waiter) = self.pending.lock().expect("pending lock").remove(&corr) {
                    let _ = waiter.send(payload);
                }
            }
            _ => {
                let request = Incoming {
                    from,
                    corr,
                    payload,
                    bus: Arc::downgrade(self),
                };
                if self.inbox_tx.try_send(request).is_err() {
                    tracing::warn!("cluster: this node's inbox is full; a request was dropped");
                }
            }
        }
    }
}

/// A request from another node; answer it with [`Incoming::reply`].
pub struct Incoming {
    from: String,
    corr: u64,
    payload: Bytes,
    bus: Weak<Inner>,
}

impl Incoming {
    pub fn from(&self) -> &str {
        &self.from
    }

    pub fn payload(&self) -> &Bytes {
        &self.payload
    }

    pub async fn reply(self, payload: &[u8]) -> Result<(), ClusterError> {
        let inner = self.bus.upgrade().ok_or(ClusterError::Closed)?;
        let envelope = encode(REPLY, self.corr, &inner.node, payload);
        let mut conn = inner.conn.clone();
        let _: usize = conn
            .publish(inner.inbox_of(&self.from), &envelope[..])
            .await?;
        Ok(())
    }
}

/// One local subscriber of a channel; dropping it ends the subscription.
pub struct Subscription {
    channel: String,
    id: u64,
    rx: mpsc::Receiver<Delivery>,
    lagged: Arc<AtomicBool>,
    bus: Weak<Inner>,
}

impl Subscription {
    /// The next delivery; `None` once the bus is gone.
    pub async fn recv(&mut self) -> Option<Delivery> {
        if self.lagged.swap(false, Ordering::Relaxed) {
            // What is queued is older than what was lost: drop it, the catch-up covers it.
            while self.rx.try_recv().is_ok() {}
            return Some(Delivery::Gap);
        }
        self.rx.recv().await
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let Some(inner) = self.bus.upgrade() else {
            return;
        };
        let mut subscribers = inner.subscribers.lock().expect("subscribers lock");
        if let Some(locals) = subscribers.get_mut(&self.channel) {
            locals.retain(|l| l.id != self.id);
            if locals.is_empty() {
                subscribers.remove(&self.channel);
                let _ = inner
                    .control
                    .send(Control::Unsubscribe(self.channel.clone()));
            }
        }
    }
}

/// The subscribing connection's task: subscriptions, fan-out, reconnection.
async fn run_subscriber(
    client: redis::Client,
    bus: Weak<Inner>,
    first: redis::aio::PubSub,
    inbox: String,
    mut control: mpsc::UnboundedReceiver<Control>,
) {
    let mut connection = Some(first);
    let mut backoff = Duration::from_millis(50);
    loop {
        // The channels Redis has confirmed on this connection (the inbox aside).
        let (pubsub, mut active) = match connection.take() {
            Some(pubsub) => (pubsub, HashSet::new()),
            None => {
                // Reconnecting: keep answering subscriptions (with "unavailable") meanwhile.
                let attempt = tokio::select! {
                    attempt = client.get_async_pubsub() => attempt,
                    order = control.recv() => {
                        match order {
                            None => return,
                            Some(Control::Subscribe(_, ack)) => {
                                let _ = ack.send(Err(ClusterError::Unavailable(unavailable())));
                            }
                            Some(Control::Unsubscribe(_)) => {}
                        }
                        continue;
                    }
                };
                let mut pubsub = match attempt {
                    Ok(pubsub) => pubsub,
                    Err(e) => {
                        tracing::warn!("cluster: redis unavailable ({e}); retrying");
                        sleep_or_closed(&mut control, backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(1));
                        continue;
                    }
                };
                let Some(inner) = bus.upgrade() else { return };
                let channels = inner.channels();
                drop(inner);
                let mut all = channels.clone();
                all.push(inbox.clone());
                if let Err(e) = pubsub.subscribe(&all).await {
                    tracing::warn!("cluster: resubscribing failed ({e}); retrying");
                    sleep_or_closed(&mut control, backoff).await;
                    continue;
                }
                tracing::info!(
                    "cluster: redis is back; {} channels followed again",
                    all.len()
                );
                let Some(inner) = bus.upgrade() else { return };
                inner.tell_everyone_gap();
                (pubsub, channels.into_iter().collect())
            }
        };
        backoff = Duration::from_millis(50);
        let (mut sink, mut stream) = pubsub.split();
        loop {
            tokio::select! {
                message = stream.next() => {
                    let Some(message) = message else { break };
                    let Some(inner) = bus.upgrade() else { return };
                    let channel = message.get_channel_name();
                    let payload = Bytes::copy_from_slice(message.get_payload_bytes());
                    if channel == inbox {
                        inner.arrived_in_inbox(payload);
                    } else {
                        inner.deliver(channel, payload);
                    }
                }
                order = control.recv() => {
                    let Some(order) = order else { return };
                    let Some(inner) = bus.upgrade() else { return };
                    match order {
                        Control::Subscribe(channel, ack) => {
                            if active.contains(&channel) {
                                let _ = ack.send(Ok(()));
                                continue;
                            }
                            match sink.subscribe(&channel).await {
                                Ok(()) => {
                                    active.insert(channel);
                                    let _ = ack.send(Ok(()));
                                }
                                Err(e) => {
                                    let _ = ack.send(Err(e.into()));
                                    break;
                                }
                            }
                        }
                        Control::Unsubscribe(channel) => {
                            if inner.has_subscribers(&channel) || !active.remove(&channel) {
                                continue;
                            }
                            if sink.unsubscribe(&channel).await.is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        }
        tracing::warn!("cluster: lost the subscribing connection to redis; reconnecting");
    }
}

async fn sleep_or_closed(control: &mut mpsc::UnboundedReceiver<Control>, wait: Duration) {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(deadline) => return,
            order = control.recv() => match order {
                None => return,
                Some(Control::Subscribe(_, ack)) => {
                    let _ = ack.send(Err(ClusterError::Unavailable(unavailable())));
                }
                Some(Control::Unsubscribe(_)) => {}
            },
        }
    }
}

fn unavailable() -> redis::RedisError {
    redis::RedisError::from((
        redis::ErrorKind::Io,
        "the connection to redis is being re-established",
    ))
}

fn encode(kind: u8, corr: u64, from: &str, payload: &[u8]) -> Bytes {
    let mut out = BytesMut::with_capacity(11 + from.len() + payload.len());
    out.put_u8(kind);
    out.put_u64(corr);
    out.put_u16(from.len() as u16);
    out.put_slice(from.as_bytes());
    out.put_slice(payload);
    out.freeze()
}

fn decode(mut envelope: Bytes) -> Option<(u8, u64, String, Bytes)> {
    if envelope.len() < 11 {
        return None;
    }
    let kind = envelope.get_u8();
    let corr = envelope.get_u64();
    let from_len = envelope.get_u16() as usize;
    if envelope.len() < from_len {
        return None;
    }
    let from = String::from_utf8(envelope.split_to(from_len).to_vec()).ok()?;
    Some((kind, corr, from, envelope))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_round_trip() {
        let envelope = encode(REPLY, 42, "node-a", b"{\"ok\":1}");
        let (kind, corr, from, payload) = decode(envelope).unwrap();
        assert_eq!((kind, corr, from.as_str()), (REPLY, 42, "node-a"));
        assert_eq!(&payload[..], b"{\"ok\":1}");
    }

    #[test]
    fn truncated_envelopes_are_refused() {
        let envelope = encode(REQUEST, 7, "a-long-node-name", b"x");
        for cut in 0..11 + "a-long-node-name".len() {
            assert!(decode(envelope.slice(..cut)).is_none(), "cut at {cut}");
        }
    }
}
