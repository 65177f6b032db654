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
/// cell × hat states on an empty board, or on a board walled by the cubes already home (they
/// never move again). Rolls are reversible (a roll back restores the hat), so searching
/// outwards from the home states gives every state's distance to them.
pub struct RollDistance {
    columns: u8,
    rows: u8,
    table: [[[u8; 6]; 64]; 2],
}

impl RollDistance {
    pub fn new(variant: Variant) -> RollDistance {
        RollDistance::walled(variant, 0)
    }

    /// Distances on a board where the cells of `walls` (bits `row * 8 + column`: the home
    /// cubes) can be neither crossed nor reached; a state that cannot reach home at all
    /// counts [`WALLED_IN`] rolls.
    pub fn walled(variant: Variant, walls: u64) -> RollDistance {
        let (columns, rows) = (variant.columns(), variant.rows());
        let mut table = [[[UNREACHABLE; 6]; 64]; 2];
        let open = |c: i32, r: i32| walls & (1u64 << (r * 8 + c)) == 0;
        for (side, dist) in table.iter_mut().enumerate() {
            let goal_row = if side == 0 { rows - 1 } else { 0 };
            let mut queue = std::collections::VecDeque::new();
            for c in 0..columns {
                if !open(c as i32, goal_row as i32) {
                    continue;
                }
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
                    if !open(nc, nr) {
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

    /// Rolls the cube of `seat` on `cell` with `hat` needs to come home.
    pub fn rolls(&self, seat: Seat, cell: Cell, hat: Hat) -> u32 {
        u32::from(self.table[seat.index()][table_index(cell)][hat_index(hat)]).min(WALLED_IN)
    }
}

/// The rolls counted for a cube the home cubes have cut off from every free goal cell: more
/// than any real way home, and no more (it may still free a cell for another cube).
pub const WALLED_IN: u32 = 24;

/// Hard's distances for the walls of the position at hand, kept for the few sets of home
/// cubes a search meets (home cubes change only when one comes home).
#[derive(Default)]
struct WalledCache {
    entries: std::cell::RefCell<Vec<(u64, std::rc::Rc<RollDistance>)>>,
}

impl WalledCache {
    const SIZE: usize = 16;

    fn get(&self, variant: Variant, walls: u64) -> std::rc::Rc<RollDistance> {
        let mut entries = self.entries.borrow_mut();
        if let Some(at) = entries.iter().position(|(w, _)| *w == walls) {
            // Most recently used first.
            entries[..=at].rotate_right(1);
            return entries[0].1.clone();
        }
        let table = std::rc::Rc::new(RollDistance::walled(variant, walls));
        entries.insert(0, (walls, table.clone()));
        entries.truncate(WalledCache::SIZE);
        table
    }
}

fn table_index(cell: Cell) -> usize {
    cell.row() as usize * 8 + cell.column() as usize
}

pub struct PerekatiEval {
    variant: Variant,
    distance: RollDistance,
    /// The distances around the home cubes (Hard's, and Easy's and Medium's over their last
    /// cubes; the rest of their games use `distance` alone).
    walled: WalledCache,
    /// Whether `walled` is used.
    around_home_cubes: bool,
    /// Hard's additions (how games end, see [`ending_pull`]; move ordering); Easy and Medium
    /// play without.
    hard: bool,
}

impl PerekatiEval {
    /// The evaluation of Easy and Medium.
    pub fn new(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            variant,
            distance: RollDistance::new(variant),
            walled: WalledCache::default(),
            around_home_cubes: false,
            hard: false,
        }
    }

    /// Hard's evaluation: [`PerekatiEval::new`] plus the ending terms and move ordering.
    pub fn hard(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            hard: true,
            around_home_cubes: true,
            ..PerekatiEval::new(variant)
        }
    }

    /// Easy's and Medium's evaluation over their last cubes ([`finishing`]): [`PerekatiEval::new`] with the
    /// ways home measured around the home cubes, so that a last cube is drawn to a goal cell
    /// it can really reach.
    pub fn finishing(variant: Variant) -> PerekatiEval {
        PerekatiEval {
            around_home_cubes: true,
            ..PerekatiEval::new(variant)
        }
    }
}

/// At most this many cubes of the side to move away from home for Easy to play them out with
/// care (see [`finishing`]).
pub const FINISHING_CUBES: u32 = 2;

/// Whether the side to move is bringing in its last cubes: at most [`FINISHING_CUBES`] of them
/// away from home. Easy then plays without random moves and with less noise, on
/// [`PerekatiEval::finishing`]: a beginner who sees what a move does still walks a last cube
/// home rather than round its goal cell.
pub fn finishing(game: &Perekati) -> bool {
    game.to_move()
        .is_some_and(|me| game.variant().cubes() - game.home_count(me) <= FINISHING_CUBES)
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
        let walled = self
            .around_home_cubes
            .then(|| self.walled.get(self.variant, game.home_cells()));
        let distance = walled.as_deref().unwrap_or(&self.distance);
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
                rolls[s] += distance.rolls(seat, cell, hat) as i32;
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
        let shut_in = self.squatters_shut_in(game, me.other()) - self.squatters_shut_in(game, me);
        let race = race + SHUT_IN * shut_in;
        let leader = match home.signum() {
            1 => m,
            -1 => o,
            _ => return race,
        };
        let mut ending = ending_pull(home, freedom[m].min(freedom[o]))
            + no_progress_pull(home, game.plies_since_home());
        if movable[leader] == 1
            && let Some(cell) = last_cube[leader]
            && let Some(steps) = self.steps_to_dead_end(game, cell)
        {
            ending += home.signum() * (DEAD_END - DEAD_END_STEP * steps).max(0);
        }
        race + ending
    }
}

/// For each opponent cube held on a side's goal row by that side's own cubes (its one way
/// out taken by a cube of the side waiting to roll in): the side can never fill that cell
/// until it lets the squatter out, and a cube waiting there makes the deadlock that kept
/// games on the larger boards running to the ply limit.
const SHUT_IN: i32 = 120;

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

