//! Errors as clients see them: a stable `code` and a readable `message`.
//!
//! HTTP statuses come from one exhaustive `match` with no `_` arm, so a new code cannot
//! compile without deciding its status.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame or body is not JSON (or not an object).
    BadJson,
    /// A `type` the protocol does not have.
    UnknownType,
    /// Known type, missing or malformed fields, or values out of range.
    BadRequest,
    NotFound,
    /// An HTTP method the endpoint does not have (`Allow` lists those it has).
    MethodNotAllowed,
    /// The identity token is missing, forged or expired, or the password is wrong.
    Unauthorized,
    /// Not allowed for this identity (a private table without its token, a stranger's move).
    Forbidden,
    NotSeated,
    NotYourTurn,
    /// The move is not legal in the position.
    IllegalMove,
    /// A position written in the game's notation that no game can reach (or that does not
    /// read); the message says why.
    ImpossiblePosition,
    /// The client's view is behind: the move was made against an older ply.
    StalePly,
    /// The game is over (or not started) and the request needs it running.
    WrongState,
    SeatTaken,
    NameTaken,
    RateLimited,
    TooLong,
    /// The server is too busy for this now (password checks queued up): try again shortly.
    Busy,
    /// The server has just started and is still bringing its unfinished tables back.
    Restoring,
    Internal,
}

impl ErrorCode {
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadJson
            | ErrorCode::UnknownType
            | ErrorCode::BadRequest
            | ErrorCode::TooLong => StatusCode::BAD_REQUEST,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden | ErrorCode::NotSeated | ErrorCode::NotYourTurn => {
                StatusCode::FORBIDDEN
            }
            ErrorCode::IllegalMove
            | ErrorCode::ImpossiblePosition
            | ErrorCode::StalePly
            | ErrorCode::WrongState
            | ErrorCode::SeatTaken
            | ErrorCode::NameTaken => StatusCode::CONFLICT,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Busy | ErrorCode::Restoring => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// An error for a client, over HTTP or the socket.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`), for limits.
    pub retry_after: Option<u64>,
    /// Which refusal of its code this is, for a client to say it in the player's language
    /// with what to do next (`bot_games`, `open_tables`, …; docs/protocol.md).
    pub reason: Option<&'static str>,
}

/// The name the table actor, the hub, the live list and the wire protocol know it by.
pub type WsError = ApiError;

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            retry_after: None,
            reason: None,
        }
    }

    /// Names which refusal this is (see [`ApiError::reason`]).
    pub fn because(mut self, reason: &'static str) -> ApiError {
        self.reason = Some(reason);
        self
    }

    pub fn retry_after(mut self, secs: u64) -> ApiError {
        self.retry_after = Some(secs);
        self
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Unauthorized, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Forbidden, message)
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("no such {what}"))
    }

    /// A failure of ours (database down). The cause is logged here, once; the client gets a
    /// generic message.
    pub fn internal(context: &str, cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(%cause, "{context}");
        ApiError::new(ErrorCode::Internal, format!("{context}: please try again"))
    }
}

/// An id no table can have names no table.
impl From<super::BadTableId> for ApiError {
    fn from(_: super::BadTableId) -> ApiError {
        ApiError::not_found("table")
    }
}

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> ApiError {
        ApiError::internal("the database failed", e)
    }
}

/// An error's body, over HTTP as on the socket.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody<'a> {
    /// Always `error`.
    #[serde(rename = "type")]
    #[schema(example = "error")]
    kind: &'static str,
    /// The stable code (`not_found`, `bad_request`, …; see docs/protocol.md).
    #[schema(value_type = String)]
    code: ErrorCode,
    message: &'a str,
    /// Which refusal of its code this is, when the client may want to say more than the code:
    /// `open_tables`, `bot_games`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    reason: Option<&'a str>,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        if let Some(secs) = self.retry_after {
            response.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
        }
        response.json(ErrorBody {
            kind: "error",
            code: self.code,
            message: &self.message,
            reason: self.reason,
        })
    }
}
