//! One WebSocket connection: a single `select!` over incoming frames, the slow-reader alarm
//! and a heartbeat. Events do not pass through it: the connection's bounded outgoing queue
//! is read by its response body (`socket_body.rs`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;

use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{AggregatedMessage, AggregatedMessageStream, CloseCode, CloseReason, Session};
use futures_core::Stream;
use tokio::time::{Duration, Instant};

use crate::api_tokens::{self, Scope};
use crate::domain::LobbyQuery;
use crate::error::{ApiError, ErrorCode};
use crate::hub::{NoteOp, QueueKey};

use crate::identity::UserView;
use crate::limits::Action as LimitAction;
use crate::outbox::{ConnId, Frame, Outbox};
use crate::routes::socket_body::{ReplyGate, SocketBody};
use crate::sessions::{MuteList, SessionWatch};
use crate::state::AppState;
use crate::table::{Action, TableHandle, TableSettings};
use crate::ws::frame_guard::{FrameGuard, is_overflow};
use crate::ws::protocol::{
    ClockSpec, Message, Request, TableId, TimeControl, encode, parse_request,
};

/// Requests are small; anything bigger is abuse and closes the socket.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;
/// Messages queued for a client that is not reading before it is cut off.
const OUTBOX_CAPACITY: usize = 256;
/// Tables one connection may follow at once. The web client follows the one it shows; the
/// bound keeps one socket from holding thousands of finished tables in memory (a table is
/// kept while anyone follows it).
const MAX_TABLES_FOLLOWED: usize = 32;
const HEARTBEAT: Duration = Duration::from_secs(10);
const CLIENT_TIMEOUT: Duration = Duration::from_secs(30);

/// Upgrades to a WebSocket for the caller's identity (a new guest when there is none).
pub async fn route(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    // A page of another site must not open a socket with the user's cookie.
    state.security.check_same_origin(&req)?;
    let address = state.security.client_ip(&req);
    let ticket = state.limits.open_socket(address).await?;
    let (mut response, session, stream) = actix_ws::handle(&req, guarded(&req, body))
        .map_err(|e| ApiError::bad_request(format!("not a WebSocket handshake: {e}")))?;
    // Only a real handshake gets an identity (a new guest's costs the address's quota).
    let (identity, fresh_token) = state.identify_or_mint_guest(&req).await?;
    if let Some(token) = fresh_token {
        let cookie = state.cookie_for(&req, &token, identity.user.guest);
        response
            .add_cookie(&cookie)
            .map_err(|e| ApiError::internal("cannot set the identity cookie", e))?;
    }
    let stream = stream
        .max_frame_size(MAX_FRAME_BYTES)
        .aggregate_continuations()
        .max_continuation_size(MAX_FRAME_BYTES);
    let watch = state.sessions.watch(&identity);
    let muted = state.sessions.mute_list(&identity.user.id).await?;
    let may_challenge = identity
        .token
        .as_ref()
        .is_none_or(|grant| grant.scopes.has(Scope::Challenge));
    let (mut connection, OutboxParts { rx, overflow }) =
        Connection::new(state.into_inner(), identity.user, address, muted);
    connection.may_challenge = may_challenge;
    let gate = ReplyGate::default();
    let response =
        response.map_body(|_, session_body| SocketBody::new(session_body, rx, gate.clone()));
    actix_web::rt::spawn(async move {
        // Counted against the address for as long as the socket is open.
        let _ticket = ticket;
        run(connection, overflow, gate, watch, session, stream).await;
    });
    Ok(response.map_into_boxed_body())
}

/// The connection's bytes behind a [`FrameGuard`]: an oversized frame is refused by its header.
fn guarded(req: &HttpRequest, body: web::Payload) -> web::Payload {
    use actix_web::FromRequest;
    let guard = FrameGuard::new(body, MAX_FRAME_BYTES);
    let stream: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(guard);
    let mut payload = actix_web::dev::Payload::from(stream);
    web::Payload::from_request(req, &mut payload)
        .into_inner()
        .expect("taking a payload cannot fail")
}

