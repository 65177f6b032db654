//! A table: one game, its seats, clock, offers, chat and watchers.
//!
//! Each table is a task that owns its state and handles one command at a time from a bounded
//! channel (a cloneable [`TableHandle`] in front of an actor, as fishnet's `ApiStub`). That
//! single line of commands is what makes the move protocol simple and safe:
//! validate with the engine → commit to the database → only then tell anyone.

pub mod clock;
mod presence;
mod takeback;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use catalog::{AnyGame, Outcome, Seat};
use rabbit_solver::white_rabbit::WhiteRabbit;
use serde::Serialize;
use serde_json::Value;
use store::GameStatus;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Duration, Instant};

use crate::error::{ErrorCode, WsError};
use crate::hub::{ConnId, Frame, Hub, LobbyEntry, Outbox};
use crate::identity::{UserView, unix_ms};
use crate::ws::protocol::{Message, MoveEvent, NextTurn, OfferKind, encode};
use clock::{Clock, TimeControl};
pub use presence::AwayView;
use presence::Presence;

/// Legal-move lists longer than this are not sent (tumbleweed's opening setup has tens of
/// thousands of moves; clients derive those from the position).
const LEGAL_LIST_LIMIT: usize = 2_000;
/// Chat lines kept in memory and sent in snapshots.
const CHAT_TAIL: usize = 50;
const CHAT_MAX_CHARS: usize = 500;
/// At most this many chat lines per user per table in [`CHAT_WINDOW`].
const CHAT_BURST: usize = 5;
const CHAT_WINDOW: Duration = Duration::from_secs(10);
/// A finished table nobody watches is dropped from memory after this long (it stays in the
/// database and is reloaded on demand).
const IDLE_FINISHED: Duration = Duration::from_secs(600);
/// A public table nobody joins closes after this long (so the lobby does not fill up with
/// tables whose hosts are gone); a private one, waiting for a friend with the link, after a day.
const OPEN_PUBLIC_TTL: Duration = Duration::from_secs(30 * 60);
const OPEN_PRIVATE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

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
fn instant_at(at_ms: i64) -> Instant {
    Instant::now() + Duration::from_millis(at_ms.saturating_sub(unix_ms()).max(0) as u64)
}

/// Why a guest cannot play a rated game.
pub const RATED_FOR_ACCOUNTS: &str =
    "rated games are for accounts: sign up or log in to play one (guests play casual games)";

/// What a table is created with.
#[derive(Debug, Clone)]
pub struct TableSettings {
    pub variant: catalog::VariantId,
    pub private: bool,
    pub control: Option<TimeControl>,
    /// Correspondence: days for each move (then `control` is `None`).
    pub days: Option<u8>,
    /// The day (`YYYY-MM-DD`, UTC) whose White Rabbit daily deal this table plays: the
    /// player's one attempt of that day, ranked on its leaderboard.
    pub daily: Option<String>,
    /// The day whose (finished) daily deal this table replays for practice, unranked. Only
    /// used to pick the seed at creation; the stored game keeps the seed, not the day.
    pub practice: Option<String>,
    /// The result moves both players' ratings (accounts and bots only).
    pub rated: bool,
    /// Who may sit down: opponents rated within this range (lowest, highest).
    pub rating_range: Option<[i64; 2]>,
}

impl TableSettings {
    /// The rating class of this table's time control, for two-player games.
    pub fn rating_class(&self) -> Option<rating::Class> {
        (!self.variant.game().is_solo()).then(|| {
            rating::Class::of(
                self.control.map(|c| (c.initial_ms, c.increment_ms)),
                self.days,
            )
        })
    }
}

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

type Reply<T> = oneshot::Sender<Result<T, WsError>>;

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
        reply: Reply<(WhiteRabbit, u32)>,
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
    tx: mpsc::Sender<Command>,
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
    pub async fn hint_position(&self, user: UserView) -> Result<(WhiteRabbit, u32), WsError> {
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

/// A seat as clients see it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat: &'static str,
    /// How the game names this seat now (`a`, `b`, or a colour such as `r`).
    pub label: &'static str,
    pub user: Option<UserView>,
    /// The bot's level when a bot sits here.
    pub bot: Option<String>,
    /// The player's rating in this table's game and class (none for guests and solo games).
    pub rating: Option<SeatRating>,
    /// How much a rated game that has ended changed it.
    pub rating_change: Option<i32>,
}

/// A rating as a table shows it next to a name.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SeatRating {
    pub rating: i32,
    pub provisional: bool,
}

impl From<&rating::Rating> for SeatRating {
    fn from(r: &rating::Rating) -> SeatRating {
        SeatRating {
            rating: r.shown(),
            provisional: r.provisional(),
        }
    }
}

/// One seat's rating change at the end of a rated game.
#[derive(Debug, Clone, Serialize)]
pub struct RatingEnd {
    pub before: i32,
    pub after: i32,
    pub change: i32,
    pub provisional: bool,
}

/// A bot in a seat is a user with a reserved id (`bot:easy`); real ids never contain `:`.
pub fn bot_user(level: ai::Level) -> UserView {
    UserView {
        id: format!("bot:{level}"),
        name: format!("Stolik bot ({level})"),
        guest: false,
    }
}

/// The level of the bot this user stands for, if it is one.
pub fn bot_level(user: &UserView) -> Option<ai::Level> {
    user.id.strip_prefix("bot:")?.parse().ok()
}

#[derive(Debug, Clone, Serialize)]
pub struct ChatView {
    /// The line's id, for reporting it.
    pub id: i64,
    pub author: String,
    pub user: Option<String>,
    pub text: String,
    pub at: i64,
    /// Written by a player (`players`) or by someone watching (`spectators`).
    pub room: store::ChatRoom,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    pub initial_ms: u64,
    pub increment_ms: u64,
    pub remaining_ms: [i64; 2],
    pub running: Option<&'static str>,
}

