//! Perekati-pole, the rolling-cube game (the Soviet "Malysh" box game of 1987), as a Stolik
//! rules engine.
//!
//! Each side rolls its cubes, one edge at a time, to the row where the other side started and
//! tries to stand them there with the marked face (the hat) on top. The rules are
//! `docs/spec/perekati.md`; this crate implements them exactly, including the platform's
//! threefold-repetition rule. The platform's adjudication of a game that no longer moves
//! ([`Perekati::no_progress_ending`]) is not one of the rules: the table and the arena apply
//! it, as they apply a clock.
//!
//! ```
//! use game::Game;
//! use perekati::{Perekati, Variant};
//!
//! let mut game = Perekati::new(Variant::Malysh, 0);
//! game.play_text("c1c2").unwrap();
//! assert_eq!(game.position(), "uuuuu/...../...../...../..N../UU.UU b");
//! ```

mod board;
mod notation;

pub use board::{Cell, Hat, Variant};

use board::{Dir, Geometry, ROLL, Zobrist};
use game::{Error, Game, GameInfo, Names, Outcome, Seat, VariantInfo};

/// A move: the cube on `from` rolls onto the neighbouring cell `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Cell,
    to: Cell,
}

impl Move {
    /// A move between two cells. Nothing is checked here: [`Game::check_move`] says whether it
    /// is legal.
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move { from, to }
    }

    pub const fn from(self) -> Cell {
        self.from
    }

    pub const fn to(self) -> Cell {
        self.to
    }

    /// The same cube rolled straight back.
    pub const fn reverse(self) -> Move {
        Move {
            from: self.to,
            to: self.from,
        }
    }
}

/// What [`Game::unmake`] needs beyond the move itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    /// The hat before the roll (rolling back would also give it, but a lookup is cheaper).
    hat: u8,
    /// The repetition window's start before the move.
    irreversible: u32,
    outcome: Option<Outcome>,
}

/// A game of Perekati-pole: the cubes, the side to move and the history the rules look at.
///
/// Cubes live in one bitboard per side (bit `row * 8 + column`) with a hat per cell; home
/// cubes, which never move again, have a bitboard of their own.
#[derive(Debug, Clone)]
pub struct Perekati {
    variant: Variant,
    geometry: Geometry,
    /// Per side (a, b): its cubes.
    cubes: [u64; 2],
    /// Per side: its cubes that are home (on the goal row, hat up).
    home: [u64; 2],
    /// Hat index per cell; meaningful only where a cube stands.
    hats: [u8; 64],
    /// 0 when side `a` is to move, 1 for `b` (kept even after the end, for the notation).
    side: usize,
    hash: u64,
    outcome: Option<Outcome>,
    /// Every move since the start (or since `from_position`): the rocking rule reads the last
    /// eight.
    moves: Vec<Move>,
    /// `hashes[i]` is the hash of the position after `i` moves; `hashes[0]` is the start.
    hashes: Vec<u64>,
    /// The first index of `hashes` that can still recur: a position before the latest cube
    /// came home had fewer home cubes, and home cubes never leave.
    irreversible: usize,
    /// How many of `hashes` fall in each bucket (by the hash's top bits): a position seen
    /// fewer than three times in its bucket cannot be a third occurrence, which spares the
    /// scan of `hashes` on almost every move of a long game.
    buckets: Box<[u32]>,
}

/// Which of the spec's end rules ended a game ([`Perekati::end_rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndRule {
    /// Rule 1: the side that just moved has every cube home.
    AllHome,
    /// Rule 2: the side to move has no legal move.
    Blocked,
    /// Rule 3: a position came round for the third time.
    Repetition,
}

/// Plies without a cube coming home after which the platform adjudicates the game
/// ([`Perekati::no_progress_ending`]): 50 moves by each side.
pub const NO_PROGRESS_PLIES: usize = 100;

/// Buckets of the repetition filter (a power of two).
const BUCKET_BITS: u32 = 12;

#[inline]
const fn bucket(hash: u64) -> usize {
    (hash >> (64 - BUCKET_BITS)) as usize
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        id: "malysh",
        names: Names {
            ru: "Коробка «Малыша», 5×6",
            uk: "Коробка «Малиша», 5×6",
            en: "Malysh box, 5×6",
        },
    },
    VariantInfo {
        id: "long",
        names: Names {
            ru: "Длинное поле, 5×7",
            uk: "Довге поле, 5×7",
            en: "Long board, 5×7",
        },
    },
    VariantInfo {
        id: "large",
        names: Names {
            ru: "Большое поле, 6×8",
            uk: "Велике поле, 6×8",
            en: "Large board, 6×8",
        },
    },
    VariantInfo {
        id: "printed",
        names: Names {
            ru: "Печатная, 6×6",
            uk: "Друкована, 6×6",
            en: "Printed board, 6×6",
        },
    },
];

