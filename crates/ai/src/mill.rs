//! Mill's knowledge: tokens left, mobility, and rows that are open (two tokens and a gap on a
//! line not yet paid) or already paid.
//!
//! The engine keeps its masks private, so the evaluation reads the position notation; the
//! string is short and the search's cost is dominated by move generation anyway.

use std::sync::OnceLock;

use game::Game;
use mill::{Mill, Move, Variant};

use crate::eval::Evaluator;

/// The 24 points in the order of the position notation.
const POINTS: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// Lines by number, as in the spec (16 and up are the corner diagonals).
const LINES: [[&str; 3]; 20] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
];

struct Tables {
    /// Points of each line, as indices into `POINTS`.
    lines: [[usize; 3]; 20],
    /// Neighbours along the 16 lines, and along the diagonals too.
    adjacent: [u32; 24],
    adjacent_diagonal: [u32; 24],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let index = |name: &str| POINTS.iter().position(|&p| p == name).expect("a point");
        let mut lines = [[0; 3]; 20];
        let mut adjacent = [0u32; 24];
        let mut adjacent_diagonal = [0u32; 24];
        for (n, line) in LINES.iter().enumerate() {
            let p = line.map(index);
            lines[n] = p;
            for (x, y) in [(p[0], p[1]), (p[1], p[2])] {
                if n < 16 {
                    adjacent[x] |= 1 << y;
                    adjacent[y] |= 1 << x;
                }
                adjacent_diagonal[x] |= 1 << y;
                adjacent_diagonal[y] |= 1 << x;
            }
        }
        Tables {
            lines,
            adjacent,
            adjacent_diagonal,
        }
    })
}

/// What the evaluation reads from the notation.
struct Parsed {
    tokens: [u32; 2],
    hand: [u32; 2],
    paid: [u32; 2],
    side: usize,
}

fn parse(position: &str) -> Option<Parsed> {
    let mut fields = position.split(' ');
    let board = fields.next()?;
    let mut tokens = [0u32; 2];
    for (i, b) in board.bytes().filter(|&b| b != b'/').enumerate() {
        match b {
            b'a' => tokens[0] |= 1 << i,
            b'b' => tokens[1] |= 1 << i,
            _ => {}
        }
    }
    let side = usize::from(fields.next()? == "b");
    let hand = [fields.next()?.parse().ok()?, fields.next()?.parse().ok()?];
    let paid = [
        u32::from_str_radix(fields.next()?, 16).ok()?,
        u32::from_str_radix(fields.next()?, 16).ok()?,
    ];
    Some(Parsed {
        tokens,
        hand,
        paid,
        side,
    })
}

pub struct MillEval {
    diagonals_connect: bool,
    line_count: usize,
}

impl MillEval {
    pub fn new(variant: Variant) -> MillEval {
        let diagonal_rows = matches!(variant, Variant::TroikaDiagonal);
        MillEval {
            diagonals_connect: matches!(variant, Variant::TroikaLong | Variant::TroikaDiagonal),
            line_count: if diagonal_rows { 20 } else { 16 },
        }
    }
}

impl Evaluator<Mill> for MillEval {
    fn evaluate(&self, game: &Mill) -> i32 {
        let Some(p) = parse(&game.position()) else {
            return 0;
        };
        let t = tables();
        let empty = !(p.tokens[0] | p.tokens[1]) & 0xFF_FFFF;
        let adjacency = if self.diagonals_connect {
            &t.adjacent_diagonal
        } else {
            &t.adjacent
        };
        let mut value = [0i32; 2];
        for (side, value) in value.iter_mut().enumerate() {
            let left = p.hand[side] + p.tokens[side].count_ones();
            let mut v = 1000 * left as i32;
            // Mobility: once the hand is empty a side with no step loses, and a cramped one
            // is close to it. Flying (three left) makes steps irrelevant.
            if left > 3 {
                let mut steps = 0;
                let mut mine = p.tokens[side];
                while mine != 0 {
                    let point = mine.trailing_zeros() as usize;
                    mine &= mine - 1;
                    steps += (adjacency[point] & empty).count_ones() as i32;
                }
                v += if p.hand[side] == 0 { 12 } else { 4 } * steps;
            }
            // Open rows: two tokens and a gap on a line that still pays.
            for (n, line) in t.lines.iter().enumerate().take(self.line_count) {
                if p.paid[side] >> n & 1 != 0 {
                    continue;
                }
                let mask = line.iter().fold(0u32, |m, &i| m | 1 << i);
                let own = (p.tokens[side] & mask).count_ones();
                let gaps = (empty & mask).count_ones();
                if own == 2 && gaps == 1 {
                    v += 120;
                } else if own == 1 && gaps == 2 {
                    v += 15;
                }
            }
            *value = v;
        }
        let me = p.side;
        value[me] - value[1 - me]
    }

    fn order_moves(&self, _game: &Mill, moves: &mut [Move]) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.removal_mask().count_ones()));
    }
}
