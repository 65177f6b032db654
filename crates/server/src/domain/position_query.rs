//! A position to study, as the analysis board asks for one: a two-player game and variant, a
//! starting position in the game's notation (the variant's start when absent) and a line of
//! moves played from it. [`PositionQuery::parse`] checks the shape the OpenAPI document states
//! (the same limits and characters); whether the position can occur and the moves are legal is
//! the engine's to say, in [`PositionQuery::replay`].

use catalog::{AnyGame, GameId, VariantId};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorCode};

/// The longest position text taken (the catalogue's longest positions are under 700 characters).
pub const POSITION_MAX_CHARS: usize = 1024;
/// The most moves in one line (a body stays well under the 16 KiB a body may have).
pub const LINE_MAX_MOVES: usize = 400;
/// The longest move text taken (the catalogue's longest moves, captures of four dice, are 14).
pub const MOVE_MAX_CHARS: usize = 24;
/// What a position text is written with: the games' notations use no other characters.
pub const POSITION_PATTERN: &str = r"^[0-9A-Za-z./ ]+$";
/// What a move is written with.
pub const MOVE_PATTERN: &str = r"^[0-9a-z:,-]+$";

/// The body of `POST /api/positions/check` as it comes.
#[derive(Deserialize, ToSchema)]
pub struct PositionBody {
    /// A two-player game of the catalogue.
    pub game: String,
    /// One of the game's variants; its default when absent.
    pub variant: Option<String>,
    /// The starting position in the game's notation; the variant's start when absent.
    #[schema(min_length = 1, max_length = 1024, pattern = r"^[0-9A-Za-z./ ]+$")]
    pub position: Option<String>,
    /// Moves played from the position, in the game's notation (at most 400).
    pub moves: Option<Vec<String>>,
}

/// A checked request: its variant, its start (or none for the variant's) and its line.
pub struct PositionQuery {
    pub variant: VariantId,
    pub position: Option<String>,
    pub moves: Vec<String>,
}

/// Where a line was replayed to: the start, then the game after each move.
pub struct Replayed {
    /// The start read back in the engine's notation, then each position after a move.
    pub positions: Vec<String>,
    /// The game at the end of the line.
    pub last: AnyGame,
}

fn only(text: &str, allowed: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().all(allowed)
}

impl PositionQuery {
    /// The request if it has the documented shape; 400 `bad_request` saying what is wrong.
    pub fn parse(body: PositionBody) -> Result<PositionQuery, ApiError> {
        let game: GameId = body
            .game
            .parse()
            .map_err(|_| ApiError::bad_request(format!("no game {:?}", body.game)))?;
        if game.is_solo() {
            return Err(ApiError::bad_request(
                "the analysis board is for two-player games",
            ));
        }
        let variant = game
            .variant(body.variant.as_deref())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        if let Some(position) = &body.position {
            let ok = only(position, |c| {
                c.is_ascii_alphanumeric() || c == '.' || c == '/' || c == ' '
            });
            if !ok || position.chars().count() > POSITION_MAX_CHARS {
                return Err(ApiError::bad_request(format!(
                    "a position is 1 to {POSITION_MAX_CHARS} characters of letters, digits, '.', '/' and spaces"
                )));
            }
        }
        let moves = body.moves.unwrap_or_default();
        if moves.len() > LINE_MAX_MOVES {
            return Err(ApiError::bad_request(format!(
                "a line has at most {LINE_MAX_MOVES} moves"
            )));
        }
        for mv in &moves {
            let ok = only(mv, |c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || c == ':' || c == ',' || c == '-'
            });
            if !ok || mv.chars().count() > MOVE_MAX_CHARS {
                return Err(ApiError::bad_request(format!(
                    "a move is 1 to {MOVE_MAX_CHARS} characters of small letters, digits, ':', ',' and '-'"
                )));
            }
        }
        Ok(PositionQuery {
            variant,
            position: body.position,
            moves,
        })
    }

    /// Reads the start with the engine and plays the line: 409 `impossible_position` with the
    /// engine's reason for a start no game reaches, 409 `illegal_move` naming the first move
    /// the engine refuses.
    pub fn replay(&self) -> Result<Replayed, ApiError> {
        let mut game = match &self.position {
            None => AnyGame::new(self.variant, 0),
            Some(text) => AnyGame::from_position(self.variant, text, 0).map_err(|e| {
                let reason = match e {
                    catalog::Error::BadPosition(reason) => reason,
                    other => other.to_string(),
                };
                ApiError::new(
                    ErrorCode::ImpossiblePosition,
                    format!("impossible position: {reason}"),
                )
            })?,
        };
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(game.position());
        for (i, mv) in self.moves.iter().enumerate() {
            game.play_text(mv).map_err(|e| {
                ApiError::new(ErrorCode::IllegalMove, format!("move {}: {e}", i + 1))
            })?;
            positions.push(game.position());
        }
        Ok(Replayed {
            positions,
            last: game,
        })
    }
}