    /// Opponent cubes standing on `seat`'s goal row with no empty neighbour, at least one of
    /// them taken by a cube of `seat` that could move away.
    fn squatters_shut_in(&self, game: &Perekati, seat: Seat) -> i32 {
        let (columns, rows) = (self.distance.columns as i32, self.distance.rows as i32);
        let goal_row = if seat == Seat::A { rows - 1 } else { 0 };
        let mut count = 0;
        for c in 0..columns {
            let Some(cell) = Cell::new(c as u8, goal_row as u8) else {
                continue;
            };
            if !matches!(game.cube(cell), Some((owner, _)) if owner != seat) {
                continue;
            }
            let mut free = false;
            let mut held_by_seat = false;
            for (dc, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (nc, nr) = (c + dc, goal_row + dr);
                if nc < 0 || nr < 0 || nc >= columns || nr >= rows {
                    continue;
                }
                let Some(n) = Cell::new(nc as u8, nr as u8) else {
                    continue;
                };
                match game.cube(n) {
                    None => free = true,
                    Some((owner, _)) if owner == seat && !game.is_home(n) => held_by_seat = true,
                    Some(_) => {}
                }
            }
            count += i32::from(!free && held_by_seat);
        }
        count
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

/// The no-progress rule ends the game, scored by home cubes, once
/// [`perekati::NO_PROGRESS_PLIES`] plies pass without a cube coming home: the leader is
/// pulled towards that end (it wins it), the trailer pushed to bring a cube home first. Worth
/// less than a cube home, so the leader still takes one more home when it can.
fn no_progress_pull(home_lead: i32, plies_since_home: usize) -> i32 {
    const WEIGHT: i32 = 50;
    let limit = perekati::NO_PROGRESS_PLIES as i32;
    home_lead.signum() * WEIGHT * (plies_since_home as i32).min(limit) / limit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        let b = name.as_bytes();
        Cell::new(b[0] - b'a', b[1] - b'1').unwrap()
    }

    #[test]
    fn the_no_progress_count_pulls_the_leader_and_pushes_the_trailer() {
        // a leads 1 to 0; four plies out and back leave the same cubes, four plies nearer
        // the end the no-progress rule gives a.
        let mut game =
            Perekati::from_position(Variant::Malysh, "uuUuu/...../..u../...../...../UU.UU a", 0)
                .unwrap();
        let eval = PerekatiEval::hard(Variant::Malysh);
        let before = eval.evaluate(&game);
        for mv in ["a1a2", "a6a5", "a2a1", "a5a6"] {
            game.play_text(mv).unwrap();
        }
        assert_eq!(game.plies_since_home(), 4);
        let after = eval.evaluate(&game);
        assert_eq!(after - before, no_progress_pull(1, 4));
        assert!(no_progress_pull(1, 4) > 0);
        assert_eq!(no_progress_pull(-1, 4), -no_progress_pull(1, 4));
        assert_eq!(no_progress_pull(0, 90), 0);
        // Never worth a cube home (60): the leader still brings one more home when it can.
        assert!(no_progress_pull(1, perekati::NO_PROGRESS_PLIES) < 60);
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
