//! Fixed tables: board geometry, the capture table and the Zobrist keys. All of them are built
//! at compile time so that move generation is table look-ups and bit twiddling.

/// The largest board has 25 cells; index 25 is a sentinel "off the board" cell whose pips are
/// always 0, so neighbour look-ups never branch on the edge.
pub(crate) const MAX_CELLS: usize = 25;
pub(crate) const OFF: u8 = MAX_CELLS as u8;

/// Neighbour directions, numbered so that the bit order is also the notation order of the
/// captured cells (by column, then row): left, below, above, right.
pub(crate) const LEFT: usize = 0;
pub(crate) const DOWN: usize = 1;
pub(crate) const UP: usize = 2;
pub(crate) const RIGHT: usize = 3;

/// The shape of one board: cells are numbered `row * size + col`, row 0 being row `1`.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub size: u8,
    pub cells: u8,
    /// A bit per cell of the board.
    pub full: u32,
    /// The neighbour in each direction, or [`OFF`].
    pub nbr: [[u8; 4]; MAX_CELLS],
    /// Which directions lead to a cell of the board.
    pub dirs: [u8; MAX_CELLS],
}

const fn geometry(size: u8) -> Geometry {
    let n = size as usize;
    let mut nbr = [[OFF; 4]; MAX_CELLS];
    let mut dirs = [0u8; MAX_CELLS];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let i = row * n + col;
            if col > 0 {
                nbr[i][LEFT] = (i - 1) as u8;
                dirs[i] |= 1 << LEFT;
            }
            if row > 0 {
                nbr[i][DOWN] = (i - n) as u8;
                dirs[i] |= 1 << DOWN;
            }
            if row + 1 < n {
                nbr[i][UP] = (i + n) as u8;
                dirs[i] |= 1 << UP;
            }
            if col + 1 < n {
                nbr[i][RIGHT] = (i + 1) as u8;
                dirs[i] |= 1 << RIGHT;
            }
            col += 1;
        }
        row += 1;
    }
    let cells = n * n;
    Geometry {
        size,
        cells: cells as u8,
        full: ((1u64 << cells) - 1) as u32,
        nbr,
        dirs,
    }
}

pub(crate) static FIVE: Geometry = geometry(5);
pub(crate) static THREE: Geometry = geometry(3);

/// The pips of the four neighbours packed 3 bits each, in direction order (0 = no die).
#[inline(always)]
pub(crate) fn capture_key(pips: &[u8; MAX_CELLS + 1], nbr: &[u8; 4]) -> usize {
    pips[nbr[LEFT] as usize] as usize
        | (pips[nbr[DOWN] as usize] as usize) << 3
        | (pips[nbr[UP] as usize] as usize) << 6
        | (pips[nbr[RIGHT] as usize] as usize) << 9
}

/// For every neighbourhood (a [`capture_key`]), the set of legal capture masks as a 16-bit
/// set: bit `m` is set when direction mask `m` is a capturing set. Bit 0 (the plain placement)
/// is set exactly when there is no capturing set, so the bits of an entry are precisely the
/// legal moves on that cell and its popcount is their number.
pub(crate) static CAPTURES: [u16; 4096] = capture_table();

const fn capture_table() -> [u16; 4096] {
    let mut table = [0u16; 4096];
    let mut key = 0;
    while key < 4096 {
        let p = [key & 7, (key >> 3) & 7, (key >> 6) & 7, (key >> 9) & 7];
        let mut set = 0u16;
        let mut mask = 0;
        while mask < 16 {
            let mut count = 0;
            let mut sum = 0;
            let mut present = true;
            let mut d = 0;
            while d < 4 {
                if mask & (1 << d) != 0 {
                    count += 1;
                    sum += p[d];
                    if p[d] == 0 {
                        present = false;
                    }
                }
                d += 1;
            }
            if present && count >= 2 && sum <= 6 {
                set |= 1 << mask;
            }
            mask += 1;
        }
        if set == 0 {
            set = 1;
        }
        table[key] = set;
        key += 1;
    }
    table
}

/// Zobrist keys: one per (side, cell, pips) with pips 1..=6 (index 0 unused), and the key of
/// side `b` to move.
pub(crate) struct Zobrist {
    pub die: [[[u64; 7]; MAX_CELLS]; 2],
    pub b_to_move: u64,
}

const fn zobrist() -> Zobrist {
    let mut state = 0xCE9A_1090_D000_5EEDu64;
    let mut die = [[[0u64; 7]; MAX_CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let mut p = 1;
            while p < 7 {
                let (s, z) = game::splitmix64(state);
                state = s;
                die[side][cell][p] = z;
                p += 1;
            }
            cell += 1;
        }
        side += 1;
    }
    let (_, b_to_move) = game::splitmix64(state);
    Zobrist { die, b_to_move }
}

pub(crate) static ZOBRIST: Zobrist = zobrist();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_edge_and_centre_cells_have_two_three_and_four_neighbours() {
        assert_eq!(FIVE.dirs[0].count_ones(), 2);
        assert_eq!(FIVE.dirs[2].count_ones(), 3);
        assert_eq!(FIVE.dirs[12].count_ones(), 4);
        assert_eq!(THREE.dirs[4].count_ones(), 4);
        assert_eq!(THREE.nbr[4], [3, 1, 7, 5]);
        assert_eq!(FIVE.full, (1 << 25) - 1);
        assert_eq!(THREE.full, 0x1FF);
    }

    #[test]
    fn four_ones_give_eleven_capturing_sets() {
        let key = 1 | 1 << 3 | 1 << 6 | 1 << 9;
        assert_eq!(CAPTURES[key].count_ones(), 11);
        assert_eq!(CAPTURES[key] & 1, 0);
    }

    #[test]
    fn no_neighbours_means_a_plain_placement_only() {
        assert_eq!(CAPTURES[0], 1);
    }
}
