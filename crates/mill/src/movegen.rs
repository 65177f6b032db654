//! Move generation, counting and the reasons an illegal move is refused.

use crate::board::{Reach, tables};
use crate::{Mill, Move, NONE, bits};

/// `CHOOSE[n][k]` = n choose k, for the removals of up to three tokens among nine.
const CHOOSE: [[u32; 4]; 10] = {
    let mut c = [[0u32; 4]; 10];
    let mut n = 0;
    while n < 10 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 4 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
};

impl Mill {
    /// Calls `f(from, targets)` for every origin of moves of the side to move: `NONE` with the
    /// points it may place on, then each token with the points it may reach.
    #[inline(always)]
    fn for_each_origin(&self, mut f: impl FnMut(u8, u32)) {
        let t = tables(self.variant);
        let me = self.turn as usize;
        let mine = self.board[me];
        let occupied = self.board[0] | self.board[1];
        let empty = self.empty();
        if self.hand[me] > 0 {
            f(NONE, empty);
            if t.step_in_hand {
                // Only a plain step while tokens are in hand: no flying yet.
                for p in bits(mine) {
                    f(p as u8, t.step[p] & empty);
                }
            }
        } else if mine.count_ones() == 3 {
            for p in bits(mine) {
                f(p as u8, empty);
            }
        } else {
            for p in bits(mine) {
                f(p as u8, t.targets(p, empty, occupied));
            }
        }
    }

    /// Whether `side`, with no tokens in hand, can move at all.
    pub(crate) fn can_move(&self, side: usize) -> bool {
        let mine = self.board[side];
        if mine.count_ones() <= 3 {
            // Three tokens fly; fewer means the game is already decided.
            return true;
        }
        let t = tables(self.variant);
        let occupied = self.board[0] | self.board[1];
        let empty = self.empty();
        if t.reach != Reach::Jump {
            // A slide of two needs the adjacent point free, so steps decide.
            let mut reach = 0;
            for p in bits(mine) {
                reach |= t.step[p];
            }
            return reach & empty != 0;
        }
        bits(mine).any(|p| t.targets(p, empty, occupied) != 0)
    }

    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        let t = tables(self.variant);
        let me = self.turn as usize;
        let mine = self.board[me];
        let paid = self.paid[me];
        let theirs = self.board[1 - me];
        let n = theirs.count_ones();
        let hot = t.hot(mine, self.empty(), paid);
        self.for_each_origin(|from, targets| {
            let base = if from == NONE {
                mine
            } else {
                mine & !(1 << from)
            };
            for to in bits(targets) {
                let k = if hot & (1 << to) != 0 {
                    t.completed(to, base | 1 << to, paid).count_ones()
                } else {
                    0
                };
                let mv = Move {
                    from,
                    to: to as u8,
                    remove: 0,
                };
                push_with_removals(out, mv, k, theirs, n);
            }
        });
    }

    pub(crate) fn count(&self) -> usize {
        let t = tables(self.variant);
        let me = self.turn as usize;
        let mine = self.board[me];
        let paid = self.paid[me];
        let n = self.board[1 - me].count_ones();
        let hot = t.hot(mine, self.empty(), paid);
        let mut total = 0u32;
        self.for_each_origin(|from, targets| {
            total += targets.count_ones();
            let base = if from == NONE {
                mine
            } else {
                mine & !(1 << from)
            };
            for to in bits(targets & hot) {
                let k = t.completed(to, base | 1 << to, paid).count_ones();
                if k > 0 && n > k {
                    total += CHOOSE[n as usize][k as usize] - 1;
                }
            }
        });
        total as usize
    }

    /// Why `mv` is not legal here (the game being still on), or `Ok`.
    pub(crate) fn explain(&self, mv: Move) -> Result<(), String> {
        let t = tables(self.variant);
        let me = self.turn as usize;
        let mine = self.board[me];
        let theirs = self.board[1 - me];
        let occupied = mine | theirs;
        let empty = self.empty();
        let to = mv.to as usize;
        let to_name = crate::NAMES[to];
        if mv.from == NONE {
            if self.hand[me] == 0 {
                return Err("no tokens left in hand: move a token instead".into());
            }
        } else {
            let from = mv.from as usize;
            let from_name = crate::NAMES[from];
            if mine & (1 << from) == 0 {
                return Err(format!("{from_name} holds none of your tokens"));
            }
            if self.hand[me] > 0 && !t.step_in_hand {
                return Err("tokens in hand must be placed first".into());
            }
        }
        if occupied & (1 << to) != 0 {
            return Err(format!("{to_name} is occupied"));
        }
        if mv.from != NONE {
            let from = mv.from as usize;
            let from_name = crate::NAMES[from];
            let flying = self.hand[me] == 0 && mine.count_ones() == 3;
            let reach = if flying {
                empty
            } else if self.hand[me] > 0 {
                t.step[from] & empty
            } else {
                t.targets(from, empty, occupied)
            };
            if reach & (1 << to) == 0 {
                return Err(if self.hand[me] > 0 {
                    format!(
                        "{to_name} is not next to {from_name} (with tokens in hand a token only steps)"
                    )
                } else {
                    match t.reach {
                        Reach::Step => format!("{to_name} is not next to {from_name}"),
                        Reach::Slide => {
                            format!("no free slide along a line from {from_name} to {to_name}")
                        }
                        Reach::Jump => {
                            format!("{to_name} is neither a step nor a jump from {from_name}")
                        }
                    }
                });
            }
        }
        if let Some(p) = bits(mv.remove & !theirs).next() {
            return Err(format!("{} holds no opponent token", crate::NAMES[p]));
        }
        let (lines, due) = self.removals_due(mv.from, mv.to);
        let removed = mv.remove.count_ones();
        if removed != due {
            return Err(if lines == 0 {
                let mut after = mine | 1 << to;
                if mv.from != NONE {
                    after &= !(1 << mv.from);
                }
                if t.completed(to, after, 0) != 0 {
                    "that line has already paid once: nothing is removed".into()
                } else {
                    "the move completes no line: nothing is removed".into()
                }
            } else if due == 1 {
                "one opponent token must be removed".into()
            } else {
                format!("{due} opponent tokens must be removed")
            });
        }
        Ok(())
    }
}

