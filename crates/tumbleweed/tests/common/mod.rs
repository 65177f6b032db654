//! Builds hand-made positions for the tests.

#![allow(dead_code)]

use game::Game;
use tumbleweed::{Cell, Tumbleweed, Variant};

/// A cell by name, e.g. `cell("d5")`.
pub fn cell(name: &str) -> Cell {
    let g = Tumbleweed::new(Variant::Hex11, 0);
    match g.parse_move(name) {
        Ok(tumbleweed::Move::Place(c)) => c,
        other => panic!("{name} is not a cell: {other:?}"),
    }
}

/// The position text of a `variant` board with the neutral stack on the centre (unless
/// `stacks` names the centre) and the given `(cell, stack)` pairs, e.g. `("d5", "w2")`, then
/// the phase and the pass counter.
pub fn position(variant: Variant, stacks: &[(&str, &str)], phase: &str, passes: u8) -> String {
    let n = variant.side();
    let centre = variant.centre().to_string();
    let mut columns = Vec::new();
    for i in 0..2 * n - 1 {
        let mut column = String::new();
        for j in 1..2 * n {
            if (i as isize - (j as isize - 1)).unsigned_abs() > n - 1 {
                continue;
            }
            let name = format!("{}{}", (b'a' + i as u8) as char, j);
            match stacks.iter().find(|(c, _)| *c == name) {
                Some((_, s)) => column.push_str(s),
                None if name == centre => column.push_str("n2"),
                None => column.push('.'),
            }
        }
        columns.push(column);
    }
    for (c, _) in stacks {
        assert!(
            Tumbleweed::new(variant, 0).contains(cell(c)),
            "{c} is not on the board"
        );
    }
    format!("{} {phase} {passes}", columns.join("/"))
}

/// The game at that position.
pub fn game(variant: Variant, stacks: &[(&str, &str)], phase: &str, passes: u8) -> Tumbleweed {
    let text = position(variant, stacks, phase, passes);
    Tumbleweed::from_position(variant, &text, 0).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves in canonical notation.
pub fn legal(g: &Tumbleweed) -> Vec<String> {
    g.legal_texts()
}
