//! Every game of the platform behind one type.
//!
//! [`AnyGame`] is a closed enum over the five engines (the shape of shakmaty's
//! `VariantPosition`): the server, the referee and the store hold games of any kind without
//! generics or downcasting, and speak to them in notation strings. Code that needs the typed
//! engine (bots, the solver) matches on the enum or uses [`with_game!`].
//!
//! This crate exists apart from `game` because it depends on every engine, and every engine
//! depends on `game`. Adding a sixth game is one new crate, one enum arm and one line in
//! [`GAMES`].

pub use game::{Error, Game, GameInfo, Names, Outcome, Seat, Variant, VariantInfo};

pub use cephalopod::Cephalopod;
pub use mill::Mill;
pub use perekati::Perekati;
pub use tumbleweed::Tumbleweed;
pub use white_rabbit::WhiteRabbit;

/// The catalogue, in the order the platform lists the games.
pub const GAMES: [&GameInfo; 5] = [
    &Perekati::INFO,
    &Tumbleweed::INFO,
    &Cephalopod::INFO,
    &Mill::INFO,
    &WhiteRabbit::INFO,
];

/// The catalogue entry of the game with this id.
pub fn game_info(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().copied().find(|info| info.id == id)
}

/// A game of any kind, in any state.
// Variants differ in size (tumbleweed keeps per-cell sight counts). There is one `AnyGame` per
// table, rarely moved, so boxing would buy nothing but an indirection on every call.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum AnyGame {
    Perekati(Perekati),
    Tumbleweed(Tumbleweed),
    Cephalopod(Cephalopod),
    Mill(Mill),
    WhiteRabbit(WhiteRabbit),
}

/// Runs `$body` with `$g` bound to the typed engine inside an [`AnyGame`] (by reference, or
/// by mutable reference with `mut`).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::Perekati($g) => $body,
            $crate::AnyGame::Tumbleweed($g) => $body,
            $crate::AnyGame::Cephalopod($g) => $body,
            $crate::AnyGame::Mill($g) => $body,
            $crate::AnyGame::WhiteRabbit($g) => $body,
        }
    };
}

/// Builds an [`AnyGame`] from a game id by running `$make` with `$G` bound to the engine type.
macro_rules! by_id {
    ($id:expr, $G:ident => $make:expr) => {
        match $id {
            "perekati" => {
                type $G = Perekati;
                Ok(AnyGame::Perekati($make?))
            }
            "tumbleweed" => {
                type $G = Tumbleweed;
                Ok(AnyGame::Tumbleweed($make?))
            }
            "cephalopod" => {
                type $G = Cephalopod;
                Ok(AnyGame::Cephalopod($make?))
            }
            "mill" => {
                type $G = Mill;
                Ok(AnyGame::Mill($make?))
            }
            "white-rabbit" => {
                type $G = WhiteRabbit;
                Ok(AnyGame::WhiteRabbit($make?))
            }
            other => Err(Error::UnknownGame(other.to_string())),
        }
    };
}

fn variant_of<G: Game>(id: Option<&str>) -> Result<G::Variant, Error> {
    match id {
        None => Ok(G::Variant::default_variant()),
        Some(id) => G::Variant::from_id(id).ok_or_else(|| Error::UnknownVariant(id.to_string())),
    }
}

impl AnyGame {
    /// A new game at its start; the default variant when `variant` is `None`.
    pub fn new(game: &str, variant: Option<&str>, seed: u64) -> Result<AnyGame, Error> {
        by_id!(game, G => variant_of::<G>(variant).map(|v| G::new(v, seed)))
    }

    /// A game set up from position notation, with an empty move history.
    pub fn from_position(
        game: &str,
        variant: &str,
        position: &str,
        seed: u64,
    ) -> Result<AnyGame, Error> {
        by_id!(game, G => variant_of::<G>(Some(variant))
            .and_then(|v| G::from_position(v, position, seed)))
    }

    /// Replays a game record: the start of (game, variant, seed) and then `moves` in order.
    /// Fails on the first move that is not legal, naming its index.
    pub fn replay<'a>(
        game: &str,
        variant: &str,
        seed: u64,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<AnyGame, (usize, Error)> {
        let mut g = AnyGame::new(game, Some(variant), seed).map_err(|e| (0, e))?;
        for (i, mv) in moves.into_iter().enumerate() {
            g.play(mv).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    pub fn info(&self) -> &'static GameInfo {
        with_game!(self, g => info_of(g))
    }

    pub fn variant_id(&self) -> &'static str {
        with_game!(self, g => g.variant().id())
    }

