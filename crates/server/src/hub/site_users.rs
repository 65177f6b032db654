//! What a player hears wherever their sockets are, on a site of several nodes: the "your
//! turn" count and live notifications. A table's node tells every node, on the `users`
//! channel, who is to move at the table and each notification it sends; every node keeps the
//! site's "who is to move where" and hands notifications to its own sockets of the player.
//! Events are sent in batches, as many as are waiting at once in one Redis message.
//!
//! A table taken over after a node died tells its mover again when it starts on its new node.

use crate::ws::protocol::TableId;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::Hub;
use crate::outbox::Frame;

const CHANNEL: &str = "users";
/// Events waiting to go out; beyond this they are dropped (counts catch up on the next move).
const QUEUE: usize = 16_384;
/// At most this many events in one message.
const BATCH: usize = 512;

#[derive(Serialize, Deserialize)]
pub(super) enum UserEvent {
    /// Who is to move at `table` now (`None`: nobody, or a bot).
    Turn {
        table: TableId,
        mover: Option<String>,
    },
    /// A message for every socket of `user` (an encoded notification).
    Frame { user: String, text: String },
}

#[derive(Serialize, Deserialize)]
struct Batch {
    node: String,
    events: Vec<UserEvent>,
}

/// The sending side: events for the other nodes.
pub(super) struct UserEvents(mpsc::Sender<UserEvent>);

impl UserEvents {
    pub fn tell(&self, event: UserEvent) {
        if self.0.try_send(event).is_err() {
            metrics::counter!("stolik_delivery_drops_total").increment(1);
        }
    }
}

impl Hub {
    /// Tells the other nodes a user event (nothing on a node of its own).
    pub(super) fn tell_users(&self, event: UserEvent) {
        if let Some(placement) = self.placement() {
            placement.users.tell(event);
        }
    }

    /// The queue of user events and the task that sends them, for as long as the bus lives.
    pub(super) fn start_user_events(bus: cluster::Bus) -> UserEvents {
        let (tx, mut rx) = mpsc::channel(QUEUE);
        tokio::spawn(async move {
            let mut events = Vec::with_capacity(BATCH);
            while rx.recv_many(&mut events, BATCH).await > 0 {
                let batch = Batch {
                    node: bus.node().to_string(),
                    events: std::mem::take(&mut events),
                };
                let payload = serde_json::to_vec(&batch).expect("user events serialise");
                if let Err(e) = bus.publish(CHANNEL, &payload).await {
                    tracing::warn!(error = %e, "cannot tell the other nodes of turns");
                }
            }
        });
        UserEvents(tx)
    }

    /// Applies the other nodes' user events here, for as long as the hub lives.
    pub(super) async fn hear_users(self) {
        let placement = self.placement().expect("hearing users needs a placement");
        let mut events = placement.follow(CHANNEL).await;
        let mut closing = self.closing();
        loop {
            let delivery = tokio::select! {
                delivery = events.recv() => delivery,
                _ = async { let _ = closing.wait_for(|c| *c).await; } => return,
            };
            let payload = match delivery {
                Some(cluster::Delivery::Message(payload)) => payload,
                // Lost events: counts are right again with each table's next move.
                Some(cluster::Delivery::Gap) => continue,
                None => return,
            };
            let batch = match serde_json::from_slice::<Batch>(&payload) {
                Ok(batch) if batch.node != placement.node() => batch,
                Ok(_) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "user events that do not parse");
                    continue;
                }
            };
            for event in batch.events {
                match event {
                    UserEvent::Turn { table, mover } => {
                        self.apply_turn(&table, mover.as_deref());
                    }
                    UserEvent::Frame { user, text } => {
                        let text = Frame::from(text);
                        self.0.turns.lock().expect("turns lock").send(&user, &text);
                    }
                }
            }
        }
    }
}
