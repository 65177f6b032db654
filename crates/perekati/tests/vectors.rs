//! The shared perft vectors (`tests/data/vectors/perekati.perft`), every block and depth.

use game::{Game, Variant as _};
use perekati::{Perekati, Variant};

const VECTORS: &str = include_str!("../../../tests/data/vectors/perekati.perft");

struct Block {
    variant: Variant,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn blocks() -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in VECTORS.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "game" => {
                assert_eq!(rest, "perekati");
                out.push(Block {
                    variant: Variant::default_variant(),
                    position: String::new(),
                    counts: Vec::new(),
                });
            }
            "variant" => {
                out.last_mut().expect("block").variant =
                    Variant::from_id(rest).expect("known variant");
            }
            "position" => out.last_mut().expect("block").position = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth and count");
                let entry = (d.parse().expect("depth"), n.parse().expect("count"));
                out.last_mut().expect("block").counts.push(entry);
            }
            other => panic!("unknown line {other:?}"),
        }
    }
    out
}

#[test]
fn every_perft_vector_matches() {
    let blocks = blocks();
    assert_eq!(blocks.len(), 6, "the file has six blocks");
    let mut checked = 0;
    for block in &blocks {
        let game = if block.position == "start" {
            Perekati::new(block.variant, 0)
        } else {
            Perekati::from_position(block.variant, &block.position, 0).expect("vector position")
        };
        for &(depth, expected) in &block.counts {
            let got = game::perft(&game, depth).expect("perft");
            assert_eq!(
                got,
                expected,
                "{} {} perft {depth}",
                block.variant.id(),
                block.position
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 28);
}

#[test]
#[ignore = "timing and deeper counts for the report"]
fn deeper_perft_of_the_malysh_start() {
    let game = Perekati::new(Variant::Malysh, 0);
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
