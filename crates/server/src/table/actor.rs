//! The table actor: one task per table that takes one command at a time from a bounded
//! channel, runs the rules ([`super::core`]) on it, writes what they accepted through the
//! store, and only then applies it and tells anyone. Its timers (clock, deadline, absence,
//! an open table's expiry) and its bot's thinking come back to it as commands and ticks.

use std::collections::HashMap;
use store::GameStatus;

use catalog::{AnyGame, Seat};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::clock::{Clock, TimeControl};
use super::core::{Orderer, Played, TableState};
use super::effects::Step;
use super::presence::Presence;
use super::{
    Action, Answer, Call, Command, IDLE_FINISHED, NewTable, OPEN_PRIVATE_TTL, OPEN_PUBLIC_TTL, Ply,
    Services, Subscriber, TableHandle, TableSettings, Watchers, bot_user, chat_view, next_turn,
    without_muted,
};
use crate::error::{ErrorCode, WsError};
use crate::outbox::{ConnId, Outbox};
use crate::unix_time::unix_ms;
use crate::ws::protocol::{Message, UserView};

pub struct Table {
    pub(super) state: TableState,
    pub(super) subscribers: HashMap<ConnId, Subscriber>,
    /// A bot is thinking about the current position (on the blocking pool).
    pub(super) bot_thinking: bool,
    /// When the table closes if it is still waiting for players then.
    pub(super) open_until: Instant,
    /// This actor's own address, for answers from bots thinking on other threads.
    pub(super) me: Option<mpsc::WeakSender<Command>>,
    pub(super) services: Services,
}

impl Table {
    pub fn new(new: NewTable, services: Services) -> Table {
        let open_until = open_until(new.settings.private, unix_ms());
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
        let variant = catalog::VariantId::parse(&record.game, Some(&record.variant))
            .map_err(|e| e.to_string())?;
        let control = match (record.clock_initial_ms, record.clock_increment_ms) {
            (Some(initial), Some(increment)) => {
                Some(TimeControl::new(initial as u64, increment as u64)?)
            }
            _ => None,
        };
        let mut game = AnyGame::new(variant, record.seed);
        let mut plies = Vec::new();
        for row in &record.moves {
            let by = game.to_move().ok_or("a move after the end")?;
            game.play_text(&row.mv)
                .map_err(|e| format!("ply {}: {e}", row.ply))?;
            plies.push(Ply {
                mv: row.mv.clone(),
                by,
                position: game.view(None),
                clock: row.clock_a_ms.zip(row.clock_b_ms).map(|(a, b)| [a, b]),
            });
        }
        let mut seats = vec![None; variant.game().info().seats as usize];
        for seat in &record.seats {
            let Some(slot) = seats.get_mut(seat.seat as usize) else {
                continue;
            };
            if let Some(user_id) = &seat.user_id {
                *slot = Some(UserView {
                    id: user_id.clone(),
                    name: seat.display_name.clone().unwrap_or_default(),
                    guest: seat.guest,
                });
            } else if let Some(level) = seat.bot.as_deref().and_then(|b| b.parse().ok()) {
                *slot = Some(bot_user(level));
            }
        }
        let clock = control.map(|control| match plies.last().and_then(|p| p.clock) {
            Some(remaining) => Clock::resumed(control, remaining),
            None => Clock::new(control),
        });
        let days = record.move_days.and_then(|d| u8::try_from(d).ok());
        // The deadline runs from the last move (or the start): it is a date, not a clock, so
        // time the server was down counts like any other.
        // Vacation days taken for the move to play now moved its deadline later.
        let vacation_deadline = record
            .vacation_deadline
            .filter(|(ply, _)| *ply == record.moves.len() as i64)
            .map(|(_, at)| at);
        let deadline = days
            .filter(|_| record.status == GameStatus::Playing)
            .map(|d| {
                let since = record
                    .moves
                    .last()
                    .map(|m| m.played_at)
                    .or(record.started_at)
                    .unwrap_or(record.created_at);
                let due = since + services.day.as_millis() as i64 * i64::from(d);
                vacation_deadline.map_or(due, |at| at.max(due))
            });
        // Its days left are read once the actor runs ([`Table::load_vacation`]).
        let vacation = vacation_deadline
            .filter(|_| deadline.is_some())
            .and_then(|_| game.to_move())
            .map(|seat| crate::ws::protocol::VacationView {
                seat: seat.letter(),
                days_left: None,
            });
        let table = Table {
            state: TableState {
                id: record.id.clone().into(),
                seed: record.seed,
                takeback_offer: None,
                next: next_turn(&game),
                deadline,
                warned: false,
                vacation,
                settings: TableSettings {
                    variant,
                    private: record.private,
                    control,
                    days,
                    daily: record.daily.clone(),
                    practice: None,
                    rated: record.rated,
                    rating_range: record.rating_range,
                },
                token: record.invite_token.clone().unwrap_or_default(),
                host: record.host_id.clone(),
                seats,
                status: record.status,
                game,
                plies,
                clock,
                result: record.result,
                reason: record.end_reason.clone(),
                draw_offer: None,
                rematch_offer: None,
                // A table reloaded after its rematch began must not start a second one.
                rematch: record.rematch.clone(),
                chat: chat.into_iter().map(chat_view).collect(),
                chat_times: HashMap::new(),
                ratings: Vec::new(),
                created_at: record.created_at,
                started_at: record.started_at,
                rating_changes: {
                    let mut changes = vec![None; variant.game().info().seats as usize];
                    for seat in &record.seats {
                        if let Some(slot) = changes.get_mut(seat.seat as usize) {
                            *slot = seat.rating_change;
                        }
                    }
                    changes
                },
                presence: Presence::default(),
                day: services.day,
                held: true,
            },
            subscribers: HashMap::new(),
            bot_thinking: false,
            open_until: open_until(record.private, record.created_at),
            me: None,
            services,
        };
        Ok(table)
    }

