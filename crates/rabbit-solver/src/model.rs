//! The compact, symmetry-reduced form of a White Rabbit position used by both solvers.
//!
//! Dice of one colour showing one value are interchangeable, and the order of the table slots
//! does not matter, so a configuration is a count per (place, colour, value). The banned swap
//! and the rerollable die are kept as *classes* (colour, value); a class move `A~B` is blocked
//! by the ban only when the ban names exactly those classes and both are single dice (otherwise
//! another pair of identical dice gives the very same result).
//!
//! The rules are parameterised by a [`Model`] — dice per colour, table size, faces, wrap — so
//! that the solvers can be checked by brute force on small models; [`Model::of`] gives the real
//! game of the spec (5 black, 5 red, 1 white, a table of 6, faces 1–6).

use white_rabbit::Variant;

/// The most faces a model may have.
pub const MAXF: usize = 6;
/// Colour indices.
pub const BLACK: u8 = 0;
pub const RED: u8 = 1;
pub const WHITE: u8 = 2;

/// The parameters of a (possibly reduced) White Rabbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Model {
    pub blacks: u8,
    pub reds: u8,
    /// Table slots; the hand holds the other `blacks + reds + 1 - table` dice.
    pub table: u8,
    /// Faces of a die, 3..=6 (values are 0-based inside the solver).
    pub faces: u8,
    /// Whether the highest and lowest faces are neighbours (`classic`).
    pub wrap: bool,
}

impl Model {
    /// The game of the spec in a variant.
    pub const fn of(variant: Variant) -> Model {
        Model {
            blacks: 5,
            reds: 5,
            table: 6,
            faces: 6,
            wrap: matches!(variant, Variant::Classic),
        }
    }

    pub const fn dice(&self) -> u8 {
        self.blacks + self.reds + 1
    }

    pub const fn hand_size(&self) -> u8 {
        self.dice() - self.table
    }

    /// Whether two 0-based values are neighbours.
    #[inline]
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        a.abs_diff(b) == 1 || (self.wrap && a.abs_diff(b) == self.faces - 1)
    }

    /// The neighbours of value `y` as a bit mask over values.
    #[inline]
    pub fn neighbours(&self, y: u8) -> u8 {
        let mut b = 0u8;
        if y > 0 {
            b |= 1 << (y - 1);
        } else if self.wrap {
            b |= 1 << (self.faces - 1);
        }
        if y + 1 < self.faces {
            b |= 1 << (y + 1);
        } else if self.wrap {
            b |= 1;
        }
        b
    }

    /// The black and red dice of the setup table: as many black as half the table, rounded up
    /// (3 and 3 in the full game), the rest red.
    pub fn setup_table(&self) -> (u8, u8) {
        let blacks = self.blacks.min(self.table.div_ceil(2));
        (blacks, self.table - blacks)
    }

    pub fn colour_count(&self, c: u8) -> u8 {
        match c {
            BLACK => self.blacks,
            RED => self.reds,
            _ => 1,
        }
    }
}

/// A die class: colour and 0-based value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Class {
    pub c: u8,
    pub v: u8,
}

/// Where the dice are: counts per colour and value, on the table (`t`) and in the hand (`h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    pub t: [[u8; MAXF]; 3],
    pub h: [[u8; MAXF]; 3],
}

impl Config {
    pub const EMPTY: Config = Config {
        t: [[0; MAXF]; 3],
        h: [[0; MAXF]; 3],
    };

    /// All table dice show one value and the white die is in the hand.
    pub fn won(&self, m: &Model) -> bool {
        if self.h[WHITE as usize].iter().sum::<u8>() == 0 {
            return false;
        }
        (0..m.faces as usize).any(|v| self.t[0][v] + self.t[1][v] == m.table)
    }

    /// The table alone (what survives the end of a turn, apart from the hand's colours).
    pub fn table_key(&self) -> Config {
        let mut k = *self;
        for c in 0..3 {
            let n: u8 = k.h[c].iter().sum();
            k.h[c] = [0; MAXF];
            k.h[c][0] = n;
        }
        k
    }

    pub fn white_on_table(&self) -> bool {
        self.t[WHITE as usize].iter().any(|&n| n > 0)
    }
}

/// A position as the solvers see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub cfg: Config,
    /// The banned swap as (hand class, table class).
    pub ban: Option<(Class, Class)>,
    /// The class of the die that may be rerolled now.
    pub reroll: Option<Class>,
}

/// An action on classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    Swap { hand: Class, table: Class },
    Reroll,
    End,
}

