//! The table actor: one task per table that takes one command at a time from a bounded
//! channel, runs the rules ([`super::core`]) on it, writes what they accepted through the
//! store, and only then applies it and tells anyone. Its timers (clock, deadline, absence,
//! an open table's expiry) and its bot's thinking come back to it as commands and ticks.
//!
//! Here: the actor, its loop and its calls; [`handle`] the handle in front of it;
//! `orders.rs` the players' orders carried out; `ending.rs` an ending written, with ratings,
//! the daily result and the rematch; `chat.rs`, `vacation.rs`, `berserk.rs` their writes; `timers.rs` the
//! clock, deadlines and presence; `delivery.rs` what is sent; `bot.rs` the bot's turn;
//! [`services`] the narrow handles to the rest of the server. Every read of the clock and
//! every write through the store of a table is on this side.

use std::collections::HashMap;
use std::time::{Duration, Instant};
use store::GameStatus;

use tokio::sync::mpsc;

use self::handle::{Answer, Call, Command, TableHandle, Watchers};
use self::services::Services;
use super::NewTable;
use super::core::TableState;
use super::core::clock::Clock;
use crate::error::WsError;
use crate::outbox::{ConnId, Outbox};
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ChatView, Message, TableView, UserView};

mod berserk;
mod bot;
mod chat;
mod delivery;
mod ending;
pub mod handle;
mod orders;
pub mod services;
mod timers;
mod vacation;

/// A finished table nobody watches is dropped from memory after this long (it stays in the
/// database and is reloaded on demand).
const IDLE_FINISHED: Duration = Duration::from_secs(600);
/// A public table nobody joins closes after this long (so the lobby does not fill up with
/// tables whose hosts are gone); a private one, waiting for a friend with the link, after a day.
const OPEN_PUBLIC_TTL: Duration = Duration::from_secs(30 * 60);
const OPEN_PRIVATE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

pub(super) struct Subscriber {
    user: UserView,
    out: Outbox,
}

/// A snapshot as one viewer sees it: without the chat lines of players they muted.
fn without_muted(mut view: TableView, muted: &crate::sessions::MuteList) -> TableView {
    if !muted.is_empty() {
        view.chat.retain(|line| !muted.hides(line.user.as_deref()));
    }
    view
}

fn chat_view(line: store::ChatLine) -> ChatView {
    ChatView {
        id: line.id,
        author: line.author,
        user: line.user_id,
        text: line.body,
        at: line.sent_at,
        room: line.room,
    }
}

pub struct Table {
    pub(super) state: TableState,
    pub(super) subscribers: HashMap<ConnId, Subscriber>,
    /// A bot is thinking about the current position (on the CPU pool).
    pub(super) bot_thinking: bool,
    /// When the table closes if it is still waiting for players then.
    pub(super) open_until: Instant,
    /// This actor's own address, for answers from bots thinking on other threads.
    pub(super) me: Option<mpsc::WeakSender<Command>>,
    pub(super) services: Services,
}

/// A table with an address whose actor does not run yet: what the hub holds while it records
/// and starts a new table, so that whoever hears of the game from its start finds this table
/// rather than loading a second copy of it from the database.
pub struct Addressed {
    table: Table,
    rx: mpsc::Receiver<Command>,
}

impl Addressed {
    /// Starts the game (every seat is taken) before the actor runs.
    pub async fn start(&mut self) -> Result<(), WsError> {
        self.table.start().await
    }

    /// Runs the actor on `runtime`.
    pub fn spawn(self, runtime: &tokio::runtime::Handle) {
        runtime.spawn(self.table.run(self.rx));
    }
}

impl Table {
    pub fn new(new: NewTable, services: Services) -> Table {
        let open_until = open_until(new.settings.private(), unix_ms());
        Table {
            state: TableState::new(new, services.day),
            open_until,
            subscribers: HashMap::new(),
            bot_thinking: false,
            me: None,
            services,
        }
    }

    /// Rebuilds a table from its stored record by replaying its moves; the clock resumes from
    /// the times stored with the last move (downtime is not charged to anyone) once the table
    /// is released ([`TableHandle::release`]).
    pub fn restore(
        record: &store::GameRecord,
        chat: Vec<store::ChatLine>,
        services: Services,
    ) -> Result<Table, String> {
        let state = TableState::restore(
            record,
            chat.into_iter().map(chat_view).collect(),
            services.day,
        )?;
        Ok(Table {
            state,
            subscribers: HashMap::new(),
            bot_thinking: false,
            open_until: open_until(record.private, record.created_at),
            me: None,
            services,
        })
    }

    /// Starts the actor; the handle is how everyone else reaches it.
    pub fn spawn(self, runtime: &tokio::runtime::Handle) -> TableHandle {
        let (table, handle) = self.address();
        table.spawn(runtime);
        handle
    }

