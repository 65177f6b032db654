#![allow(dead_code)]

use game::Game;
use mill::{Mill, Variant};

/// The point order of the position notation, row by row from the top.
const ROWS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

/// The board field with side `a` on the points listed in `a` and side `b` on those in `b`.
pub fn board(a: &str, b: &str) -> String {
    let a: Vec<&str> = a.split_whitespace().collect();
    let b: Vec<&str> = b.split_whitespace().collect();
    ROWS.iter()
        .map(|row| {
            row.iter()
                .map(|p| {
                    if a.contains(p) {
                        'a'
                    } else if b.contains(p) {
                        'b'
                    } else {
                        '.'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A position built from token lists and the remaining fields (`a 0 0 000f 0f00 7`).
pub fn pos(variant: Variant, a: &str, b: &str, rest: &str) -> Mill {
    let text = format!("{} {rest}", board(a, b));
    Mill::from_position(variant, &text, 0).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn legal(g: &Mill) -> Vec<String> {
    g.legal_texts()
}

pub fn has(g: &Mill, mv: &str) -> bool {
    legal(g).iter().any(|m| m == mv)
}

/// Plays moves given in notation, panicking with the reason if one is refused.
pub fn play(g: &mut Mill, moves: &str) {
    for mv in moves.split_whitespace() {
        if let Err(e) = g.play_text(mv) {
            panic!("{mv} refused at {}: {e}", g.position());
        }
    }
}

/// The reason `mv` is refused.
pub fn refusal(g: &Mill, mv: &str) -> String {
    let mut copy = g.clone();
    match copy.play_text(mv) {
        Ok(_) => panic!("{mv} was accepted at {}", g.position()),
        Err(e) => {
            assert_eq!(copy.position(), g.position());
            e.to_string()
        }
    }
}
