//! The referee line protocol (`docs/spec/referee.md`), fed the input's lines in order.
//!
//! Properties: no line panics; every command but `quit` gets exactly one reply, which is one
//! line (no line break inside) and starts with one of the protocol's reply words; `quit` (with
//! no arguments) is the only line with no reply, and the session stops there as the process
//! does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stolik::referee::Referee;

/// The deepest `perft` passed on. Its cost grows as the number of moves to the power of the
/// depth (a tumbleweed setup has up to 108,570), so deeper ones would only make the fuzzer
/// time out.
const MAX_PERFT_DEPTH: u32 = 2;

/// The longest `go movetime` passed on: a search blocks for its whole movetime.
const MAX_MOVETIME_MS: u64 = 1;

const REPLY_WORDS: &[&str] = &["ok", "legal", "perft", "ongoing", "over", "move", "error"];

fuzz_target!(|data: &[u8]| {
    // The referee reads lines of text; `str::lines` splits as `BufRead::lines` does (on '\n',
    // dropping a '\r' before it).
    let text = String::from_utf8_lossy(data);
    let mut referee = Referee::default();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() == Some("perft")
            && let Some(Ok(depth)) = words.next().map(str::parse::<u32>)
            && depth > MAX_PERFT_DEPTH
        {
            continue;
        }
        let mut words = line.split_whitespace();
        if words.next() == Some("go")
            && words.next() == Some("movetime")
            && let Some(Ok(ms)) = words.next().map(str::parse::<u64>)
            && ms > MAX_MOVETIME_MS
        {
            continue;
        }
        let is_quit = line.split_whitespace().eq(["quit"]);
        match referee.answer(line) {
            Some(reply) => {
                assert!(!is_quit, "quit replied {reply:?}");
                assert!(
                    !reply.contains(['\n', '\r']),
                    "the reply to {line:?} is not one line: {reply:?}"
                );
                let word = reply.split(' ').next().unwrap_or_default();
                assert!(
                    REPLY_WORDS.contains(&word),
                    "the reply to {line:?} starts with {word:?}"
                );
            }
            None => {
                assert!(is_quit, "{line:?} got no reply");
                return;
            }
        }
    }
});