    /// Gives the table its address before its actor runs: calls to the handle wait in its
    /// queue until [`Addressed::spawn`].
    pub fn address(mut self) -> (Addressed, TableHandle) {
        let (tx, rx) = mpsc::channel(64);
        self.me = Some(tx.downgrade());
        let handle = TableHandle::here(self.state.id.clone(), tx);
        (Addressed { table: self, rx }, handle)
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.load_ratings().await;
        self.load_vacation().await;
        self.load_arena(true).await;
        // A server stopped between storing a game's last move and storing its ending left a
        // game over by the rules that the database still calls playing: end it now.
        if self.state.status == GameStatus::Playing
            && let Err(e) = self.finish_if_decided().await
        {
            tracing::error!(table = %self.state.id, error = %e, "could not end a restored game");
        }
        self.publish_lobby();
        self.publish_turn();
        self.publish_live();
        loop {
            self.ask_bot_if_its_turn();
            let deadline = self
                .state
                .clock
                .as_ref()
                .and_then(Clock::deadline)
                .into_iter()
                .chain(self.deadline_instant())
                .min();
            let warn_at = self.warning_instant();
            let absence = self.state.presence.next_deadline();
            let idle = matches!(
                self.state.status,
                GameStatus::Finished | GameStatus::Aborted
            ) && self.subscribers.is_empty();
            let waiting = self.state.status == GameStatus::Open;
            tokio::select! {
                command = rx.recv() => match command {
                    Some(Command::Stop { done }) => {
                        let _ = done.send(self.watchers());
                        return;
                    }
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                _ = sleep_until(deadline) => self.check_flag().await,
                _ = sleep_until(warn_at) => self.warn_of_deadline(),
                _ = sleep_until(absence) => self.absence_expired().await,
                _ = tokio::time::sleep(IDLE_FINISHED), if idle => break,
                _ = tokio::time::sleep_until(self.open_until.into()), if waiting => self.expire().await,
            }
        }
        // Closed first, so that the directory can tell this actor's entry from another's.
        rx.close();
        self.services.tables.forget(&self.state.id);
        self.services.live.remove(&self.state.id);
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Call { call, reply } => {
                let _ = reply.send(self.answer(call).await);
            }
            Command::BotMove {
                ply,
                offered,
                decision,
            } => {
                self.bot_thinking = false;
                self.check_flag().await;
                self.carry_out_bot_decision(ply, offered, decision).await;
            }
            Command::Release => self.release(),
            // `run` takes it before it reaches here.
            Command::Stop { done } => {
                let _ = done.send(self.watchers());
            }
        }
    }

    fn watchers(&mut self) -> Watchers {
        Watchers {
            token: self.state.token.clone(),
            list: self
                .subscribers
                .drain()
                .map(|(conn, sub)| (conn, sub.user, sub.out))
                .collect(),
        }
    }

    /// Runs one call of the rest of the server.
    async fn answer(&mut self, call: Call) -> Result<Answer, WsError> {
        Ok(match call {
            Call::Subscribe {
                conn,
                user,
                out,
                token,
                since,
            } => {
                // Like a request, a subscription comes only once the server serves: the
                // snapshot it gets shows the clock running, not a table still held.
                self.release();
                self.load_arena(false).await;
                let result = self.subscribe(conn, user, out, token, since);
                self.watchers_changed();
                Answer::Message(Some(result?))
            }
            Call::Unsubscribe { conn } => {
                self.subscribers.remove(&conn);
                self.watchers_changed();
                Answer::Done
            }
            Call::Act { conn, user, action } => {
                // A request can only come once the server serves: a table loaded on demand
                // is released by it.
                self.release();
                // A flag may have fallen since the last timer tick: settle it first so that
                // no move is accepted after time ran out.
                self.check_flag().await;
                self.load_arena(false).await;
                Answer::Message(self.act(conn, &user, action).await?)
            }
            Call::View { user, token } => {
                self.state.may_watch(user.as_ref(), token.as_deref())?;
                let view = self.state.view(user.as_ref(), Instant::now());
                Answer::View(Box::new(view))
            }
            Call::Playing { user } => {
                let entry = self.state.playing(&user, Instant::now(), unix_ms());
                Answer::Playing(entry.map(Box::new))
            }
            Call::SoloPosition { user } => Answer::Solo(self.state.solo_position(&user)?),
        })
    }

    fn subscribe(
        &mut self,
        conn: ConnId,
        user: UserView,
        out: Outbox,
        token: Option<String>,
        since: Option<u32>,
    ) -> Result<Message, WsError> {
        self.state.may_watch(Some(&user), token.as_deref())?;
        let state = Box::new(without_muted(
            self.state.view(Some(&user), Instant::now()),
            &out.muted,
        ));
        self.subscribers.insert(conn, Subscriber { user, out });
        Ok(match since {
            Some(since) if (since as usize) <= self.state.plies.len() => Message::Catchup {
                table: self.state.id.to_string(),
                moves: (since as usize..self.state.plies.len())
                    .map(|i| self.state.move_event(i))
                    .collect(),
                state,
            },
            _ => Message::Table { table: state },
        })
    }
}

/// When a table still open at `created_ms` (unix ms) closes for want of players.
fn open_until(private: bool, created_ms: i64) -> Instant {
    let ttl = if private {
        OPEN_PRIVATE_TTL
    } else {
        OPEN_PUBLIC_TTL
    };
    instant_at(created_ms.saturating_add(ttl.as_millis() as i64))
}

/// The runtime's instant for a wall-clock time (unix ms); now, if it has passed.
pub(super) fn instant_at(at_ms: i64) -> Instant {
    Instant::now() + Duration::from_millis(at_ms.saturating_sub(unix_ms()).max(0) as u64)
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}
