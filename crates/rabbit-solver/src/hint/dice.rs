//! The dice one by one, as bit masks: what hint mode's searches over swaps work on.

use super::Rng;
use crate::model::{Class, Config, MAXF, Model, State, WHITE};

#[derive(Debug, Clone, Copy)]
pub struct Dice {
    pub n: usize,
    pub col: [u8; 16],
    pub val: [u8; 16],
    /// `compat[i]`: the dice that `i` may be swapped with (other colour, neighbouring value).
    pub compat: [u16; 16],
    /// The dice showing each value.
    pub by_val: [u16; MAXF],
    pub white: u16,
}

impl Dice {
    /// The dice of a state, table dice marked in the returned mask; the banned pair of dice
    /// (hand, table) if the ban can block; the die that may be rerolled.
    pub fn of(m: &Model, s: &State) -> (Dice, u16, Option<(usize, usize)>, Option<usize>) {
        let mut d = Dice {
            n: 0,
            col: [0; 16],
            val: [0; 16],
            compat: [0; 16],
            by_val: [0; MAXF],
            white: 0,
        };
        let mut table = 0u16;
        let (mut ban, mut reroll) = (None, None);
        let (bh, bt) = match s.live_ban(m) {
            Some((h, t)) => (Some(h), Some(t)),
            None => (None, None),
        };
        let (mut ban_h, mut ban_t) = (None, None);
        for c in 0..3u8 {
            for v in 0..m.faces {
                for (on_table, k) in [
                    (true, s.cfg.t[c as usize][v as usize]),
                    (false, s.cfg.h[c as usize][v as usize]),
                ] {
                    for _ in 0..k {
                        let i = d.n;
                        d.col[i] = c;
                        d.val[i] = v;
                        d.by_val[v as usize] |= 1 << i;
                        if c == WHITE {
                            d.white |= 1 << i;
                        }
                        let cls = Class { c, v };
                        if on_table {
                            table |= 1 << i;
                            if bt == Some(cls) {
                                ban_t = Some(i);
                            }
                        } else {
                            if bh == Some(cls) {
                                ban_h = Some(i);
                            }
                            if s.reroll == Some(cls) {
                                reroll = Some(i);
                            }
                        }
                        d.n += 1;
                    }
                }
            }
        }
        if let (Some(h), Some(t)) = (ban_h, ban_t) {
            ban = Some((h, t));
        }
        d.update(m);
        (d, table, ban, reroll)
    }

    /// Recomputes `compat` and `by_val` from the values.
    pub fn update(&mut self, m: &Model) {
        self.by_val = [0; MAXF];
        for i in 0..self.n {
            self.by_val[self.val[i] as usize] |= 1 << i;
        }
        for i in 0..self.n {
            let nb = m.neighbours(self.val[i]);
            let mut c = 0u16;
            for j in 0..self.n {
                if self.col[j] != self.col[i] && nb & (1 << self.val[j]) != 0 {
                    c |= 1 << j;
                }
            }
            self.compat[i] = c;
        }
    }

    /// Sets die `i` to value `v`.
    pub fn set(&mut self, m: &Model, i: usize, v: u8) {
        let old = self.val[i];
        self.by_val[old as usize] &= !(1 << i);
        self.by_val[v as usize] |= 1 << i;
        self.val[i] = v;
        let nb = m.neighbours(v);
        let mut c = 0u16;
        for j in 0..self.n {
            let bit = 1u16 << i;
            if self.col[j] != self.col[i] && nb & (1 << self.val[j]) != 0 {
                c |= 1 << j;
                self.compat[j] |= bit;
            } else {
                self.compat[j] &= !bit;
            }
        }
        self.compat[i] = c;
    }

    /// Every swap `(hand die, table die)` the dice allow with the table `mask`.
    pub fn swaps(&self, mask: u16) -> impl Iterator<Item = (usize, usize)> + '_ {
        let all = ((1u32 << self.n) - 1) as u16;
        bits(all & !mask).flat_map(move |h| bits(self.compat[h] & mask).map(move |t| (h, t)))
    }

    /// A die of class `c` among `mask`.
    pub fn find(&self, c: Class, mask: u16) -> usize {
        (0..self.n)
            .find(|&i| mask & (1 << i) != 0 && self.col[i] == c.c && self.val[i] == c.v)
            .expect("a die of the class is there")
    }

    /// All table dice (`mask`) show one value and the white die is in the hand.
    #[inline]
    pub fn won(&self, mask: u16) -> bool {
        if mask & self.white != 0 {
            return false;
        }
        let first = mask.trailing_zeros() as usize;
        mask & !self.by_val[self.val[first] as usize] == 0
    }
}

/// The indices of the set bits of `x`, lowest first.
fn bits(mut x: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

/// A random turn start like the setup: every die rolled, the first `table` black and red dice
/// (blacks first) on the table.
pub fn random_start(m: &Model, rng: &mut Rng) -> State {
    let mut c = Config::EMPTY;
    let (on_b, on_r) = m.setup_table();
    for (col, n, on) in [(0usize, m.blacks, on_b), (1, m.reds, on_r), (2, 1, 0)] {
        for i in 0..n {
            let y = rng.below(m.faces as u32) as usize;
            if i < on {
                c.t[col][y] += 1;
            } else {
                c.h[col][y] += 1;
            }
        }
    }
    State::free(c)
}
