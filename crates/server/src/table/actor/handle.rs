//! How the rest of the server reaches a table: the commands its actor takes, and the
//! cloneable [`TableHandle`] that sends them and waits for the answers — to the actor on this
//! node, or through a [`Forwarder`] to the node that runs the table when several share a site.

use crate::ws::protocol::TableId;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::table::core::{Action, SoloPosition};
use tokio::sync::{mpsc, oneshot};

use crate::error::{ErrorCode, WsError};
use crate::outbox::{ConnId, Outbox};
use crate::ws::protocol::{Message, PlayingEntry, TableView, UserView};

pub(super) type Reply<T> = oneshot::Sender<Result<T, WsError>>;

pub enum Command {
    /// A call from the rest of the server (or, forwarded, from another node).
    Call { call: Call, reply: Reply<Answer> },
    /// A bot's answer for the position at `ply` (`None`: it found no move), thought with or
    /// without a draw offer on the table (`offered`).
    BotMove {
        ply: u32,
        offered: bool,
        decision: Option<ai::Decision>,
    },
    /// Start the clock and the bot of a table restored at start-up: the server now serves.
    Release,
    /// Finish and exit (a shutdown, or the lease lost); answered, once everything before it
    /// is done, with who was watching.
    Stop { done: oneshot::Sender<Watchers> },
}

/// Who watched a table when it stopped, so that they can follow it to its next node.
pub struct Watchers {
    /// The table's invite link token: they were admitted already.
    pub token: String,
    pub list: Vec<(ConnId, UserView, Outbox)>,
}

/// A cloneable address of a table: its actor on this node, or the node that runs it.
#[derive(Clone)]
pub struct TableHandle {
    pub id: TableId,
    route: Route,
}

#[derive(Clone)]
enum Route {
    Here(mpsc::Sender<Command>),
    /// Run by another node (or, after a failover, by this one again): every call asks the
    /// forwarder, which finds the table's owner at that moment.
    Elsewhere(Arc<dyn Forwarder>),
}

/// A call to a table, from this node or forwarded from another: what [`TableHandle`]'s
/// methods send. `Out` is what a subscription delivers to: a connection's [`Outbox`] here, its
/// mute list while the call travels to another node (which makes an outbox of its own).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub enum Call<Out = Outbox> {
    Subscribe {
        conn: ConnId,
        user: UserView,
        out: Out,
        token: Option<String>,
        since: Option<u32>,
    },
    Unsubscribe {
        conn: ConnId,
    },
    Act {
        conn: ConnId,
        user: UserView,
        action: Action,
    },
    View {
        user: Option<UserView>,
        token: Option<String>,
    },
    /// The game in progress, for its player's solo helpers (hints).
    SoloPosition {
        user: UserView,
    },
    Playing {
        user: String,
    },
}

impl<A> Call<A> {
    /// The same call with its connection (if it names one) and its subscriber changed.
    pub fn with<B>(self, conn: impl FnOnce(ConnId) -> ConnId, out: impl FnOnce(A) -> B) -> Call<B> {
        match self {
            Call::Subscribe {
                conn: c,
                user,
                out: o,
                token,
                since,
            } => Call::Subscribe {
                conn: conn(c),
                user,
                out: out(o),
                token,
                since,
            },
            Call::Unsubscribe { conn: c } => Call::Unsubscribe { conn: conn(c) },
            Call::Act {
                conn: c,
                user,
                action,
            } => Call::Act {
                conn: conn(c),
                user,
                action,
            },
            Call::View { user, token } => Call::View { user, token },
            Call::SoloPosition { user } => Call::SoloPosition { user },
            Call::Playing { user } => Call::Playing { user },
        }
    }
}

/// A table's answer to a [`Call`], whichever node gave it.
pub enum Answer {
    Message(Option<Message>),
    View(Box<TableView>),
    /// The table as a line of a player's games in progress (`None`: not theirs, or over).
    Playing(Option<Box<PlayingEntry>>),
    Solo(SoloPosition),
    Done,
}

/// A boxed future of a forwarded call's answer.
pub type Forwarding<'a> = Pin<Box<dyn Future<Output = Result<Answer, WsError>> + Send + 'a>>;

/// Carries calls to the node that runs table `table` (the hub implements it).
pub trait Forwarder: Send + Sync {
    fn forward<'a>(&'a self, table: &'a TableId, call: Call) -> Forwarding<'a>;
}

