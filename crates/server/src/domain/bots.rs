//! The bot levels a person can choose to play against.

use crate::error::ApiError;

/// The levels a person can choose to play against.
pub const BOT_LEVELS: [&str; 3] = ["easy", "medium", "hard"];

pub fn parse_bot_level(level: &str) -> Result<ai::Level, ApiError> {
    BOT_LEVELS
        .contains(&level)
        .then(|| level.parse().ok())
        .flatten()
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "no bot level {level:?}: choose easy, medium or hard"
            ))
        })
}

/// The level of one of the bots people can play, from its id (`bot:easy`).
pub fn bot_of(id: &str) -> Option<ai::Level> {
    parse_bot_level(id.strip_prefix("bot:")?).ok()
}