impl Perekati {
    /// The number of `seat`'s cubes that are home.
    pub fn home_count(&self, seat: Seat) -> u32 {
        self.home[seat.index()].count_ones()
    }

    /// Plies played since a cube last came home (or since the start of the record): how long
    /// neither side has made lasting progress. Home cubes never leave, so nothing before the
    /// latest arrival can come round again.
    pub fn plies_since_home(&self) -> usize {
        self.hashes.len() - 1 - self.irreversible
    }

    /// The platform's adjudication, not a rule of the game (the engine's [`Game::outcome`]
    /// never applies it): when [`NO_PROGRESS_PLIES`] plies have passed without a cube coming
    /// home, the game is scored as rule 2 scores a stalled position: the side with more cubes
    /// home wins, and with as many on each side it is a draw. Otherwise `None` (also for a game
    /// already over). Without it a side that leads on home cubes cannot end a game in which the
    /// other keeps a cube on its last free goal cell and rolls its other cubes about for ever,
    /// and two sides that keep each other out roll on for thousands of plies without ever
    /// repeating a position. The table and `stolik arena` ask after every move;
    /// `docs/rules-decisions.md` gives the reasoning.
    pub fn no_progress_ending(&self) -> Option<Outcome> {
        if self.outcome.is_some() || self.plies_since_home() < NO_PROGRESS_PLIES {
            return None;
        }
        Some(self.score_by_home())
    }

    /// Which end rule ended the game, or `None` while it goes on. Rules 2 and 3 score alike
    /// (more cubes home wins), so a result of "2 to 0" does not say by itself which of them
    /// it was; the table names it in the game's end reason. The checks are [`Self::evaluate`]'s,
    /// in its order.
    pub fn end_rule(&self) -> Option<EndRule> {
        self.outcome?;
        let mover = 1 - self.side;
        Some(if self.home[mover] == self.cubes[mover] {
            EndRule::AllHome
        } else if self.count_moves() == 0 {
            EndRule::Blocked
        } else {
            EndRule::Repetition
        })
    }

    /// The cube on `cell`: its side and where its hat points.
    pub fn cube(&self, cell: Cell) -> Option<(Seat, Hat)> {
        let bit = cell.bit();
        let seat = if self.cubes[0] & bit != 0 {
            Seat::A
        } else if self.cubes[1] & bit != 0 {
            Seat::B
        } else {
            return None;
        };
        Some((seat, Hat::from_index(self.hats[cell.index()])))
    }

    /// Every cell holding a home cube, of either side, as bits `row * 8 + column`: the walls
    /// of the board, since home cubes never move again.
    pub fn home_cells(&self) -> u64 {
        self.home[0] | self.home[1]
    }

    /// Whether the cube on `cell` is home (on its goal row, hat up) and so frozen.
    pub fn is_home(&self, cell: Cell) -> bool {
        (self.home[0] | self.home[1]) & cell.bit() != 0
    }

    /// Per direction (north, south, east, west): every empty cell one of `side`'s free cubes
    /// could roll onto, ignoring the rocking rule.
    #[inline]
    fn targets(&self, side: usize) -> [u64; 4] {
        let g = &self.geometry;
        let movable = self.cubes[side] & !self.home[side];
        let empty = g.board & !(self.cubes[0] | self.cubes[1]);
        [
            (movable << 8) & empty,
            (movable >> 8) & empty,
            ((movable & g.not_last_column) << 1) & empty,
            ((movable & g.not_first_column) >> 1) & empty,
        ]
    }

    /// The one move the rocking rule forbids `side` right now, if any: its own last four
    /// moves were m, reverse(m), m, reverse(m) (oldest first). The sides alternate, so they
    /// are the history's entries 8, 6, 4 and 2 back.
    #[inline]
    fn rocking_ban(&self) -> Option<Move> {
        let n = self.moves.len();
        if n < 8 {
            return None;
        }
        let m = &self.moves[n - 8..];
        let m1 = m[0];
        (m[4] == m1 && m[2] == m1.reverse() && m[6] == m1.reverse()).then_some(m1)
    }

    /// Whether the banned move would otherwise be legal (the cube is the mover's and may still
    /// move, the cell beyond is free), so that counting must subtract it.
    #[inline]
    fn ban_applies(&self, side: usize, ban: Move) -> bool {
        let movable = self.cubes[side] & !self.home[side];
        let occupied = self.cubes[0] | self.cubes[1];
        movable & ban.from.bit() != 0 && occupied & ban.to.bit() == 0
    }