    /// Starts the actor; the handle is how everyone else reaches it.
    pub fn spawn(mut self, runtime: &tokio::runtime::Handle) -> TableHandle {
        let (tx, rx) = mpsc::channel(64);
        self.me = Some(tx.downgrade());
        let handle = TableHandle::here(self.state.id.clone(), tx);
        runtime.spawn(self.run(rx));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.load_ratings().await;
        self.load_vacation().await;
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
                _ = tokio::time::sleep_until(self.open_until), if waiting => self.expire().await,
            }
        }
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
                Answer::Message(self.act(conn, &user, action).await?)
            }
            Call::View { user, token } => {
                self.state.may_watch(user.as_ref(), token.as_deref())?;
                let view = self.state.view(user.as_ref(), Instant::now());
                Answer::Value(Some(to_json(&view)))
            }
            Call::Playing { user } => {
                let entry = self.state.playing(&user, Instant::now(), unix_ms());
                Answer::Value(entry.map(|e| to_json(&e)))
            }
            Call::HintPosition { user } => Answer::Hint(self.state.hint_position(&user)?),
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

    async fn act(
        &mut self,
        conn: ConnId,
        user: &UserView,
        action: Action,
    ) -> Result<Option<Message>, WsError> {
        let now = Instant::now();
        let by = Orderer {
            user,
            subscribed: self.subscribers.contains_key(&conn),
        };
        match self.state.check(&by, &action, now)? {
            Step::Sit { index } => self.sit(user, index).await?,
            Step::Stand { seat } => self.stand(seat).await?,
            Step::Move { seat, mv, next } => self.play(seat, mv, *next).await?,
            Step::Finish {
                status,
                result,
                reason,
            } => self.finish(status, result, reason).await?,
            Step::Offer { kind, by } => {
                let effects = self.state.offer(kind, by);
                self.deliver(effects);
            }
            Step::Clear { kind } => {
                let effects = self.state.clear_offer(kind);
                self.deliver(effects);
            }
            Step::Rematch => self.start_rematch().await?,
            Step::TakeBack { keep } => self.take_back(keep).await?,
            Step::Chat { text, room } => self.chat(user, text, room, now).await?,
            Step::Voice { to, from } => {
                let Action::Voice { signal } = action else {
                    unreachable!("only a voice order relays a signal")
                };
                self.relay_voice(&to, from, signal);
            }
        }
        Ok(None)
    }

    /// Seats `user` at `index` once their rating admits them, and starts the game when the
    /// table is full.
    async fn sit(&mut self, user: &UserView, index: usize) -> Result<(), WsError> {
        let rating = self.rating_of(user).await?;
        self.state.admit(user, rating.as_ref())?;
        self.services
            .store
            .set_seat(
                &self.state.id,
                index as u8,
                Some(&store::Occupant::User(user.id.clone())),
            )
            .await?;
        let (effects, full) = self.state.apply_sit(user, index, rating);
        if full {
            self.start().await?;
        }
        self.deliver(effects);
        Ok(())
    }

    async fn stand(&mut self, seat: Seat) -> Result<(), WsError> {
        self.services
            .store
            .set_seat(&self.state.id, seat.index() as u8, None)
            .await?;
        let effects = self.state.apply_stand(seat);
        self.deliver(effects);
        if self.state.empty() {
            // Nobody is left to play: the table closes rather than wait in the lobby.
            self.finish(GameStatus::Aborted, None, "empty").await?;
        }
        Ok(())
    }

    /// Writes an accepted move, and only once it is stored applies it and tells everyone; a
    /// failed write leaves the game where it was and the mover gets the error.
    pub(super) async fn play(
        &mut self,
        seat: Seat,
        mv: String,
        next: AnyGame,
    ) -> Result<(), WsError> {
        let now = Instant::now();
        let mut clock = self.state.clock.clone();
        let remaining = clock.as_mut().map(|c| c.finish_turn(now));
        let played_at = unix_ms();
        self.services
            .store
            .append_move(
                &self.state.id,
                &store::MoveRow {
                    ply: self.state.plies.len() as u32 + 1,
                    mv: mv.clone(),
                    played_at,
                    clock_a_ms: remaining.map(|r| r[0]),
                    clock_b_ms: remaining.map(|r| r[1]),
                },
            )
            .await
            .map_err(|e| match e {
                store::StoreError::Conflict => WsError::new(
                    ErrorCode::StalePly,
                    "another move was recorded for this ply first",
                ),
                other => other.into(),
            })?;
        // Committed: now it is true, and everyone may hear of it.
        metrics::counter!("stolik_moves_total").increment(1);
        let effects = self.state.apply_move(
            Played {
                seat,
                mv,
                next,
                clock,
                remaining,
                played_at,
            },
            now,
        );
        self.deliver(effects);
        self.finish_if_decided().await
    }

    /// Every seat is taken: the game begins.
    pub async fn start(&mut self) -> Result<(), WsError> {
        let now = unix_ms();
        self.services.store.start_game(&self.state.id, now).await?;
        let effects = self.state.apply_start(now, Instant::now());
        self.update_presence();
        self.deliver(effects);
        // A solo game can be decided by its deal alone.
        if self.state.game.is_over() {
            self.finish_by_rules().await?;
        }
        Ok(())
    }

    /// Runs the clock of the side to move, once both sides have moved.
    /// Nobody came: the table closes as aborted, reason `expired`.
    async fn expire(&mut self) {
        if self.state.status != GameStatus::Open {
            return;
        }
        if let Err(e) = self.finish(GameStatus::Aborted, None, "expired").await {
            tracing::error!(table = %self.state.id, error = %e, "could not close an expired table");
            // Try again in a minute rather than spinning.
            self.open_until = Instant::now() + Duration::from_secs(60);
        }
    }

    /// Ends the hold of a restored table: its clock runs from now.
    fn release(&mut self) {
        if self.state.held {
            self.state.held = false;
            if self.state.status == GameStatus::Playing {
                self.state.start_clock(Instant::now());
            }
            self.update_presence();
        }
    }

    /// Tells the side to move something about this game (`Hub::notify` skips bots).
    fn notify_mover(&self, kind: &'static str) {
        if let Some(user) = self.state.mover() {
            let open = self.subscribers.values().any(|s| s.user.id == user.id);
            self.services
                .turns
                .notify_seen(&user.id, kind, &self.state.id, open);
        }
    }

    /// A day before a correspondence deadline (when the move was given more than a day), the
    /// side to move is told, once a move.
    fn warning_instant(&self) -> Option<Instant> {
        self.state.settings.days.filter(|d| *d > 1)?;
        if self.state.warned || self.state.held {
            return None;
        }
        Some(instant_at(
            self.state.deadline? - self.state.days(1).as_millis() as i64,
        ))
    }

    fn warn_of_deadline(&mut self) {
        self.state.warned = true;
        if self.state.status == GameStatus::Playing && self.state.deadline.is_some() {
            self.notify_mover("deadline");
        }
    }

    /// When the correspondence deadline passes, on the runtime's clock (none while held).
    fn deadline_instant(&self) -> Option<Instant> {
        self.state
            .deadline
            .filter(|_| !self.state.held)
            .map(instant_at)
    }

    /// Settles a fallen flag or a passed deadline, if any: a passed deadline takes a vacation
    /// day rather than end the game when its player has one to take.
    async fn check_flag(&mut self) {
        if self.take_vacation_day().await {
            return;
        }
        let Some(Step::Finish {
            status,
            result,
            reason,
        }) = self.state.timeout(Instant::now(), unix_ms())
        else {
            return;
        };
        if let Err(e) = self.finish(status, result, reason).await {
            tracing::error!(table = %self.state.id, error = %e, reason, "could not record a loss on time");
        }
    }
}

/// When a table still open at `created_ms` (unix ms) closes for want of players.
fn to_json(view: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(view).expect("views serialise")
}

fn open_until(private: bool, created_ms: i64) -> Instant {
    let ttl = if private {
        OPEN_PRIVATE_TTL
    } else {
        OPEN_PUBLIC_TTL
    };
    instant_at(created_ms.saturating_add(ttl.as_millis() as i64))
}

/// The runtime's instant for a wall-clock time (unix ms); now, if it has passed.
fn instant_at(at_ms: i64) -> Instant {
    Instant::now() + Duration::from_millis(at_ms.saturating_sub(unix_ms()).max(0) as u64)
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