/// A full snapshot of a table for one viewer.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    pub id: String,
    pub game: &'static str,
    pub variant: &'static str,
    pub private: bool,
    pub status: &'static str,
    pub host: Option<String>,
    pub seats: Vec<SeatView>,
    /// The viewer's seat, if seated.
    pub you: Option<&'static str>,
    /// The private link's token, shown to the host and the seated players only.
    pub invite: Option<String>,
    pub ply: u32,
    pub moves: Vec<String>,
    pub position: String,
    pub to_move: Option<&'static str>,
    pub turn: &'static str,
    pub legal: Vec<String>,
    pub legal_truncated: bool,
    pub clock: Option<ClockView>,
    /// Correspondence: days for each move, and the unix ms by which the side to move must
    /// move (once it passes that side loses on time, or the game is aborted if a side has
    /// not moved yet).
    pub days: Option<u8>,
    pub deadline: Option<i64>,
    pub result: Option<Outcome>,
    pub reason: Option<String>,
    pub draw_offer: Option<&'static str>,
    /// The seat that asked to take back its last move.
    pub takeback_offer: Option<&'static str>,
    pub rematch_offer: Option<&'static str>,
    pub rematch: Option<String>,
    pub chat: Vec<ChatView>,
    /// The day whose White Rabbit daily deal this is.
    pub daily: Option<String>,
    pub rated: bool,
    /// The rating class (`blitz`, `rapid`, `correspondence`) of a two-player table.
    pub rating_class: Option<&'static str>,
    pub rating_range: Option<[i64; 2]>,
    /// A player of a live game who has no connection left, and when their opponent may claim.
    pub away: Option<AwayView>,
    /// The viewer may claim this game now (their opponent has been away long enough).
    pub claim: bool,
}

/// A game in progress as its player's list shows it.
#[derive(Debug, Clone, Serialize)]
pub struct PlayingEntry {
    pub id: String,
    pub game: &'static str,
    pub variant: &'static str,
    pub private: bool,
    /// `open` (waiting for an opponent) or `playing`.
    pub status: &'static str,
    /// The player's seat.
    pub you: &'static str,
    pub your_turn: bool,
    pub to_move: Option<&'static str>,
    /// The other seat (a person, a bot, or empty); absent at a solo table.
    pub opponent: Option<SeatView>,
    pub ply: u32,
    pub clock: Option<ClockView>,
    pub days: Option<u8>,
    pub deadline: Option<i64>,
    /// The player's own time left: on their clock, or until the deadline of the move they
    /// have to play.
    pub time_left_ms: Option<i64>,
    pub daily: Option<String>,
}

struct Subscriber {
    user: UserView,
    out: Outbox,
}

/// One played move as kept in memory, for catch-up.
struct Ply {
    mv: String,
    by: Seat,
    position: String,
    clock: Option<[i64; 2]>,
}

pub struct Table {
    id: Arc<str>,
    /// The deal the game started from (replayed after a takeback).
    seed: u64,
    settings: TableSettings,
    token: String,
    host: Option<String>,
    seats: Vec<Option<UserView>>,
    status: GameStatus,
    game: AnyGame,
    plies: Vec<Ply>,
    clock: Option<Clock>,
    /// Correspondence: the unix ms by which the side to move must move.
    deadline: Option<i64>,
    /// The side to move has been told its deadline is near.
    warned: bool,
    result: Option<Outcome>,
    reason: Option<String>,
    draw_offer: Option<Seat>,
    /// A player asked to take back their last move.
    takeback_offer: Option<Seat>,
    rematch_offer: Option<Seat>,
    rematch: Option<String>,
    chat: VecDeque<ChatView>,
    chat_times: HashMap<String, VecDeque<Instant>>,
    subscribers: HashMap<ConnId, Subscriber>,
    /// A bot is thinking about the current position (on the blocking pool).
    bot_thinking: bool,
    /// Restored at start-up and not yet released: no clock runs and no bot thinks until the
    /// server takes requests ([`Command::Release`]), so nobody is charged for the start-up.
    held: bool,
    /// When the table closes if it is still waiting for players then.
    open_until: Instant,
    /// Who moves next and their legal moves, computed once per position (every snapshot
    /// and move event carries it).
    next: NextTurn,
    /// This actor's own address, for answers from bots thinking on other threads.
    me: Option<mpsc::WeakSender<Command>>,
    /// Each seat's rating in this table's game and class, and its change once a rated game
    /// has ended.
    ratings: Vec<Option<rating::Rating>>,
    rating_changes: Vec<Option<i32>>,
    /// When the game began (unix ms).
    started_at: Option<i64>,
    /// Players of a live two-person game who have left.
    presence: Presence,
    hub: Hub,
}

/// What a new table starts from.
pub struct NewTable {
    pub id: String,
    pub settings: TableSettings,
    pub seed: u64,
    pub token: String,
    pub host: Option<UserView>,
    pub seats: Vec<Option<UserView>>,
}

impl Table {
    pub fn new(new: NewTable, hub: Hub) -> Table {
        let game = AnyGame::new(new.settings.variant, new.seed);
        Table {
            id: new.id.into(),
            seed: new.seed,
            takeback_offer: None,
            next: next_turn(&game),
            clock: new.settings.control.map(Clock::new),
            deadline: None,
            warned: false,
            open_until: open_until(new.settings.private, unix_ms()),
            settings: new.settings,
            token: new.token,
            host: new.host.map(|h| h.id),
            seats: new.seats,
            status: GameStatus::Open,
            game,
            plies: Vec::new(),
            result: None,
            reason: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            chat: VecDeque::new(),
            chat_times: HashMap::new(),
            subscribers: HashMap::new(),
            bot_thinking: false,
            held: false,
            me: None,
            ratings: Vec::new(),
            rating_changes: Vec::new(),
            started_at: None,
            presence: Presence::default(),
            hub,
        }
    }

    /// Rebuilds a table from its stored record by replaying its moves; the clock resumes from
    /// the times stored with the last move (downtime is not charged to anyone) once the table
    /// is released ([`TableHandle::release`]).
    pub fn restore(
        record: &store::GameRecord,
        chat: Vec<store::ChatLine>,
        hub: Hub,
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
        let deadline = days
            .filter(|_| record.status == store::GameStatus::Playing)
            .map(|d| {
                let since = record
                    .moves
                    .last()
                    .map(|m| m.played_at)
                    .or(record.started_at)
                    .unwrap_or(record.created_at);
                since + hub.days(d).as_millis() as i64
            });
        let table = Table {
            id: record.id.clone().into(),
            seed: record.seed,
            takeback_offer: None,
            next: next_turn(&game),
            deadline,
            warned: false,
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
            subscribers: HashMap::new(),
            bot_thinking: false,
            held: true,
            open_until: open_until(record.private, record.created_at),
            me: None,
            ratings: Vec::new(),
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
            hub,
        };
        Ok(table)
    }

