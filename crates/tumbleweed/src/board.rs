//! Board geometry: cells on a padded square grid, stack encoding and Zobrist keys.
//!
//! Every variant lives on the same 23×23 grid (the largest board, hex11, is 21×21 in skewed
//! coordinates) with a frame of off-board sentinels, so a line of sight walks until it meets a
//! stack or a sentinel and never needs a bounds check. A cell's grid index depends only on its
//! name, not on the variant, which lets [`Cell`] be variant-agnostic.

use std::fmt;

/// Row length of the padded grid: 21 columns plus a sentinel on each side.
pub(crate) const STRIDE: usize = 23;
/// Number of grid slots, sentinels included.
pub(crate) const GRID: usize = STRIDE * STRIDE;

/// The six lines of sight as grid offsets; direction `k` and `k + 3` are opposite.
/// Letter ±1 is ±STRIDE, number ±1 is ±1, and the diagonal (+1, +1) is STRIDE + 1.
pub(crate) const DIRS: [usize; 6] = [
    1,
    STRIDE,
    STRIDE + 1,
    1usize.wrapping_neg(),
    STRIDE.wrapping_neg(),
    (STRIDE + 1).wrapping_neg(),
];

// A grid slot is one byte: `owner << 3 | height`. Empty is 0. The sentinel has height bits 7,
// above any sight (at most 6), so the legal-move scan rejects it without a branch, and owner
// bits 0, so it is seen by nobody and counts for nobody.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const OFF: u8 = 0x87;
pub(crate) const RED: u8 = 1 << 3;
pub(crate) const WHITE: u8 = 2 << 3;
pub(crate) const NEUTRAL: u8 = 3 << 3;

/// The owner bits of a slot: 1 red, 2 white, 3 neutral, 0 for empty or off the board.
#[inline(always)]
pub(crate) const fn owner(slot: u8) -> u8 {
    (slot >> 3) & 3
}

/// The height bits of a slot (0 when empty, 7 off the board).
#[inline(always)]
pub(crate) const fn height(slot: u8) -> u8 {
    slot & 7
}

/// A cell of the board, named as in the spec: a letter (`a` = 0 …) and a number (1 …).
///
/// Any letter `a`–`u` with a number 1–21 is a `Cell`; whether it lies on a given board is the
/// game's business ([`crate::Tumbleweed::contains`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The largest letter index (`u`) and number a cell of any variant can have.
    pub const MAX_LETTER: u8 = 20;
    pub const MAX_NUMBER: u8 = 21;

    /// The cell with letter index `letter` (0 for `a`) and number `number` (from 1).
    pub const fn new(letter: u8, number: u8) -> Option<Cell> {
        if letter <= Self::MAX_LETTER && number >= 1 && number <= Self::MAX_NUMBER {
            Some(Cell(
                ((letter as usize + 1) * STRIDE + number as usize) as u16,
            ))
        } else {
            None
        }
    }

    /// The letter index: 0 for `a`.
    pub const fn letter(self) -> u8 {
        (self.0 as usize / STRIDE - 1) as u8
    }

    /// The number, from 1.
    pub const fn number(self) -> u8 {
        (self.0 as usize % STRIDE) as u8
    }

    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell at a grid index that is known to hold a board cell.
    #[inline(always)]
    pub(crate) const fn from_index(index: usize) -> Cell {
        Cell(index as u16)
    }

    /// Reads a cell name such as `e5` (lower-case letter, number without leading zeros).
    pub(crate) fn parse(text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let number = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Cell::new(letter - b'a', number)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.letter()) as char, self.number())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Whether letter index `i` and number `j` name a cell of the board with `n` cells a side.
pub(crate) const fn on_board(n: usize, i: usize, j: usize) -> bool {
    let j0 = j as isize - 1;
    i < 2 * n - 1 && j >= 1 && j < 2 * n && (i as isize - j0).abs() < n as isize
}

/// The empty board of side `n` with the neutral stack of height 2 on the centre.
pub(crate) const fn start_board(n: usize) -> [u8; GRID] {
    let mut board = [OFF; GRID];
    let mut i = 0;
    while i < 2 * n - 1 {
        let mut j = 1;
        while j < 2 * n {
            if on_board(n, i, j) {
                board[(i + 1) * STRIDE + j] = EMPTY;
            }
            j += 1;
        }
        i += 1;
    }
    board[n * STRIDE + n] = NEUTRAL | 2;
    board
}

/// Zobrist keys: one per grid slot and slot value (owner and height), plus the phase and the
/// pass counter. Empty slots have key 0 so that only stacks contribute.
pub(crate) struct Keys {
    pub(crate) slots: [[u64; 32]; GRID],
    pub(crate) phase: [u64; 4],
    pub(crate) passes: [u64; 3],
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        slots: [[0; 32]; GRID],
        phase: [0; 4],
        passes: [0; 3],
    };
    let mut state = 0x7475_6d62_6c65_7765; // "tumblewe"
    let mut c = 0;
    while c < GRID {
        let mut v = 1;
        while v < 32 {
            let (s, k) = game::splitmix64(state);
            state = s;
            keys.slots[c][v] = k;
            v += 1;
        }
        c += 1;
    }
    let mut p = 0;
    while p < 4 {
        let (s, k) = game::splitmix64(state);
        state = s;
        keys.phase[p] = k;
        p += 1;
    }
    // No pass made yet contributes nothing, like an empty slot.
    let mut p = 1;
    while p < 3 {
        let (s, k) = game::splitmix64(state);
        state = s;
        keys.passes[p] = k;
        p += 1;
    }
    keys
}

pub(crate) static KEYS: Keys = make_keys();
