//! The realtime wire format: closed sum types for what a client may send and what the server
//! sends back, one parser (`parse_request`), documented in `docs/protocol.md`.
//!
//! It depends on no other module of the server: the table, the hub, the live list and the
//! routes all build these types, so they live below every one of them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod actions;
pub mod error;
pub mod table_id;
pub mod views;
pub mod voice;

pub use actions::{Action, ClaimOutcome};
pub use error::{ApiError, ErrorCode, WsError};
pub use table_id::{BadTableId, TableId};
pub use views::*;
pub use voice::VoiceSignal;

/// Everything a client may ask over the socket. Each request may also carry an `id` (any
/// JSON value) that the reply echoes.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(tag = "type")]
pub enum Request {
    #[serde(rename = "ping")]
    Ping,
    /// Follow one page of the lobby (a later subscribe replaces the page followed): the reply
    /// is the page, then `lobby.changes` events.
    #[serde(rename = "lobby.subscribe")]
    LobbySubscribe {
        game: Option<String>,
        offset: Option<usize>,
        limit: Option<usize>,
    },
    #[serde(rename = "lobby.unsubscribe")]
    LobbyUnsubscribe,
    /// Follow the list of public games being played now.
    #[serde(rename = "live.subscribe")]
    LiveSubscribe,
    #[serde(rename = "live.unsubscribe")]
    LiveUnsubscribe,
    /// Watch a table: the reply is a full snapshot, or with `since` (the last ply the client
    /// saw) the moves it missed.
    #[serde(rename = "table.subscribe")]
    TableSubscribe {
        table: TableId,
        token: Option<String>,
        since: Option<u32>,
    },
    #[serde(rename = "table.unsubscribe")]
    TableUnsubscribe { table: TableId },
    /// Something done at a table: sit, move, resign, an offer or its answer, chat, voice, a
    /// claim, berserk. Written flat on the wire (`{"type": "move", "table": ..., "move": ...}`)
    /// and read by [`parse_request`], which hands the table the [`Action`] as it came.
    #[serde(skip_deserializing)]
    Table { table: TableId, action: Action },
    #[serde(rename = "queue.join")]
    QueueJoin {
        game: String,
        variant: Option<String>,
        clock: Option<ClockSpec>,
        /// A rated game (accounts only); casual when absent.
        #[serde(default)]
        rated: bool,
    },
    #[serde(rename = "queue.leave")]
    QueueLeave,
    /// Follow a tournament's standings, one page of them (the first when absent; a later
    /// subscribe to the same tournament turns the page): the reply is that page
    /// (`tournament`), then `tournament.changes` events for its lines and the follower's own.
    #[serde(rename = "tournament.subscribe")]
    TournamentSubscribe {
        tournament: String,
        page: Option<usize>,
    },
    #[serde(rename = "tournament.unsubscribe")]
    TournamentUnsubscribe { tournament: String },
    /// Follow a tournament's chat room: the reply is its last lines (`tournament.chat`), then
    /// a `tournament.chat` event with each new line.
    #[serde(rename = "tournament.chat.subscribe")]
    TournamentChatSubscribe { tournament: String },
    #[serde(rename = "tournament.chat.unsubscribe")]
    TournamentChatUnsubscribe { tournament: String },
    /// A line in a tournament's chat room (accounts only).
    #[serde(rename = "tournament.chat")]
    TournamentChat { tournament: String, text: String },
}

/// A time control as clients write it: seconds on the clock and seconds of increment, or
/// for correspondence the days for each move.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct ClockSpec {
    pub initial: Option<u64>,
    pub increment: Option<u64>,
    /// Correspondence instead: days for each move (1, 2, 3, 5, 7 or 14).
    pub days: Option<u64>,
}

/// The request types other than a table's actions ([`actions::TYPES`]), for telling an
/// unknown type from a known one with bad fields.
const REQUEST_TYPES: &[&str] = &[
    "ping",
    "lobby.subscribe",
    "lobby.unsubscribe",
    "live.subscribe",
    "live.unsubscribe",
    "table.subscribe",
    "table.unsubscribe",
    "queue.join",
    "queue.leave",
    "tournament.subscribe",
    "tournament.unsubscribe",
    "tournament.chat.subscribe",
    "tournament.chat.unsubscribe",
    "tournament.chat",
];

