//! Perft and random playouts on the default variant's start.

use criterion::{Criterion, criterion_group, criterion_main};
use game::{Game, GameRng, Variant as _};
use perekati::{Perekati, Variant};
use std::hint::black_box;
use std::time::Duration;

/// Leaves of perft 8 on the malysh start; the report divides them by the time.
const PERFT_DEPTH: u32 = 8;

/// One uniformly random game from the start to its end; returns its length in plies.
fn playout(variant: Variant, seed: u64) -> usize {
    let mut game = Perekati::new(variant, 0);
    let mut rng = GameRng::seeded(seed);
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return plies;
        }
        let mv = moves[rng.below(moves.len() as u32) as usize];
        game.make(mv);
        plies += 1;
    }
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    let variant = Variant::default_variant();
    let game = Perekati::new(variant, 0);
    group.bench_function(format!("{}/{PERFT_DEPTH}", variant.id()), |b| {
        b.iter(|| game::perft(black_box(&game), PERFT_DEPTH).unwrap())
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    let variant = Variant::default_variant();
    let mut seed = 0;
    group.bench_function(variant.id(), |b| {
        b.iter(|| {
            seed += 1;
            playout(variant, black_box(seed))
        })
    });
    group.finish();
}

criterion_group!(benches, perft, playouts);
criterion_main!(benches);