    /// The number of legal moves of the side to move, game over or not.
    #[inline]
    fn count_moves(&self) -> u32 {
        let t = self.targets(self.side);
        let mut n = t[0].count_ones() + t[1].count_ones() + t[2].count_ones() + t[3].count_ones();
        if let Some(ban) = self.rocking_ban()
            && self.ban_applies(self.side, ban)
        {
            n -= 1;
        }
        n
    }

    /// The side with more home cubes wins; equal counts draw (rules 2 and 3).
    fn score_by_home(&self) -> Outcome {
        let a = self.home[0].count_ones();
        let b = self.home[1].count_ones();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Seat::A),
            std::cmp::Ordering::Less => Outcome::Win(Seat::B),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Whether the current position has now occurred for the third time.
    #[inline]
    fn third_occurrence(&self) -> bool {
        let n = self.hashes.len() - 1;
        let h = self.hashes[n];
        // Same side to move means same parity; a position needs at least four moves (one
        // there and back per side) to come round again.
        if n < self.irreversible + 4 {
            return false;
        }
        if self.buckets[bucket(h)] < 3 {
            return false;
        }
        let mut seen = 1;
        let mut i = n - 4;
        loop {
            if self.hashes[i] == h {
                seen += 1;
                if seen == 3 {
                    return true;
                }
            }
            if i < self.irreversible + 2 {
                return false;
            }
            i -= 2;
        }
    }

    /// The end checks after a move, in the spec's order. `mover` just moved.
    fn evaluate(&self, mover: usize) -> Option<Outcome> {
        if self.home[mover] == self.cubes[mover] {
            return Some(Outcome::Win(Seat::from_index(mover).unwrap_or(Seat::A)));
        }
        if self.count_moves() == 0 || self.third_occurrence() {
            return Some(self.score_by_home());
        }
        None
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == 1 { Zobrist::SIDE } else { 0 };
        for side in 0..2 {
            let mut bits = self.cubes[side];
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                hash ^= Zobrist::cube(side, cell, self.hats[cell] as usize);
            }
        }
        hash
    }

    /// A state from validated parts: home cubes, hash, history and the end checks of a
    /// freshly set-up position.
    fn assemble(
        variant: Variant,
        cubes: [u64; 2],
        hats: [u8; 64],
        side: usize,
    ) -> Result<Perekati, Error> {
        let geometry = variant.geometry();
        let up = Hat::Up.index() as u8;
        let mut home = [0u64; 2];
        for (s, home) in home.iter_mut().enumerate() {
            let mut bits = cubes[s] & geometry.goal[s];
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if hats[cell] == up {
                    *home |= 1 << cell;
                }
            }
        }
        if home[side] == cubes[side] {
            // The move that brought its last cube home ended the game, so this side cannot
            // be the one to move.
            return Err(Error::bad_position(format!(
                "side {} to move has every cube home already; the game ended before",
                Seat::from_index(side).unwrap_or(Seat::A).letter()
            )));
        }
        let mut game = Perekati {
            variant,
            geometry,
            cubes,
            home,
            hats,
            side,
            hash: 0,
            outcome: None,
            moves: Vec::new(),
            hashes: Vec::new(),
            irreversible: 0,
            buckets: vec![0; 1 << BUCKET_BITS].into_boxed_slice(),
        };
        game.hash = game.compute_hash();
        game.hashes.push(game.hash);
        game.buckets[bucket(game.hash)] = 1;
        // A set-up position is read as if the other side had just moved into it; its
        // repetition count is 1, so only rules 1 and 2 can apply.
        game.outcome = game.evaluate(1 - side);
        Ok(game)
    }

    /// Why `mv` is not legal here, if it is not.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        let (from, to) = (mv.from, mv.to);
        let side = self.side;
        if !self.variant.contains(from) || !self.variant.contains(to) {
            return Some("the cell is not on this board".into());
        }
        if self.cubes[side] & from.bit() == 0 {
            return Some(if self.cubes[1 - side] & from.bit() != 0 {
                format!("the cube on {from} is not yours")
            } else {
                format!("there is no cube on {from}")
            });
        }
        if self.home[side] & from.bit() != 0 {
            return Some(format!("the cube on {from} is home and never moves again"));
        }
        if Dir::between(from, to).is_none() {
            return Some(format!(
                "{to} is not next to {from} (a cube rolls one cell, never diagonally)"
            ));
        }
        if (self.cubes[0] | self.cubes[1]) & to.bit() != 0 {
            return Some(format!("{to}: the cell is occupied"));
        }
        if self.rocking_ban() == Some(mv) {
            return Some("the same cube may not roll back and forth more than twice".into());
        }
        None
    }
}

impl Game for Perekati {
    type Variant = Variant;
    type Move = Move;
    type Undo = Undo;

