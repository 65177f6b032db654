//! Perekati-pole's knowledge: how many rolls each cube still needs to stand home with its hat
//! up, and how free the cubes are to move.

use game::{Game, Seat};
use perekati::{Cell, Hat, Move, Perekati, Variant};

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
        u32::from(self.table[seat.index()][table_index(cell)][hat_index(hat)])
    }
}

fn table_index(cell: Cell) -> usize {
    cell.row() as usize * 8 + cell.column() as usize
}

pub struct PerekatiEval {
    distance: RollDistance,
    /// Hard's additions (how games end, see [`ending_pull`]; move ordering); Easy and Medium
    /// play without.
    hard: bool,
}

impl PerekatiEval {
    /// The evaluation of Easy and Medium.
    pub fn new(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            distance: RollDistance::new(variant),
            hard: false,
        }
    }

    /// Hard's evaluation: [`PerekatiEval::new`] plus the ending terms and move ordering.
    pub fn hard(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            hard: true,
            ..PerekatiEval::new(variant)
        }
    }
}

impl Evaluator<Perekati> for PerekatiEval {
    /// Hard only: rolls that bring their cube nearer home first. They are usually the best,
    /// and the cut-offs they give buy Hard a ply or so at small budgets.
    fn order_moves(&self, game: &Perekati, moves: &mut [Move]) {
        let Some(me) = game.to_move() else {
            return;
        };
        if self.hard {
            moves.sort_by_key(|&mv| self.roll_gain(game, me, mv));
        }
    }

    fn evaluate(&self, game: &Perekati) -> i32 {
        let Some(me) = game.to_move() else {
            return 0;
        };
        let (columns, rows) = (self.distance.columns, self.distance.rows);
        let mut rolls = [0i32; 2];
        let mut freedom = [0i32; 2];
        let mut stuck = [0i32; 2];
        let mut movable = [0u32; 2];
        let mut last_cube = [None; 2];
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
                movable[s] += 1;
                last_cube[s] = Some(cell);
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
        let race = 20 * (rolls[o] - rolls[m]) + 60 * home + 3 * (freedom[m] - freedom[o])
            - 10 * (stuck[m] - stuck[o]);
        if !self.hard {
            return race;
        }
        let leader = match home.signum() {
            1 => m,
            -1 => o,
            _ => return race,
        };
        let mut ending = ending_pull(home, freedom[m].min(freedom[o]));
        if movable[leader] == 1
            && let Some(cell) = last_cube[leader]
            && let Some(steps) = self.steps_to_dead_end(game, cell)
        {
            ending += home.signum() * (DEAD_END - DEAD_END_STEP * steps).max(0);
        }
        race + ending
    }
}

/// A leader whose one movable cube stands in a dead end wins: it rolls out and back twice
/// and the rocking rule then leaves it without a move. Worth most of a won race.
const DEAD_END: i32 = 300;
/// Each roll still needed to reach the dead end.
const DEAD_END_STEP: i32 = 40;

impl PerekatiEval {
    /// How many rolls `mv` adds to its cube's way home (negative when it comes nearer).
    fn roll_gain(&self, game: &Perekati, me: Seat, mv: Move) -> i32 {
        let Some((_, hat)) = game.cube(mv.from()) else {
            return 0;
        };
        let (from, to) = (mv.from(), mv.to());
        let dir = if to.row() > from.row() {
            NORTH
        } else if to.row() < from.row() {
            SOUTH
        } else if to.column() > from.column() {
            EAST
        } else {
            WEST
        };
        let hat = hat_index(hat);
        let before = self.distance.table[me.index()][table_index(from)][hat];
        let after = self.distance.table[me.index()][table_index(to)][rolled(hat, dir)];
        i32::from(after) - i32::from(before)
    }

    /// Rolls from `from` (over empty cells) to the nearest dead end: a cell with at most one
    /// neighbour that is neither off the board nor a home cube, so that nothing the opponent
    /// does can open a second way out.
    fn steps_to_dead_end(&self, game: &Perekati, from: Cell) -> Option<i32> {
        let (columns, rows) = (self.distance.columns as i32, self.distance.rows as i32);
        let on_board = |c: i32, r: i32| c >= 0 && r >= 0 && c < columns && r < rows;
        let cell_at = |c: i32, r: i32| Cell::new(c as u8, r as u8);
        let mut seen = [false; 64];
        let mut queue = std::collections::VecDeque::new();
        seen[from.index()] = true;
        queue.push_back((from, 0));
        while let Some((cell, steps)) = queue.pop_front() {
            let (c, r) = (cell.column() as i32, cell.row() as i32);
            let mut exits = 0;
            for (dc, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (nc, nr) = (c + dc, r + dr);
                if !on_board(nc, nr) {
                    continue;
                }
                let Some(n) = cell_at(nc, nr) else {
                    continue;
                };
                if !game.is_home(n) {
                    exits += 1;
                }
                if !seen[n.index()] && game.cube(n).is_none() {
                    seen[n.index()] = true;
                    queue.push_back((n, steps + 1));
                }
            }
            if exits <= 1 {
                return Some(steps);
            }
        }
        None
    }
}

/// The game ends, scored by home cubes, as soon as either side cannot move (or a position
/// comes round a third time). A side with more cubes home wins that ending, so it wants the
/// fewest moves left on the board — its own included: a cube rocked twice in a dead end is
/// held there by the rocking rule. Without this pull the leader races a last cube against
/// an opponent's cube parked on its goal cell and the game drags on to a draw.
fn ending_pull(home_lead: i32, fewest_moves: i32) -> i32 {
    const WEIGHT: i32 = 15;
    const FAR: i32 = 8;
    home_lead.signum() * WEIGHT * (FAR - fewest_moves).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        let b = name.as_bytes();
        Cell::new(b[0] - b'a', b[1] - b'1').unwrap()
    }

    #[test]
    fn dead_ends_are_walled_by_home_cubes_and_the_edge() {
        // Side b is home on a1, b1, d1: c1 (between two home cubes) and e1 (the corner by a
        // home cube) each have one way out; side a's cube on c2 is one roll from either.
        let game =
            Perekati::from_position(Variant::Malysh, "UUUUu/...../..n../...../..N../uu.u. a", 0)
                .unwrap();
        let eval = PerekatiEval::hard(Variant::Malysh);
        assert_eq!(eval.steps_to_dead_end(&game, cell("c2")), Some(1));
        // Only over empty cells: from b's cube on c4 the way to c1 is shut by the cube on c2,
        // so the nearest dead end is e1, five rolls round.
        assert_eq!(eval.steps_to_dead_end(&game, cell("c4")), Some(5));
    }
}
