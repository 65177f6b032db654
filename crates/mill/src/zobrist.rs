//! Zobrist keys, fixed at compile time from a splitmix64 stream so that hashes are the same
//! in every build and on every machine.

const PIECE: usize = 0;
const SIDE: usize = PIECE + 2 * 24;
const HAND: usize = SIDE + 1;
const PAID: usize = HAND + 2 * 10;
const QUIET: usize = PAID + 2 * 20;
const LEN: usize = QUIET + 101;

static KEYS: [u64; LEN] = {
    let mut keys = [0u64; LEN];
    let mut state = 0x6d69_6c6c_5472_6f69u64;
    let mut i = 0;
    while i < LEN {
        let (next, key) = game::splitmix64(state);
        keys[i] = key;
        state = next;
        i += 1;
    }
    keys
};

#[inline(always)]
pub(crate) fn piece(side: usize, point: usize) -> u64 {
    KEYS[PIECE + side * 24 + point]
}

#[inline(always)]
pub(crate) fn side_b() -> u64 {
    KEYS[SIDE]
}

#[inline(always)]
pub(crate) fn hand(side: usize, count: usize) -> u64 {
    KEYS[HAND + side * 10 + count]
}

#[inline(always)]
pub(crate) fn paid(side: usize, line: usize) -> u64 {
    KEYS[PAID + side * 20 + line]
}

#[inline(always)]
pub(crate) fn quiet(count: usize) -> u64 {
    KEYS[QUIET + count]
}

/// The keys of every bit of `mask` for `side`'s tokens, xored together.
#[inline(always)]
pub(crate) fn pieces(side: usize, mut mask: u32) -> u64 {
    let mut key = 0;
    while mask != 0 {
        key ^= piece(side, mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
    key
}

/// The keys of every paid line in `mask` for `side`, xored together.
#[inline(always)]
pub(crate) fn paid_lines(side: usize, mut mask: u32) -> u64 {
    let mut key = 0;
    while mask != 0 {
        key ^= paid(side, mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
    key
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct() {
        let mut keys = super::KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), super::LEN);
    }
}
