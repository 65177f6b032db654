//! The shared vectors (`tests/data/vectors/mill.perft`) through the engine: every
//! block and every depth. This is where they run; the workspace's `tests/vectors.rs` checks
//! only what the referee adds on top.

use mill::Mill;

#[test]
fn every_vector_matches() {
    let compared = game::testing::vectors::check_engine::<Mill>(include_str!(
        "../../../tests/data/vectors/mill.perft"
    ));
    assert_eq!(compared, 28, "every step of the file was compared");
}