/// Pushes `mv` once per way of removing `k` of the opponent's `n` tokens `theirs` (all of
/// them when there are no more than `k`).
#[inline(always)]
fn push_with_removals(out: &mut Vec<Move>, mv: Move, k: u32, theirs: u32, n: u32) {
    if k == 0 {
        out.push(mv);
    } else if n <= k {
        out.push(Move {
            remove: theirs,
            ..mv
        });
    } else {
        let mut a = theirs;
        while a != 0 {
            let abit = a & a.wrapping_neg();
            a &= a - 1;
            if k == 1 {
                out.push(Move { remove: abit, ..mv });
                continue;
            }
            let mut b = a;
            while b != 0 {
                let bbit = b & b.wrapping_neg();
                b &= b - 1;
                if k == 2 {
                    out.push(Move {
                        remove: abit | bbit,
                        ..mv
                    });
                    continue;
                }
                let mut c = b;
                while c != 0 {
                    let cbit = c & c.wrapping_neg();
                    c &= c - 1;
                    out.push(Move {
                        remove: abit | bbit | cbit,
                        ..mv
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CHOOSE;

    #[test]
    fn binomials() {
        assert_eq!(CHOOSE[9][1], 9);
        assert_eq!(CHOOSE[9][2], 36);
        assert_eq!(CHOOSE[9][3], 84);
        assert_eq!(CHOOSE[4][3], 4);
        assert_eq!(CHOOSE[3][3], 1);
    }
}
