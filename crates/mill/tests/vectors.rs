//! Every block and depth of the shared perft vectors.

use game::{Game, Variant as _, perft};
use mill::{Mill, Variant};

const VECTORS: &str = include_str!("../../../tests/data/vectors/mill.perft");

struct Block {
    variant: String,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn blocks() -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in VECTORS.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "game" => {
                assert_eq!(rest, "mill");
                out.push(Block {
                    variant: String::new(),
                    position: String::new(),
                    counts: Vec::new(),
                });
            }
            "variant" => out.last_mut().unwrap().variant = rest.to_string(),
            "position" => out.last_mut().unwrap().position = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                out.last_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

#[test]
fn every_perft_vector_matches() {
    let blocks = blocks();
    assert_eq!(blocks.len(), 6);
    for b in &blocks {
        let v = Variant::from_id(&b.variant).expect("known variant");
        let g = if b.position == "start" {
            Mill::new(v, 0)
        } else {
            Mill::from_position(v, &b.position, 0).expect("vector position parses")
        };
        for &(depth, expected) in &b.counts {
            let got = perft(&g, depth).unwrap();
            assert_eq!(got, expected, "{} {} perft {depth}", b.variant, b.position);
        }
    }
}