/// Reads one text frame. On failure the error still carries the request's `id` when one
/// could be read, so the client can match the error to its request.
pub fn parse_request(text: &str) -> Result<(Option<Value>, Request), (Option<Value>, WsError)> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            None,
            WsError::new(ErrorCode::BadJson, format!("not JSON: {e}")),
        )
    })?;
    let Value::Object(object) = &value else {
        return Err((
            None,
            WsError::new(ErrorCode::BadJson, "a request is a JSON object"),
        ));
    };
    let id = object.get("id").cloned();
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => {
            return Err((
                id,
                WsError::new(ErrorCode::BadRequest, "type must be a string"),
            ));
        }
        None => return Err((id, WsError::new(ErrorCode::BadRequest, "missing type"))),
    };
    let bad = |e: serde_json::Error| {
        WsError::new(ErrorCode::BadRequest, format!("bad {kind} request: {e}"))
    };
    if actions::TYPES.contains(&kind) {
        /// The addressee of a table's action.
        #[derive(Deserialize)]
        struct Addressed {
            table: TableId,
        }
        let table = Addressed::deserialize(&value).map_err(|e| (id.clone(), bad(e)))?;
        return match Action::deserialize(&value) {
            Ok(action) => Ok((
                id,
                Request::Table {
                    table: table.table,
                    action,
                },
            )),
            Err(e) => Err((id, bad(e))),
        };
    }
    if !REQUEST_TYPES.contains(&kind) {
        return Err((
            id,
            WsError::new(ErrorCode::UnknownType, format!("unknown type {kind:?}")),
        ));
    }
    match Request::deserialize(&value) {
        Ok(request) => Ok((id, request)),
        Err(e) => Err((id, bad(e))),
    }
}

/// What the server sends. Replies to a request carry its `id`; events do not.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type")]
pub enum Message {
    /// The first message: who the connection speaks for, and how many games wait for their
    /// move.
    #[serde(rename = "hello")]
    Hello { user: UserView, turns: usize },
    #[serde(rename = "pong")]
    Pong,
    #[serde(rename = "ok")]
    Ok,
    #[serde(rename = "error")]
    Error { code: ErrorCode, message: String },
    /// One page of the lobby, whole.
    #[serde(rename = "lobby")]
    Lobby(LobbyView),
    /// What changed on the followed page of the lobby since it was last sent.
    #[serde(rename = "lobby.changes")]
    LobbyChanges(LobbyChanges),
    /// The public games being played now, whenever the list changes.
    #[serde(rename = "live")]
    /// `LiveEntry`s as JSON (those of other nodes arrive so).
    Live { games: Vec<Value> },
    /// A full snapshot of a table.
    #[serde(rename = "table")]
    Table { table: Box<TableView> },
    /// What a reconnecting client missed: the moves after its last ply, then the table as it
    /// is now.
    #[serde(rename = "catchup")]
    Catchup {
        table: String,
        moves: Vec<MoveEvent>,
        state: Box<TableView>,
    },
    #[serde(rename = "move")]
    Move(MoveEvent),
    #[serde(rename = "end")]
    End {
        table: String,
        status: &'static str,
        result: Option<catalog::Outcome>,
        reason: catalog::EndReason,
        /// A rated game: each seat's rating before and after.
        #[serde(skip_serializing_if = "Option::is_none")]
        ratings: Option<std::collections::BTreeMap<&'static str, RatingEnd>>,
    },
    #[serde(rename = "seats")]
    Seats {
        table: String,
        status: &'static str,
        seats: Vec<SeatView>,
    },
    #[serde(rename = "offer")]
    Offer {
        table: String,
        kind: OfferKind,
        by: Option<&'static str>,
    },
    #[serde(rename = "rematch")]
    Rematch { table: String, next: String },
    /// A player of an arena game went berserk: their seat, and the clocks now.
    #[serde(rename = "berserk")]
    Berserk {
        table: String,
        seat: &'static str,
        clock: Option<ClockView>,
    },
    /// Moves were taken back: the game is at `ply` again (a snapshot follows).
    #[serde(rename = "takeback")]
    Takeback { table: String, ply: u32 },
    #[serde(rename = "chat")]
    Chat { table: String, line: ChatView },
    #[serde(rename = "voice")]
    Voice {
        table: String,
        from: &'static str,
        signal: VoiceSignal,
    },
    /// A challenge to or from this player changed (`event`: `created`, `accepted`,
    /// `declined`, `canceled` or `expired`); `challenge` is the challenge as it is now
    /// (docs/bot-api.md).
    #[serde(rename = "challenge")]
    Challenge {
        event: &'static str,
        challenge: Value,
    },
    /// Quick match paired this client: its new table.
    #[serde(rename = "match")]
    Match { table: String },
    /// A tournament's page as `GET /api/tournaments/{id}` answers it, first page of standings.
    #[serde(rename = "tournament")]
    Tournament { tournament: Value },
    /// What changed in a followed tournament since it was last sent: its status, the
    /// standings lines that changed (whole, or as their change to a line the watcher has),
    /// the players gone from them, the games in progress, and when it was made (unix ms).
    #[serde(rename = "tournament.changes")]
    TournamentChanges {
        tournament: String,
        status: String,
        changed: Vec<Value>,
        removed: Vec<String>,
        total: usize,
        games: Vec<Value>,
        at: i64,
    },
    /// Lines of a tournament's chat room, oldest first: its last ones on following it, the
    /// new ones after, or the line just said.
    #[serde(rename = "tournament.chat")]
    TournamentChat {
        tournament: String,
        lines: Vec<TournamentChatView>,
    },
    /// The tournament paired this player: their next game's table.
    #[serde(rename = "tournament.game")]
    TournamentGame { tournament: String, table: String },
    /// Something for this player to know while away (see `/api/notifications`).
    #[serde(rename = "notification")]
    Notification {
        notification: NotificationView,
        /// How many of the player's notifications are unread now.
        unread: i64,
    },
    /// The player's notifications changed otherwise (read, withdrawn, gone with their game):
    /// how many are unread now.
    #[serde(rename = "notifications")]
    Notifications { unread: i64 },
    /// How many games wait for this player's move, whenever that changes (`hello` has the
    /// count at connection).
    #[serde(rename = "turns")]
    Turns { count: usize },
    /// A message another node has already encoded (a table run there answered): sent as it
    /// is, with the request's id added.
    #[serde(skip)]
    Forwarded(String),
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    Draw,
    Rematch,
    Takeback,
}

