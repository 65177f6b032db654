use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::{Game, GameRng, Variant as _, perft};
use tumbleweed::{Tumbleweed, Variant};

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for (variant, depth, leaves) in [
        (Variant::Hex8, 3, 1_697_472u64),
        (Variant::Hex6, 4, 6_838_356),
    ] {
        let start = Tumbleweed::new(variant, 0);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{}/{depth}", variant.id()), |b| {
            b.iter(|| assert_eq!(perft(black_box(&start), depth).unwrap(), leaves))
        });
    }
    group.finish();
}

/// One uniformly random game from the start to its end, the setup and the choice included.
fn playout(start: &Tumbleweed, rng: &mut GameRng, moves: &mut Vec<tumbleweed::Move>) -> usize {
    let mut game = start.clone();
    let mut plies = 0;
    loop {
        game.legal_moves(moves);
        if moves.is_empty() {
            return plies;
        }
        let mv = moves[rng.below(moves.len() as u32) as usize];
        game.make(mv);
        plies += 1;
    }
}

fn playout_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let variant = Variant::Hex8;
    let start = Tumbleweed::new(variant, 0);
    let mut rng = GameRng::seeded(1);
    let mut moves = Vec::new();
    group.throughput(Throughput::Elements(1));
    group.bench_function(variant.id(), |b| {
        b.iter(|| playout(&start, &mut rng, &mut moves))
    });
    group.finish();
}

criterion_group!(benches, perft_bench, playout_bench);
criterion_main!(benches);
