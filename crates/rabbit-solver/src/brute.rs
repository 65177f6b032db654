//! Test-only brute force: the same equations over *labelled* dice (every die its own identity,
//! the table a set of dice, the ban a pair of dice), with no symmetry reduction at all, written
//! independently of `model`.

use std::collections::HashMap;

use crate::exact::{Expansion, Graph, Succ, Vals};
use crate::model::{Act, Class, Config, Model, State};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct L {
    pub val: [u8; 11],
    /// Bit `i`: die `i` is on the table.
    pub table: u16,
    pub ban: Option<(u8, u8)>,
    pub reroll: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LAct {
    Swap(u8, u8),
    Reroll,
    End,
}

fn colour(m: &Model, i: u8) -> u8 {
    if i < m.blacks {
        0
    } else if i < m.blacks + m.reds {
        1
    } else {
        2
    }
}

fn won(m: &Model, s: &L) -> bool {
    let n = m.dice();
    let white = n - 1;
    if s.table & (1 << white) != 0 {
        return false;
    }
    let vals: Vec<u8> = (0..n)
        .filter(|&i| s.table & (1 << i) != 0)
        .map(|i| s.val[i as usize])
        .collect();
    vals.iter().all(|&v| v == vals[0])
}

fn expand(m: &Model, s: &L) -> Expansion<L, LAct> {
    let n = m.dice();
    let mut out = Vec::new();
    if won(m, s) {
        return out;
    }
    for h in 0..n {
        if s.table & (1 << h) != 0 {
            continue;
        }
        for t in 0..n {
            if s.table & (1 << t) == 0 || colour(m, h) == colour(m, t) {
                continue;
            }
            if !m.adjacent(s.val[h as usize], s.val[t as usize]) || s.ban == Some((h, t)) {
                continue;
            }
            let mut x = *s;
            x.table ^= (1 << h) | (1 << t);
            x.ban = Some((t, h));
            x.reroll = Some(t);
            let o = if won(m, &x) { Succ::Win } else { Succ::To(x) };
            out.push((LAct::Swap(h, t), vec![(o, 1.0)]));
        }
    }
    if let Some(r) = s.reroll {
        let outs = (0..m.faces)
            .map(|v| {
                let mut x = *s;
                x.val[r as usize] = v;
                x.reroll = None;
                if v == s.val[r as usize] {
                    x.ban = None;
                }
                (Succ::To(x), 1.0 / m.faces as f64)
            })
            .collect();
        out.push((LAct::Reroll, outs));
    }
    out.push((LAct::End, vec![(Succ::End, 1.0)]));
    out
}

/// Every labelled free state (each table set of the right size, each value of each die).
pub fn all_free(m: &Model) -> Vec<L> {
    let n = m.dice() as u32;
    let mut out = Vec::new();
    for table in 0u16..(1 << n) {
        if table.count_ones() != m.table as u32 {
            continue;
        }
        for code in 0..(m.faces as u32).pow(n) {
            let mut val = [0; 11];
            let mut c = code;
            for v in val.iter_mut().take(n as usize) {
                *v = (c % m.faces as u32) as u8;
                c /= m.faces as u32;
            }
            out.push(L {
                val,
                table,
                ban: None,
                reroll: None,
            });
        }
    }
    out
}

/// Solves levels `1..=greens` over labelled states.
pub fn solve(m: &Model, greens: u8) -> Vec<Graph<L, LAct>> {
    let starts: Vec<L> = all_free(m).into_iter().filter(|s| !won(m, s)).collect();
    let mut levels: Vec<Graph<L, LAct>> = Vec::new();
    for g in 1..=greens {
        let below = levels.last();
        let mut cache: HashMap<u16, HashMap<[u8; 11], Vals>> = HashMap::new();
        let mut graph = Graph::build(
            starts.iter().copied(),
            g,
            |s| expand(m, s),
            |s| match below {
                None => [0.0; 3],
                Some(prev) => *cache
                    .entry(s.table)
                    .or_default()
                    .entry(table_vals(m, s))
                    .or_insert_with(|| turn_start(m, prev, s, g - 1)),
            },
        );
        graph.solve();
        levels.push(graph);
    }
    levels
}

fn table_vals(m: &Model, s: &L) -> [u8; 11] {
    let mut v = [0; 11];
    for (i, x) in v.iter_mut().enumerate().take(m.dice() as usize) {
        if s.table & (1 << i) != 0 {
            *x = s.val[i];
        }
    }
    v
}

/// Expected values over every labelled roll of the hand.
pub fn turn_start(m: &Model, level: &Graph<L, LAct>, s: &L, green: u8) -> Vals {
    let n = m.dice() as usize;
    let hand: Vec<usize> = (0..n).filter(|&i| s.table & (1 << i) == 0).collect();
    let total = (m.faces as u32).pow(hand.len() as u32);
    let mut out = [0.0; 3];
    for code in 0..total {
        let mut x = *s;
        x.ban = None;
        x.reroll = None;
        let mut c = code;
        for &i in &hand {
            x.val[i] = (c % m.faces as u32) as u8;
            c /= m.faces as u32;
        }
        let v = if won(m, &x) {
            [1.0, green as f64, 0.0]
        } else {
            level.value(&x).expect("every free state is solved")
        };
        for k in 0..3 {
            out[k] += v[k] / total as f64;
        }
    }
    out
}

/// The compact image of a labelled state.
pub fn compact(m: &Model, s: &L) -> State {
    let mut cfg = Config::EMPTY;
    let class = |i: u8| Class {
        c: colour(m, i),
        v: s.val[i as usize],
    };
    for i in 0..m.dice() {
        let c = class(i);
        if s.table & (1 << i) != 0 {
            cfg.t[c.c as usize][c.v as usize] += 1;
        } else {
            cfg.h[c.c as usize][c.v as usize] += 1;
        }
    }
    State {
        cfg,
        ban: s.ban.map(|(h, t)| (class(h), class(t))),
        reroll: s.reroll.map(class),
    }
    .normalised(m)
}

/// The class action of a labelled action.
pub fn compact_act(m: &Model, s: &L, a: LAct) -> Act {
    let class = |i: u8| Class {
        c: colour(m, i),
        v: s.val[i as usize],
    };
    match a {
        LAct::Swap(h, t) => Act::Swap {
            hand: class(h),
            table: class(t),
        },
        LAct::Reroll => Act::Reroll,
        LAct::End => Act::End,
    }
}
