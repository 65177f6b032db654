//! Perekati-pole's knowledge: how many rolls each cube still needs to stand home with its hat
//! up, and how free the cubes are to move.

use game::{Game, Seat};
use perekati::{Cell, Hat, Perekati, Variant};

use crate::eval::Evaluator;

const NORTH: usize = 0;
const SOUTH: usize = 1;
const EAST: usize = 2;
const WEST: usize = 3;
const UNREACHABLE: u8 = 99;

fn hat_index(hat: Hat) -> usize {
    Hat::ALL.iter().position(|&h| h == hat).unwrap_or(0)
}

/// The hat after a roll in `dir`, by the spec: `U → d`, `d → D`, `D → opposite(d)`,
/// `opposite(d) → U`; the two side faces stay. Indices follow `Hat::ALL` (U D N S E W).
fn rolled(hat: usize, dir: usize) -> usize {
    const U: usize = 0;
    const D: usize = 1;
    let (face, opposite) = match dir {
        NORTH => (2, 3),
        SOUTH => (3, 2),
        EAST => (4, 5),
        _ => (5, 4),
    };
    match hat {
        h if h == U => face,
        h if h == face => D,
        h if h == D => opposite,
        h if h == opposite => U,
        h => h,
    }
}

/// Rolls to home, by side, cell (`row * 8 + column`) and hat: a breadth-first search over
/// cell × hat states on an empty board. Rolls are reversible (a roll back restores the hat),
/// so searching outwards from the home states gives every state's distance to them.
pub struct RollDistance {
    columns: u8,
    rows: u8,
    table: [[[u8; 6]; 64]; 2],
}

impl RollDistance {
    pub fn new(variant: Variant) -> RollDistance {
        let (columns, rows) = (variant.columns(), variant.rows());
        let mut table = [[[UNREACHABLE; 6]; 64]; 2];
        for (side, dist) in table.iter_mut().enumerate() {
            let goal_row = if side == 0 { rows - 1 } else { 0 };
            let mut queue = std::collections::VecDeque::new();
            for c in 0..columns {
                let idx = goal_row as usize * 8 + c as usize;
                dist[idx][0] = 0;
                queue.push_back((c, goal_row, 0usize));
            }
            while let Some((c, r, hat)) = queue.pop_front() {
                let d = dist[r as usize * 8 + c as usize][hat];
                for dir in [NORTH, SOUTH, EAST, WEST] {
                    let (nc, nr) = match dir {
                        NORTH => (c as i32, r as i32 + 1),
                        SOUTH => (c as i32, r as i32 - 1),
                        EAST => (c as i32 + 1, r as i32),
                        _ => (c as i32 - 1, r as i32),
                    };
                    if nc < 0 || nr < 0 || nc >= columns as i32 || nr >= rows as i32 {
                        continue;
                    }
                    let nh = rolled(hat, dir);
                    let slot = &mut dist[nr as usize * 8 + nc as usize][nh];
                    if *slot == UNREACHABLE {
                        *slot = d + 1;
                        queue.push_back((nc as u8, nr as u8, nh));
                    }
                }
            }
        }
        RollDistance {
            columns,
            rows,
            table,
        }
    }

    /// Rolls the cube of `seat` on `cell` with `hat` needs to come home on an empty board.
    pub fn rolls(&self, seat: Seat, cell: Cell, hat: Hat) -> u32 {
        u32::from(
            self.table[seat.index()][cell.row() as usize * 8 + cell.column() as usize]
                [hat_index(hat)],
        )
    }
}

pub struct PerekatiEval {
    distance: RollDistance,
}

impl PerekatiEval {
    pub fn new(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            distance: RollDistance::new(variant),
        }
    }
}

impl Evaluator<Perekati> for PerekatiEval {
    fn evaluate(&self, game: &Perekati) -> i32 {
        let Some(me) = game.to_move() else {
            return 0;
        };
        let (columns, rows) = (self.distance.columns, self.distance.rows);
        let mut rolls = [0i32; 2];
        let mut freedom = [0i32; 2];
        let mut stuck = [0i32; 2];
        for r in 0..rows {
            for c in 0..columns {
                let Some(cell) = Cell::new(c, r) else {
                    continue;
                };
                let Some((seat, hat)) = game.cube(cell) else {
                    continue;
                };
                if game.is_home(cell) {
                    continue;
                }
                let s = seat.index();
                rolls[s] += self.distance.rolls(seat, cell, hat) as i32;
                // Free neighbours: a side whose cubes are all walled in loses its turn and,
                // behind on home cubes, the game.
                let mut free = 0;
                for (dc, dr) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                    let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                    if nc < 0 || nr < 0 || nc >= columns as i32 || nr >= rows as i32 {
                        continue;
                    }
                    if let Some(n) = Cell::new(nc as u8, nr as u8)
                        && game.cube(n).is_none()
                    {
                        free += 1;
                    }
                }
                freedom[s] += free;
                stuck[s] += i32::from(free == 0);
            }
        }
        let (m, o) = (me.index(), me.other().index());
        let home = game.home_count(me) as i32 - game.home_count(me.other()) as i32;
        20 * (rolls[o] - rolls[m]) + 60 * home + 3 * (freedom[m] - freedom[o])
            - 10 * (stuck[m] - stuck[o])
    }
}
