//! The spec's notation: moves (`e4,f6`, `red`, `white`, `e5`, `pass`) and positions
//! (columns by letter, separated by `/`, then the phase and the pass counter).

use game::{Error, Game};

use crate::board::{EMPTY, GRID, NEUTRAL, OFF, RED, STRIDE, WHITE, height, on_board, owner};
use crate::{Cell, Colour, Move, Phase, Tumbleweed, Variant};

pub(crate) fn format_move(mv: Move) -> String {
    match mv {
        Move::Setup { red, white } => format!("{red},{white}"),
        Move::Choose(Colour::Red) => "red".into(),
        Move::Choose(Colour::White) => "white".into(),
        Move::Place(cell) => cell.to_string(),
        Move::Pass => "pass".into(),
    }
}

pub(crate) fn parse_move(game: &Tumbleweed, text: &str) -> Result<Move, Error> {
    let cell = |part: &str| -> Result<Cell, Error> {
        let cell = Cell::parse(part).ok_or_else(|| {
            Error::bad_move(
                text,
                "expected a cell such as e5, e4,f6 (setup), red, white or pass",
            )
        })?;
        if game.contains(cell) {
            Ok(cell)
        } else {
            Err(Error::bad_move(
                text,
                format!(
                    "{cell} is not on the {} board",
                    game::Variant::id(game.variant())
                ),
            ))
        }
    };
    match text {
        "pass" => Ok(Move::Pass),
        "red" => Ok(Move::Choose(Colour::Red)),
        "white" => Ok(Move::Choose(Colour::White)),
        _ => match text.split_once(',') {
            Some((red, white)) => Ok(Move::Setup {
                red: cell(red)?,
                white: cell(white)?,
            }),
            None => Ok(Move::Place(cell(text)?)),
        },
    }
}

pub(crate) fn format_position(
    variant: Variant,
    board: &[u8; GRID],
    phase: Phase,
    passes: u8,
) -> String {
    let n = variant.side();
    let mut out = String::with_capacity(4 * variant.cells());
    for i in 0..2 * n - 1 {
        if i > 0 {
            out.push('/');
        }
        for j in 1..2 * n {
            if !on_board(n, i, j) {
                continue;
            }
            let v = board[(i + 1) * STRIDE + j];
            match owner(v) {
                1 => out.push('r'),
                2 => out.push('w'),
                3 => out.push('n'),
                _ => {
                    out.push('.');
                    continue;
                }
            }
            out.push((b'0' + height(v)) as char);
        }
    }
    out.push(' ');
    out.push_str(phase.label());
    out.push(' ');
    out.push((b'0' + passes) as char);
    out
}

/// Reads and validates a position: the board, the phase and the pass counter.
pub(crate) fn parse_position(
    variant: Variant,
    text: &str,
) -> Result<([u8; GRID], Phase, u8), Error> {
    let bad = |reason: String| Err(Error::bad_position(reason));
    let mut fields = text.split(' ');
    let (Some(board_text), Some(phase_text), Some(passes_text), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return bad(format!(
            "expected three fields separated by single spaces (board, phase, passes), got {text:?}"
        ));
    };

    let n = variant.side();
    let columns: Vec<&str> = board_text.split('/').collect();
    if columns.len() != 2 * n - 1 {
        return bad(format!(
            "the {} board has {} columns, got {}",
            variant_id(variant),
            2 * n - 1,
            columns.len()
        ));
    }
    let mut board = [OFF; GRID];
    let mut neutral = 0;
    let mut players = 0;
    let mut singles = [0usize; 2];
    for (i, column) in columns.iter().enumerate() {
        let letter = (b'a' + i as u8) as char;
        let cells: Vec<usize> = (1..2 * n)
            .filter(|&j| on_board(n, i, j))
            .map(|j| (i + 1) * STRIDE + j)
            .collect();
        let mut bytes = column.bytes().peekable();
        let mut k = 0;
        while let Some(b) = bytes.next() {
            let slot = match b {
                b'.' => EMPTY,
                b'r' | b'w' | b'n' => {
                    let mut h: u32 = 0;
                    let mut digits = 0;
                    while let Some(d) = bytes.next_if(u8::is_ascii_digit) {
                        if digits == 0 && d == b'0' {
                            return bad(format!("column {letter}: a height starts with 0"));
                        }
                        digits += 1;
                        h = (h * 10 + u32::from(d - b'0')).min(100);
                    }
                    if digits == 0 {
                        return bad(format!("column {letter}: '{}' without a height", b as char));
                    }
                    let (base, ok) = match b {
                        b'r' => (RED, (1..=6).contains(&h)),
                        b'w' => (WHITE, (1..=6).contains(&h)),
                        _ => (NEUTRAL, h == 2),
                    };
                    if !ok {
                        return bad(format!(
                            "column {letter}: a {} stack cannot have height {h}",
                            match b {
                                b'r' => "red",
                                b'w' => "white",
                                _ => "neutral",
                            }
                        ));
                    }
                    base | h as u8
                }
                _ => {
                    return bad(format!(
                        "column {letter}: unexpected character {:?}",
                        String::from_utf8_lossy(&[b])
                    ));
                }
            };
            let Some(&c) = cells.get(k) else {
                return bad(format!(
                    "column {letter} has more than {} cells",
                    cells.len()
                ));
            };
            match owner(slot) {
                3 => neutral += 1,
                1 | 2 => {
                    players += 1;
                    if height(slot) == 1 {
                        singles[owner(slot) as usize - 1] += 1;
                    }
                }
                _ => {}
            }
            board[c] = slot;
            k += 1;
        }
        if k != cells.len() {
            return bad(format!(
                "column {letter} has {} cells, got {k}",
                cells.len()
            ));
        }
    }

    let phase = match phase_text {
        "setup" => Phase::Setup,
        "choose" => Phase::Choose,
        "r" => Phase::Play(Colour::Red),
        "w" => Phase::Play(Colour::White),
        _ => {
            return bad(format!(
                "unknown phase {phase_text:?} (setup, choose, r or w)"
            ));
        }
    };
    let passes = match passes_text {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        _ => {
            return bad(format!(
                "the pass counter is 0, 1 or 2, got {passes_text:?}"
            ));
        }
    };

    // The neutral stack is only ever on the centre; once captured, a stack taller than it
    // (at least 3) stands there.
    let centre = board[variant.centre().index()];
    if neutral > 1 || (neutral == 1 && owner(centre) != 3) {
        return bad("the neutral stack can only stand on the centre".into());
    }
    if owner(centre) != 3 && (owner(centre) == 0 || height(centre) < 3) {
        return bad(
            "the centre holds the neutral stack or a stack of at least 3 that captured it".into(),
        );
    }
    match phase {
        Phase::Setup | Phase::Choose if passes != 0 => {
            return bad("no pass is possible before the colours are chosen".into());
        }
        Phase::Setup if players != 0 => {
            return bad("before the setup only the neutral stack is on the board".into());
        }
        Phase::Choose if players != 2 || singles != [1, 1] || neutral != 1 => {
            return bad(
                "after the setup the board holds the neutral stack, one r1 and one w1".into(),
            );
        }
        // A stack is only ever added or replaced, and the setup placed two.
        Phase::Play(_) if players < 2 => {
            return bad("once play has begun there are at least two red or white stacks".into());
        }
        _ => {}
    }
    Ok((board, phase, passes))
}

fn variant_id(variant: Variant) -> &'static str {
    game::Variant::id(variant)
}
