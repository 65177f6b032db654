//! Move and position notation, both ways.

use crate::board::{NAMES, ROWS, point_from_name, tables};
use crate::{Mill, Move, NONE, QUIET_LIMIT, Status, TOKENS, Variant, bits};
use game::Error;

/// The most tokens one move can remove (a corner completing three lines on `troika-diagonal`).
const MAX_REMOVALS: usize = 3;

pub(crate) fn format_move(mv: Move) -> String {
    let mut s = String::with_capacity(16);
    if mv.from != NONE {
        s.push_str(NAMES[mv.from as usize]);
        s.push('-');
    }
    s.push_str(NAMES[mv.to as usize]);
    for p in bits(mv.remove) {
        s.push('x');
        s.push_str(NAMES[p]);
    }
    s
}

fn point(text: &str, part: &str) -> Result<u8, Error> {
    if part.is_empty() {
        return Err(Error::bad_move(text, "a point is missing"));
    }
    point_from_name(part).ok_or_else(|| Error::bad_move(text, format!("{part} is not a point")))
}

pub(crate) fn parse_move(text: &str) -> Result<Move, Error> {
    if text.is_empty() {
        return Err(Error::bad_move(text, "empty move"));
    }
    let mut parts = text.split('x');
    let head = parts.next().unwrap_or_default();
    let (from, to) = match head.split_once('-') {
        Some((from, to)) => {
            let (from, to) = (point(text, from)?, point(text, to)?);
            if from == to {
                return Err(Error::bad_move(text, "a token must leave its point"));
            }
            (from, to)
        }
        None => (NONE, point(text, head)?),
    };
    let mut remove = 0u32;
    for (i, part) in parts.enumerate() {
        if i == MAX_REMOVALS {
            return Err(Error::bad_move(text, "a move removes at most three tokens"));
        }
        let p = point(text, part)?;
        if remove & (1 << p) != 0 {
            return Err(Error::bad_move(text, format!("{part} is removed twice")));
        }
        remove |= 1 << p;
    }
    Ok(Move { from, to, remove })
}

pub(crate) fn format_position(g: &Mill) -> String {
    let mut s = String::with_capacity(64);
    for (r, row) in ROWS.iter().enumerate() {
        if r > 0 {
            s.push('/');
        }
        for &p in row.iter() {
            let bit = 1 << p;
            s.push(if g.board[0] & bit != 0 {
                'a'
            } else if g.board[1] & bit != 0 {
                'b'
            } else {
                '.'
            });
        }
    }
    let side = if g.turn == 0 { 'a' } else { 'b' };
    s.push_str(&format!(
        " {side} {} {} {:04x} {:04x} {}",
        g.hand[0], g.hand[1], g.paid[0], g.paid[1], g.quiet
    ));
    s
}

fn bad(reason: impl Into<String>) -> Error {
    Error::bad_position(reason)
}

/// A decimal number written canonically (no sign, no leading zero) and at most `max`.
fn number(field: &str, what: &str, max: u32) -> Result<u32, Error> {
    let canonical = !field.is_empty()
        && field.len() <= 3
        && field.bytes().all(|b| b.is_ascii_digit())
        && (field == "0" || !field.starts_with('0'));
    if !canonical {
        return Err(bad(format!("{what} {field:?} is not a number")));
    }
    let value: u32 = field
        .parse()
        .map_err(|_| bad(format!("{what} {field:?} is not a number")))?;
    if value > max {
        return Err(bad(format!("{what} {value} is more than {max}")));
    }
    Ok(value)
}

/// A paid-lines mask: lower-case hex, at least four digits, no needless leading zero.
fn lines_mask(field: &str, side: char, nlines: usize) -> Result<u32, Error> {
    let what = format!("side {side}'s paid lines");
    let digits_ok = field.len() >= 4
        && field.len() <= 5
        && field
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !digits_ok {
        return Err(bad(format!(
            "{what} {field:?} must be lower-case hex of four or five digits"
        )));
    }
    let value =
        u32::from_str_radix(field, 16).map_err(|_| bad(format!("{what} {field:?} is not hex")))?;
    if format!("{value:04x}") != field {
        return Err(bad(format!("{what} {field:?} has a needless leading zero")));
    }
    if value >> nlines != 0 {
        return Err(bad(format!(
            "{what} {field:?} name a line this variant does not have (it has {nlines})"
        )));
    }
    Ok(value)
}

