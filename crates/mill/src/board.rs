//! The 24-point board: point names, lines and the per-variant movement tables.
//!
//! Points are numbered in notation order (by column letter, then row), so walking a bitmask
//! from its lowest bit lists points exactly as the move notation wants removals sorted.

use crate::Variant;

/// Every point of the board as a bitmask.
pub(crate) const FULL: u32 = (1 << 24) - 1;

/// Point names, index = bit number.
pub(crate) const NAMES: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// The points of the position notation, row by row from the top.
pub(crate) const ROWS: [&[u8]; 7] = [
    &[2, 14, 23],
    &[5, 13, 20],
    &[8, 12, 17],
    &[1, 4, 7, 16, 19, 22],
    &[6, 11, 15],
    &[3, 10, 18],
    &[0, 9, 21],
];

/// The 16 lines of the spec, then the four corner diagonals; each written end, middle, end.
pub(crate) const LINE_POINTS: [[u8; 3]; 20] = [
    [2, 14, 23],  // 0: a7 d7 g7
    [5, 13, 20],  // 1: b6 d6 f6
    [8, 12, 17],  // 2: c5 d5 e5
    [1, 4, 7],    // 3: a4 b4 c4
    [16, 19, 22], // 4: e4 f4 g4
    [6, 11, 15],  // 5: c3 d3 e3
    [3, 10, 18],  // 6: b2 d2 f2
    [0, 9, 21],   // 7: a1 d1 g1
    [0, 1, 2],    // 8: a1 a4 a7
    [3, 4, 5],    // 9: b2 b4 b6
    [6, 7, 8],    // 10: c3 c4 c5
    [9, 10, 11],  // 11: d1 d2 d3
    [12, 13, 14], // 12: d5 d6 d7
    [15, 16, 17], // 13: e3 e4 e5
    [18, 19, 20], // 14: f2 f4 f6
    [21, 22, 23], // 15: g1 g4 g7
    [0, 3, 6],    // 16: a1 b2 c3
    [21, 18, 15], // 17: g1 f2 e3
    [2, 5, 8],    // 18: a7 b6 c5
    [23, 20, 17], // 19: g7 f6 e5
];

/// The point with this name (`d2`), if the board has it.
pub(crate) fn point_from_name(name: &str) -> Option<u8> {
    NAMES.iter().position(|&n| n == name).map(|i| i as u8)
}

/// How a token may travel beyond an adjacent point (the two-point moves of a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Only steps to adjacent points.
    Step,
    /// Slides to the far end of a line when the middle point is empty (`troika-long`).
    Slide,
    /// Jumps to the far end of a line over an occupied middle point (`troika-diagonal`).
    Jump,
}

/// Everything a variant's move generator looks up.
#[derive(Debug)]
pub(crate) struct Tables {
    /// Lines that score, as bitmasks; `nlines` of them (16, or 20 with diagonals).
    pub lines: [u32; 20],
    pub nlines: usize,
    /// Ids of the scoring lines through each point, padded with `NO_LINE`.
    pub lines_at: [[u8; 3]; 24],
    /// Adjacent points along the lines a token moves on.
    pub step: [u32; 24],
    /// For each point, the far ends of the movement lines it ends (0 = unused slot) ...
    pub far: [[u32; 3]; 24],
    /// ... and the middle point each of those moves passes.
    pub mid: [[u32; 3]; 24],
    pub reach: Reach,
    /// Whether a side with tokens in hand may also step (`troika-free`).
    pub step_in_hand: bool,
}

pub(crate) const NO_LINE: u8 = u8::MAX;

