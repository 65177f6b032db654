//! Cells, hats, rolling and the board shapes of the four variants.
//!
//! Every board fits an 8 × 8 grid, so a cell is `row * 8 + column` on every variant and a
//! side's cubes are one `u64`: a roll north is `<< 8`, east is `<< 1`, and the masks below keep
//! rolls from leaving the board or wrapping round an edge.

use std::fmt;

/// A cell of the board: column `a`.. (0..) and row `1`.. (0..), packed as `row * 8 + column`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `column` and `row` (both counted from 0), if it fits the 8 × 8 grid that
    /// contains every variant's board. Whether it is on a particular board is
    /// [`Variant::contains`].
    pub const fn new(column: u8, row: u8) -> Option<Cell> {
        if column < 8 && row < 8 {
            Some(Cell(row * 8 + column))
        } else {
            None
        }
    }

    pub(crate) const fn from_index(index: u8) -> Cell {
        Cell(index)
    }

    /// `row * 8 + column`: the cell's bit in the board's bitboards.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for column `a`.
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// 0 for row `1`.
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

/// Where a cube's marked face (the hat) points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hat {
    /// On top: the only way a cube on its goal row counts as home.
    Up,
    Down,
    /// Towards the last row.
    North,
    /// Towards row 1.
    South,
    /// Towards the last column.
    East,
    /// Towards column `a`.
    West,
}

impl Hat {
    pub const ALL: [Hat; 6] = [
        Hat::Up,
        Hat::Down,
        Hat::North,
        Hat::South,
        Hat::East,
        Hat::West,
    ];

    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    pub(crate) const fn from_index(index: u8) -> Hat {
        Hat::ALL[index as usize]
    }

    /// The notation letter, upper-case (side `a` writes it so, side `b` in lower case).
    pub const fn letter(self) -> u8 {
        match self {
            Hat::Up => b'U',
            Hat::Down => b'D',
            Hat::North => b'N',
            Hat::South => b'S',
            Hat::East => b'E',
            Hat::West => b'W',
        }
    }

    pub(crate) fn from_letter(letter: u8) -> Option<Hat> {
        Hat::ALL.into_iter().find(|h| h.letter() == letter)
    }
}

/// The four directions of a roll, in the order move generation lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    /// The face a roll in this direction turns the top towards.
    const fn face(self) -> Hat {
        match self {
            Dir::North => Hat::North,
            Dir::South => Hat::South,
            Dir::East => Hat::East,
            Dir::West => Hat::West,
        }
    }

    const fn opposite_face(self) -> Hat {
        match self {
            Dir::North => Hat::South,
            Dir::South => Hat::North,
            Dir::East => Hat::West,
            Dir::West => Hat::East,
        }
    }

    /// The direction from one cell to an orthogonal neighbour, if `to` is one.
    pub(crate) fn between(from: Cell, to: Cell) -> Option<Dir> {
        let (fc, fr, tc, tr) = (from.column(), from.row(), to.column(), to.row());
        if fc == tc && tr == fr + 1 {
            Some(Dir::North)
        } else if fc == tc && fr == tr + 1 {
            Some(Dir::South)
        } else if fr == tr && tc == fc + 1 {
            Some(Dir::East)
        } else if fr == tr && fc == tc + 1 {
            Some(Dir::West)
        } else {
            None
        }
    }
}

/// Where the hat goes when the cube rolls in `dir`: the top turns to face `dir`, that face
/// goes under, the bottom comes up facing back, and the back face comes on top; the two side
/// faces stay put.
pub(crate) const fn roll(hat: Hat, dir: Dir) -> Hat {
    let face = dir.face();
    let back = dir.opposite_face();
    match hat {
        Hat::Up => face,
        Hat::Down => back,
        h if h as u8 == face as u8 => Hat::Down,
        h if h as u8 == back as u8 => Hat::Up,
        h => h,
    }
}

/// `ROLL[dir][hat]` as hat indices: one table lookup in `make`.
pub(crate) const ROLL: [[u8; 6]; 4] = {
    let dirs = [Dir::North, Dir::South, Dir::East, Dir::West];
    let mut table = [[0u8; 6]; 4];
    let mut d = 0;
    while d < 4 {
        let mut h = 0;
        while h < 6 {
            table[d][h] = roll(Hat::ALL[h], dirs[d]) as u8;
            h += 1;
        }
        d += 1;
    }
    table
};

