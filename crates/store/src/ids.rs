//! Random identifiers and secrets.

use rand::RngExt;

const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

fn random_string(alphabet: &[u8], len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| char::from(alphabet[rng.random_range(0..alphabet.len())]))
        .collect()
}

/// A fresh id for a user or a game: 12 lower-case letters and digits (about 62 bits), short
/// enough for a URL someone reads aloud. A collision would surface as `Conflict` on insert.
pub fn new_id() -> String {
    random_string(ID_ALPHABET, 12)
}

/// A token that grants something when presented (a private-table invite): 22 characters
/// from 62 symbols, about 131 bits, too many to guess.
pub fn new_token() -> String {
    random_string(
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        22,
    )
}

/// A signing secret (e.g. for JWTs): 64 hex digits, 256 bits from the thread's CSPRNG.
pub fn new_secret() -> String {
    random_string(b"0123456789abcdef", 64)
}
