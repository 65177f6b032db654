//! The contract between Stolik's rules engines and everything that uses them.
//!
//! Every game (perekati, tumbleweed, cephalopod, mill, white-rabbit) is a crate that implements
//! [`Game`]. The server, the bots, the referee and the solver only ever talk to a game through
//! this trait (or through the `catalog` crate's `AnyGame`, which dispatches over all five).
//!
//! Design rules, shared by every implementation:
//! - **Pure.** A game state is a value: no I/O, no clock, no global randomness. Dice come from
//!   a [`GameRng`] stored in the state, so a game is a pure function of (variant, seed, moves)
//!   and can be replayed, audited and resumed from its move log.
//! - **Illegal moves are values.** [`Game::play`] returns an [`Error`] and leaves the state
//!   unchanged; only [`Game::make`] trusts its caller (it is the fast path for search).
//! - **Notation is the wire format.** Moves and positions travel as the strings defined in
//!   `docs/spec/<game>.md`; [`Game::parse_move`] and [`Game::format_move`] are exact inverses
//!   on legal moves.

mod end_reason;
mod error;
mod info;
mod perft;
mod rng;
mod seat;
pub mod testing;

pub use end_reason::{BadEndReason, EndReason};
pub use error::Error;
pub use info::{GameInfo, Names, VariantInfo};
pub use perft::{perft, perft_divide};
pub use rng::{GameRng, splitmix64, splitmix64_mix};
pub use seat::{BadOutcome, Outcome, Seat};

use std::fmt::Debug;
use std::hash::Hash;

/// A variant of a game: a closed enum whose first entry in [`Variant::ALL`] is the default.
pub trait Variant: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Every variant, the default first, in the order the catalogue lists them.
    const ALL: &'static [Self];

    /// The variant's id as written in the spec and on the wire (`malysh`, `hex8`, `5x5`).
    fn id(self) -> &'static str;

    fn from_id(id: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.id() == id)
    }

    fn default_variant() -> Self {
        Self::ALL[0]
    }
}

/// A game state together with its rules.
///
/// The required methods are the rules; the provided ones build the safe, string-level API on
/// top of them. Implementations keep every field private and reach a state only through
/// [`Game::new`], [`Game::from_position`] (validated) and moves.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    type Variant: Variant;
    /// A move in a compact form. Cheap to copy; compare and hash freely.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`Game::make`] returns so that [`Game::unmake`] restores the state exactly.
    type Undo;

    /// The catalogue entry: id, names, seats, variants.
    const INFO: GameInfo;

    /// The start of a new game. `seed` feeds the dice of games that have them and is ignored by
    /// the others.
    fn new(variant: Self::Variant, seed: u64) -> Self;

    /// A state parsed from position notation. The move history starts empty (rules that look
    /// at history treat this position as its first occurrence).
    fn from_position(variant: Self::Variant, position: &str, seed: u64) -> Result<Self, Error>;

    fn variant(&self) -> Self::Variant;

    /// The position in the game's notation. Together with the variant this is everything a
    /// seat or a spectator may see: none of the games hide information, and a dice game's
    /// generator state (its future rolls) is deliberately not part of it.
    fn position(&self) -> String;

    /// The seat whose turn it is, or `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// The side-to-move field of the position notation (`a`, `b`, `r`, `w`, `setup`, `choose`;
    /// empty for a solo game). The referee's `status` prints it.
    fn turn_label(&self) -> &'static str;

    /// How results name a seat (`a`/`b`, or a colour `r`/`w` once tumbleweed's colours are
    /// chosen).
    fn seat_label(&self, seat: Seat) -> &'static str;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Every legal move, written into `out` (cleared first). Empty when the game is over.
    /// Callers reuse `out` so that move generation does not allocate in search loops.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Reads a move written in the game's notation. This checks the syntax and the board (a
    /// cell that does not exist is an error) but not legality: see [`Game::check_move`].
    fn parse_move(&self, text: &str) -> Result<Self::Move, Error>;

    /// Writes a move in the game's canonical notation.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Plays a move without checking it and returns what [`Game::unmake`] needs.
    ///
    /// # Panics
    /// May panic, or leave a meaningless state, when `mv` is not legal here. Use
    /// [`Game::play`] for untrusted moves.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move `mv` that [`Game::make`] played, restoring the state exactly
    /// (dice generator included).
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);

    /// A hash of the position as the rules see it (board, side to move and whatever else the
    /// position notation holds): equal positions give equal keys. For transposition tables and
    /// repetition checks.
    fn hash_key(&self) -> u64;

    /// Whether `mv` is legal here, with a reason a player can read when it is not.
    /// The default looks the move up in [`Game::legal_moves`]; engines override it to explain
    /// why ("the cell is occupied").
    fn check_move(&self, mv: Self::Move) -> Result<(), Error> {
        if self.outcome().is_some() {
            return Err(Error::GameOver);
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(())
        } else {
            Err(Error::illegal(
                self.format_move(mv),
                "not a legal move here",
            ))
        }
    }

    /// The number of legal moves. Engines override it when counting is cheaper than listing
    /// (perft's last ply uses it).
    fn count_legal(&self) -> usize {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        legal.len()
    }

    /// Plays a move after checking it; on error the state is unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), Error> {
        self.check_move(mv)?;
        self.make(mv);
        Ok(())
    }

    /// Reads and plays a move given in canonical notation; on error the state is unchanged.
    /// Non-canonical spellings are refused so that every move has exactly one written form.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, Error> {
        let mv = self.parse_move(text)?;
        let canonical = self.format_move(mv);
        if canonical != text {
            return Err(Error::bad_move(
                text,
                format!("not the canonical spelling (write {canonical})"),
            ));
        }
        self.play(mv)?;
        Ok(mv)
    }

    /// Every legal move in canonical notation, in ascending byte order (as the referee lists
    /// them).
    fn legal_texts(&self) -> Vec<String> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let mut texts: Vec<String> = legal.into_iter().map(|m| self.format_move(m)).collect();
        texts.sort_unstable();
        texts
    }

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// What `viewer` (a seat, or `None` for a spectator) may see of the state, in position
    /// notation. None of the platform's games hides anything from anyone, so by default every
    /// viewer sees the position; what no viewer ever sees is the dice generator (the future
    /// rolls), which the notation does not contain. A game with hidden information overrides
    /// this, and the server sends nothing else.
    fn view(&self, viewer: Option<Seat>) -> String {
        let _ = viewer;
        self.position()
    }
}
