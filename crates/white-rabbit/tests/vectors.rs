//! The shared vectors (`tests/data/vectors/white-rabbit.legal`) through the engine: every
//! legal list, play and position. This is where they run; the workspace's `tests/vectors.rs`
//! checks only what the referee adds on top (the `status` lines are the referee's replies).

use white_rabbit::WhiteRabbit;

#[test]
fn every_vector_matches() {
    let compared = game::testing::vectors::check_engine::<WhiteRabbit>(include_str!(
        "../../../tests/data/vectors/white-rabbit.legal"
    ));
    assert_eq!(compared, 9, "every step of the file was compared");
}
