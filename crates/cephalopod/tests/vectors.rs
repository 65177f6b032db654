//! The shared perft vectors (`tests/data/vectors/cephalopod.perft`), every block and depth.

use cephalopod::{Cephalopod, Variant};
use game::{Game, Variant as _, perft};

const VECTORS: &str = include_str!("../../../tests/data/vectors/cephalopod.perft");

struct Block {
    variant: Variant,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn blocks() -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut variant = None;
    for line in VECTORS.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "game" => assert_eq!(value, "cephalopod"),
            "variant" => variant = Some(Variant::from_id(value).expect("known variant")),
            "position" => blocks.push(Block {
                variant: variant.expect("variant before position"),
                position: value.to_string(),
                counts: Vec::new(),
            }),
            "perft" => {
                let (d, n) = value.split_once(' ').expect("depth count");
                let block = blocks.last_mut().expect("position before perft");
                block
                    .counts
                    .push((d.parse().expect("depth"), n.parse().expect("count")));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    blocks
}

#[test]
fn every_perft_vector_matches() {
    let blocks = blocks();
    assert_eq!(blocks.len(), 4);
    for block in blocks {
        let game = if block.position == "start" {
            Cephalopod::new(block.variant, 0)
        } else {
            Cephalopod::from_position(block.variant, &block.position, 0).expect("vector position")
        };
        assert!(!block.counts.is_empty());
        for (depth, expected) in block.counts {
            assert_eq!(
                perft(&game, depth).expect("no dice"),
                expected,
                "perft {depth} of {} ({:?})",
                block.position,
                block.variant
            );
        }
    }
}