/// Credit bucket: a burst of `CAPACITY` requests, refilled at `PER_SECOND`.
struct RateLimit {
    credits: f64,
    last: Instant,
    strikes: u32,
}

impl RateLimit {
    const CAPACITY: f64 = 40.0;
    const PER_SECOND: f64 = 20.0;
    /// Requests refused in a row before the connection is closed as a flood.
    const MAX_STRIKES: u32 = 100;

    fn new() -> RateLimit {
        RateLimit {
            credits: Self::CAPACITY,
            last: Instant::now(),
            strikes: 0,
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * Self::PER_SECOND;
        self.credits = (self.credits + refill).min(Self::CAPACITY);
        self.last = now;
        if self.credits >= 1.0 {
            self.credits -= 1.0;
            self.strikes = 0;
            true
        } else {
            self.strikes += 1;
            false
        }
    }

    fn flooding(&self) -> bool {
        self.strikes > Self::MAX_STRIKES
    }
}

struct Connection {
    state: Arc<AppState>,
    conn: ConnId,
    user: UserView,
    /// The client's address, for the limits that count per address.
    address: IpAddr,
    out: Outbox,
    tables: HashMap<TableId, TableHandle>,
    /// Whether it may start games (quick match): a session may; a personal API token only
    /// with the challenge scope.
    may_challenge: bool,
}

enum Exit {
    ClientLeft,
    Close(CloseReason),
}

impl Connection {
    fn new(
        state: Arc<AppState>,
        user: UserView,
        address: IpAddr,
        muted: MuteList,
    ) -> (Connection, OutboxParts) {
        let conn = state.hub.next_conn_id();
        let (out, rx, overflow) = Outbox::new(OUTBOX_CAPACITY, muted);
        (
            Connection {
                state,
                conn,
                user,
                address,
                out,
                tables: HashMap::new(),
                may_challenge: true,
            },
            OutboxParts { rx, overflow },
        )
    }
}

struct OutboxParts {
    rx: tokio::sync::mpsc::Receiver<Frame>,
    overflow: Arc<tokio::sync::Notify>,
}

async fn run(
    mut conn: Connection,
    overflow: Arc<tokio::sync::Notify>,
    gate: ReplyGate,
    mut watch: SessionWatch,
    mut session: Session,
    mut stream: AggregatedMessageStream,
) {
    let _open = OpenSocket::count();
    {
        // The "your turn" count rides on the greeting; changes come as `turns` messages,
        // held back until the greeting is out.
        gate.hold();
        let turns = conn
            .state
            .hub
            .watch_turns(&conn.user.id, conn.conn, conn.out.clone());
        let hello = encode(
            None,
            &Message::Hello {
                user: conn.user.clone(),
                turns,
            },
        );
        let greeted = session.text(hello).await;
        gate.release();
        if greeted.is_err() {
            Box::pin(conn.leave()).await;
            return;
        }
        let mut closing = conn.state.hub.closing();
        let mut limit = RateLimit::new();
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        let mut last_heard = Instant::now();
        let exit = loop {
            tokio::select! {
                frame = stream.recv() => {
                    last_heard = Instant::now();
                    let reply = match frame {
                        Some(Ok(AggregatedMessage::Text(text))) => {
                            if limit.take() {
                                // The request's events wait until its reply is queued.
                                gate.hold();
                                // Boxed: the answer's future (every request's database and
                                // table calls) is large, and inline it would be part of every
                                // idle socket's task for as long as the socket is open.
                                Some(Box::pin(conn.answer(&text)).await)
                            } else if limit.flooding() {
                                break Exit::Close(reason(CloseCode::Policy, "flooding"));
                            } else {
                                // Refused unread, but still answered under its id so the
                                // client knows which request to send again.
                                let id = request_id(&text);
                                Some(encode(id.as_ref(), &error_message(&ApiError::new(
                                    ErrorCode::RateLimited,
                                    "too many requests: slow down",
                                ))))
                            }
                        }
                        Some(Ok(AggregatedMessage::Binary(_))) => Some(encode(None, &error_message(
                            &ApiError::new(ErrorCode::BadJson, "send JSON text frames, not binary"),
                        ))),
                        Some(Ok(AggregatedMessage::Ping(bytes))) => {
                            if session.pong(&bytes).await.is_err() {
                                break Exit::ClientLeft;
                            }
                            None
                        }
                        Some(Ok(AggregatedMessage::Pong(_))) => None,
                        Some(Ok(AggregatedMessage::Close(_))) | None => break Exit::ClientLeft,
                        Some(Err(e)) if is_overflow(&e) => {
                            break Exit::Close(reason(CloseCode::Size, "frame too large"));
                        }
                        Some(Err(_)) => break Exit::Close(reason(CloseCode::Protocol, "protocol error")),
                    };
                    let sent = match reply {
                        Some(reply) => session.text(reply).await,
                        None => Ok(()),
                    };
                    gate.release();
                    if sent.is_err() {
                        break Exit::ClientLeft;
                    }
                }
                _ = closing.wait_for(|closing| *closing) => {
                    break Exit::Close(reason(CloseCode::Restart, "the server is restarting"));
                }
                _ = overflow.notified() => {
                    break Exit::Close(reason(CloseCode::Policy, "too slow to read"));
                }
                _ = watch.ended() => {
                    break Exit::Close(reason(CloseCode::Policy, "session ended: log in again"));
                }
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > CLIENT_TIMEOUT {
                        break Exit::Close(reason(CloseCode::Normal, "timed out"));
                    }
                    if session.ping(b"").await.is_err() {
                        break Exit::ClientLeft;
                    }
                }
            }
        };
        Box::pin(conn.leave()).await;
        if let Exit::Close(why) = exit {
            let _ = session.close(Some(why)).await;
        }
    }
}

