//! Cephalopod, Mark Steere's placement game with dice: a die placed next to dice whose pips add
//! up to six or less captures them (of either colour) and shows their sum; when the board is
//! full, the side with more dice on it wins.
//!
//! The rules and notation are `docs/spec/cephalopod.md`. The state is two occupancy bitboards
//! (one per side) and a pips array; move generation is one table look-up per empty cell (see
//! [`board::CAPTURES`]).

mod board;
mod notation;

use board::{CAPTURES, FIVE, Geometry, MAX_CELLS, THREE, ZOBRIST, capture_key};
use game::{Error, GameInfo, Names, Outcome, Seat, VariantInfo};

/// The board sizes the platform offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 5 × 5, the default.
    FiveByFive,
    /// 3 × 3, a small board for quick games and tests.
    ThreeByThree,
}

impl game::Variant for Variant {
    const ALL: &'static [Self] = &[Variant::FiveByFive, Variant::ThreeByThree];

    fn id(self) -> &'static str {
        match self {
            Variant::FiveByFive => "5x5",
            Variant::ThreeByThree => "3x3",
        }
    }
}

impl Variant {
    /// The number of cells along a side.
    pub const fn size(self) -> u8 {
        self.geometry().size
    }

    const fn geometry(self) -> &'static Geometry {
        match self {
            Variant::FiveByFive => &FIVE,
            Variant::ThreeByThree => &THREE,
        }
    }
}

/// A placement: the cell (`row * size + col`, row 0 being row `1`) and the set of neighbours it
/// captures, as a 4-bit mask over the directions left, below, above, right (0 for a placement
/// without capture). The mask order is the notation order of the captured cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    cell: u8,
    captures: u8,
}

impl Move {
    /// The cell the die is placed on, as `row * size + col`.
    pub const fn cell(self) -> usize {
        self.cell as usize
    }

    /// The captured neighbours: bit 0 left, 1 below, 2 above, 3 right.
    pub const fn capture_mask(self) -> u8 {
        self.captures
    }

    /// Whether the move removes dice.
    pub const fn is_capture(self) -> bool {
        self.captures != 0
    }
}

/// What [`game::Game::unmake`] needs: the captured dice (4 bits per direction: pips in the low
/// 3 bits, owner in the high bit) and the previous hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    captured: u16,
    hash: u64,
}

/// A Cephalopod game state.
#[derive(Clone)]
pub struct Cephalopod {
    variant: Variant,
    geo: &'static Geometry,
    /// Pips per cell, 0 when empty; the last entry is the always-empty off-board sentinel.
    pips: [u8; MAX_CELLS + 1],
    /// The cells holding a die of side `a` (index 0) and side `b` (index 1).
    dice: [u32; 2],
    /// The side-to-move field of the position (kept once the board is full, for `turn_label`).
    turn: Seat,
    hash: u64,
}

/// Equal when the variant, the dice and the side to move are (the rest follows from them).
impl PartialEq for Cephalopod {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant
            && self.pips == other.pips
            && self.dice == other.dice
            && self.turn == other.turn
    }
}

impl Eq for Cephalopod {}

impl std::fmt::Debug for Cephalopod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cephalopod")
            .field("variant", &self.variant)
            .field("position", &notation::write_position(self))
            .finish()
    }
}

const INFO: GameInfo = GameInfo {
    id: "cephalopod",
    names: Names {
        ru: "Цефалопод",
        uk: "Цефалопод",
        en: "Cephalopod",
    },
    summary: Names {
        ru: "Игроки по очереди ставят кубики на поле; кубик, поставленный рядом с кубиками, \
             сумма очков которых не больше шести, забирает их и показывает их сумму, а когда \
             поле заполнено, побеждает тот, у кого больше кубиков.",
        uk: "Гравці по черзі ставлять кубики на поле; кубик, поставлений поруч із кубиками, \
             сума очок яких не більша за шість, забирає їх і показує їхню суму, а коли поле \
             заповнене, перемагає той, у кого більше кубиків.",
        en: "Players take turns placing dice on a grid; a die placed next to dice whose pips add \
             up to six or less captures them and shows their sum, and once the board is full \
             the side with more dice wins.",
    },
    seats: 2,
    has_dice: false,
    variants: &[
        VariantInfo {
            id: "5x5",
            names: Names {
                ru: "Поле 5×5",
                uk: "Поле 5×5",
                en: "5×5 board",
            },
        },
        VariantInfo {
            id: "3x3",
            names: Names {
                ru: "Поле 3×3",
                uk: "Поле 3×3",
                en: "3×3 board",
            },
        },
    ],
};

impl Cephalopod {
    /// The empty board of `variant` with `a` to move.
    pub fn start(variant: Variant) -> Self {
        Cephalopod {
            variant,
            geo: variant.geometry(),
            pips: [0; MAX_CELLS + 1],
            dice: [0; 2],
            turn: Seat::A,
            hash: 0,
        }
    }

    /// The number of dice of `seat` on the board.
    pub fn dice_count(&self, seat: Seat) -> u32 {
        self.dice[seat.index() & 1].count_ones()
    }

    /// The die on `cell` (`row * size + col`): its owner and pips.
    pub fn die(&self, cell: usize) -> Option<(Seat, u8)> {
        if cell >= self.geo.cells as usize || self.pips[cell] == 0 {
            return None;
        }
        let owner = if self.dice[1] >> cell & 1 != 0 {
            Seat::B
        } else {
            Seat::A
        };
        Some((owner, self.pips[cell]))
    }

    /// The number of cells along a side.
    pub fn size(&self) -> u8 {
        self.geo.size
    }

