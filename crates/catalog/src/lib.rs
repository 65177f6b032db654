//! Every game of the platform behind one type.
//!
//! [`AnyGame`] is a closed enum over the five engines (the shape of shakmaty's
//! `VariantPosition`): the server, the referee and the store hold games of any kind without
//! generics or downcasting, and speak to them in notation strings. Code that needs the typed
//! engine (bots, the solver) matches on the enum or uses [`with_game!`]. Games and variants are
//! named by [`GameId`] and [`VariantId`], which only a known id parses into.
//!
//! This crate exists apart from `game` because it depends on every engine, and every engine
//! depends on `game`. What adding a game takes is listed in ARCHITECTURE.md ("Adding a game").

mod ids;

pub use game::{
    BadEndReason, BadOutcome, EndReason, Error, Game, GameInfo, Names, Outcome, Seat, Variant,
    VariantInfo,
};
pub use ids::{GameId, VariantId};

pub use cephalopod::Cephalopod;
pub use mill::Mill;
pub use perekati::Perekati;
pub use tumbleweed::Tumbleweed;
pub use white_rabbit::WhiteRabbit;

/// The catalogue, in the order the platform lists the games.
pub const GAMES: [&GameInfo; 5] = [
    GameId::ALL[0].info(),
    GameId::ALL[1].info(),
    GameId::ALL[2].info(),
    GameId::ALL[3].info(),
    GameId::ALL[4].info(),
];

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

/// Builds an [`AnyGame`] for a [`GameId`] by running `$make` with `$G` bound to the engine
/// type; `$make` is the engine's value.
macro_rules! by_id {
    ($id:expr, $G:ident => $make:expr) => {
        match $id {
            GameId::Perekati => {
                type $G = Perekati;
                AnyGame::Perekati($make)
            }
            GameId::Tumbleweed => {
                type $G = Tumbleweed;
                AnyGame::Tumbleweed($make)
            }
            GameId::Cephalopod => {
                type $G = Cephalopod;
                AnyGame::Cephalopod($make)
            }
            GameId::Mill => {
                type $G = Mill;
                AnyGame::Mill($make)
            }
            GameId::WhiteRabbit => {
                type $G = WhiteRabbit;
                AnyGame::WhiteRabbit($make)
            }
        }
    };
}

/// The engine's variant that `variant` names: `GameInfo::variants` lists them in the order of
/// `Variant::ALL` (a test checks it).
fn engine_variant<G: Game>(variant: VariantId) -> G::Variant {
    let found = G::Variant::from_id(variant.as_str());
    found.expect("the catalogue lists only its engines' variants")
}

impl AnyGame {
    /// A new game of `variant` at its start.
    pub fn new(variant: VariantId, seed: u64) -> AnyGame {
        by_id!(variant.game(), G => G::new(engine_variant::<G>(variant), seed))
    }

    /// A game set up from position notation, with an empty move history.
    pub fn from_position(variant: VariantId, position: &str, seed: u64) -> Result<AnyGame, Error> {
        Ok(
            by_id!(variant.game(), G => G::from_position(engine_variant::<G>(variant), position, seed)?),
        )
    }

    /// Replays a game record: the start of (variant, seed) and then `moves` in order.
    /// Fails on the first move that is not legal, naming its index.
    pub fn replay<'a>(
        variant: VariantId,
        seed: u64,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<AnyGame, (usize, Error)> {
        let mut g = AnyGame::new(variant, seed);
        for (i, mv) in moves.into_iter().enumerate() {
            g.play_text(mv).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    pub fn id(&self) -> GameId {
        match self {
            AnyGame::Perekati(_) => GameId::Perekati,
            AnyGame::Tumbleweed(_) => GameId::Tumbleweed,
            AnyGame::Cephalopod(_) => GameId::Cephalopod,
            AnyGame::Mill(_) => GameId::Mill,
            AnyGame::WhiteRabbit(_) => GameId::WhiteRabbit,
        }
    }

    pub fn variant(&self) -> VariantId {
        let id = with_game!(self, g => g.variant().id());
        let variant = self.id().variant(Some(id));
        variant.expect("every engine variant is in the catalogue")
    }

    pub fn info(&self) -> &'static GameInfo {
        self.id().info()
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

    /// Why a game over by its rules ended: [`EndReason::Rules`], except where one game's
    /// rules score two different endings alike (Perekati-pole's blocked side and threefold
    /// repetition). `None` while it goes on.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.outcome()?;
        Some(match self {
            AnyGame::Perekati(game) => match game.end_rule() {
                Some(perekati::EndRule::Blocked) => EndReason::Blocked,
                Some(perekati::EndRule::Repetition) => EndReason::Repetition,
                _ => EndReason::Rules,
            },
            _ => EndReason::Rules,
        })
    }

    /// The platform's adjudication of a game its rules leave running, with its reason: for
    /// now Perekati-pole's no-progress rule (docs/rules-decisions.md), which the table and
    /// the arena apply after every move. Not a rule of any game: the engines, the referee and
    /// the perft vectors never see it.
    pub fn adjudication(&self) -> Option<(Outcome, EndReason)> {
        match self {
            AnyGame::Perekati(game) => game
                .no_progress_ending()
                .map(|o| (o, EndReason::NoProgress)),
            _ => None,
        }
    }

    /// Every legal move as text in canonical notation, ascending byte order (a fresh list; the
    /// engines' `legal_moves` fill a caller's buffer with typed moves instead).
    pub fn legal_texts(&self) -> Vec<String> {
        with_game!(self, g => g.legal_texts())
    }

    /// Plays one move given as text in canonical notation; on error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<(), Error> {
        with_game!(self, g => g.play_text(text).map(|_| ()))
    }