/// One accepted move, numbered by ply (1 for the first move).
#[derive(Debug, Clone, Serialize)]
pub struct MoveEvent {
    pub table: String,
    pub ply: u32,
    #[serde(rename = "move")]
    pub mv: String,
    /// The seat that moved (`a`, `b`).
    pub by: &'static str,
    /// The position after the move, as everyone may see it (`Game::view` for spectators).
    pub position: String,
    /// Remaining milliseconds of seats a and b after the move, when the table has a clock.
    pub clock: Option<[i64; 2]>,
    /// Who moves next and with what, for live events (absent in a catch-up list, whose
    /// `state` has it).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub next: Option<NextTurn>,
}

impl MoveEvent {
    /// Whether the event carries anything about the next player's legal moves (the list, or
    /// the mark that it was too long to send).
    pub fn has_legal(&self) -> bool {
        self.next
            .as_ref()
            .is_some_and(|next| !next.legal.is_empty() || next.legal_truncated)
    }

    /// The event as everyone but the player to move gets it: who moves next, but not with what.
    pub fn for_watchers(&self) -> MoveEvent {
        let next = self.next.as_ref().map(|next| NextTurn {
            to_move: next.to_move,
            turn: next.turn,
            legal: Vec::new(),
            legal_truncated: false,
        });
        MoveEvent {
            table: self.table.clone(),
            mv: self.mv.clone(),
            position: self.position.clone(),
            next,
            ..*self
        }
    }
}

/// The turn after a move.
#[derive(Debug, Clone, Serialize)]
pub struct NextTurn {
    /// The seat to move (`a`, `b`), none when the game is over.
    pub to_move: Option<&'static str>,
    /// The side-to-move field of the position (`a`, `r`, `setup`, …).
    pub turn: &'static str,
    /// The legal moves of the seat to move (empty when `legal_truncated`, and for
    /// spectators).
    pub legal: Vec<String>,
    pub legal_truncated: bool,
}

/// A message with the request id it answers, ready to send.
pub fn encode(id: Option<&Value>, message: &Message) -> String {
    let text = match message {
        Message::Forwarded(text) => text.clone(),
        // Straight to text: going through a `Value` first would build (and sort) a map of
        // every field, and this runs for every reply and every event.
        message => serde_json::to_string(message).expect("messages serialise"),
    };
    match id {
        Some(id) => with_id(id, &text),
        None => text,
    }
}