    /// Starts the actor; the handle is how everyone else reaches it.
    pub fn spawn(mut self, runtime: &tokio::runtime::Handle) -> TableHandle {
        let (tx, rx) = mpsc::channel(64);
        self.me = Some(tx.downgrade());
        let handle = TableHandle {
            id: self.id.clone(),
            tx,
        };
        runtime.spawn(self.run(rx));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.load_ratings().await;
        self.publish_lobby();
        self.publish_turn();
        self.publish_live();
        loop {
            if !self.held {
                self.ask_bot_if_its_turn();
            }
            let deadline = self
                .clock
                .as_ref()
                .and_then(Clock::deadline)
                .into_iter()
                .chain(self.deadline_instant())
                .min();
            let warn_at = self.warning_instant();
            let absence = self.presence.next_deadline();
            let idle = matches!(self.status, GameStatus::Finished | GameStatus::Aborted)
                && self.subscribers.is_empty();
            let waiting = self.status == GameStatus::Open;
            tokio::select! {
                command = rx.recv() => match command {
                    Some(Command::Stop { done }) => {
                        let _ = done.send(());
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
        self.hub.forget_table(&self.id);
        self.hub.live().remove(&self.id);
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Subscribe {
                conn,
                user,
                out,
                token,
                since,
                reply,
            } => {
                let result = self.subscribe(conn, user, out, token, since);
                let _ = reply.send(result);
                self.watchers_changed();
            }
            Command::Unsubscribe { conn } => {
                self.subscribers.remove(&conn);
                self.watchers_changed();
            }
            Command::Act {
                conn,
                user,
                action,
                reply,
            } => {
                // A request can only come once the server serves: a table loaded on demand
                // is released by it.
                self.release();
                // A flag may have fallen since the last timer tick: settle it first so that
                // no move is accepted after time ran out.
                self.check_flag().await;
                let result = self.act(conn, &user, action).await;
                let _ = reply.send(result);
            }
            Command::View { user, token, reply } => {
                let result = self
                    .may_watch(user.as_ref(), token.as_deref())
                    .map(|()| self.view(user.as_ref()));
                let _ = reply.send(result);
            }
            Command::Playing { user, reply } => {
                let _ = reply.send(self.playing(&user));
            }
            Command::HintPosition { user, reply } => {
                let _ = reply.send(self.hint_position(&user));
            }
            Command::BotMove { ply, mv } => {
                self.bot_thinking = false;
                self.check_flag().await;
                self.play_bot_move(ply, mv).await;
            }
            Command::Release => self.release(),
            Command::Stop { done } => {
                let _ = done.send(());
            }
        }
    }

    fn may_watch(&self, user: Option<&UserView>, token: Option<&str>) -> Result<(), WsError> {
        let insider = user.is_some_and(|u| {
            self.seat_of(&u.id).is_some() || self.host.as_deref() == Some(u.id.as_str())
        });
        if !self.settings.private || insider || token == Some(self.token.as_str()) {
            Ok(())
        } else {
            Err(WsError::new(
                ErrorCode::Forbidden,
                "this table is private: open it through its invitation link",
            ))
        }
    }

    fn subscribe(
        &mut self,
        conn: ConnId,
        user: UserView,
        out: Outbox,
        token: Option<String>,
        since: Option<u32>,
    ) -> Result<Message, WsError> {
        self.may_watch(Some(&user), token.as_deref())?;
        let state = Box::new(without_muted(self.view(Some(&user)), &out.muted));
        self.subscribers.insert(conn, Subscriber { user, out });
        Ok(match since {
            Some(since) if (since as usize) <= self.plies.len() => Message::Catchup {
                table: self.id.to_string(),
                moves: (since as usize..self.plies.len())
                    .map(|i| self.move_event(i))
                    .collect(),
                state,
            },
            _ => Message::Table { table: state },
        })
    }

    fn seat_of(&self, user_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|u| u.id == user_id))
            .and_then(Seat::from_index)
    }

    fn seated(&self, user: &UserView) -> Result<Seat, WsError> {
        self.seat_of(&user.id).ok_or_else(|| {
            WsError::new(
                ErrorCode::NotSeated,
                "only the players at this table may do that",
            )
        })
    }

    fn require(&self, status: GameStatus, what: &str) -> Result<(), WsError> {
        if self.status == status {
            Ok(())
        } else {
            Err(WsError::new(
                ErrorCode::WrongState,
                format!(
                    "{what} needs a {} game; this one is {}",
                    status.as_str(),
                    self.status.as_str()
                ),
            ))
        }
    }

    async fn act(
        &mut self,
        conn: ConnId,
        user: &UserView,
        action: Action,
    ) -> Result<Option<Message>, WsError> {
        match action {
            Action::Sit { seat, token } => self.sit(user, seat, token.as_deref()).await,
            Action::Stand => self.stand(user).await,
            Action::Move { mv, ply } => self.play(user, &mv, ply).await,
            Action::Resign => {
                let seat = self.seated(user)?;
                self.require(GameStatus::Playing, "resigning")?;
                // Giving up a solo puzzle is a loss.
                let result = match self.seats.len() {
                    1 => Outcome::SoloLost,
                    _ => Outcome::Win(seat.other()),
                };
                self.finish(GameStatus::Finished, Some(result), "resign")
                    .await?;
                Ok(None)
            }
            Action::Abort => {
                self.seated(user)?;
                self.require(GameStatus::Playing, "aborting")?;
                if self.plies.len() >= self.seats.len() {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                self.finish(GameStatus::Aborted, None, "abort").await?;
                Ok(None)
            }
            Action::DrawOffer => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "a draw offer")?;
                if self.bot_opposite(seat).is_some() {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "bots play every game to its end: they take no draws",
                    ));
                }
                if self.draw_offer == Some(seat.other()) {
                    return self.agree_draw().await;
                }
                self.draw_offer = Some(seat);
                self.broadcast(&Message::Offer {
                    table: self.id.to_string(),
                    kind: OfferKind::Draw,
                    by: Some(seat.letter()),
                });
                if self.settings.days.is_some()
                    && let Some(other) = &self.seats[seat.other().index()]
                {
                    self.hub.notify(&other.id, "draw_offer", &self.id);
                }
                Ok(None)
            }
            Action::DrawAccept => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "accepting a draw")?;
                if self.draw_offer != Some(seat.other()) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "no draw was offered to you",
                    ));
                }
                self.agree_draw().await
            }
            Action::DrawDecline => {
                let seat = self.two_player_seat(user)?;
                if self.draw_offer != Some(seat.other()) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "no draw was offered to you",
                    ));
                }
                self.draw_offer = None;
                self.broadcast_offer_cleared(OfferKind::Draw);
                Ok(None)
            }
            Action::RematchOffer | Action::RematchAccept => {
                let seat = self.seated(user)?;
                if !matches!(self.status, GameStatus::Finished | GameStatus::Aborted) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "a rematch can be offered once the game is over",
                    ));
                }
                if let Some(next) = &self.rematch {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        format!("the rematch is already at table {next}"),
                    ));
                }
                let offered_to_me = self.rematch_offer.is_some_and(|s| s != seat);
                // A bot always wants another game.
                let bot = self.seats.len() == 2 && self.bot_opposite(seat).is_some();
                if offered_to_me || self.seats.len() == 1 || bot {
                    return self.start_rematch().await;
                }
                if matches!(action, Action::RematchAccept) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "no rematch was offered to you",
                    ));
                }
                self.rematch_offer = Some(seat);
                self.broadcast(&Message::Offer {
                    table: self.id.to_string(),
                    kind: OfferKind::Rematch,
                    by: Some(seat.letter()),
                });
                Ok(None)
            }
            Action::RematchDecline => {
                let seat = self.seated(user)?;
                if self.rematch_offer.is_none_or(|s| s == seat) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "no rematch was offered to you",
                    ));
                }
                self.rematch_offer = None;
                self.broadcast_offer_cleared(OfferKind::Rematch);
                Ok(None)
            }
            Action::Claim { draw } => {
                let seat = self.two_player_seat(user)?;
                self.require(GameStatus::Playing, "claiming the game")?;
                if !self.presence.may_claim(seat) {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "you can claim the game only once your opponent has been gone a while",
                    ));
                }
                let result = if draw {
                    Outcome::Draw
                } else {
                    Outcome::Win(seat)
                };
                self.finish(GameStatus::Finished, Some(result), "abandoned")
                    .await?;
                Ok(None)
            }
            Action::TakebackOffer => self.takeback_offer(user).await,
            Action::TakebackAccept => self.takeback_answer(user, true).await,
            Action::TakebackDecline => self.takeback_answer(user, false).await,
            Action::Chat { text } => self.chat(conn, user, &text).await,
            Action::Voice { signal } => {
                let seat = self.two_player_seat(user)?;
                let other = self.seats[seat.other().index()]
                    .as_ref()
                    .map(|u| u.id.clone());
                let Some(other) = other else {
                    return Err(WsError::new(
                        ErrorCode::WrongState,
                        "nobody sits opposite you",
                    ));
                };
                let text = Frame::from(encode(
                    None,
                    &Message::Voice {
                        table: self.id.to_string(),
                        from: seat.letter(),
                        signal,
                    },
                ));
                for sub in self.subscribers.values().filter(|s| s.user.id == other) {
                    sub.out.send(text.clone());
                }
                Ok(None)
            }
        }
    }

    fn playing(&self, user_id: &str) -> Option<PlayingEntry> {
        let you = self.seat_of(user_id)?;
        if !matches!(self.status, GameStatus::Open | GameStatus::Playing) {
            return None;
        }
        let playing = self.status == GameStatus::Playing;
        let to_move = self.game.to_move().filter(|_| playing);
        let opponent = (self.seats.len() == 2).then(|| self.seat_view(you.other()));
        let clock = self.clock_view(Instant::now());
        Some(PlayingEntry {
            id: self.id.to_string(),
            game: self.settings.variant.game().as_str(),
            variant: self.settings.variant.as_str(),
            private: self.settings.private,
            status: self.status.as_str(),
            you: you.letter(),
            your_turn: to_move == Some(you),
            to_move: to_move.map(Seat::letter),
            opponent,
            ply: self.plies.len() as u32,
            time_left_ms: clock
                .as_ref()
                .map(|c| c.remaining_ms[you.index()])
                .or_else(|| {
                    self.deadline
                        .filter(|_| to_move == Some(you))
                        .map(|d| (d - unix_ms()).max(0))
                }),
            clock,
            days: self.settings.days,
            deadline: self.deadline,
            daily: self.settings.daily.clone(),
        })
    }

    fn hint_position(&self, user: &UserView) -> Result<(WhiteRabbit, u32), WsError> {
        let AnyGame::WhiteRabbit(game) = &self.game else {
            return Err(WsError::bad_request("hints are for White Rabbit tables"));
        };
        self.seated(user)?;
        self.require(GameStatus::Playing, "give hints")?;
        if self.settings.daily.is_some() {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "no hints on the daily deal: everyone plays it on their own",
            ));
        }
        Ok((game.clone(), self.plies.len() as u32))
    }

    /// When a bot is to move, lets it think on the CPU pool (never on the tables' runtime,
    /// and below the tables' priority); its answer comes back as [`Command::BotMove`].
    fn ask_bot_if_its_turn(&mut self) {
        if self.bot_thinking || self.status != GameStatus::Playing {
            return;
        }
        let Some(seat) = self.game.to_move() else {
            return;
        };
        let Some(level) = self.seats[seat.index()].as_ref().and_then(bot_level) else {
            return;
        };
        let Some(me) = self.me.as_ref().and_then(mpsc::WeakSender::upgrade) else {
            return;
        };
        self.bot_thinking = true;
        let game = self.game.clone();
        let ply = self.plies.len() as u32;
        let seed: u64 = rand::random();
        let budget = self.hub.bot_budget(level);
        self.hub.cpu().spawn(move || {
            let mv = ai::choose_move(&game, level, budget, seed);
            let _ = me.blocking_send(Command::BotMove { ply, mv });
        });
    }

    /// Plays a bot's move through the same checks and log as a person's.
    async fn play_bot_move(&mut self, ply: u32, mv: Option<String>) {
        let stale = ply as usize != self.plies.len() || self.status != GameStatus::Playing;
        let Some(mv) = mv.filter(|_| !stale) else {
            return;
        };
        let Some(bot) = self.mover().cloned() else {
            return;
        };
        if let Err(e) = self.play(&bot, &mv, Some(ply)).await {
            tracing::error!(table = %self.id, %mv, error = %e, "a bot's move was refused");
        }
    }

    /// The bot sitting opposite `seat`, if any.
    fn bot_opposite(&self, seat: Seat) -> Option<ai::Level> {
        self.seats
            .get(seat.other().index())?
            .as_ref()
            .and_then(bot_level)
    }

    fn seat_labels(&self) -> Vec<&'static str> {
        (0..self.seats.len())
            .filter_map(Seat::from_index)
            .map(|seat| self.game.seat_label(seat))
            .collect()
    }

    fn two_player_seat(&self, user: &UserView) -> Result<Seat, WsError> {
        if self.seats.len() != 2 {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "this needs an opponent: a solo table has none",
            ));
        }
        self.seated(user)
    }

    async fn sit(
        &mut self,
        user: &UserView,
        seat: Option<u8>,
        token: Option<&str>,
    ) -> Result<Option<Message>, WsError> {
        self.require(GameStatus::Open, "sitting down")?;
        self.may_watch(Some(user), token)?;
        if self.seat_of(&user.id).is_some() {
            return Err(WsError::new(
                ErrorCode::SeatTaken,
                "you already sit at this table",
            ));
        }
        let index = match seat {
            Some(i) => {
                let i = i as usize;
                if i >= self.seats.len() {
                    return Err(WsError::bad_request(format!("this table has no seat {i}")));
                }
                if self.seats[i].is_some() {
                    return Err(WsError::new(ErrorCode::SeatTaken, "that seat is taken"));
                }
                i
            }
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .ok_or_else(|| WsError::new(ErrorCode::SeatTaken, "every seat is taken"))?,
        };
        let rating = self.rating_of(user).await?;
        if self.settings.rated && user.guest {
            return Err(WsError::forbidden(RATED_FOR_ACCOUNTS));
        }
        if let Some([low, high]) = self.settings.rating_range {
            let shown = i64::from(rating.map_or(rating::Rating::default().shown(), |r| r.shown()));
            if !(low..=high).contains(&shown) {
                return Err(WsError::forbidden(format!(
                    "this table is for players rated {low} to {high}; you are {shown}"
                )));
            }
        }
        let store = self.hub.store();
        store
            .set_seat(
                &self.id,
                index as u8,
                Some(&store::Occupant::User(user.id.clone())),
            )
            .await?;
        self.seats[index] = Some(user.clone());
        self.ratings.resize(self.seats.len(), None);
        self.ratings[index] = rating;
        if let Some(host) = self.host.as_deref().filter(|h| *h != user.id) {
            self.hub.notify(host, "joined", &self.id);
        }
        if self.seats.iter().all(Option::is_some) {
            self.start().await?;
        }
        self.broadcast_snapshots();
        self.publish_lobby();
        Ok(None)
    }

    async fn stand(&mut self, user: &UserView) -> Result<Option<Message>, WsError> {
        let seat = self.seated(user)?;
        self.require(GameStatus::Open, "standing up")?;
        self.hub
            .store()
            .set_seat(&self.id, seat.index() as u8, None)
            .await?;
        self.seats[seat.index()] = None;
        self.broadcast_snapshots();
        self.publish_lobby();
        Ok(None)
    }

    /// Every seat is taken: the game begins.
    pub async fn start(&mut self) -> Result<(), WsError> {
        let now = unix_ms();
        self.hub.store().start_game(&self.id, now).await?;
        self.status = GameStatus::Playing;
        self.started_at = Some(now);
        self.start_clock(Instant::now());
        self.set_deadline(unix_ms());
        self.publish_turn();
        self.update_presence();
        self.publish_live();
        // A solo game can be decided by its deal alone.
        if self.game.is_over() {
            self.finish_by_rules().await?;
        }
        Ok(())
    }

    /// Runs the clock of the side to move, once both sides have moved.
    /// Nobody came: the table closes as aborted, reason `expired`.
    async fn expire(&mut self) {
        if self.status != GameStatus::Open {
            return;
        }
        if let Err(e) = self.finish(GameStatus::Aborted, None, "expired").await {
            tracing::error!(table = %self.id, error = %e, "could not close an expired table");
            // Try again in a minute rather than spinning.
            self.open_until = Instant::now() + Duration::from_secs(60);
        }
    }

    /// Ends the hold of a restored table: its clock runs from now.
    fn release(&mut self) {
        if self.held {
            self.held = false;
            if self.status == GameStatus::Playing {
                self.start_clock(Instant::now());
            }
            self.update_presence();
        }
    }

    /// Correspondence: the move to play now is due `days` after `from_ms`.
    fn set_deadline(&mut self, from_ms: i64) {
        self.deadline = self
            .settings
            .days
            .filter(|_| self.status == GameStatus::Playing)
            .map(|d| from_ms + self.hub.days(d).as_millis() as i64);
    }

    /// Who sits at the side to move, if anyone.
    fn mover(&self) -> Option<&UserView> {
        let seat = self.game.to_move()?;
        self.seats.get(seat.index())?.as_ref()
    }

    /// Tells the side to move something about this game (`Hub::notify` skips bots).
    fn notify_mover(&self, kind: &'static str) {
        if let Some(user) = self.mover() {
            self.hub.notify(&user.id, kind, &self.id);
        }
    }

    /// A day before a correspondence deadline (when the move was given more than a day), the
    /// side to move is told, once a move.
    fn warning_instant(&self) -> Option<Instant> {
        self.settings.days.filter(|d| *d > 1)?;
        if self.warned || self.held {
            return None;
        }
        Some(instant_at(
            self.deadline? - self.hub.days(1).as_millis() as i64,
        ))
    }

    fn warn_of_deadline(&mut self) {
        self.warned = true;
        if self.status == GameStatus::Playing && self.deadline.is_some() {
            self.notify_mover("deadline");
        }
    }

    /// When the correspondence deadline passes, on the runtime's clock (none while held).
    fn deadline_instant(&self) -> Option<Instant> {
        self.deadline.filter(|_| !self.held).map(instant_at)
    }

    fn start_clock(&mut self, now: Instant) {
        let both_moved = self.plies.len() >= 2;
        if let (Some(clock), Some(seat)) = (self.clock.as_mut(), self.game.to_move())
            && both_moved
        {
            clock.start(seat, now);
        }
    }

    async fn play(
        &mut self,
        user: &UserView,
        mv: &str,
        ply: Option<u32>,
    ) -> Result<Option<Message>, WsError> {
        let seat = self.seated(user)?;
        self.require(GameStatus::Playing, "a move")?;
        if self.game.to_move() != Some(seat) {
            return Err(WsError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        if let Some(ply) = ply
            && ply as usize != self.plies.len()
        {
            return Err(WsError::new(
                ErrorCode::StalePly,
                format!(
                    "the game is at ply {}, not {ply}: resubscribe",
                    self.plies.len()
                ),
            ));
        }
        let mut next = self.game.clone();
        next.play_text(mv)
            .map_err(|e| WsError::new(ErrorCode::IllegalMove, e.to_string()))?;
        let labels_before = self.seat_labels();

        let now = Instant::now();
        let mut clock = self.clock.clone();
        let remaining = clock.as_mut().map(|c| c.finish_turn(now));
        let ply_number = self.plies.len() as u32 + 1;
        let played_at = unix_ms();
        self.hub
            .store()
            .append_move(
                &self.id,
                &store::MoveRow {
                    ply: ply_number,
                    mv: mv.to_string(),
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
        self.next = next_turn(&next);
        self.game = next;
        self.clock = clock;
        self.plies.push(Ply {
            mv: mv.to_string(),
            by: seat,
            position: self.game.view(None),
            clock: remaining,
        });
        if self.draw_offer == Some(seat.other()) {
            // Moving on is declining.
            self.draw_offer = None;
        }
        // A takeback asked for belongs to the position it was asked in.
        self.takeback_offer = None;
        self.start_clock(now);
        self.set_deadline(played_at);
        self.warned = false;
        self.publish_turn();
        if self.settings.days.is_some() && !self.game.is_over() {
            self.notify_mover("your_turn");
        }
        let mut event = self.move_event(self.plies.len() - 1);
        event.next = Some(self.next.clone());
        self.broadcast(&Message::Move(event));
        self.hub.live().set_ply(&self.id, self.plies.len() as u32);
        if self.seat_labels() != labels_before {
            // Tumbleweed's colour choice renames the seats: everyone gets the new snapshot.
            self.broadcast_snapshots();
        }
        if self.game.is_over() {
            self.finish_by_rules().await?;
        }
        Ok(None)
    }

    async fn finish_by_rules(&mut self) -> Result<(), WsError> {
        let result = self.game.outcome();
        self.finish(GameStatus::Finished, result, "rules").await
    }

    async fn agree_draw(&mut self) -> Result<Option<Message>, WsError> {
        self.finish(GameStatus::Finished, Some(Outcome::Draw), "agreement")
            .await?;
        Ok(None)
    }

    async fn finish(
        &mut self,
        status: GameStatus,
        result: Option<Outcome>,
        reason: &str,
    ) -> Result<(), WsError> {
        let rated = self.rated_end(status, result);
        let ratings = match (&rated, &result) {
            (Some(end), Some(result)) => {
                let changes = self
                    .hub
                    .store()
                    .finish_rated_game(&self.id, *result, reason, unix_ms(), end)
                    .await?;
                Some(self.apply_rating_changes(&changes))
            }
            _ => {
                self.hub
                    .store()
                    .finish_game(&self.id, status, result, reason, unix_ms())
                    .await?;
                None
            }
        };
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(Instant::now());
        }
        self.status = status;
        self.result = result;
        self.reason = Some(reason.to_string());
        self.deadline = None;
        self.publish_turn();
        if self.settings.days.is_some() && status == GameStatus::Finished {
            for user in self.seats.iter().flatten() {
                self.hub.notify(&user.id, "game_over", &self.id);
            }
        }
        self.record_daily_result().await;
        self.draw_offer = None;
        self.presence.clear();
        let rated = ratings.is_some();
        self.broadcast(&Message::End {
            table: self.id.to_string(),
            status: status.as_str(),
            result,
            reason: reason.to_string(),
            ratings,
        });
        if rated {
            // The seats now carry the new ratings and their changes.
            self.broadcast_snapshots();
        }
        self.publish_lobby();
        self.publish_live();
        Ok(())
    }

    /// What a rated ending needs: both players' rating keys and the first seat's score.
    /// `None` when this ending moves no rating (casual, aborted, solo, or no result).
    fn rated_end(
        &self,
        status: GameStatus,
        result: Option<Outcome>,
    ) -> Option<store::RatedEnd<'_>> {
        if !self.settings.rated || status != GameStatus::Finished || self.seats.len() != 2 {
            return None;
        }
        let first_scored = match result? {
            Outcome::Win(Seat::A) => rating::Score::Win,
            Outcome::Win(_) => rating::Score::Loss,
            Outcome::Draw => rating::Score::Draw,
            Outcome::SoloWon { .. } | Outcome::SoloLost => return None,
        };
        let a = self.seats[0].as_ref()?;
        let b = self.seats[1].as_ref()?;
        Some(store::RatedEnd {
            game: self.settings.variant.game().as_str(),
            class: self.settings.rating_class()?,
            players: [a.id.as_str(), b.id.as_str()],
            first_scored,
        })
    }

    /// Keeps the new ratings for the snapshots; returns what the `end` message says of them.
    fn apply_rating_changes(
        &mut self,
        changes: &[store::RatingChange; 2],
    ) -> std::collections::BTreeMap<&'static str, RatingEnd> {
        self.ratings = changes.iter().map(|c| Some(c.after)).collect();
        self.rating_changes = changes.iter().map(|c| Some(c.shown_change())).collect();
        changes
            .iter()
            .zip([Seat::A, Seat::B])
            .map(|(change, seat)| {
                (
                    seat.letter(),
                    RatingEnd {
                        before: change.before.shown(),
                        after: change.after.shown(),
                        change: change.shown_change(),
                        provisional: change.after.provisional(),
                    },
                )
            })
            .collect()
    }

    /// The rating `user` has in this table's game and class: `None` for guests and at solo
    /// tables.
    async fn rating_of(&self, user: &UserView) -> Result<Option<rating::Rating>, WsError> {
        let Some(class) = self.settings.rating_class() else {
            return Ok(None);
        };
        if user.guest {
            return Ok(None);
        }
        Ok(Some(
            self.hub
                .store()
                .rating(&user.id, self.settings.variant.game().as_str(), class)
                .await?,
        ))
    }

    /// Reads the seated players' ratings, for the snapshots; a failure leaves them unknown
    /// rather than stopping the table.
    async fn load_ratings(&mut self) {
        let mut ratings = Vec::with_capacity(self.seats.len());
        for user in self.seats.clone() {
            let rating = match &user {
                Some(user) => self.rating_of(user).await.unwrap_or_else(|e| {
                    tracing::warn!(table = %self.id, error = %e, "could not read a rating");
                    None
                }),
                None => None,
            };
            ratings.push(rating);
        }
        self.ratings = ratings;
        self.rating_changes.resize(self.seats.len(), None);
    }

    /// Someone subscribed or left: the players' presence and the live list's count of
    /// watchers may have changed.
    fn watchers_changed(&mut self) {
        if self.update_presence() {
            self.broadcast_snapshots();
        }
        self.publish_live();
    }

    /// Notes which players of a live two-person game have no connection left. True when that
    /// changed.
    fn update_presence(&mut self) -> bool {
        let counts = self.status == GameStatus::Playing
            && !self.held
            && self.settings.days.is_none()
            && self.seats.len() == 2
            && self
                .seats
                .iter()
                .all(|s| s.as_ref().is_some_and(|u| bot_level(u).is_none()));
        if !counts {
            return self.presence.clear();
        }
        let connected = [0, 1].map(|i| {
            let id = self.seats[i].as_ref().map(|u| u.id.as_str());
            self.subscribers
                .values()
                .any(|sub| Some(sub.user.id.as_str()) == id)
        });
        let grace = self.hub.abandon_grace();
        let remaining = self.clock_view(Instant::now()).map(|c| c.remaining_ms);
        let grace = [0, 1].map(|i| match remaining {
            Some(r) => grace.min(Duration::from_millis(r[i].max(0) as u64)),
            None => grace,
        });
        self.presence.update(connected, grace)
    }

    /// A player's grace period ran out: before both sides have moved the game is called
    /// off; after, their opponent may claim it.
    async fn absence_expired(&mut self) {
        let gone = self.presence.expire(Instant::now());
        if gone.is_empty() || self.status != GameStatus::Playing {
            return;
        }
        if self.plies.len() < self.seats.len() {
            if let Err(e) = self.finish(GameStatus::Aborted, None, "abandoned").await {
                tracing::error!(table = %self.id, error = %e, "could not call off an abandoned game");
            }
            return;
        }
        self.broadcast_snapshots();
    }

    /// A won daily deal goes on that day's leaderboard (score, then fewest actions). The game
    /// itself is already stored, so a failure here is logged rather than undoing the end.
    async fn record_daily_result(&self) {
        let (Some(day), Some(Outcome::SoloWon { score }), Some(Some(player))) = (
            &self.settings.daily,
            self.game.outcome(),
            self.seats.first(),
        ) else {
            return;
        };
        let result = store::DailyResult {
            day: day.clone(),
            user_id: player.id.clone(),
            game_id: self.id.to_string(),
            score: score as i32,
            actions: self.plies.len() as u32,
            finished_at: unix_ms(),
        };
        if let Err(e) = self.hub.store().record_daily(&result).await {
            tracing::error!(table = %self.id, error = %e, "could not record a daily result");
        }
    }

    async fn check_flag(&mut self) {
        if self.status != GameStatus::Playing {
            return;
        }
        if self.deadline.is_some_and(|d| unix_ms() >= d) && !self.held {
            // A game nobody has really begun is called off; after that, the side that let
            // its deadline pass loses.
            let (status, result, reason) = match self.game.to_move() {
                Some(seat) if self.plies.len() >= self.seats.len() => (
                    GameStatus::Finished,
                    Some(Outcome::Win(seat.other())),
                    "time",
                ),
                _ => (GameStatus::Aborted, None, "expired"),
            };
            if let Err(e) = self.finish(status, result, reason).await {
                tracing::error!(table = %self.id, error = %e, "could not record a missed deadline");
            }
            return;
        }
        let Some(seat) = self.clock.as_ref().and_then(|c| c.flagged(Instant::now())) else {
            return;
        };
        let result = Outcome::Win(seat.other());
        if let Err(e) = self
            .finish(GameStatus::Finished, Some(result), "time")
            .await
        {
            tracing::error!(table = %self.id, error = %e, "could not record a flag fall");
        }
    }

    async fn start_rematch(&mut self) -> Result<Option<Message>, WsError> {
        // Colours swap: the second seat of this game is the first of the next.
        let mut seats = self.seats.clone();
        seats.reverse();
        // Another game of the daily deal would be a second attempt: the next one is a new deal.
        let settings = TableSettings {
            daily: None,
            practice: None,
            ..self.settings.clone()
        };
        let host = self
            .host
            .as_ref()
            .and_then(|id| self.seats.iter().flatten().find(|u| &u.id == id).cloned());
        let next = self
            .hub
            .create_table(settings, host, seats, Some(self.id.to_string()))
            .await?;
        self.rematch = Some(next.id.to_string());
        self.rematch_offer = None;
        self.broadcast(&Message::Rematch {
            table: self.id.to_string(),
            next: next.id.to_string(),
        });
        Ok(None)
    }

    async fn chat(
        &mut self,
        conn: ConnId,
        user: &UserView,
        text: &str,
    ) -> Result<Option<Message>, WsError> {
        if !self.subscribers.contains_key(&conn) {
            return Err(WsError::new(
                ErrorCode::Forbidden,
                "subscribe to the table before chatting",
            ));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(WsError::bad_request("an empty message"));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(WsError::new(
                ErrorCode::TooLong,
                format!("a chat message has at most {CHAT_MAX_CHARS} characters"),
            ));
        }
        let now = Instant::now();
        let times = self.chat_times.entry(user.id.clone()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(WsError::new(
                ErrorCode::RateLimited,
                "too many messages: wait a few seconds",
            ));
        }
        times.push_back(now);
        let at = unix_ms();
        let room = if self.seat_of(&user.id).is_some() {
            store::ChatRoom::Players
        } else {
            store::ChatRoom::Spectators
        };
        let id = self
            .hub
            .store()
            .add_chat(&store::NewChatLine {
                game_id: self.id.to_string(),
                user_id: Some(user.id.clone()),
                author: user.name.clone(),
                body: text.to_string(),
                sent_at: at,
                room,
            })
            .await?;
        let line = ChatView {
            id,
            author: user.name.clone(),
            user: Some(user.id.clone()),
            text: text.to_string(),
            at,
            room,
        };
        self.chat.push_back(line.clone());
        if self.chat.len() > CHAT_TAIL {
            self.chat.pop_front();
        }
        // One encoding for everyone, except those who muted the author.
        let text = Frame::from(encode(
            None,
            &Message::Chat {
                table: self.id.to_string(),
                line,
            },
        ));
        self.subscribers
            .retain(|_, sub| sub.out.muted.hides(Some(&user.id)) || sub.out.send(text.clone()));
        Ok(None)
    }

    fn move_event(&self, index: usize) -> MoveEvent {
        let ply = &self.plies[index];
        MoveEvent {
            table: self.id.to_string(),
            ply: index as u32 + 1,
            mv: ply.mv.clone(),
            by: ply.by.letter(),
            position: ply.position.clone(),
            clock: ply.clock,
            next: None,
        }
    }

    pub fn view(&self, viewer: Option<&UserView>) -> TableView {
        let you = viewer.and_then(|u| self.seat_of(&u.id));
        let insider = you.is_some() || viewer.is_some_and(|u| self.host.as_deref() == Some(&u.id));
        let playing = self.status == GameStatus::Playing;
        let next = self.next.clone();
        let now = Instant::now();
        TableView {
            id: self.id.to_string(),
            game: self.settings.variant.game().as_str(),
            variant: self.settings.variant.as_str(),
            private: self.settings.private,
            status: self.status.as_str(),
            host: self.host.clone(),
            seats: (0..self.seats.len())
                .filter_map(Seat::from_index)
                .map(|seat| self.seat_view(seat))
                .collect(),
            you: you.map(Seat::letter),
            // A daily deal is private so that nobody watches it: it has no link to share.
            invite: (self.settings.private && insider && self.settings.daily.is_none())
                .then(|| self.token.clone()),
            ply: self.plies.len() as u32,
            moves: self.plies.iter().map(|p| p.mv.clone()).collect(),
            position: self.game.view(you),
            to_move: next.to_move.filter(|_| playing),
            turn: next.turn,
            legal: if playing { next.legal } else { Vec::new() },
            legal_truncated: next.legal_truncated,
            clock: self.clock_view(now),
            days: self.settings.days,
            deadline: self.deadline,
            result: self.result,
            reason: self.reason.clone(),
            draw_offer: self.draw_offer.map(Seat::letter),
            takeback_offer: self.takeback_offer.map(Seat::letter),
            rematch_offer: self.rematch_offer.map(Seat::letter),
            rematch: self.rematch.clone(),
            chat: self.chat.iter().cloned().collect(),
            daily: self.settings.daily.clone(),
            rated: self.settings.rated,
            rating_class: self.settings.rating_class().map(rating::Class::as_str),
            rating_range: self.settings.rating_range,
            away: self.presence.view(),
            claim: you.is_some_and(|seat| playing && self.presence.may_claim(seat)),
        }
    }

    fn seat_view(&self, seat: Seat) -> SeatView {
        let user = self.seats.get(seat.index()).cloned().flatten();
        let rating = self.ratings.get(seat.index()).copied().flatten();
        SeatView {
            seat: seat.letter(),
            label: self.game.seat_label(seat),
            bot: user.as_ref().and_then(bot_level).map(|l| l.to_string()),
            user,
            rating: rating.as_ref().map(SeatRating::from),
            rating_change: self.rating_changes.get(seat.index()).copied().flatten(),
        }
    }

    fn clock_view(&self, now: Instant) -> Option<ClockView> {
        self.clock.as_ref().map(|c| ClockView {
            initial_ms: c.control().initial_ms,
            increment_ms: c.control().increment_ms,
            remaining_ms: c.remaining(now),
            running: c.running().map(Seat::letter),
        })
    }

    fn broadcast(&mut self, message: &Message) {
        let text = Frame::from(encode(None, message));
        self.subscribers.retain(|_, sub| sub.out.send(text.clone()));
    }

    /// Seats changed: everyone gets a fresh snapshot (their own `you` and `invite`).
    fn broadcast_snapshots(&mut self) {
        let views: Vec<(ConnId, Frame)> = self
            .subscribers
            .iter()
            .map(|(conn, sub)| {
                let view = without_muted(self.view(Some(&sub.user)), &sub.out.muted);
                (
                    *conn,
                    Frame::from(encode(
                        None,
                        &Message::Table {
                            table: Box::new(view),
                        },
                    )),
                )
            })
            .collect();
        for (conn, text) in views {
            let alive = self
                .subscribers
                .get(&conn)
                .is_some_and(|s| s.out.send(text));
            if !alive {
                self.subscribers.remove(&conn);
            }
        }
    }

    fn broadcast_offer_cleared(&mut self, kind: OfferKind) {
        self.broadcast(&Message::Offer {
            table: self.id.to_string(),
            kind,
            by: None,
        });
    }

    /// Tells the hub who is to move here, for that player's "your turn" count.
    fn publish_turn(&self) {
        let mover = self
            .mover()
            // A solo puzzle keeps nobody waiting: it does not count.
            .filter(|_| self.status == GameStatus::Playing && self.seats.len() == 2)
            .filter(|user| bot_level(user).is_none())
            .map(|user| user.id.as_str());
        self.hub.set_turn(&self.id, mover);
    }

    /// Tells the lobby whether this table is open for players.
    fn publish_lobby(&self) {
        let listed = !self.settings.private && self.status == GameStatus::Open;
        let entry = listed.then(|| LobbyEntry {
            id: self.id.to_string(),
            game: self.settings.variant.game().as_str(),
            variant: self.settings.variant.as_str(),
            clock: self.settings.control,
            days: self.settings.days,
            seats: self.seats.len(),
            players: self
                .seats
                .iter()
                .flatten()
                .map(|u| u.name.clone())
                .collect(),
            player_ids: self.seats.iter().flatten().map(|u| u.id.clone()).collect(),
            rated: self.settings.rated,
            host_rating: self
                .seats
                .iter()
                .zip(&self.ratings)
                .find_map(|(user, rating)| user.as_ref().and(rating.as_ref()))
                .map(SeatRating::from),
            rating_range: self.settings.rating_range,
        });
        self.hub.set_lobby_entry(&self.id, entry);
    }

    /// Tells the live list whether this game is being played in public, and how it stands.
    fn publish_live(&self) {
        let listed = !self.settings.private && self.status == GameStatus::Playing;
        let entry = listed.then(|| crate::live::LiveEntry {
            id: self.id.to_string(),
            game: self.settings.variant.game().as_str(),
            variant: self.settings.variant.as_str(),
            clock: self.settings.control,
            days: self.settings.days,
            rated: self.settings.rated,
            ply: self.plies.len() as u32,
            started_at: self.started_at,
            watchers: self
                .subscribers
                .values()
                .filter(|sub| self.seat_of(&sub.user.id).is_none())
                .count(),
            players: (0..self.seats.len())
                .filter_map(Seat::from_index)
                .map(|seat| self.seat_view(seat).into())
                .collect(),
        });
        self.hub.live().set(&self.id, entry);
    }
}

/// Who moves in `game`, and their legal moves unless there are too many to send.
fn next_turn(game: &AnyGame) -> NextTurn {
    let legal = game.legal_texts();
    let legal_truncated = legal.len() > LEGAL_LIST_LIMIT;
    NextTurn {
        to_move: game.to_move().map(Seat::letter),
        turn: game.turn_label(),
        legal: if legal_truncated { Vec::new() } else { legal },
        legal_truncated,
    }
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

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
