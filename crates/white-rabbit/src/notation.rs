//! Action and position notation (`k4~r2`, `reroll`, `end`; the five-field position).

use std::fmt::Write;

use game::Error;

use crate::{Die, Move, START_GREEN, Variant, WhiteRabbit};

pub(crate) fn format_move(mv: Move) -> String {
    match mv {
        Move::Swap { hand, table } => format!("{hand}~{table}"),
        Move::Reroll => "reroll".to_string(),
        Move::End => "end".to_string(),
    }
}

pub(crate) fn parse_move(text: &str) -> Result<Move, Error> {
    match text {
        "reroll" => return Ok(Move::Reroll),
        "end" => return Ok(Move::End),
        _ => {}
    }
    let Some((hand, table)) = text.split_once('~') else {
        return Err(Error::bad_move(
            text,
            "expected a swap (hand die~table die, e.g. k4~r2), reroll or end",
        ));
    };
    let hand = die(hand).map_err(|reason| Error::bad_move(text, reason))?;
    let table = die(table).map_err(|reason| Error::bad_move(text, reason))?;
    if hand == table {
        return Err(Error::bad_move(text, "a die cannot be swapped with itself"));
    }
    Ok(Move::Swap { hand, table })
}

fn die(name: &str) -> Result<Die, String> {
    Die::from_name(name).ok_or_else(|| format!("unknown die {name:?} (k1…k5, r1…r5, w)"))
}

pub(crate) fn format_position(game: &WhiteRabbit) -> String {
    let mut s = String::with_capacity(64);
    for (i, (d, v)) in game.table().into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{d}={v}");
    }
    s.push(' ');
    for (i, (d, v)) in game.hand().into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{d}={v}");
    }
    let _ = write!(s, " {}", game.green());
    match game.banned_swap() {
        Some((h, t)) => {
            let _ = write!(s, " {h}~{t}");
        }
        None => s.push_str(" -"),
    }
    match game.rerollable() {
        Some(d) => {
            let _ = write!(s, " {d}");
        }
        None => s.push_str(" -"),
    }
    s
}

/// A position read from notation and checked for consistency.
pub(crate) struct Parsed {
    pub table: [Die; 6],
    pub value: [u8; Die::COUNT],
    pub green: u8,
    pub ban: Option<(Die, Die)>,
    pub reroll: Option<Die>,
}

fn bad(reason: impl Into<String>) -> Error {
    Error::bad_position(reason)
}

/// Reads `die=value,die=value,…` into `value`, returning the dice in the order written.
fn dice_list(
    what: &str,
    field: &str,
    value: &mut [u8; Die::COUNT],
    seen: &mut u16,
) -> Result<Vec<Die>, Error> {
    let mut dice = Vec::with_capacity(6);
    for entry in field.split(',') {
        let Some((name, v)) = entry.split_once('=') else {
            return Err(bad(format!("{what}: expected die=value, found {entry:?}")));
        };
        let d = Die::from_name(name)
            .ok_or_else(|| bad(format!("{what}: unknown die {name:?} (k1…k5, r1…r5, w)")))?;
        let v = match v.as_bytes() {
            [c @ b'1'..=b'6'] => c - b'0',
            _ => {
                return Err(bad(format!(
                    "{what}: {name} shows {v:?}, a die shows 1 to 6"
                )));
            }
        };
        if *seen & d.bit() != 0 {
            return Err(bad(format!("{d} is listed twice")));
        }
        *seen |= d.bit();
        value[d.index()] = v;
        dice.push(d);
    }
    Ok(dice)
}

pub(crate) fn parse_position(variant: Variant, text: &str) -> Result<Parsed, Error> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 5 || fields.iter().any(|f| f.is_empty()) {
        return Err(bad(
            "expected five fields separated by single spaces: table, hand, green counter, banned swap, rerollable die",
        ));
    }
    let mut value = [0u8; Die::COUNT];
    let mut seen = 0u16;

    let table_dice = dice_list("table", fields[0], &mut value, &mut seen)?;
    if table_dice.len() != 6 {
        return Err(bad(format!(
            "the table has six slots, {} dice are listed",
            table_dice.len()
        )));
    }
    let mut table = [Die::W; 6];
    table.copy_from_slice(&table_dice);

    let hand_dice = dice_list("hand", fields[1], &mut value, &mut seen)?;
    if hand_dice.len() != 5 {
        return Err(bad(format!(
            "the hand holds five dice, {} are listed",
            hand_dice.len()
        )));
    }
    if hand_dice.windows(2).any(|w| w[0] > w[1]) {
        return Err(bad("the hand lists its dice in the order k1…k5, r1…r5, w"));
    }
    // Six distinct dice on the table and five more in the hand: all eleven, each once.
    debug_assert_eq!(seen, (1 << Die::COUNT) - 1);
    let hand = seen & !table.iter().fold(0, |m, d| m | d.bit());

    let green = match fields[2].as_bytes() {
        [c @ b'0'..=b'6'] => c - b'0',
        _ => {
            return Err(bad(format!(
                "the green counter shows 0 to 6, found {:?}",
                fields[2]
            )));
        }
    };
    debug_assert!(green <= START_GREEN);

    let ban = match fields[3] {
        "-" => None,
        f => {
            let (h, t) = f.split_once('~').ok_or_else(|| {
                bad(format!(
                    "banned swap {f:?}: expected hand die~table die or -"
                ))
            })?;
            let h = Die::from_name(h)
                .ok_or_else(|| bad(format!("banned swap {f:?}: unknown die {h:?}")))?;
            let t = Die::from_name(t)
                .ok_or_else(|| bad(format!("banned swap {f:?}: unknown die {t:?}")))?;
            if hand & h.bit() == 0 {
                return Err(bad(format!("banned swap {f}: {h} is not in the hand")));
            }
            if hand & t.bit() != 0 {
                return Err(bad(format!("banned swap {f}: {t} is not on the table")));
            }
            if h.colour() == t.colour() {
                return Err(bad(format!(
                    "banned swap {f}: dice of one colour are never swapped"
                )));
            }
            Some((h, t))
        }
    };

    let reroll = match fields[4] {
        "-" => None,
        f => {
            let d = Die::from_name(f)
                .ok_or_else(|| bad(format!("rerollable die: unknown die {f:?}")))?;
            // Only the die the last swap took may be rerolled, and that swap is the banned one.
            match ban {
                Some((h, t)) if h == d => {
                    // Nothing has happened since that swap, so the two dice still show
                    // neighbouring values.
                    if !variant.neighbours(value[h.index()], value[t.index()]) {
                        return Err(bad(format!(
                            "{h} was just swapped for {t}, yet their values are not neighbours"
                        )));
                    }
                }
                _ => {
                    return Err(bad(format!(
                        "rerollable die {d}: only the die the last swap brought into the hand (the hand die of the banned swap) may be rerolled"
                    )));
                }
            }
            Some(d)
        }
    };

    let won = hand & Die::W.bit() != 0
        && table
            .iter()
            .all(|d| value[d.index()] == value[table[0].index()]);
    if green == 0 {
        if ban.is_some() || reroll.is_some() {
            return Err(bad(
                "a lost game (counter 0) has no banned swap and no rerollable die",
            ));
        }
        if won {
            // Ending a turn never changes the table, so a won table was already won before.
            return Err(bad("the table is won, so the game cannot have been lost"));
        }
    }

    Ok(Parsed {
        table,
        value,
        green,
        ban,
        reroll,
    })
}
