//! Benchmarks: one random game to its end, and move generation on a sample position.
//! (Perft is not defined for a dice game, so there is no perft bench.)

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use game::{Game, GameRng};
use white_rabbit::{Variant, WhiteRabbit};

fn playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let mut seed = 0u64;
    let mut moves = Vec::new();
    group.bench_function("classic", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = WhiteRabbit::new(Variant::Classic, seed);
            let mut rng = GameRng::seeded(seed);
            let mut plies = 0u32;
            loop {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.make(moves[rng.below(moves.len() as u32) as usize]);
                plies += 1;
            }
            black_box((game.outcome(), plies))
        })
    });
    group.finish();
}

fn legal(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    // A position with many swaps available, just after one (so the ban and reroll apply).
    let game = WhiteRabbit::from_position(
        Variant::Classic,
        "k1=6,k2=2,r5=3,r1=3,r2=5,r3=1 k3=4,k4=1,k5=5,r4=1,w=2 6 k3~r5 k3",
        0,
    )
    .expect("sample position");
    let mut moves = Vec::with_capacity(32);
    group.bench_function("classic", |b| {
        b.iter(|| {
            black_box(&game).legal_moves(&mut moves);
            black_box(moves.len())
        })
    });
    group.finish();
}

criterion_group!(benches, playout, legal);
criterion_main!(benches);