    const INFO: GameInfo = GameInfo {
        id: "perekati",
        names: Names {
            ru: "Перекати-поле",
            uk: "Перекоти-поле",
            en: "Perekati-pole",
        },
        summary: Names {
            ru: "Игра для двоих: перекатывайте кубики через ребро на сторону соперника и ставьте их шляпкой вверх.",
            uk: "Гра для двох: перекочуйте кубики через ребро на бік суперника й ставте їх капелюшком догори.",
            en: "A game for two: roll your cubes over their edges to the far side and stand them there with the hat on top.",
        },
        seats: 2,
        has_dice: false,
        variants: VARIANTS,
    };

    fn new(variant: Variant, _seed: u64) -> Self {
        let geometry = variant.geometry();
        let cubes = geometry.start;
        // Every cube starts hat up, and `Hat::Up` is index 0.
        let hats = [Hat::Up.index() as u8; 64];
        match Perekati::assemble(variant, cubes, hats, 0) {
            Ok(game) => game,
            // The start has no home cubes, so assembling it cannot fail.
            Err(e) => unreachable!("start of {variant:?}: {e}"),
        }
    }

    fn from_position(variant: Variant, position: &str, _seed: u64) -> Result<Self, Error> {
        let (cubes, hats, side) = notation::parse_position(variant, position)?;
        Perekati::assemble(variant, cubes, hats, side)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn position(&self) -> String {
        notation::format_position(self.variant, &self.cubes, &self.hats, self.side)
    }

    fn to_move(&self) -> Option<Seat> {
        match self.outcome {
            Some(_) => None,
            None => Seat::from_index(self.side),
        }
    }

    fn turn_label(&self) -> &'static str {
        if self.side == 0 { "a" } else { "b" }
    }

    fn seat_label(&self, seat: Seat) -> &'static str {
        seat.letter()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let ban = self.rocking_ban();
        let targets = self.targets(self.side);
        // From-cell offsets (to - from) of a roll north, south, east, west.
        const DELTA: [i8; 4] = [8, -8, 1, -1];
        for (mut bits, delta) in targets.into_iter().zip(DELTA) {
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let from = (to as i8 - delta) as u8;
                let mv = Move::new(Cell::from_index(from), Cell::from_index(to));
                if Some(mv) != ban {
                    out.push(mv);
                }
            }
        }
    }

    fn count_legal(&self) -> usize {
        if self.outcome.is_some() {
            return 0;
        }
        self.count_moves() as usize
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::parse_move(self.variant, text)
    }

    fn format_move(&self, mv: Move) -> String {
        format!("{}{}", mv.from, mv.to)
    }

    fn make(&mut self, mv: Move) -> Undo {
        let side = self.side;
        let (from, to) = (mv.from.index(), mv.to.index());
        let hat = self.hats[from];
        let dir = match to.wrapping_sub(from) {
            8 => 0,
            1 => 2,
            x if x == 8usize.wrapping_neg() => 1,
            _ => 3,
        };
        let rolled = ROLL[dir][hat as usize];
        self.cubes[side] ^= mv.from.bit() | mv.to.bit();
        self.hats[to] = rolled;
        self.hash ^= Zobrist::cube(side, from, hat as usize)
            ^ Zobrist::cube(side, to, rolled as usize)
            ^ Zobrist::SIDE;
        let undo = Undo {
            hat,
            irreversible: self.irreversible as u32,
            outcome: self.outcome,
        };
        self.moves.push(mv);
        self.hashes.push(self.hash);
        self.buckets[bucket(self.hash)] += 1;
        if rolled == Hat::Up.index() as u8 && self.geometry.goal[side] & mv.to.bit() != 0 {
            self.home[side] |= mv.to.bit();
            self.irreversible = self.hashes.len() - 1;
        }
        self.side = 1 - side;
        self.outcome = self.evaluate(side);
        undo
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        let side = 1 - self.side;
        let (from, to) = (mv.from.index(), mv.to.index());
        self.buckets[bucket(self.hash)] -= 1;
        self.side = side;
        self.home[side] &= !mv.to.bit();
        self.cubes[side] ^= mv.from.bit() | mv.to.bit();
        self.hash ^= Zobrist::cube(side, from, undo.hat as usize)
            ^ Zobrist::cube(side, to, self.hats[to] as usize)
            ^ Zobrist::SIDE;
        self.hats[from] = undo.hat;
        self.moves.pop();
        self.hashes.pop();
        self.irreversible = undo.irreversible as usize;
        self.outcome = undo.outcome;
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn check_move(&self, mv: Move) -> Result<(), Error> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        match self.illegal_reason(mv) {
            None => Ok(()),
            Some(reason) => Err(Error::illegal(self.format_move(mv), reason)),
        }
    }
}
