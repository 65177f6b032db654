//! Which page of the lobby a client asks for: one game's open tables or every game's, from
//! an offset, so many at a time.

use catalog::GameId;

use crate::error::ApiError;

/// A page unless the client asks for another size.
pub const DEFAULT_LIMIT: usize = 50;
/// The largest page: a client wanting more reads the next one.
pub const MAX_LIMIT: usize = 100;
/// How deep a client may page: nobody reads a lobby further than this, and a bound keeps a
/// page's cost bounded.
pub const MAX_OFFSET: usize = 10_000;

/// A valid page of the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LobbyQuery {
    game: Option<GameId>,
    offset: usize,
    limit: usize,
}

impl Default for LobbyQuery {
    fn default() -> LobbyQuery {
        LobbyQuery {
            game: None,
            offset: 0,
            limit: DEFAULT_LIMIT,
        }
    }
}

impl LobbyQuery {
    pub fn parse(
        game: Option<&str>,
        offset: Option<usize>,
        limit: Option<usize>,
    ) -> Result<LobbyQuery, ApiError> {
        let game = match game {
            None => None,
            Some(id) => Some(
                id.parse::<GameId>()
                    .map_err(|_| ApiError::bad_request(format!("no game {id:?}")))?,
            ),
        };
        let offset = offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            return Err(ApiError::bad_request(format!(
                "offset {offset} is past the last page read ({MAX_OFFSET})"
            )));
        }
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad_request(format!(
                "limit must be from 1 to {MAX_LIMIT}, not {limit}"
            )));
        }
        Ok(LobbyQuery {
            game,
            offset,
            limit,
        })
    }

    /// Only this game's tables; every game's when `None`.
    pub fn game(&self) -> Option<GameId> {
        self.game
    }

    /// How many of the matching tables the page skips.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The most tables the page shows.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn nothing_asked_is_the_first_page_of_every_game() {
        assert_eq!(
            LobbyQuery::parse(None, None, None).unwrap(),
            LobbyQuery::default()
        );
    }

    #[test]
    fn a_page_of_one_game_is_read_as_asked() {
        let query = LobbyQuery::parse(Some("mill"), Some(50), Some(10)).unwrap();
        assert_eq!(
            query,
            LobbyQuery {
                game: Some(GameId::Mill),
                offset: 50,
                limit: 10
            }
        );
    }

    #[test]
    fn an_unknown_game_or_a_page_out_of_range_is_refused() {
        for (game, offset, limit) in [
            (Some("chess"), None, None),
            (None, Some(MAX_OFFSET + 1), None),
            (None, None, Some(0)),
            (None, None, Some(MAX_LIMIT + 1)),
        ] {
            let refused = LobbyQuery::parse(game, offset, limit).unwrap_err();
            assert_eq!(
                refused.code,
                ErrorCode::BadRequest,
                "{game:?} {offset:?} {limit:?}"
            );
        }
    }
}