/// Counts an open connection in `stolik_sockets_open` for as long as it lives.
struct OpenSocket;

impl OpenSocket {
    fn count() -> OpenSocket {
        metrics::gauge!("stolik_sockets_open").increment(1.0);
        OpenSocket
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!("stolik_sockets_open").decrement(1.0);
    }
}

/// The `id` of a request, if it has one, without reading the rest.
fn request_id(text: &str) -> Option<serde_json::Value> {
    #[derive(serde::Deserialize)]
    struct Id {
        id: Option<serde_json::Value>,
    }
    serde_json::from_str::<Id>(text).ok().and_then(|i| i.id)
}

fn reason(code: CloseCode, description: &str) -> CloseReason {
    CloseReason {
        code,
        description: Some(description.to_string()),
    }
}

fn error_message(e: &ApiError) -> Message {
    Message::Error {
        code: e.code,
        message: e.message.clone(),
    }
}

impl Connection {
    /// The reply to one text frame, with the request's id.
    async fn answer(&mut self, text: &str) -> String {
        match parse_request(text) {
            Ok((id, request)) => match self.handle(request).await {
                Ok(message) => encode(id.as_ref(), &message),
                Err(e) => encode(id.as_ref(), &error_message(&e)),
            },
            Err((id, e)) => encode(id.as_ref(), &error_message(&e)),
        }
    }