    pub fn position(&self) -> String {
        with_game!(self, g => g.position())
    }

    /// The position as `viewer` (a seat, or `None` for a spectator) may see it.
    pub fn view(&self, viewer: Option<Seat>) -> String {
        with_game!(self, g => g.view(viewer))
    }

    pub fn to_move(&self) -> Option<Seat> {
        with_game!(self, g => g.to_move())
    }

    pub fn turn_label(&self) -> &'static str {
        with_game!(self, g => g.turn_label())
    }

    pub fn seat_label(&self, seat: Seat) -> &'static str {
        with_game!(self, g => g.seat_label(seat))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Every legal move in canonical notation, ascending byte order.
    pub fn legal_moves(&self) -> Vec<String> {
        with_game!(self, g => g.legal_texts())
    }

    /// Plays one move given in canonical notation; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<(), Error> {
        with_game!(self, g => g.play_text(text).map(|_| ()))
    }

    /// Plays every move or none: on the first illegal one the state is left as it was and the
    /// error names that move.
    pub fn play_all<'a>(&mut self, moves: impl IntoIterator<Item = &'a str>) -> Result<(), Error> {
        let mut next = self.clone();
        for mv in moves {
            next.play(mv)?;
        }
        *self = next;
        Ok(())
    }

    pub fn perft(&self, depth: u32) -> Result<u64, Error> {
        with_game!(self, g => game::perft(g, depth))
    }

    pub fn perft_divide(&self, depth: u32) -> Result<Vec<(String, u64)>, Error> {
        with_game!(self, g => game::perft_divide(g, depth))
    }

    pub fn hash_key(&self) -> u64 {
        with_game!(self, g => g.hash_key())
    }

    /// The result in the referee's words: the winner's label (`a`, `b`, `r`, `w`), `draw`,
    /// `won SCORE` or `lost`.
    pub fn result_text(&self) -> Option<String> {
        self.outcome().map(|o| match o {
            Outcome::Win(seat) => self.seat_label(seat).to_string(),
            Outcome::Draw => "draw".to_string(),
            Outcome::SoloWon { score } => format!("won {score}"),
            Outcome::SoloLost => "lost".to_string(),
        })
    }
}

fn info_of<G: Game>(_: &G) -> &'static GameInfo {
    // `G::INFO` is a constant; this borrows its promoted static.
    &G::INFO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_variant_starts() {
        for info in GAMES {
            for v in info.variants {
                let g = AnyGame::new(info.id, Some(v.id), 1).unwrap();
                assert_eq!(g.info().id, info.id);
                assert_eq!(g.variant_id(), v.id);
                assert!(!g.is_over());
                assert!(!g.legal_moves().is_empty());
                let again = AnyGame::from_position(info.id, v.id, &g.position(), 1).unwrap();
                assert_eq!(again.position(), g.position());
            }
            let default = AnyGame::new(info.id, None, 0).unwrap();
            assert_eq!(default.variant_id(), info.default_variant().id);
        }
    }

    #[test]
    fn unknown_games_and_variants_are_refused() {
        assert_eq!(
            AnyGame::new("chess", None, 0).unwrap_err(),
            Error::UnknownGame("chess".into())
        );
        assert_eq!(
            AnyGame::new("mill", Some("nine"), 0).unwrap_err(),
            Error::UnknownVariant("nine".into())
        );
        assert!(game_info("chess").is_none());
    }

    #[test]
    fn the_catalogue_has_five_games_with_distinct_ids() {
        let mut ids: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(
            ids,
            [
                "cephalopod",
                "mill",
                "perekati",
                "tumbleweed",
                "white-rabbit"
            ]
        );
        for info in GAMES {
            assert!(!info.names.ru.is_empty() && !info.names.uk.is_empty());
            assert!(!info.summary.en.is_empty());
            assert_eq!(info.seats, if info.id == "white-rabbit" { 1 } else { 2 });
        }
    }

    #[test]
    fn play_all_is_all_or_nothing() {
        let mut g = AnyGame::new("cephalopod", Some("3x3"), 0).unwrap();
        let before = g.position();
        let err = g.play_all(["b2", "a1", "b2"]).unwrap_err();
        assert!(err.to_string().starts_with("b2"), "{err}");
        assert_eq!(g.position(), before);
        g.play_all(["b2", "a1"]).unwrap();
        assert_eq!(g.position(), ".../.a1./b1.. a");
    }
}