fn unexpected() -> WsError {
    WsError::internal("a table's answer", "an answer of the wrong kind")
}

impl TableHandle {
    pub(super) fn here(id: TableId, tx: mpsc::Sender<Command>) -> TableHandle {
        TableHandle {
            id,
            route: Route::Here(tx),
        }
    }

    /// A table whose calls go through `forwarder` to whichever node runs it.
    pub fn elsewhere(id: TableId, forwarder: Arc<dyn Forwarder>) -> TableHandle {
        TableHandle {
            id,
            route: Route::Elsewhere(forwarder),
        }
    }

    /// Runs on this node (and is the one to keep in the node's list of tables).
    pub fn is_here(&self) -> bool {
        matches!(self.route, Route::Here(_))
    }

    /// The actor has stopped. A forwarded handle never closes: it finds the owner each time.
    pub fn is_closed(&self) -> bool {
        match &self.route {
            Route::Here(tx) => tx.is_closed(),
            Route::Elsewhere(_) => false,
        }
    }

    async fn send(&self, command: Command) {
        if let Route::Here(tx) = &self.route {
            let _ = tx.send(command).await;
        }
    }

    /// Runs `call` on the table's actor, here or on the node that runs it.
    pub async fn run(&self, call: Call) -> Result<Answer, WsError> {
        match &self.route {
            Route::Elsewhere(forwarder) => forwarder.forward(&self.id, call).await,
            Route::Here(tx) => {
                let (reply, answer) = oneshot::channel();
                let gone = || WsError::new(ErrorCode::NotFound, "the table has closed");
                tx.send(Command::Call { call, reply })
                    .await
                    .map_err(|_| gone())?;
                answer.await.map_err(|_| gone())?
            }
        }
    }

    pub async fn subscribe(
        &self,
        conn: ConnId,
        user: UserView,
        out: Outbox,
        token: Option<String>,
        since: Option<u32>,
    ) -> Result<Message, WsError> {
        let call = Call::Subscribe {
            conn,
            user,
            out,
            token,
            since,
        };
        match self.run(call).await? {
            Answer::Message(Some(message)) => Ok(message),
            _ => Err(unexpected()),
        }
    }

    /// Lets a restored table's clock run and its bot think (see [`Command::Release`]).
    pub async fn release(&self) {
        self.send(Command::Release).await;
    }

    pub async fn unsubscribe(&self, conn: ConnId) {
        let _ = self.run(Call::Unsubscribe { conn }).await;
    }

    pub async fn act(
        &self,
        conn: ConnId,
        user: UserView,
        action: Action,
    ) -> Result<Option<Message>, WsError> {
        match self.run(Call::Act { conn, user, action }).await? {
            Answer::Message(message) => Ok(message),
            _ => Err(unexpected()),
        }
    }

    /// The game in progress, for its player's solo helpers (hints); only for the player of a
    /// solo game that is not a daily deal.
    pub async fn solo_position(&self, user: UserView) -> Result<SoloPosition, WsError> {
        match self.run(Call::SoloPosition { user }).await? {
            Answer::Solo(position) => Ok(position),
            _ => Err(unexpected()),
        }
    }

    /// This table as a line of `user_id`'s games in progress (`None`: not theirs, or over).
    pub async fn playing(&self, user_id: &str) -> Option<PlayingEntry> {
        let user = user_id.to_string();
        match self.run(Call::Playing { user }).await {
            Ok(Answer::Playing(entry)) => entry.map(|entry| *entry),
            _ => None,
        }
    }

    /// Stops the actor after the commands already queued, and waits for it; who was
    /// watching it (`None` if it had stopped already, or runs elsewhere).
    pub async fn stop(&self) -> Option<Watchers> {
        let Route::Here(tx) = &self.route else {
            return None;
        };
        let (done, stopped) = oneshot::channel();
        tx.send(Command::Stop { done }).await.ok()?;
        stopped.await.ok()
    }

    /// The table as `user` may see it.
    pub async fn view(
        &self,
        user: Option<UserView>,
        token: Option<String>,
    ) -> Result<TableView, WsError> {
        match self.run(Call::View { user, token }).await? {
            Answer::View(view) => Ok(*view),
            _ => Err(unexpected()),
        }
    }
}
