//! A slow, obviously-correct move generator written straight from the spec's wording (lines as
//! name triples, reachability by walking a line), compared with the engine on random positions
//! of every variant.

use game::{Game, GameRng, Outcome, Seat, Variant as _};
use mill::{Mill, Variant};
use std::collections::BTreeSet;

const ROWS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

const LINES: [&str; 16] = [
    "a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1",
    "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5", "f2 f4 f6", "g1 g4 g7",
];
const DIAGONALS: [&str; 4] = ["a1 b2 c3", "g1 f2 e3", "a7 b6 c5", "g7 f6 e5"];

struct Ref {
    cell: std::collections::HashMap<&'static str, char>,
    turn: char,
    hand_a: u32,
    hand_b: u32,
    paid_a: u32,
    paid_b: u32,
}

fn read(text: &str) -> Ref {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut cell = std::collections::HashMap::new();
    for (row, names) in fields[0].split('/').zip(ROWS) {
        for (c, &n) in row.chars().zip(names) {
            cell.insert(n, c);
        }
    }
    Ref {
        cell,
        turn: fields[1].chars().next().unwrap(),
        hand_a: fields[2].parse().unwrap(),
        hand_b: fields[3].parse().unwrap(),
        paid_a: u32::from_str_radix(fields[4], 16).unwrap(),
        paid_b: u32::from_str_radix(fields[5], 16).unwrap(),
    }
}

fn triples(list: &[&'static str]) -> Vec<[&'static str; 3]> {
    list.iter()
        .map(|l| {
            let v: Vec<&str> = l.split(' ').collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

fn reference_moves(v: Variant, r: &Ref) -> BTreeSet<String> {
    let mut scoring = triples(&LINES);
    let mut moving = triples(&LINES);
    if v == Variant::TroikaDiagonal {
        scoring.extend(triples(&DIAGONALS));
    }
    if matches!(v, Variant::TroikaDiagonal | Variant::TroikaLong) {
        moving.extend(triples(&DIAGONALS));
    }
    let me = r.turn;
    let them = if me == 'a' { 'b' } else { 'a' };
    let hand = if me == 'a' { r.hand_a } else { r.hand_b };
    let paid = if me == 'a' { r.paid_a } else { r.paid_b };
    let all: Vec<&str> = ROWS.iter().flat_map(|r| r.iter().copied()).collect();
    let mine: Vec<&str> = all.iter().copied().filter(|p| r.cell[p] == me).collect();
    let mut theirs: Vec<&str> = all.iter().copied().filter(|p| r.cell[p] == them).collect();
    theirs.sort(); // notation order: column letter, then row
    let empty = |p: &str| r.cell[p] == '.';

    // (from, to) pairs.
    let mut shifts: Vec<(Option<&str>, &str)> = Vec::new();
    let adjacent = |p: &str, q: &str, lines: &[[&str; 3]]| {
        lines
            .iter()
            .any(|l| (0..2).any(|i| (l[i] == p && l[i + 1] == q) || (l[i] == q && l[i + 1] == p)))
    };
    if hand > 0 {
        for &q in &all {
            if empty(q) {
                shifts.push((None, q));
            }
        }
        if v == Variant::TroikaFree {
            for &p in &mine {
                for &q in &all {
                    if empty(q) && adjacent(p, q, &triples(&LINES)) {
                        shifts.push((Some(p), q));
                    }
                }
            }
        }
    } else {
        for &p in &mine {
            for &q in &all {
                if !empty(q) {
                    continue;
                }
                let flying = mine.len() == 3;
                // Ends of one line, with its middle point empty (long) or occupied (jump).
                let far = moving.iter().any(|l| {
                    ((l[0] == p && l[2] == q) || (l[2] == p && l[0] == q))
                        && match v {
                            Variant::TroikaLong => empty(l[1]),
                            Variant::TroikaDiagonal => !empty(l[1]),
                            _ => false,
                        }
                });
                let ok = flying || adjacent(p, q, &moving) || far;
                if ok {
                    shifts.push((Some(p), q));
                }
            }
        }
    }

    let mut out = BTreeSet::new();
    for (from, to) in shifts {
        let owner = |p: &str| {
            if Some(p) == from {
                '.'
            } else if p == to {
                me
            } else {
                r.cell[p]
            }
        };
        let k = (0..scoring.len())
            .filter(|&i| paid & (1 << i) == 0)
            .filter(|&i| scoring[i].contains(&to) && scoring[i].iter().all(|&p| owner(p) == me))
            .count();
        let due = k.min(theirs.len());
        let head = match from {
            Some(f) => format!("{f}-{to}"),
            None => to.to_string(),
        };
        // Every subset of their tokens of size `due`, ascending.
        for mask in 0u32..(1 << theirs.len()) {
            if mask.count_ones() as usize != due {
                continue;
            }
            let mut text = head.clone();
            for (i, p) in theirs.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    text.push('x');
                    text.push_str(p);
                }
            }
            out.insert(text);
        }
    }
    out
}

/// The result by the spec's checks, in its order; `seen` is how many times this position (the
/// notation without the counter) has occurred, this time included.
fn reference_outcome(v: Variant, text: &str, seen: usize) -> Option<Outcome> {
    let r = read(text);
    let count = |side: char| r.cell.values().filter(|&&c| c == side).count() as u32;
    let (to_move, mover) = if r.turn == 'a' {
        ('a', Seat::B)
    } else {
        ('b', Seat::A)
    };
    let (left_s, left_p, hand_s) = if to_move == 'a' {
        (count('a') + r.hand_a, count('b') + r.hand_b, r.hand_a)
    } else {
        (count('b') + r.hand_b, count('a') + r.hand_a, r.hand_b)
    };
    let counter: u32 = text.rsplit(' ').next().unwrap().parse().unwrap();
    if left_s <= 2 {
        Some(Outcome::Win(mover))
    } else if left_s == 3 && left_p == 3 {
        Some(Outcome::Draw)
    } else if hand_s == 0 && reference_moves(v, &r).is_empty() {
        Some(Outcome::Win(mover))
    } else if seen >= 3 || counter >= 100 {
        Some(Outcome::Draw)
    } else {
        None
    }
}

#[test]
fn the_engine_agrees_with_a_brute_force_reading_of_the_spec() {
    let mut compared = 0;
    let mut endings = std::collections::HashMap::new();
    for &v in Variant::ALL {
        for seed in 0..24u64 {
            let mut g = Mill::new(v, seed);
            let mut rng = GameRng::seeded(seed);
            let mut moves = Vec::new();
            let mut history: Vec<String> = Vec::new();
            loop {
                let text = g.position();
                let identity = text.rsplit_once(' ').unwrap().0.to_string();
                history.push(identity.clone());
                let seen = history.iter().filter(|h| **h == identity).count();
                let outcome = reference_outcome(v, &text, seen);
                assert_eq!(g.outcome(), outcome, "{v:?} at {text} (seen {seen} times)");
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    let why = if seen >= 3 {
                        "repetition".to_string()
                    } else {
                        format!("{outcome:?}")
                    };
                    *endings.entry(why).or_insert(0) += 1;
                    break;
                }
                let expected = reference_moves(v, &read(&text));
                let got: BTreeSet<String> = g.legal_texts().into_iter().collect();
                assert_eq!(got, expected, "{v:?} at {text}");
                compared += 1;
                g.make(moves[rng.below(moves.len() as u32) as usize]);
            }
        }
    }
    assert!(compared > 5_000, "only {compared} positions");
    eprintln!("{compared} positions compared; endings {endings:?}");
}