    /// The cells (indices) that `mv` captures, in notation order.
    pub fn captured_cells(&self, mv: Move) -> impl Iterator<Item = usize> + '_ {
        let nbr = self.geo.nbr.get(mv.cell as usize).copied();
        (0..4).filter_map(move |d| {
            let n = nbr?[d];
            (mv.captures >> d & 1 != 0 && n != board::OFF).then_some(n as usize)
        })
    }

    #[inline(always)]
    fn empty(&self) -> u32 {
        self.geo.full & !(self.dice[0] | self.dice[1])
    }

    /// The legal capture masks on empty `cell` as a 16-bit set (see [`board::CAPTURES`]).
    #[inline(always)]
    fn options(&self, cell: usize) -> u16 {
        CAPTURES[capture_key(&self.pips, &self.geo.nbr[cell])]
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.turn == Seat::B {
            ZOBRIST.b_to_move
        } else {
            0
        };
        for side in 0..2 {
            let mut bits = self.dice[side];
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                h ^= ZOBRIST.die[side][c][self.pips[c] as usize];
            }
        }
        h
    }

    /// Why `mv` is not legal here, if it is not.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        let cell = mv.cell as usize;
        if cell >= self.geo.cells as usize || mv.captures & !self.geo.dirs[cell] != 0 {
            return Some("not a move on this board".into());
        }
        if self.pips[cell] != 0 {
            return Some("the cell is occupied".into());
        }
        let options = self.options(cell);
        if options & (1 << mv.captures) != 0 {
            return None;
        }
        if mv.captures == 0 {
            let example = Move {
                cell: mv.cell,
                captures: (options & !1).trailing_zeros() as u8,
            };
            return Some(format!(
                "a capture is compulsory on this cell (for example {})",
                notation::write_move(self.geo, example)
            ));
        }
        if mv.captures.count_ones() < 2 {
            return Some("a capture takes at least two dice".into());
        }
        let mut sum = 0;
        for n in self.captured_cells(mv) {
            if self.pips[n] == 0 {
                return Some(format!(
                    "{} holds no die",
                    notation::cell_name(self.geo, n as u8)
                ));
            }
            sum += self.pips[n];
        }
        Some(format!("the captured dice add up to {sum}, more than 6"))
    }
}

impl game::Game for Cephalopod {
    type Variant = Variant;
    type Move = Move;
    type Undo = Undo;

    const INFO: GameInfo = INFO;

    fn new(variant: Variant, _seed: u64) -> Self {
        Cephalopod::start(variant)
    }

    fn from_position(variant: Variant, position: &str, _seed: u64) -> Result<Self, Error> {
        let mut game = Cephalopod::start(variant);
        notation::read_position(&mut game, position)?;
        game.hash = game.compute_hash();
        Ok(game)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn position(&self) -> String {
        notation::write_position(self)
    }

    fn to_move(&self) -> Option<Seat> {
        (self.empty() != 0).then_some(self.turn)
    }

    fn turn_label(&self) -> &'static str {
        self.turn.letter()
    }

    fn seat_label(&self, seat: Seat) -> &'static str {
        seat.letter()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.empty() != 0 {
            return None;
        }
        // Both boards have an odd number of cells, so a full board never ties.
        let a = self.dice[0].count_ones();
        let b = self.dice[1].count_ones();
        Some(Outcome::Win(if a > b { Seat::A } else { Seat::B }))
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let mut empty = self.empty();
        while empty != 0 {
            let cell = empty.trailing_zeros();
            empty &= empty - 1;
            let mut options = self.options(cell as usize);
            while options != 0 {
                let mask = options.trailing_zeros();
                options &= options - 1;
                out.push(Move {
                    cell: cell as u8,
                    captures: mask as u8,
                });
            }
        }
    }

    fn count_legal(&self) -> usize {
        let mut empty = self.empty();
        let mut count = 0;
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            count += self.options(cell).count_ones() as usize;
        }
        count
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::read_move(self.geo, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::write_move(self.geo, mv)
    }

    fn make(&mut self, mv: Move) -> Undo {
        let undo_hash = self.hash;
        let me = self.turn.index();
        let cell = mv.cell as usize;
        let nbr = &self.geo.nbr[cell];
        let mut captured = 0u16;
        let mut sum = 0u8;
        let mut mask = mv.captures;
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let n = nbr[d] as usize;
            let p = self.pips[n];
            let owner = (self.dice[1] >> n & 1) as usize;
            sum += p;
            self.pips[n] = 0;
            self.dice[owner] &= !(1 << n);
            self.hash ^= ZOBRIST.die[owner][n][p as usize];
            captured |= ((p as u16) | (owner as u16) << 3) << (4 * d);
        }
        let placed = if sum == 0 { 1 } else { sum };
        self.pips[cell] = placed;
        self.dice[me] |= 1 << cell;
        self.hash ^= ZOBRIST.die[me][cell][placed as usize] ^ ZOBRIST.b_to_move;
        self.turn = self.turn.other();
        Undo {
            captured,
            hash: undo_hash,
        }
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.turn = self.turn.other();
        let me = self.turn.index();
        let cell = mv.cell as usize;
        self.pips[cell] = 0;
        self.dice[me] &= !(1 << cell);
        let nbr = &self.geo.nbr[cell];
        let mut mask = mv.captures;
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let n = nbr[d] as usize;
            let bits = undo.captured >> (4 * d);
            self.pips[n] = (bits & 7) as u8;
            self.dice[(bits >> 3 & 1) as usize] |= 1 << n;
        }
        self.hash = undo.hash;
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn check_move(&self, mv: Move) -> Result<(), Error> {
        if self.empty() == 0 {
            return Err(Error::GameOver);
        }
        match self.illegal_reason(mv) {
            None => Ok(()),
            Some(reason) => Err(Error::illegal(notation::write_move(self.geo, mv), reason)),
        }
    }
}
