//! The WebSocket request decoder, `server::ws::protocol::parse_request`, on any text frame.
//!
//! `Request` is deserialise-only (the server never sends one), so an accepted request cannot be
//! written back as such. What holds instead:
//! - it never panics;
//! - the `id` it returns, on success or failure, is the frame's own `id` member (when the
//!   frame is a JSON object), so that the reply can be matched to the request;
//! - an accepted frame decodes to the same request again from the canonical JSON of the same
//!   value (the decoder depends on the value, not on its spelling);
//! - a refused frame gets one of the decoder's three codes, `bad_json` without an id, and its
//!   error reply, as `encode` writes it, is one line of JSON that carries the code, the
//!   message and the id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use server::error::ErrorCode;
use server::ws::protocol::{Message, encode, parse_request};

fuzz_target!(|data: &[u8]| {
    // A WebSocket text frame is UTF-8 by the protocol; the transport refuses anything else.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let value = serde_json::from_str::<Value>(text).ok();
    let frame_id = value
        .as_ref()
        .and_then(Value::as_object)
        .and_then(|object| object.get("id"))
        .cloned();

    match parse_request(text) {
        Ok((id, request)) => {
            assert_eq!(id, frame_id, "the reply would not carry the frame's id");
            let canonical = value.expect("an accepted frame is JSON").to_string();
            let (again_id, again) = parse_request(&canonical)
                .unwrap_or_else(|e| panic!("{canonical} refused after {text} was accepted: {e:?}"));
            assert_eq!(
                again, request,
                "{canonical} decodes differently from {text}"
            );
            assert_eq!(again_id, id);
        }
        Err((id, error)) => {
            assert_eq!(
                id, frame_id,
                "the error reply would not carry the frame's id"
            );
            assert!(
                matches!(
                    error.code,
                    ErrorCode::BadJson | ErrorCode::UnknownType | ErrorCode::BadRequest
                ),
                "unexpected code {:?} from the decoder",
                error.code
            );
            if error.code == ErrorCode::BadJson {
                assert!(id.is_none(), "a frame that is not an object has no id");
            }
            assert!(!error.message.is_empty(), "an error without a message");
            let reply = encode(
                id.as_ref(),
                &Message::Error {
                    code: error.code,
                    message: error.message.clone(),
                },
            );
            assert!(!reply.contains('\n'), "the error reply is not one line");
            let reply: Value = serde_json::from_str(&reply).expect("the error reply is JSON");
            assert_eq!(reply["type"], "error");
            assert!(
                reply["code"].as_str().is_some_and(|c| !c.is_empty()),
                "the error reply has no code: {reply}"
            );
            assert_eq!(reply["message"], Value::from(error.message));
            assert_eq!(reply.get("id"), id.as_ref());
        }
    }
});
