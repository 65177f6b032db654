//! The spec's notation: moves `c1c2`, positions `uuuuu/...../UUUUU a`.

use crate::Move;
use crate::board::{Cell, Hat, Variant};
use game::Error;

/// Reads one cell name (`c4`) from exactly two bytes, checking it is on the board.
fn parse_cell(variant: Variant, text: &[u8]) -> Result<Cell, String> {
    let [column, row] = *text else {
        return Err("a cell is a column letter and a row digit".into());
    };
    let shown = String::from_utf8_lossy(text);
    if !column.is_ascii_lowercase() || !(b'1'..=b'9').contains(&row) {
        return Err(format!("{shown:?} is not a cell name"));
    }
    let cell = Cell::new(column - b'a', row - b'1')
        .filter(|&c| variant.contains(c))
        .ok_or_else(|| format!("{shown} is not on the board"))?;
    Ok(cell)
}

/// A move is two cell names with nothing between: `c1c2`. Adjacency and legality are left to
/// `check_move`.
pub(crate) fn parse_move(variant: Variant, text: &str) -> Result<Move, Error> {
    let bytes = text.as_bytes();
    if bytes.len() != 4 {
        return Err(Error::bad_move(
            text,
            "write a move as two cells, from then to (c1c2)",
        ));
    }
    let from = parse_cell(variant, &bytes[..2]).map_err(|r| Error::bad_move(text, r))?;
    let to = parse_cell(variant, &bytes[2..]).map_err(|r| Error::bad_move(text, r))?;
    Ok(Move::new(from, to))
}

/// What a position string holds: the cubes per side, the hats and the side to move (0 = a).
pub(crate) type Parsed = ([u64; 2], [u8; 64], usize);

pub(crate) fn parse_position(variant: Variant, text: &str) -> Result<Parsed, Error> {
    let (width, height) = (variant.columns() as usize, variant.rows() as usize);
    let Some((board, side)) = text.split_once(' ') else {
        return Err(Error::bad_position(
            "expected the rows, one space and the side to move (a or b)",
        ));
    };
    let side = match side {
        "a" => 0,
        "b" => 1,
        _ => {
            return Err(Error::bad_position(format!(
                "side to move {side:?}: expected a or b"
            )));
        }
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != height {
        return Err(Error::bad_position(format!(
            "{} rows, this board has {height}",
            rows.len()
        )));
    }
    let mut cubes = [0u64; 2];
    let mut hats = [0u8; 64];
    for (i, row_text) in rows.iter().enumerate() {
        let row = height - 1 - i;
        let row_name = row + 1;
        if row_text.len() != width || !row_text.is_ascii() {
            return Err(Error::bad_position(format!(
                "row {row_name} {row_text:?}: expected {width} cells"
            )));
        }
        for (column, ch) in row_text.bytes().enumerate() {
            if ch == b'.' {
                continue;
            }
            let owner = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let hat = Hat::from_letter(ch.to_ascii_uppercase()).ok_or_else(|| {
                Error::bad_position(format!(
                    "row {row_name}: {:?} is not a cube (U D N S E W, or lower case) or '.'",
                    ch as char
                ))
            })?;
            let cell = row * 8 + column;
            cubes[owner] |= 1 << cell;
            hats[cell] = hat.index() as u8;
        }
    }
    let want = variant.cubes();
    for (owner, bits) in cubes.iter().enumerate() {
        let count = bits.count_ones();
        if count != want {
            return Err(Error::bad_position(format!(
                "side {} has {count} cubes, this board needs {want}",
                ["a", "b"][owner]
            )));
        }
    }
    Ok((cubes, hats, side))
}

pub(crate) fn format_position(
    variant: Variant,
    cubes: &[u64; 2],
    hats: &[u8; 64],
    side: usize,
) -> String {
    let (width, height) = (variant.columns() as usize, variant.rows() as usize);
    let mut out = String::with_capacity(height * (width + 1) + 2);
    for row in (0..height).rev() {
        for column in 0..width {
            let cell = row * 8 + column;
            let bit = 1u64 << cell;
            let letter = Hat::from_index(hats[cell]).letter();
            out.push(if cubes[0] & bit != 0 {
                letter as char
            } else if cubes[1] & bit != 0 {
                letter.to_ascii_lowercase() as char
            } else {
                '.'
            });
        }
        out.push(if row == 0 { ' ' } else { '/' });
    }
    out.push(if side == 0 { 'a' } else { 'b' });
    out
}
