//! The engine property shared by the five engine fuzz targets, written once against the
//! [`Game`] trait; the checks of each position reached are `game::testing`'s, the same the
//! engines' property tests run.
//!
//! An input is read as:
//!
//! ```text
//! byte 0      variant (low nibble, modulo the number of variants); bit 7 set: start from the
//!             position on the first text line instead of the variant's start
//! byte 1      seed of the dice (white-rabbit; ignored by the other games)
//! text        UTF-8 up to the first NUL byte, split on '\n': [position,] candidate moves
//! after NUL   choices, one per step: 0xFF tries the next candidate move text; 0xFE and
//!             four bytes edit the current position's text (replace, insert or delete one
//!             character) and continue from the edited position if it parses; any other
//!             byte plays a listed legal move by index (more bytes follow when the list is
//!             longer than 256)
//! ```
//!
//! Candidates left over when the choices run out are tried at the final position. The
//! choices let the fuzzer reach deep positions without knowing the notation; the candidate
//! texts attack the move parser where moves matter; the edits reach positions that parse but
//! that no game reaches (a position one character away from a real one is far likelier to
//! parse than a random text), and the engine must then play on from them just as soundly.
//!
//! Properties checked (a panic is a finding):
//! - a position that parses re-formats to exactly the text parsed (every notation here has
//!   one spelling per position: fixed-width fields, no leading zeros, a fixed dice order);
//! - every position reached by play re-parses to itself with the same hash;
//! - legal moves, `count_legal`, `to_move` and `outcome` agree (moves exist iff not over);
//! - listed legal moves are distinct, format, parse back to themselves, pass `check_move`,
//!   and `make` then `unmake` restores the position, its hash and its outcome (a bounded
//!   sample per ply);
//! - a candidate text that `play_text` accepts is the canonical spelling of a listed move; one
//!   it refuses is not, and the refusal changes nothing; a text that merely parses to a move
//!   that `check_move` accepts names a listed move (whatever its spelling).

use game::{Game, Variant, testing};

/// Listed moves checked in full (parse, check, make/unmake) per ply, evenly spread from an
/// offset that moves with the ply. Checking every move at every ply would cost tens of
/// milliseconds an execution (tumbleweed's setup alone lists up to 108,570); across the
/// millions of positions a run visits, a sample still reaches every kind of move.
const SAMPLE: usize = 8;

/// Lists longer than this are not checked for duplicates (the hash set costs more than the
/// rest of the ply).
const DISTINCT_CHECK: usize = 2048;

/// The most plies one input plays: deep enough for a whole game of any engine, bounded so
/// that a long input cannot make one execution slow.
const MAX_PLIES: usize = 600;

pub fn check_engine<G: Game>(data: &[u8]) {
    let [head, seed, rest @ ..] = data else {
        return;
    };
    let variants = G::Variant::ALL;
    let variant = variants[(head & 0x0f) as usize % variants.len()];
    let from_text = head & 0x80 != 0;
    let seed = u64::from(*seed);

    let (text, choices) = match rest.iter().position(|&b| b == 0) {
        Some(nul) => (&rest[..nul], &rest[nul + 1..]),
        None => (rest, &[][..]),
    };
    // Moves and positions are text on every wire; bytes that are not UTF-8 never reach a
    // parser.
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let mut lines = text.split('\n');

    let mut game = if from_text {
        let position = lines.next().unwrap_or_default();
        match G::from_position(variant, position, seed) {
            Ok(game) => {
                assert_eq!(
                    game.position(),
                    position,
                    "a parsed position does not re-format to itself"
                );
                game
            }
            Err(_) => return,
        }
    } else {
        G::new(variant, seed)
    };

    let mut candidates = lines;
    let mut choices = choices.iter().copied();
    let mut legal = Vec::new();
    for ply in 0..MAX_PLIES {
        let offset = ply.wrapping_mul(31);
        check_state(&game, &mut legal, offset);
        let Some(choice) = choices.next() else {
            break;
        };
        if choice == 0xff {
            if let Some(candidate) = candidates.next() {
                try_candidate(&mut game, &legal, candidate);
            }
            continue;
        }
        if choice == 0xfe {
            let edit = [(); 4].map(|_| choices.next().unwrap_or(0));
            let text = edited(&game.position(), edit);
            if let Ok(parsed) = G::from_position(variant, &text, seed) {
                assert_eq!(
                    parsed.position(),
                    text,
                    "a parsed position does not re-format to itself"
                );
                game = parsed;
            }
            continue;
        }
        if legal.is_empty() {
            break;
        }
        // As many bytes as the list needs (little-endian), so every move can be chosen.
        let mut index = usize::from(choice);
        let mut span = 0x100;
        while span < legal.len() {
            index += usize::from(choices.next().unwrap_or(0)) * span;
            span <<= 8;
        }
        let mv = legal[index % legal.len()];
        let text = game.format_move(mv);
        let before = game.position();
        let played = game
            .play_text(&text)
            .unwrap_or_else(|e| panic!("listed move {text} refused at {before}: {e}"));
        assert_eq!(played, mv, "{text} parsed to another move at {before}");
    }
    for candidate in candidates {
        check_state(&game, &mut legal, 0);
        try_candidate(&mut game, &legal, candidate);
    }
}

