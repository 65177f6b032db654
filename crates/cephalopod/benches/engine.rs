//! Engine benchmarks: perft from the 5x5 start and uniformly random playouts to the end.

use std::time::Duration;

use cephalopod::{Cephalopod, Variant};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::{Game, GameRng, perft};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let start = Cephalopod::new(Variant::FiveByFive, 0);
    let depth = 5;
    let leaves = perft(&start, depth).expect("no dice");
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("5x5/{depth}"), |b| {
        b.iter(|| perft(std::hint::black_box(&start), depth).expect("no dice"))
    });
    group.finish();
}

/// One uniformly random game from the start to its end; returns the plies played.
fn playout(start: &Cephalopod, rng: &mut GameRng, moves: &mut Vec<cephalopod::Move>) -> usize {
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

fn bench_playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(1));
    let start = Cephalopod::new(Variant::FiveByFive, 0);
    let mut rng = GameRng::seeded(1);
    let mut moves = Vec::with_capacity(128);
    group.bench_function("5x5", |b| {
        b.iter(|| playout(std::hint::black_box(&start), &mut rng, &mut moves))
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_playout);
criterion_main!(benches);