/// `text` with `"id"` as its first member. Every message is an object with a `type`, so the
/// id can go in front of the object's first member without reading the rest.
fn with_id(id: &Value, text: &str) -> String {
    let members = text
        .strip_prefix('{')
        .filter(|rest| !rest.trim_start().starts_with('}'))
        .expect("messages are objects with a type");
    let id = id.to_string();
    let mut out = String::with_capacity(text.len() + id.len() + 6);
    out.push_str("{\"id\":");
    out.push_str(&id);
    out.push(',');
    out.push_str(members);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_request_with_an_id_parses() {
        let (id, request) =
            parse_request(r#"{"type":"move","table":"t1","move":"c1c2","ply":3,"id":7}"#).unwrap();
        assert_eq!(id, Some(Value::from(7)));
        assert_eq!(
            request,
            Request::Table {
                table: TableId::parse("t1").unwrap(),
                action: Action::Move {
                    mv: "c1c2".into(),
                    ply: Some(3)
                }
            }
        );
    }

    #[test]
    fn a_table_action_needs_its_table() {
        let (_, e) = parse_request(r#"{"type":"resign"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadRequest);
        assert!(e.message.contains("table"), "{}", e.message);
        let (_, request) =
            parse_request(r#"{"type":"claim","table":"t","outcome":"draw"}"#).unwrap();
        assert_eq!(
            request,
            Request::Table {
                table: TableId::parse("t").unwrap(),
                action: Action::Claim {
                    outcome: ClaimOutcome::Draw
                }
            }
        );
    }

    #[test]
    fn malformed_json_unknown_types_and_bad_fields_get_distinct_codes() {
        let code = |text: &str| parse_request(text).unwrap_err().1.code;
        assert_eq!(code("{"), ErrorCode::BadJson);
        assert_eq!(code("[1,2]"), ErrorCode::BadJson);
        assert_eq!(code(r#"{"type":"dance"}"#), ErrorCode::UnknownType);
        assert_eq!(
            code(r#"{"type":"move","table":"t"}"#),
            ErrorCode::BadRequest
        );
        assert_eq!(code(r#"{"kind":"move"}"#), ErrorCode::BadRequest);
    }

    #[test]
    fn errors_keep_the_request_id() {
        let (id, _) = parse_request(r#"{"type":"dance","id":"x"}"#).unwrap_err();
        assert_eq!(id, Some(Value::from("x")));
    }

    #[test]
    fn a_long_numeric_id_is_echoed_as_the_number_the_client_sent() {
        // serde_json's default float parser is not correctly rounded and reads these 144
        // digits one unit in the last place off, so the reply would echo a number the client
        // never sent; with `float_roundtrip` the id is the double the client holds.
        let digits = "555555555555555555555555555555555555555555555555555555555555555555555555\
                      555555555555555555555555555555555555555555500000000000000055555555555550";
        let (id, _) = parse_request(&format!(r#"{{"type":"nope","id":{digits}}}"#)).unwrap_err();
        let sent: f64 = digits.parse().unwrap();
        assert_eq!(id, Some(Value::from(sent)));
        let reply = encode(id.as_ref(), &Message::Ok);
        let echoed: Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(echoed["id"].as_f64(), Some(sent));
    }

    #[test]
    fn replies_echo_the_id() {
        let text = encode(Some(&Value::from(5)), &Message::Ok);
        assert_eq!(text, r#"{"id":5,"type":"ok"}"#);
    }

    #[test]
    fn a_reply_is_its_message_with_the_id_added_and_nothing_else_changed() {
        let messages = [
            Message::Error {
                code: ErrorCode::IllegalMove,
                message: "b2: the cell is occupied".into(),
            },
            Message::Move(MoveEvent {
                table: "t1".into(),
                ply: 3,
                mv: "c3:b3,c4".into(),
                by: "a",
                position: "p".into(),
                clock: Some([1, 2]),
                next: Some(NextTurn {
                    to_move: Some("b"),
                    turn: "b",
                    legal: vec!["a1".into(), "a2".into()],
                    legal_truncated: false,
                }),
            }),
            Message::Forwarded(r#"{"type":"turns","count":2}"#.into()),
        ];
        for id in [Value::from(7), Value::from("k\"1"), Value::Null] {
            for message in &messages {
                let plain: Value = serde_json::from_str(&encode(None, message)).unwrap();
                let mut reply: Value = serde_json::from_str(&encode(Some(&id), message)).unwrap();
                assert_eq!(reply["id"], id);
                reply.as_object_mut().unwrap().remove("id");
                assert_eq!(reply, plain);
            }
        }
    }
}