pub(crate) fn parse_position(variant: Variant, text: &str) -> Result<Mill, Error> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 7 {
        return Err(bad(format!(
            "expected 7 fields separated by single spaces (board, side, two hands, two paid-line masks, counter), got {}",
            fields.len()
        )));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != ROWS.len() {
        return Err(bad(format!("the board has 7 rows, not {}", rows.len())));
    }
    let mut board = [0u32; 2];
    for (r, (text, points)) in rows.iter().zip(ROWS.iter()).enumerate() {
        if text.len() != points.len() || !text.is_ascii() {
            return Err(bad(format!(
                "row {} ({text:?}) must have {} points",
                7 - r,
                points.len()
            )));
        }
        for (c, &p) in text.bytes().zip(points.iter()) {
            match c {
                b'.' => {}
                b'a' => board[0] |= 1 << p,
                b'b' => board[1] |= 1 << p,
                _ => {
                    return Err(bad(format!(
                        "{:?} on {} is not '.', 'a' or 'b'",
                        c as char, NAMES[p as usize]
                    )));
                }
            }
        }
    }
    let turn = match fields[1] {
        "a" => 0u8,
        "b" => 1u8,
        other => return Err(bad(format!("side to move {other:?} is not a or b"))),
    };
    let hand = [
        number(fields[2], "side a's tokens in hand", TOKENS as u32)? as u8,
        number(fields[3], "side b's tokens in hand", TOKENS as u32)? as u8,
    ];
    let t = tables(variant);
    let paid = [
        lines_mask(fields[4], 'a', t.nlines)?,
        lines_mask(fields[5], 'b', t.nlines)?,
    ];
    let quiet = number(fields[6], "the counter", QUIET_LIMIT as u32)? as u8;

    let g = Mill {
        variant,
        board,
        hand,
        paid,
        turn,
        quiet,
        reversible: 0,
        status: Status::Ongoing,
        key: 0,
        history: Vec::with_capacity(128),
    };
    check_consistency(&g)?;
    let mut g = g;
    g.key = g.compute_key();
    g.history.push(g.key);
    g.status = g.evaluate(false);
    Ok(g)
}

/// Refuses positions no game can reach.
fn check_consistency(g: &Mill) -> Result<(), Error> {
    let t = tables(g.variant);
    let label = ['a', 'b'];
    for side in 0..2 {
        let s = label[side];
        let on_board = g.board[side].count_ones();
        let left = g.left(side);
        if left > TOKENS as u32 {
            return Err(bad(format!(
                "side {s} has {on_board} tokens on the board and {} in hand, more than {TOKENS}",
                g.hand[side]
            )));
        }
        // Every full line of a side was completed by one of its moves, which paid it.
        for l in 0..t.nlines {
            if t.lines[l] & !g.board[side] == 0 && g.paid[side] & (1 << l) == 0 {
                return Err(bad(format!(
                    "side {s} holds line {l} but it is not among its paid lines"
                )));
            }
        }
        // Each removal is paid for by a distinct line of the other side.
        let removed = TOKENS as u32 - left;
        let other = 1 - side;
        let paid = g.paid[other].count_ones();
        if removed > paid {
            return Err(bad(format!(
                "side {s} has lost {removed} tokens but side {} has only {paid} paid lines",
                label[other]
            )));
        }
        if paid > 0 && g.hand[other] > TOKENS - 3 {
            return Err(bad(format!(
                "side {} has paid lines before placing three tokens",
                label[other]
            )));
        }
    }
    let waiting = 1 - g.turn as usize;
    if g.left(waiting) <= 2 {
        return Err(bad(format!(
            "side {} (not to move) has {} tokens left: the game ended before its last move",
            label[waiting],
            g.left(waiting)
        )));
    }
    let (ha, hb) = (g.hand[0], g.hand[1]);
    // Side a moves first, and a side's first move is always a placement.
    if ha == TOKENS && !(g.turn == 0 && hb == TOKENS) {
        return Err(bad(
            "side a still has all its tokens in hand, so it is a's first move",
        ));
    }
    if hb == TOKENS {
        // b has not moved: a has made one move (a placement) if b is to move, else none.
        let expected = if g.turn == 1 { TOKENS - 1 } else { TOKENS };
        if ha != expected {
            return Err(bad(format!(
                "side b has not moved yet, so side a has {expected} tokens in hand"
            )));
        }
    }
    if !t.step_in_hand && (ha > 0 || hb > 0) {
        // Placements alternate, a first, until both hands are empty.
        let ok = if g.turn == 0 { ha == hb } else { hb == ha + 1 };
        if !ok {
            return Err(bad(format!(
                "with side {} to move the hands cannot be {ha} and {hb}: placements alternate",
                label[g.turn as usize]
            )));
        }
        let placed = 2 * TOKENS as u32 - ha as u32 - hb as u32;
        if g.quiet as u32 > placed {
            return Err(bad(format!(
                "the counter {} exceeds the {placed} moves played so far",
                g.quiet
            )));
        }
    }
    if g.left(0) + g.left(1) == 2 * TOKENS as u32 {
        // Nothing was ever removed: the counter counts every move, placements included.
        let placed = 2 * TOKENS as u32 - ha as u32 - hb as u32;
        if (g.quiet as u32) < placed {
            return Err(bad(format!(
                "nothing has been removed, so the counter must be at least the {placed} placements made"
            )));
        }
    }
    Ok(())
}
