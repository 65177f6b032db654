//! How the rest of the server reaches a table: the commands its actor takes, and the
//! cloneable [`TableHandle`] that sends them and waits for the answers.

use std::sync::Arc;

use super::core::HintPosition;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::error::{ErrorCode, WsError};
use crate::outbox::{ConnId, Outbox};
use crate::ws::protocol::{Message, PlayingEntry, TableView, UserView};

/// Everything a player can do at a table.
#[derive(Debug, Clone)]
pub enum Action {
    Sit {
        seat: Option<u8>,
        token: Option<String>,
    },
    Stand,
    Move {
        mv: String,
        ply: Option<u32>,
    },
    Resign,
    Abort,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    RematchOffer,
    RematchAccept,
    RematchDecline,
    TakebackOffer,
    TakebackAccept,
    TakebackDecline,
    Chat {
        text: String,
    },
    Voice {
        signal: Value,
    },
    /// The opponent has left: end the game as won by the claimer, or drawn.
    Claim {
        draw: bool,
    },
}

pub(super) type Reply<T> = oneshot::Sender<Result<T, WsError>>;

pub enum Command {
    Subscribe {
        conn: ConnId,
        user: UserView,
        out: Outbox,
        token: Option<String>,
        since: Option<u32>,
        reply: Reply<Message>,
    },
    Unsubscribe {
        conn: ConnId,
    },
    Act {
        conn: ConnId,
        user: UserView,
        action: Action,
        reply: Reply<Option<Message>>,
    },
    View {
        user: Option<UserView>,
        token: Option<String>,
        reply: Reply<TableView>,
    },
    /// The White Rabbit position of the player seated at this solo table, for the solver.
    HintPosition {
        user: UserView,
        reply: Reply<HintPosition>,
    },
    /// This table as a line of `user`'s "my games" (`None` unless they sit here and the game
    /// has not ended).
    Playing {
        user: String,
        reply: oneshot::Sender<Option<PlayingEntry>>,
    },
    /// A bot's answer for the position at `ply` (`None`: it found no move).
    BotMove {
        ply: u32,
        mv: Option<String>,
    },
    /// Start the clock and the bot of a table restored at start-up: the server now serves.
    Release,
    /// Finish and exit (graceful shutdown); answered once everything before it is done.
    Stop {
        done: oneshot::Sender<()>,
    },
}

/// A cloneable address of a running table.
#[derive(Clone)]
pub struct TableHandle {
    pub id: Arc<str>,
    pub(super) tx: mpsc::Sender<Command>,
}

impl TableHandle {
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    async fn call<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, WsError> {
        let (reply, answer) = oneshot::channel();
        let gone = || WsError::new(ErrorCode::NotFound, "the table has closed");
        self.tx.send(make(reply)).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    pub async fn subscribe(
        &self,
        conn: ConnId,
        user: UserView,
        out: Outbox,
        token: Option<String>,
        since: Option<u32>,
    ) -> Result<Message, WsError> {
        self.call(|reply| Command::Subscribe {
            conn,
            user,
            out,
            token,
            since,
            reply,
        })
        .await
    }

    /// Lets a restored table's clock run and its bot think (see [`Command::Release`]).
    pub async fn release(&self) {
        let _ = self.tx.send(Command::Release).await;
    }

    pub async fn unsubscribe(&self, conn: ConnId) {
        let _ = self.tx.send(Command::Unsubscribe { conn }).await;
    }

    pub async fn act(
        &self,
        conn: ConnId,
        user: UserView,
        action: Action,
    ) -> Result<Option<Message>, WsError> {
        self.call(|reply| Command::Act {
            conn,
            user,
            action,
            reply,
        })
        .await
    }

    /// The position to give hints for, with its ply; only for the player of a White Rabbit
    /// game in progress that is not a daily deal.
    pub async fn hint_position(&self, user: UserView) -> Result<HintPosition, WsError> {
        self.call(|reply| Command::HintPosition { user, reply })
            .await
    }

    /// This table as a line of `user_id`'s games in progress (`None`: not theirs, or over).
    pub async fn playing(&self, user_id: &str) -> Option<PlayingEntry> {
        let (reply, answer) = oneshot::channel();
        let user = user_id.to_string();
        self.tx.send(Command::Playing { user, reply }).await.ok()?;
        answer.await.ok().flatten()
    }

    /// Stops the actor after the commands already queued, and waits for it.
    pub async fn stop(&self) {
        let (done, stopped) = oneshot::channel();
        if self.tx.send(Command::Stop { done }).await.is_ok() {
            let _ = stopped.await;
        }
    }

    pub async fn view(
        &self,
        user: Option<UserView>,
        token: Option<String>,
    ) -> Result<TableView, WsError> {
        self.call(|reply| Command::View { user, token, reply })
            .await
    }
}
