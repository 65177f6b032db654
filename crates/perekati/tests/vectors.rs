//! The shared vectors (`tests/data/vectors/perekati.perft`) through the engine: every
//! block and every depth. This is where they run; the workspace's `tests/vectors.rs` checks
//! only what the referee adds on top.

use perekati::Perekati;

#[test]
fn every_vector_matches() {
    let compared = game::testing::vectors::check_engine::<Perekati>(include_str!(
        "../../../tests/data/vectors/perekati.perft"
    ));
    assert_eq!(compared, 28, "every step of the file was compared");
}

#[test]
#[ignore = "timing and deeper counts for the report"]
fn deeper_perft_of_the_malysh_start() {
    use game::Game;
    let game = Perekati::new(perekati::Variant::Malysh, 0);
    for depth in 6..=8 {
        let start = std::time::Instant::now();
        let n = game::perft(&game, depth).expect("perft");
        let t = start.elapsed();
        println!(
            "perft {depth} = {n} in {t:.2?} ({:.1} M leaves/s)",
            n as f64 / t.as_secs_f64() / 1e6
        );
    }
}
