//! The analysis board's positions: a start in a game's notation (or the variant's start) and a
//! line of moves, checked and replayed by the engine, answered with every position along the
//! line and the legal moves at its end. Nothing is stored and nothing is computed that the
//! engine's rules do not give at once, so it asks for no identity.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::domain::position_query::{
    LINE_MAX_MOVES, MOVE_MAX_CHARS, MOVE_PATTERN, POSITION_MAX_CHARS, POSITION_PATTERN,
    PositionBody, PositionQuery,
};
use crate::error::{ApiError, ErrorBody};

/// Legal-move lists longer than this are not sent, as at the tables (a setup of two stones on
/// any two cells has tens of thousands; the client composes those from the position).
const LEGAL_LIST_LIMIT: usize = 2_000;

/// A checked position and line.
#[derive(Serialize, ToSchema)]
pub(crate) struct CheckedPosition {
    game: &'static str,
    variant: &'static str,
    /// The start, then the position after each move of the line, in the engine's notation.
    positions: Vec<String>,
    /// The line's moves, as given (each is the canonical spelling, or it was refused).
    moves: Vec<String>,
    /// At the end of the line: the side-to-move field of the position (`a`, `r`, `setup`, …).
    turn: &'static str,
    /// At the end of the line: the seat to move (`a` or `b`), null once the game is over.
    to_move: Option<&'static str>,
    /// At the end of the line: the result once the game is over by its rules (`a`, `b`,
    /// `draw`).
    #[schema(value_type = Option<String>)]
    result: Option<String>,
    /// At the end of the line: every legal move (empty when `legal_truncated`).
    legal: Vec<String>,
    /// The legal moves are too many to list (a setup of any two empty cells).
    legal_truncated: bool,
}

/// Checks a position and a line of moves from it with the game's engine: the positions along
/// the line and the legal moves at its end, or why the position cannot occur (409
/// `impossible_position`) or which move is not legal (409 `illegal_move`). A position set up
/// by hand starts with no history (rules that look back, such as repetitions, count from it).
#[utoipa::path(
    post,
    path = "/api/positions/check",
    tag = "analysis",
    request_body = PositionBody,
    responses(
        (status = 200, description = "The positions along the line and the legal moves at its end", body = CheckedPosition),
        (status = 400, description = "A body that is not JSON (`bad_json`), or not of this shape (`bad_request`): a game that is not a two-player game of the catalogue, a variant it does not have, a position or move written with other characters or too long, more than 400 moves", body = ErrorBody),
        (status = 409, description = "The position does not read or cannot occur in the game (`impossible_position`), or a move of the line is not legal where it is played (`illegal_move`); the message says why", body = ErrorBody),
    ),
)]
pub(crate) async fn check(req: HttpRequest, body: web::Bytes) -> Result<HttpResponse, ApiError> {
    let body: PositionBody = super::json_body(&req, &body)?;
    let query = PositionQuery::parse(body)?;
    let replayed = query.replay()?;
    let game = &replayed.last;
    let legal = game.legal_texts();
    let legal_truncated = legal.len() > LEGAL_LIST_LIMIT;
    Ok(HttpResponse::Ok().json(CheckedPosition {
        game: query.variant.game().as_str(),
        variant: query.variant.as_str(),
        positions: replayed.positions,
        moves: query.moves,
        turn: game.turn_label(),
        to_move: game.to_move().map(|s| s.letter()),
        result: game.outcome().map(|o| o.to_string()),
        legal: if legal_truncated { Vec::new() } else { legal },
        legal_truncated,
    }))
}

/// What `POST /api/positions/check` takes, game by game: the two-player games and each one's
/// own variants, and the moves' limits (utoipa cannot say them of a list's items).
pub(crate) fn body_schema(schema: &mut Value) {
    super::two_player_game_schema(schema);
    schema["properties"]["position"]["pattern"] = Value::from(POSITION_PATTERN);
    schema["properties"]["position"]["maxLength"] = Value::from(POSITION_MAX_CHARS);
    schema["properties"]["moves"] = json!({
        "description": schema["properties"]["moves"]["description"],
        "type": ["array", "null"],
        "maxItems": LINE_MAX_MOVES,
        "items": {"type": "string", "minLength": 1, "maxLength": MOVE_MAX_CHARS, "pattern": MOVE_PATTERN},
    });
}