    async fn handle(&mut self, request: Request) -> Result<Message, ApiError> {
        let hub = &self.state.hub;
        Ok(match request {
            Request::Ping => Message::Pong,
            Request::LobbySubscribe {
                game,
                offset,
                limit,
            } => {
                let query = LobbyQuery::parse(game.as_deref(), offset, limit)?;
                Message::Lobby(hub.watch_lobby(self.conn, self.out.clone(), query))
            }
            Request::LobbyUnsubscribe => {
                hub.unwatch_lobby(self.conn);
                Message::Ok
            }
            Request::LiveSubscribe => Message::Live {
                games: hub.live().watch(self.conn, self.out.clone()),
            },
            Request::LiveUnsubscribe => {
                hub.live().unwatch(self.conn);
                Message::Ok
            }
            Request::TableSubscribe {
                table,
                token,
                since,
            } => {
                if self.tables.len() >= MAX_TABLES_FOLLOWED && !self.tables.contains_key(&table) {
                    return Err(ApiError::new(
                        ErrorCode::WrongState,
                        format!(
                            "a connection follows at most {MAX_TABLES_FOLLOWED} tables: unsubscribe from one first"
                        ),
                    ));
                }
                let handle = hub.table(&table).await?;
                let snapshot = handle
                    .subscribe(self.conn, self.user.clone(), self.out.clone(), token, since)
                    .await?;
                // A player has opened their game: what they were told of it is read. Only
                // the seated are told anything of a table, so a spectator's subscription
                // (a thousand of them at a popular game) costs the store nothing.
                if matches!(&snapshot, Message::Table { table } if table.you.is_some()) {
                    hub.note(NoteOp::Read {
                        user: self.user.id.clone(),
                        table: table.to_string(),
                    });
                }
                self.tables.insert(table, handle);
                snapshot
            }
            Request::TableUnsubscribe { table } => {
                self.tables.remove(&table).ok_or_else(|| {
                    ApiError::new(ErrorCode::WrongState, "not subscribed to that table")
                })?;
                // Where the table runs now (it may have moved since the subscription).
                hub.unsubscribe(&table, self.conn).await;
                Message::Ok
            }
            Request::Table { table, action } => {
                // What the table alone cannot check: who may speak, the spectator-chat
                // limits, and a guest's row before their first seat or line.
                match &action {
                    Action::Sit { .. } => self.state.sessions.ensure_row(&self.user).await?,
                    Action::Chat { .. } => {
                        self.may_speak().await?;
                        self.spectator_chat_limit(&table).await?;
                        self.state.sessions.ensure_row(&self.user).await?;
                    }
                    Action::Voice { .. } => self.may_speak().await?,
                    _ => {}
                }
                self.act(&table, action).await?
            }
            Request::QueueJoin {
                game,
                variant,
                clock,
                rated,
            } => {
                if !self.may_challenge {
                    return Err(api_tokens::lacking(Scope::Challenge));
                }
                if self.user.bot {
                    return Err(ApiError::forbidden(
                        "quick match pairs people: a bot account plays the challenges it accepts",
                    ));
                }
                if rated && self.user.guest {
                    return Err(ApiError::forbidden(crate::table::RATED_FOR_ACCOUNTS));
                }
                let key = queue_key(&game, variant.as_deref(), clock, rated)?;
                if clock.is_some_and(|clock| clock.days.is_some()) {
                    self.state
                        .limits
                        .check(
                            LimitAction::Correspondence,
                            self.address,
                            Some(&self.user.id),
                        )
                        .await?;
                }
                self.state.sessions.ensure_row(&self.user).await?;
                hub.join_queue(key, self.conn, self.user.clone(), self.out.clone())
                    .await?;
                Message::Ok
            }
            Request::QueueLeave => {
                if !hub.leave_queue(self.conn) {
                    return Err(ApiError::new(
                        ErrorCode::WrongState,
                        "you are not in a queue",
                    ));
                }
                Message::Ok
            }
            Request::TournamentSubscribe { tournament, page } => {
                let viewer = (!self.user.guest).then_some(self.user.id.as_str());
                self.state
                    .tournaments
                    .watch(
                        &tournament,
                        page.unwrap_or(1),
                        viewer,
                        self.conn,
                        self.out.clone(),
                    )
                    .await?
            }
            Request::TournamentUnsubscribe { tournament } => {
                self.state.tournaments.unwatch(Some(&tournament), self.conn);
                Message::Ok
            }
            Request::TournamentChatSubscribe { tournament } => {
                self.state
                    .tournaments
                    .watch_chat(&tournament, self.conn, self.out.clone())
                    .await?
            }
            Request::TournamentChatUnsubscribe { tournament } => {
                self.state
                    .tournaments
                    .unwatch_chat(Some(&tournament), self.conn);
                Message::Ok
            }
            Request::TournamentChat { tournament, text } => {
                self.may_speak().await?;
                // A tournament's room is as public as a game's spectators' room.
                self.state
                    .limits
                    .check(
                        LimitAction::SpectatorChat,
                        self.address,
                        Some(&self.user.id),
                    )
                    .await?;
                self.state
                    .tournaments
                    .say(&tournament, &self.user, &text)
                    .await?
            }
        })
    }