/// The properties of one state, `game::testing`'s checks on a sample of the listed moves;
/// leaves its legal moves in `legal`.
fn check_state<G: Game>(game: &G, legal: &mut Vec<G::Move>, offset: usize) {
    testing::check_position_round_trip(game);
    game.legal_moves(legal);
    testing::check_turn(game, legal);
    if legal.len() <= DISTINCT_CHECK {
        testing::check_distinct(game, legal);
    }

    let n = legal.len();
    let (count, step) = if n <= SAMPLE {
        (n, 1)
    } else {
        (SAMPLE, n / SAMPLE)
    };
    let mut scratch = game.clone();
    for k in 0..count {
        let mv = legal[(offset + k * step) % n];
        testing::check_listed_move(game, mv);
        // Not the legal list after each unmake: a list per sampled move would cost more than
        // the rest of the ply.
        testing::check_unmake(game, &mut scratch, mv, None);
    }
}

/// Tries a move text from the input; plays it when the engine accepts it.
fn try_candidate<G: Game>(game: &mut G, legal: &[G::Move], text: &str) {
    let position = game.position();
    let hash = game.hash_key();
    // The listed move this text is the canonical spelling of, if any.
    let listed = game
        .parse_move(text)
        .ok()
        .filter(|mv| legal.contains(mv) && game.format_move(*mv) == text);

    if let Ok(mv) = game.parse_move(text)
        && game.check_move(mv).is_ok()
    {
        assert!(
            legal.contains(&mv),
            "{text:?} passes check_move but is not listed at {position}"
        );
    }

    let mut copy = game.clone();
    match copy.play_text(text) {
        Ok(mv) => {
            assert_eq!(
                listed,
                Some(mv),
                "play accepted {text:?}, which is not a listed move's spelling, at {position}"
            );
            *game = copy;
        }
        Err(e) => {
            assert!(
                listed.is_none(),
                "listed move {text:?} refused at {position}: {e}"
            );
            assert_eq!(
                copy.position(),
                position,
                "refused {text:?} changed the state"
            );
            assert_eq!(copy.hash_key(), hash, "refused {text:?} changed the hash");
        }
    }
}

/// `position` with one character replaced, inserted or deleted, as `edit` says: the kind, the
/// index (two bytes) and the character (a printable ASCII byte as itself, otherwise one of the
/// position's own characters).
fn edited(position: &str, [kind, low, high, byte]: [u8; 4]) -> String {
    let mut chars: Vec<char> = position.chars().collect();
    let at = usize::from(u16::from_le_bytes([low, high])) % (chars.len() + 1);
    let ch = if (0x20..0x7f).contains(&byte) {
        char::from(byte)
    } else {
        chars[usize::from(byte) % chars.len()]
    };
    match kind % 3 {
        0 if at < chars.len() => chars[at] = ch,
        1 => chars.insert(at, ch),
        _ if at < chars.len() => {
            chars.remove(at);
        }
        _ => chars.push(ch),
    }
    chars.into_iter().collect()
}