impl State {
    pub fn free(cfg: Config) -> State {
        State {
            cfg,
            ban: None,
            reroll: None,
        }
    }

    /// Every legal class action (swaps first, then reroll, then end), unless the game is won.
    pub fn actions(&self, m: &Model, out: &mut Vec<Act>) {
        out.clear();
        if self.cfg.won(m) {
            return;
        }
        let ban = self.live_ban(m);
        for hc in 0..3u8 {
            for hv in 0..m.faces {
                let hn = self.cfg.h[hc as usize][hv as usize];
                if hn == 0 {
                    continue;
                }
                for tc in 0..3u8 {
                    if tc == hc {
                        continue;
                    }
                    for tv in 0..m.faces {
                        let tn = self.cfg.t[tc as usize][tv as usize];
                        if tn == 0 || !m.adjacent(hv, tv) {
                            continue;
                        }
                        let hand = Class { c: hc, v: hv };
                        let table = Class { c: tc, v: tv };
                        if ban == Some((hand, table)) {
                            continue;
                        }
                        out.push(Act::Swap { hand, table });
                    }
                }
            }
        }
        if self.reroll.is_some() {
            out.push(Act::Reroll);
        }
        out.push(Act::End);
    }

    /// The state after a swap (trusted to be legal).
    pub fn swap(&self, hand: Class, table: Class) -> State {
        let mut cfg = self.cfg;
        cfg.h[hand.c as usize][hand.v as usize] -= 1;
        cfg.t[hand.c as usize][hand.v as usize] += 1;
        cfg.t[table.c as usize][table.v as usize] -= 1;
        cfg.h[table.c as usize][table.v as usize] += 1;
        State {
            cfg,
            ban: Some((table, hand)),
            reroll: Some(table),
        }
    }

    /// The state after the rerollable die comes up `v` (0-based).
    pub fn rerolled(&self, m: &Model, v: u8) -> State {
        let r = self.reroll.expect("reroll without a rerollable die");
        let mut cfg = self.cfg;
        cfg.h[r.c as usize][r.v as usize] -= 1;
        cfg.h[r.c as usize][v as usize] += 1;
        let new = Class { c: r.c, v };
        let ban = match self.ban {
            Some((bh, bt)) if bh == r && v != r.v => Some((new, bt)),
            Some((bh, _)) if bh == r => None,
            other => other,
        };
        State {
            cfg,
            ban,
            reroll: None,
        }
        .normalised(m)
    }

    /// The ban, if it can block its swap: both its dice the only ones of their class and still
    /// neighbours (otherwise an identical pair of dice makes the same swap, or none can).
    pub fn live_ban(&self, m: &Model) -> Option<(Class, Class)> {
        self.ban.filter(|(h, t)| {
            self.cfg.h[h.c as usize][h.v as usize] == 1
                && self.cfg.t[t.c as usize][t.v as usize] == 1
                && m.adjacent(h.v, t.v)
        })
    }

    /// Drops a ban that can no longer block anything (only when no reroll is pending: the
    /// rerollable die is the banned one, so its identity still matters then).
    pub fn normalised(mut self, m: &Model) -> State {
        if self.reroll.is_none() && self.live_ban(m).is_none() {
            self.ban = None;
        }
        self
    }
}

/// The hand's possible rolls at the start of a turn, as configurations with probabilities
/// (the multinomial distribution of each colour's values), for the hand colours of `cfg`.
pub fn hand_rolls(m: &Model, cfg: &Config) -> Vec<(Config, f64)> {
    let mut out = vec![(
        Config {
            t: cfg.t,
            h: [[0; MAXF]; 3],
        },
        1.0,
    )];
    for c in 0..3 {
        let n: u8 = cfg.h[c].iter().sum();
        let parts = multisets(n, m.faces);
        let mut next = Vec::with_capacity(out.len() * parts.len());
        for (base, p) in &out {
            for (counts, q) in &parts {
                let mut cf = *base;
                cf.h[c] = *counts;
                next.push((cf, p * q));
            }
        }
        out = next;
    }
    out
}

/// Every multiset of `n` values out of `faces`, as counts per value, in a fixed order (the
/// first value's count rising slowest): the order of [`crate::full::Index`]'s ranks.
pub fn value_counts(n: u8, faces: u8) -> Vec<[u8; MAXF]> {
    fn rec(v: usize, left: u8, faces: usize, cur: &mut [u8; MAXF], out: &mut Vec<[u8; MAXF]>) {
        if v + 1 == faces {
            cur[v] = left;
            out.push(*cur);
            cur[v] = 0;
            return;
        }
        for k in 0..=left {
            cur[v] = k;
            rec(v + 1, left - k, faces, cur, out);
        }
        cur[v] = 0;
    }
    let mut all = Vec::new();
    rec(0, n, faces as usize, &mut [0; MAXF], &mut all);
    all
}

