//! Position and move notation (spec: "Notation").
//!
//! Moves: `c3` or `c3:b3,c4`, captured cells in ascending order by column then row.
//! Positions: rows from the top down separated by `/`, `.` for an empty cell or the owner's
//! letter and the pips (`a3`), then a space and the side to move.

use crate::board::{Geometry, OFF};
use crate::{Cephalopod, Move};
use game::{Error, Seat, Variant as _};

pub(crate) fn cell_name(geo: &Geometry, cell: u8) -> String {
    let col = cell % geo.size;
    let row = cell / geo.size;
    format!("{}{}", (b'a' + col) as char, row + 1)
}

pub(crate) fn write_move(geo: &Geometry, mv: Move) -> String {
    let mut text = cell_name(geo, mv.cell);
    if let Some(nbr) = geo.nbr.get(mv.cell as usize) {
        let mut sep = ':';
        for (d, &n) in nbr.iter().enumerate() {
            if mv.captures >> d & 1 != 0 && n != OFF {
                text.push(sep);
                text.push_str(&cell_name(geo, n));
                sep = ',';
            }
        }
    }
    text
}

/// A cell such as `c3` on this board.
fn read_cell(geo: &Geometry, text: &str, whole: &str) -> Result<u8, Error> {
    let &[col, row] = text.as_bytes() else {
        return Err(Error::bad_move(
            whole,
            format!("expected a cell such as c3, found {text:?}"),
        ));
    };
    let last_col = b'a' + geo.size - 1;
    let last_row = b'0' + geo.size;
    if !(b'a'..=last_col).contains(&col) || !(b'1'..=last_row).contains(&row) {
        return Err(Error::bad_move(
            whole,
            format!(
                "{text:?} is not a cell of the {n}x{n} board (a1 to {}{})",
                last_col as char,
                last_row as char,
                n = geo.size
            ),
        ));
    }
    Ok((row - b'1') * geo.size + (col - b'a'))
}

/// Reads a move. The captured cells may come in any order here (`play_text` then insists on
/// the canonical one); each must be a distinct orthogonal neighbour, and there must be at least
/// two of them since a capture never takes a single die.
pub(crate) fn read_move(geo: &Geometry, text: &str) -> Result<Move, Error> {
    let (target, list) = match text.split_once(':') {
        Some((target, list)) => (target, Some(list)),
        None => (text, None),
    };
    let cell = read_cell(geo, target, text)?;
    let mut captures = 0u8;
    if let Some(list) = list {
        let nbr = &geo.nbr[cell as usize];
        for part in list.split(',') {
            let n = read_cell(geo, part, text)?;
            let Some(d) = nbr.iter().position(|&x| x == n) else {
                return Err(Error::bad_move(
                    text,
                    format!("{part} is not next to {target}"),
                ));
            };
            if captures >> d & 1 != 0 {
                return Err(Error::bad_move(text, format!("{part} is listed twice")));
            }
            captures |= 1 << d;
        }
        if captures.count_ones() < 2 {
            return Err(Error::bad_move(text, "a capture takes at least two dice"));
        }
    }
    Ok(Move { cell, captures })
}

pub(crate) fn write_position(game: &Cephalopod) -> String {
    let size = game.geo.size as usize;
    let mut text = String::with_capacity(3 * size * size + size + 2);
    for row in (0..size).rev() {
        for col in 0..size {
            let cell = row * size + col;
            match game.die(cell) {
                None => text.push('.'),
                Some((owner, pips)) => {
                    text.push_str(owner.letter());
                    text.push((b'0' + pips) as char);
                }
            }
        }
        if row > 0 {
            text.push('/');
        }
    }
    text.push(' ');
    text.push_str(game.turn.letter());
    text
}

/// Fills the empty `game` from `text`. Any arrangement of dice showing 1 to 6 is accepted:
/// captures remove dice of both colours, so the counts of the two sides do not constrain
/// each other. Only the empty board is constrained: every move leaves the die it placed, so
/// the board is empty only before the first move, side a's.
pub(crate) fn read_position(game: &mut Cephalopod, text: &str) -> Result<(), Error> {
    let size = game.geo.size as usize;
    let id = game.variant.id();
    let Some((board, side)) = text.split_once(' ') else {
        return Err(Error::bad_position(
            "expected the board, a space and the side to move",
        ));
    };
    game.turn = match side {
        "a" => Seat::A,
        "b" => Seat::B,
        _ => {
            return Err(Error::bad_position(format!(
                "the side to move must be a or b, found {side:?}"
            )));
        }
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != size {
        return Err(Error::bad_position(format!(
            "the {id} board has {size} rows, found {}",
            rows.len()
        )));
    }
    for (i, row_text) in rows.iter().enumerate() {
        let row = size - 1 - i;
        let row_no = row + 1;
        let mut col = 0;
        let mut bytes = row_text.bytes();
        while let Some(b) = bytes.next() {
            if col >= size {
                return Err(Error::bad_position(format!(
                    "row {row_no} has more than {size} cells"
                )));
            }
            let cell = row * size + col;
            match b {
                b'.' => {}
                b'a' | b'b' => {
                    let pips = match bytes.next() {
                        Some(p @ b'1'..=b'6') => p - b'0',
                        _ => {
                            return Err(Error::bad_position(format!(
                                "row {row_no}: a die needs its pips, 1 to 6, after {}",
                                b as char
                            )));
                        }
                    };
                    game.pips[cell] = pips;
                    game.dice[(b - b'a') as usize] |= 1 << cell;
                }
                _ => {
                    return Err(Error::bad_position(format!(
                        "row {row_no}: unexpected character {:?}",
                        // The row is valid UTF-8, but the byte may be inside a character.
                        row_text
                            .get(row_text.len() - bytes.len() - 1..)
                            .and_then(|s| s.chars().next())
                            .unwrap_or('?')
                    )));
                }
            }
            col += 1;
        }
        if col != size {
            return Err(Error::bad_position(format!(
                "row {row_no} has {col} cells, expected {size}"
            )));
        }
    }
    if game.dice == [0, 0] && game.turn == Seat::B {
        return Err(Error::bad_position(
            "an empty board is the start of the game, where side a moves",
        ));
    }
    Ok(())
}
