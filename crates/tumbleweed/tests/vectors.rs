//! The shared perft vectors, every block and every depth.

use game::{Game, Variant as _, perft};
use tumbleweed::{Tumbleweed, Variant};

const VECTORS: &str = include_str!("../../../tests/data/vectors/tumbleweed.perft");

/// One block of the vector file: a position and its perft counts by depth.
struct Block {
    variant: Variant,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn blocks() -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut variant = None;
    let mut position = None;
    for line in VECTORS.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "game" => assert_eq!(rest, "tumbleweed"),
            "variant" => variant = Some(Variant::from_id(rest).expect("known variant")),
            "position" => {
                position = Some(rest.to_string());
                blocks.push(Block {
                    variant: variant.expect("variant before position"),
                    position: rest.to_string(),
                    counts: Vec::new(),
                });
            }
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth and count");
                let block = blocks.last_mut().expect("perft after position");
                block.counts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    assert!(position.is_some());
    blocks
}

fn start(block: &Block) -> Tumbleweed {
    if block.position == "start" {
        Tumbleweed::new(block.variant, 0)
    } else {
        Tumbleweed::from_position(block.variant, &block.position, 0).expect("vector position")
    }
}

/// Checks every count up to `max_leaves` (larger ones run in the ignored test).
fn check(min_leaves: u64, max_leaves: u64) {
    let blocks = blocks();
    assert_eq!(blocks.len(), 5);
    for block in &blocks {
        let game = start(block);
        for &(depth, expected) in &block.counts {
            if expected < min_leaves || expected > max_leaves {
                continue;
            }
            let t = std::time::Instant::now();
            let got = perft(&game, depth).unwrap();
            eprintln!(
                "{} {} perft {depth}: {got} in {:.2?}",
                block.variant.id(),
                block.position,
                t.elapsed()
            );
            assert_eq!(
                got,
                expected,
                "{} {} depth {depth}",
                block.variant.id(),
                block.position
            );
        }
    }
}

#[test]
fn every_perft_vector_matches() {
    check(0, u64::MAX);
}
