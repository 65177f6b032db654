//! The greedy baseline hint mode is measured against.

use crate::model::{Act, Model, State, WHITE};

/// The greedy baseline a person might follow: win if possible; otherwise swap a hand die
/// showing the table's most common value for a table die that does not (or take the white die
/// off the table); otherwise reroll the die just taken; otherwise swap anything that keeps the
/// common value and the white die in place (to reroll next), at most 30 actions a turn;
/// otherwise end.
pub fn greedy(m: &Model, s: &State, in_turn: u32, buf: &mut Vec<Act>) -> Act {
    s.actions(m, buf);
    let mut target = 0;
    for v in 0..m.faces as usize {
        if s.cfg.t[0][v] + s.cfg.t[1][v] > s.cfg.t[0][target] + s.cfg.t[1][target] {
            target = v;
        }
    }
    let target = target as u8;
    let swaps = buf.iter().filter_map(|a| match *a {
        Act::Swap { hand, table } => Some((hand, table)),
        _ => None,
    });
    let mut neutral = None;
    for (hand, table) in swaps {
        if s.swap(hand, table).cfg.won(m) {
            return Act::Swap { hand, table };
        }
        let toward =
            hand.c != WHITE && (table.c == WHITE || (hand.v == target && table.v != target));
        if toward {
            return Act::Swap { hand, table };
        }
        if neutral.is_none() && hand.c != WHITE && table.v != target {
            neutral = Some(Act::Swap { hand, table });
        }
    }
    if s.reroll.is_some() {
        return Act::Reroll;
    }
    match neutral {
        Some(a) if in_turn < 30 => a,
        _ => Act::End,
    }
}