/// The variants of the game: board size and cubes per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// 5 × 6, five cubes each: the 1987 "Malysh" box.
    #[default]
    Malysh,
    /// 5 × 7, five cubes each: the picture in the rules leaflet.
    Long,
    /// 6 × 8, six cubes each.
    Large,
    /// 6 × 6, six cubes each: the paper board.
    Printed,
}

impl Variant {
    pub const fn columns(self) -> u8 {
        match self {
            Variant::Malysh | Variant::Long => 5,
            Variant::Large | Variant::Printed => 6,
        }
    }

    pub const fn rows(self) -> u8 {
        match self {
            Variant::Malysh | Variant::Printed => 6,
            Variant::Long => 7,
            Variant::Large => 8,
        }
    }

    /// Cubes per side: a full start row.
    pub const fn cubes(self) -> u32 {
        self.columns() as u32
    }

    pub const fn contains(self, cell: Cell) -> bool {
        cell.column() < self.columns() && cell.row() < self.rows()
    }

    pub(crate) const fn geometry(self) -> Geometry {
        let w = self.columns() as u32;
        let h = self.rows() as u32;
        let row_mask = (1u64 << w) - 1;
        let mut board = 0u64;
        let mut r = 0;
        while r < h {
            board |= row_mask << (8 * r);
            r += 1;
        }
        let first_column = board & 0x0101_0101_0101_0101;
        let last_column = first_column << (w - 1);
        Geometry {
            board,
            not_last_column: board & !last_column,
            not_first_column: board & !first_column,
            goal: [row_mask << (8 * (h - 1)), row_mask],
            start: [row_mask, row_mask << (8 * (h - 1))],
        }
    }
}

impl game::Variant for Variant {
    const ALL: &'static [Variant] = &[
        Variant::Malysh,
        Variant::Long,
        Variant::Large,
        Variant::Printed,
    ];

    fn id(self) -> &'static str {
        match self {
            Variant::Malysh => "malysh",
            Variant::Long => "long",
            Variant::Large => "large",
            Variant::Printed => "printed",
        }
    }
}

/// The bit masks of one board shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub board: u64,
    /// Cells a cube may roll east from without leaving the board.
    pub not_last_column: u64,
    pub not_first_column: u64,
    /// Per side (a, b): the row where its cubes score.
    pub goal: [u64; 2],
    /// Per side: the row where its cubes start.
    pub start: [u64; 2],
}

/// Zobrist keys: `CUBE[side][cell][hat]` and the side-to-move key, fixed at compile time.
pub(crate) struct Zobrist;

const ZOBRIST: ([[[u64; 6]; 64]; 2], u64) = {
    let mut keys = [[[0u64; 6]; 64]; 2];
    let mut state = 0x7065_7265_6b61_7469; // "perekati"
    let mut s = 0;
    while s < 2 {
        let mut c = 0;
        while c < 64 {
            let mut h = 0;
            while h < 6 {
                let (next, key) = game::splitmix64(state);
                state = next;
                keys[s][c][h] = key;
                h += 1;
            }
            c += 1;
        }
        s += 1;
    }
    let (_, side) = game::splitmix64(state);
    (keys, side)
};

impl Zobrist {
    #[inline]
    pub(crate) const fn cube(side: usize, cell: usize, hat: usize) -> u64 {
        ZOBRIST.0[side][cell][hat]
    }

    /// Xored in when side `b` is to move.
    pub(crate) const SIDE: u64 = ZOBRIST.1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_rolls_in_one_direction_bring_every_hat_back() {
        for dir in [Dir::North, Dir::South, Dir::East, Dir::West] {
            for hat in Hat::ALL {
                let mut h = hat;
                for _ in 0..4 {
                    h = roll(h, dir);
                }
                assert_eq!(h, hat, "{dir:?} from {hat:?}");
            }
        }
    }

    #[test]
    fn rolling_back_undoes_a_roll() {
        let pairs = [(Dir::North, Dir::South), (Dir::East, Dir::West)];
        for (d, back) in pairs {
            for hat in Hat::ALL {
                assert_eq!(roll(roll(hat, d), back), hat);
                assert_eq!(roll(roll(hat, back), d), hat);
            }
        }
    }

    #[test]
    fn geometry_masks_match_the_board_sizes() {
        let g = Variant::Malysh.geometry();
        assert_eq!(g.board.count_ones(), 30);
        assert_eq!(g.not_last_column.count_ones(), 24);
        assert_eq!(g.goal[0], 0x1f << 40);
        assert_eq!(g.goal[1], 0x1f);
        let g = Variant::Large.geometry();
        assert_eq!(g.board.count_ones(), 48);
        assert_eq!(g.goal[0], 0x3f << 56);
    }
}