    /// Plays every move or none: on the first illegal one the state is left as it was and the
    /// error names that move.
    pub fn play_texts<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), Error> {
        let mut next = self.clone();
        for mv in moves {
            next.play_text(mv)?;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_variant_starts() {
        for game in GameId::ALL {
            for variant in game.variants() {
                let g = AnyGame::new(variant, 1);
                assert_eq!(g.id(), game);
                assert_eq!(g.variant(), variant);
                assert!(!g.is_over());
                assert!(!g.legal_texts().is_empty());
                let again = AnyGame::from_position(variant, &g.position(), 1).unwrap();
                assert_eq!(again.position(), g.position());
            }
        }
    }

    #[test]
    fn the_catalogue_lists_the_variants_in_the_engines_order() {
        fn check<G: Game>() {
            let ids: Vec<&str> = G::Variant::ALL.iter().map(|v| v.id()).collect();
            let listed: Vec<&str> = G::INFO.variants.iter().map(|v| v.id).collect();
            assert_eq!(ids, listed, "{}", G::INFO.id);
        }
        check::<Perekati>();
        check::<Tumbleweed>();
        check::<Cephalopod>();
        check::<Mill>();
        check::<WhiteRabbit>();
    }

    #[test]
    fn every_position_of_a_game_reads_back_as_written() {
        // Along a game of each two-player variant (moves picked by a fixed stride through the
        // legal list), every position read from its notation writes the same notation again.
        for game in GameId::ALL.iter().filter(|g| !g.is_solo()) {
            for variant in game.variants() {
                let mut g = AnyGame::new(variant, 7);
                for ply in 0..60 {
                    let text = g.position();
                    let read = AnyGame::from_position(variant, &text, 0)
                        .unwrap_or_else(|e| panic!("{variant:?} ply {ply}: {text:?}: {e}"));
                    assert_eq!(read.position(), text, "{variant:?} ply {ply}");
                    assert_eq!(read.to_move(), g.to_move(), "{variant:?} ply {ply}");
                    let legal = g.legal_texts();
                    if legal.is_empty() {
                        break;
                    }
                    let pick = legal[(ply * 7 + 3) % legal.len()].clone();
                    g.play_text(&pick).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_bad_position_is_refused() {
        let variant = VariantId::parse("cephalopod", Some("3x3")).unwrap();
        assert!(matches!(
            AnyGame::from_position(variant, "nonsense", 0),
            Err(Error::BadPosition(_))
        ));
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
        for game in GameId::ALL {
            let info = game.info();
            assert!(!info.names.ru.is_empty() && !info.names.uk.is_empty());
            assert!(!info.summary.en.is_empty());
            assert_eq!(game.is_solo(), game == GameId::WhiteRabbit);
        }
    }

    #[test]
    fn play_texts_is_all_or_nothing() {
        let variant = VariantId::parse("cephalopod", Some("3x3")).unwrap();
        let mut g = AnyGame::new(variant, 0);
        let before = g.position();
        let err = g.play_texts(["b2", "a1", "b2"]).unwrap_err();
        assert!(err.to_string().starts_with("b2"), "{err}");
        assert_eq!(g.position(), before);
        g.play_texts(["b2", "a1"]).unwrap();
        assert_eq!(g.position(), ".../.a1./b1.. a");
    }
}
