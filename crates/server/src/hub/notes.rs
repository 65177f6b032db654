//! Notifications: what the tables ask for (a notification, one withdrawn, a game over) and
//! the player opening a game (its notifications read), carried out one after another in the
//! order asked, so that a withdrawal never overtakes the notification it withdraws. Each
//! player's open sockets hear of every change: a `notification` message for a new (or
//! replacing) one, a `notifications` message with the unread count otherwise.

use record::NoteKind;
use std::sync::Weak;

use tokio::sync::mpsc;

use super::site_users::UserEvent;
use super::{Hub, Inner};
use crate::outbox::Frame;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, NotificationView, encode};

/// The kinds a game's end keeps: the player away hears that it ended.
const KEPT_AT_THE_END: &[NoteKind] = &[NoteKind::GameOver];

/// One thing to do with notifications.
#[derive(Debug)]
pub(crate) enum NoteOp {
    /// `user` should hear of `kind` at `table` (replacing their unread one of that kind), and
    /// their devices too (a Web Push) when `push` (they do not have the table open).
    Notify {
        user: String,
        kind: NoteKind,
        table: String,
        push: bool,
    },
    /// What `user`'s unread `kind` at `table` said is no longer true.
    Withdraw {
        user: String,
        kind: NoteKind,
        table: String,
    },
    /// The table ended: its notifications go (but the game-over ones).
    Ended { table: String },
    /// `user` opened the game at `table`.
    Read { user: String, table: String },
}

pub(super) type Notes = mpsc::UnboundedSender<NoteOp>;

/// Carries out the queued operations one by one; ends with the hub.
pub(super) async fn carry_out(hub: Weak<Inner>, mut ops: mpsc::UnboundedReceiver<NoteOp>) {
    while let Some(op) = ops.recv().await {
        let Some(inner) = hub.upgrade() else { return };
        Hub(inner).carry_out(op).await;
    }
}

impl Hub {
    /// Queues `op` (people only: a bot's id is skipped).
    pub(crate) fn note(&self, op: NoteOp) {
        let user = match &op {
            NoteOp::Notify { user, .. }
            | NoteOp::Withdraw { user, .. }
            | NoteOp::Read { user, .. } => Some(user),
            NoteOp::Ended { .. } => None,
        };
        if user.is_some_and(|u| u.starts_with("bot:")) {
            return;
        }
        // The receiver lives as long as the hub.
        let _ = self.0.notes.send(op);
    }

    async fn carry_out(&self, op: NoteOp) {
        let store = self.store();
        let outcome = match op {
            NoteOp::Notify {
                user,
                kind,
                table,
                push,
            } => {
                let now = unix_ms();
                match store.notify(&user, kind, &table, now).await {
                    Ok(notification) => {
                        // Queued here, by the node whose table made the notification: once
                        // on a site however many nodes it has.
                        if push
                            && let Err(error) = store
                                .enqueue_push(
                                    &user,
                                    kind,
                                    &table,
                                    &notification.game,
                                    notification.opponent.as_deref(),
                                    now,
                                )
                                .await
                        {
                            tracing::warn!(%user, %table, %error, "cannot queue a push");
                        }
                        let unread = store.unread_notifications(&user).await.unwrap_or(0);
                        self.send_to(
                            user,
                            &Message::Notification {
                                notification: NotificationView::from(&notification),
                                unread,
                            },
                        );
                        Ok(())
                    }
                    Err(e) => Err((e, table)),
                }
            }
            NoteOp::Withdraw { user, kind, table } => {
                if let Err(error) = store.drop_pushes_of(&user, &table, Some(kind)).await {
                    tracing::warn!(%user, %table, %error, "cannot withdraw a push");
                }
                match store.withdraw_notification(&user, kind, &table).await {
                    Ok(true) => self.send_unread(&user).await.map_err(|e| (e, table)),
                    Ok(false) => Ok(()),
                    Err(e) => Err((e, table)),
                }
            }
            NoteOp::Ended { table } => {
                if let Err(error) = store.drop_game_pushes(&table, KEPT_AT_THE_END).await {
                    tracing::warn!(%table, %error, "cannot drop the pushes of a game that ended");
                }
                match store.drop_game_notifications(&table, KEPT_AT_THE_END).await {
                    Ok(users) => {
                        for user in users {
                            if let Err(e) = self.send_unread(&user).await {
                                tracing::warn!(%user, error = %e, "cannot count notifications");
                            }
                        }
                        Ok(())
                    }
                    Err(e) => Err((e, table)),
                }
            }
            NoteOp::Read { user, table } => {
                if let Err(error) = store.drop_pushes_of(&user, &table, None).await {
                    tracing::warn!(%user, %table, %error, "cannot drop the pushes of a game opened");
                }
                match store.mark_game_read(&user, &table, unix_ms()).await {
                    Ok(0) => Ok(()),
                    Ok(_) => self.send_unread(&user).await.map_err(|e| (e, table)),
                    Err(e) => Err((e, table)),
                }
            }
        };
        if let Err((error, table)) = outcome {
            tracing::warn!(%table, %error, "could not record a notification change");
        }
    }

    /// Tells `user`'s sockets how many notifications are unread now.
    async fn send_unread(&self, user: &str) -> Result<(), store::StoreError> {
        let unread = self.store().unread_notifications(user).await?;
        self.send_to(user.to_string(), &Message::Notifications { unread });
        Ok(())
    }

    /// Sends `message` to every socket of `user`, on this node and the others (and to the
    /// user's Bot API event streams, which listen beside the sockets).
    pub fn send_to(&self, user: String, message: &Message) {
        let text = encode(None, message);
        let frame = Frame::from(text.clone());
        self.0.turns.lock().expect("turns lock").send(&user, &frame);
        self.tell_users(UserEvent::Frame { user, text });
    }
}