/// Every way `n` dice with `faces` faces can fall, as counts per value with probability.
fn multisets(n: u8, faces: u8) -> Vec<([u8; MAXF], f64)> {
    let fact = |k: u8| (1..=k as u64).product::<u64>() as f64;
    let total = (faces as f64).powi(n as i32);
    value_counts(n, faces)
        .into_iter()
        .map(|c| {
            let ways = fact(n) / c.iter().map(|&k| fact(k)).product::<f64>();
            (c, ways / total)
        })
        .collect()
}

/// The tables a setup can deal ([`Model::setup_table`]'s dice rolled), with probabilities:
/// the table's counts by value, and the hand's dice counted at value 0 (not rolled yet).
pub fn setup_tables(m: &Model) -> Vec<(Config, f64)> {
    let (bt, rt) = m.setup_table();
    let mut setup = Config::EMPTY;
    setup.h[0][0] = bt;
    setup.h[1][0] = rt;
    hand_rolls(m, &setup)
        .into_iter()
        .map(|(t, p)| {
            let mut table = Config::EMPTY;
            table.t = t.h;
            table.h[0][0] = m.blacks - bt;
            table.h[1][0] = m.reds - rt;
            table.h[2][0] = 1;
            (table, p)
        })
        .collect()
}

/// Every split of the dice between table and hand, as the white, black and red dice on the
/// table (white slowest, then black).
pub fn table_splits(m: &Model) -> impl Iterator<Item = (u8, u8, u8)> {
    let m = *m;
    (0..=1u8).flat_map(move |wt| {
        (0..=m.blacks.min(m.table)).filter_map(move |bt| {
            let rt = m.table.checked_sub(bt + wt)?;
            (rt <= m.reds).then_some((wt, bt, rt))
        })
    })
}

/// Every configuration of a model (each split of the dice between table and hand, each
/// multiset of values): the whole within-turn space without bans.
pub fn all_configs(m: &Model) -> Vec<Config> {
    let mut out = Vec::new();
    for (wt, bt, rt) in table_splits(m) {
        let counts = [(bt, m.blacks - bt), (rt, m.reds - rt), (wt, 1 - wt)];
        let mut cfgs = vec![Config::EMPTY];
        for (c, &(nt, nh)) in counts.iter().enumerate() {
            let ts = multisets(nt, m.faces);
            let hs = multisets(nh, m.faces);
            let mut next = Vec::new();
            for base in &cfgs {
                for (t, _) in &ts {
                    for (h, _) in &hs {
                        let mut cf = *base;
                        cf.t[c] = *t;
                        cf.h[c] = *h;
                        next.push(cf);
                    }
                }
            }
            cfgs = next;
        }
        out.extend(cfgs);
    }
    out
}

/// The compact state of an engine position.
pub fn from_game(g: &white_rabbit::WhiteRabbit) -> State {
    let mut cfg = Config::EMPTY;
    for (d, v) in g.table() {
        cfg.t[colour(d) as usize][(v - 1) as usize] += 1;
    }
    for (d, v) in g.hand() {
        cfg.h[colour(d) as usize][(v - 1) as usize] += 1;
    }
    let class = |d: white_rabbit::Die| Class {
        c: colour(d),
        v: g.value(d) - 1,
    };
    let m = Model::of(game::Game::variant(g));
    State {
        cfg,
        ban: g.banned_swap().map(|(h, t)| (class(h), class(t))),
        reroll: g.rerollable().map(class),
    }
    .normalised(&m)
}

pub fn colour(d: white_rabbit::Die) -> u8 {
    match d.colour() {
        white_rabbit::Colour::Black => BLACK,
        white_rabbit::Colour::Red => RED,
        white_rabbit::Colour::White => WHITE,
    }
}

/// The class action of an engine move in the position `g`.
pub fn act_of(g: &white_rabbit::WhiteRabbit, mv: white_rabbit::Move) -> Act {
    match mv {
        white_rabbit::Move::Swap { hand, table } => Act::Swap {
            hand: Class {
                c: colour(hand),
                v: g.value(hand) - 1,
            },
            table: Class {
                c: colour(table),
                v: g.value(table) - 1,
            },
        },
        white_rabbit::Move::Reroll => Act::Reroll,
        white_rabbit::Move::End => Act::End,
    }
}
