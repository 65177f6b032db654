//! Errors as clients see them; they are part of the wire protocol and live with it
//! ([`crate::ws::protocol::error`]).

pub use crate::ws::protocol::error::{ApiError, ErrorBody, ErrorCode, WsError};
