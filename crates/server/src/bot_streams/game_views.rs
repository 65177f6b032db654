//! The lines of a game stream, made from the table as its player sees it (a `TableView` as
//! JSON: the table may run on another node): `gameFull` first, `gameState` on each change,
//! `chatLine` for each line of chat.

use serde_json::{Value, json};

/// Whether the table's game is over (finished or aborted): its stream ends after telling so.
pub fn is_over(view: &Value) -> bool {
    matches!(view["status"].as_str(), Some("finished" | "aborted"))
}

/// The state of the game: everything that changes as it is played.
pub fn game_state(view: &Value) -> Value {
    json!({
        "type": "gameState",
        "status": view["status"],
        "ply": view["ply"],
        "moves": view["moves"],
        "position": view["position"],
        "to_move": view["to_move"],
        "turn": view["turn"],
        "legal": view["legal"],
        "legal_truncated": view["legal_truncated"],
        "clock": view["clock"],
        "deadline": view["deadline"],
        "draw_offer": view["draw_offer"],
        "takeback_offer": view["takeback_offer"],
        "can_take_back": view["can_take_back"],
        "away": view["away"],
        "claim": view["claim"],
        "result": view["result"],
        "reason": view["reason"],
    })
}

/// The whole game: what does not change (the players, the settings), and its state.
pub fn game_full(view: &Value) -> Value {
    json!({
        "type": "gameFull",
        "id": view["id"],
        "game": view["game"],
        "variant": view["variant"],
        "rated": view["rated"],
        "rating_class": view["rating_class"],
        "days": view["days"],
        "seats": view["seats"],
        "you": view["you"],
        "chat": view["chat"],
        "state": game_state(view),
    })
}

/// A chat line as the stream tells it, from a socket's `chat` message.
pub fn chat_line(message: &Value) -> Value {
    let line = &message["line"];
    json!({
        "type": "chatLine",
        "room": line["room"],
        "username": line["author"],
        "user": line["user"],
        "text": line["text"],
        "at": line["at"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_game_holds_its_state_and_the_end_is_known_by_the_status() {
        let view = json!({
            "id": "t1", "game": "mill", "variant": "standard", "status": "playing",
            "ply": 1, "moves": ["d2"], "you": "b", "legal": ["a1"], "seats": [],
        });
        let full = game_full(&view);
        assert_eq!(full["type"], "gameFull");
        assert_eq!(full["state"]["moves"], json!(["d2"]));
        assert_eq!(full["state"]["legal"], json!(["a1"]));
        assert!(!is_over(&view));
        assert!(is_over(&json!({"status": "aborted"})));
        assert!(is_over(&json!({"status": "finished"})));
    }
}
