//! The shared vectors (`tests/data/vectors/tumbleweed.perft`) through the engine: every
//! block and every depth. This is where they run; the workspace's `tests/vectors.rs` checks
//! only what the referee adds on top.

use tumbleweed::Tumbleweed;

#[test]
fn every_vector_matches() {
    let compared = game::testing::vectors::check_engine::<Tumbleweed>(include_str!(
        "../../../tests/data/vectors/tumbleweed.perft"
    ));
    assert_eq!(compared, 20, "every step of the file was compared");
}