    /// The gate of every message from one player to others (chat lines, voice signals): a
    /// flagged account sends none. (Each receiver's mute list is applied where the message is
    /// delivered.)
    async fn may_speak(&self) -> Result<(), ApiError> {
        if self.state.sessions.flagged(&self.user.id).await? {
            return Err(ApiError::forbidden(
                "a moderator has restricted this account: it cannot chat or talk",
            ));
        }
        Ok(())
    }

    /// A line from someone not seated at `table` goes to its spectator room, and counts
    /// against the spectator-chat limits of the identity and the address (so that many fresh
    /// guests from one address cannot flood a game's spectators).
    async fn spectator_chat_limit(&mut self, table: &TableId) -> Result<(), ApiError> {
        let handle = self.table_handle(table).await?;
        let seated = handle
            .view(Some(self.user.clone()), None)
            .await
            .is_ok_and(|view| view.you.is_some());
        if seated {
            return Ok(());
        }
        self.state
            .limits
            .check(
                LimitAction::SpectatorChat,
                self.address,
                Some(&self.user.id),
            )
            .await
    }

    async fn table_handle(&self, table: &TableId) -> Result<TableHandle, ApiError> {
        Ok(match self.tables.get(table) {
            Some(handle) if !handle.is_closed() => handle.clone(),
            _ => self.state.hub.table(table).await?,
        })
    }

    async fn act(&mut self, table: &TableId, action: Action) -> Result<Message, ApiError> {
        let handle = self.table_handle(table).await?;
        let reply = handle.act(self.conn, self.user.clone(), action).await?;
        Ok(reply.unwrap_or(Message::Ok))
    }

    async fn leave(&mut self) {
        self.state.sessions.unwatch(&self.user.id);
        self.state.hub.unwatch_turns(&self.user.id, self.conn);
        self.state.hub.unwatch_lobby(self.conn);
        self.state.hub.live().unwatch(self.conn);
        self.state.hub.leave_queue(self.conn);
        self.state.tournaments.unwatch(None, self.conn);
        self.state.tournaments.unwatch_chat(None, self.conn);
        for (table, _) in self.tables.drain() {
            self.state.hub.unsubscribe(&table, self.conn).await;
        }
    }
}

/// Checks a quick-match request against the catalogue.
pub fn queue_key(
    game: &str,
    variant: Option<&str>,
    clock: Option<ClockSpec>,
    rated: bool,
) -> Result<QueueKey, ApiError> {
    let settings = TableSettings::parse(game, variant, false, clock)?;
    if settings.variant().game().is_solo() {
        return Err(ApiError::bad_request(
            "quick match pairs two players: a solo game starts from its own table",
        ));
    }
    Ok(QueueKey {
        variant: settings.variant(),
        initial_ms: settings.control().map(|c: TimeControl| c.initial_ms),
        increment_ms: settings.control().map(|c| c.increment_ms),
        days: settings.days(),
        rated,
    })
}
