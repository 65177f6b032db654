//! The shared test vectors (`tests/data/vectors/`) at the referee's level.
//!
//! Each engine's own `tests/vectors.rs` runs its file's perft counts, legal lists, plays and
//! positions through the engine; they are not run again here. What this test adds is what
//! only the referee does, in-process and exactly as an outside tool drives it: setting up
//! every block's position by game and variant id (`new`/`position`, through the catalogue),
//! its `perft` and `legal` replies agreeing there, and the `status` lines, which are the
//! referee's own replies.

use game::testing::vectors::{self, Block, Step};
use stolik::referee::Referee;

fn ask(referee: &mut Referee, block: &Block, command: &str) -> String {
    let reply = referee.answer(command).expect("a reply");
    assert!(
        !reply.starts_with("error "),
        "{}: `{command}` answered `{reply}`",
        block.title()
    );
    reply
}

/// Runs every block of `text` through a fresh referee; returns how many `status` lines matched.
fn check_file(text: &str) -> usize {
    let blocks = vectors::parse(text).expect("a readable vector file");
    assert!(!blocks.is_empty());
    let mut statuses = 0;
    for block in &blocks {
        let mut referee = Referee::default();
        let setup = if block.is_start() {
            format!("new {} {}", block.game, block.variant)
        } else {
            format!(
                "position {} {} {}",
                block.game, block.variant, block.position
            )
        };
        let reply = ask(&mut referee, block, &setup);
        if !block.is_start() {
            assert_eq!(reply, format!("ok {}", block.position), "{}", block.title());
        }
        let has_perft = block.steps.iter().any(|s| matches!(s, Step::Perft { .. }));
        if has_perft {
            let legal = ask(&mut referee, block, "legal");
            let moves = legal.split(' ').skip(1).count();
            let perft = ask(&mut referee, block, "perft 1");
            assert_eq!(perft, format!("perft {moves}"), "{}", block.title());
        }
        for step in &block.steps {
            match step {
                Step::Play(moves) => {
                    ask(&mut referee, block, &format!("play {}", moves.join(" ")));
                }
                Step::Status(want) => {
                    assert_eq!(
                        &ask(&mut referee, block, "status"),
                        want,
                        "{}",
                        block.title()
                    );
                    statuses += 1;
                }
                Step::Perft { .. } | Step::Legal(_) | Step::PositionAfter(_) => {}
            }
        }
    }
    statuses
}

#[test]
fn cephalopod_vectors_set_up_through_the_referee() {
    check_file(include_str!("data/vectors/cephalopod.perft"));
}

#[test]
fn mill_vectors_set_up_through_the_referee() {
    check_file(include_str!("data/vectors/mill.perft"));
}

#[test]
fn perekati_vectors_set_up_through_the_referee() {
    check_file(include_str!("data/vectors/perekati.perft"));
}

#[test]
fn tumbleweed_vectors_set_up_through_the_referee() {
    check_file(include_str!("data/vectors/tumbleweed.perft"));
}

#[test]
fn white_rabbit_statuses_are_the_referees_replies() {
    assert_eq!(
        check_file(include_str!("data/vectors/white-rabbit.legal")),
        2
    );
}