const fn build(variant: Variant) -> Tables {
    let diagonal_rows = matches!(variant, Variant::TroikaDiagonal);
    let diagonal_moves = matches!(variant, Variant::TroikaDiagonal | Variant::TroikaLong);
    let reach = match variant {
        Variant::TroikaLong => Reach::Slide,
        Variant::TroikaDiagonal => Reach::Jump,
        Variant::Troika | Variant::TroikaFree => Reach::Step,
    };
    let nlines = if diagonal_rows { 20 } else { 16 };
    let moving_lines = if diagonal_moves { 20 } else { 16 };

    let mut t = Tables {
        lines: [0; 20],
        nlines,
        lines_at: [[NO_LINE; 3]; 24],
        step: [0; 24],
        far: [[0; 3]; 24],
        mid: [[0; 3]; 24],
        reach,
        step_in_hand: matches!(variant, Variant::TroikaFree),
    };
    let mut used = [0usize; 24];
    let mut far_used = [0usize; 24];
    let mut l = 0;
    while l < 20 {
        let [e1, m, e2] = LINE_POINTS[l];
        let (e1, m, e2) = (e1 as usize, m as usize, e2 as usize);
        if l < nlines {
            t.lines[l] = (1 << e1) | (1 << m) | (1 << e2);
            let pts = [e1, m, e2];
            let mut i = 0;
            while i < 3 {
                let p = pts[i];
                t.lines_at[p][used[p]] = l as u8;
                used[p] += 1;
                i += 1;
            }
        }
        if l < moving_lines {
            t.step[e1] |= 1 << m;
            t.step[e2] |= 1 << m;
            t.step[m] |= (1 << e1) | (1 << e2);
            if !matches!(reach, Reach::Step) {
                t.far[e1][far_used[e1]] = 1 << e2;
                t.mid[e1][far_used[e1]] = 1 << m;
                far_used[e1] += 1;
                t.far[e2][far_used[e2]] = 1 << e1;
                t.mid[e2][far_used[e2]] = 1 << m;
                far_used[e2] += 1;
            }
        }
        l += 1;
    }
    t
}

static TABLES: [Tables; 4] = [
    build(Variant::Troika),
    build(Variant::TroikaLong),
    build(Variant::TroikaFree),
    build(Variant::TroikaDiagonal),
];

pub(crate) fn tables(variant: Variant) -> &'static Tables {
    &TABLES[variant as usize]
}

impl Tables {
    /// Where a token on `p` may go without flying, given the empty and occupied points.
    #[inline(always)]
    pub fn targets(&self, p: usize, empty: u32, occupied: u32) -> u32 {
        let mut to = self.step[p] & empty;
        let gate = match self.reach {
            Reach::Step => return to,
            Reach::Slide => empty,
            Reach::Jump => occupied,
        };
        let (far, mid) = (&self.far[p], &self.mid[p]);
        for i in 0..3 {
            // An unused slot has mid = 0, so its gate never opens.
            let open = ((mid[i] & gate) != 0) as u32;
            to |= far[i] & empty & open.wrapping_neg();
        }
        to
    }

    /// The unpaid lines through `to` that are full of `mine` (the mover's tokens after the
    /// move).
    #[inline(always)]
    pub fn completed(&self, to: usize, mine: u32, paid: u32) -> u32 {
        let mut done = 0;
        for &l in &self.lines_at[to] {
            if l != NO_LINE && self.lines[l as usize] & !mine == 0 {
                done |= 1 << l;
            }
        }
        done & !paid
    }

    /// Every point that, filled by the mover, would complete at least one of its unpaid
    /// lines (the other two points of the line already being the mover's).
    #[inline(always)]
    pub fn hot(&self, mine: u32, empty: u32, paid: u32) -> u32 {
        let mut hot = 0;
        for l in 0..self.nlines {
            if paid & (1 << l) != 0 {
                continue;
            }
            let line = self.lines[l];
            if (line & mine).count_ones() == 2 {
                hot |= line & empty;
            }
        }
        hot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_in_notation_order() {
        let mut sorted = NAMES;
        sorted.sort();
        assert_eq!(sorted, NAMES);
        let mut all: Vec<u8> = ROWS.iter().flat_map(|r| r.iter().copied()).collect();
        all.sort();
        assert_eq!(all, (0..24).collect::<Vec<u8>>());
    }

    #[test]
    fn lines_match_the_spec_table() {
        let spec = [
            "a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2",
            "a1 d1 g1", "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5",
            "f2 f4 f6", "g1 g4 g7", "a1 b2 c3", "g1 f2 e3", "a7 b6 c5", "g7 f6 e5",
        ];
        for (l, text) in spec.iter().enumerate() {
            let names: Vec<&str> = LINE_POINTS[l].iter().map(|&p| NAMES[p as usize]).collect();
            assert_eq!(names.join(" "), *text, "line {l}");
        }
    }

    #[test]
    fn the_plain_board_has_32_adjacencies() {
        let t = tables(Variant::Troika);
        let degrees: u32 = t.step.iter().map(|s| s.count_ones()).sum();
        assert_eq!(degrees, 64);
        let d = tables(Variant::TroikaDiagonal);
        let degrees: u32 = d.step.iter().map(|s| s.count_ones()).sum();
        assert_eq!(degrees, 64 + 16);
    }
}
