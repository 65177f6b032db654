//! The shared vectors (`tests/data/vectors/cephalopod.perft`) through the engine: every
//! block and every depth. This is where they run; the workspace's `tests/vectors.rs` checks
//! only what the referee adds on top.

use cephalopod::Cephalopod;

#[test]
fn every_vector_matches() {
    let compared = game::testing::vectors::check_engine::<Cephalopod>(include_str!(
        "../../../tests/data/vectors/cephalopod.perft"
    ));
    assert_eq!(compared, 18, "every step of the file was compared");
}
