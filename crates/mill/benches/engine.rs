use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::{Game, GameRng, Variant as _, perft};
use mill::{Mill, Variant};
use std::hint::black_box;
use std::time::Duration;

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let v = Variant::default_variant();
    let start = Mill::new(v, 0);
    let depth = 6;
    let leaves = perft(&start, depth).unwrap();
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("{}/{depth}", v.id()), |b| {
        b.iter(|| perft(black_box(&start), depth).unwrap())
    });
    // A middle-game position (the first vector block): movement, flying and removals.
    let mid =
        Mill::from_position(v, "aaa/aab/ab./b.ab.b/a../.bb/... b 0 0 0401 0040 0", 0).unwrap();
    let leaves = perft(&mid, 5).unwrap();
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("{}/midgame/5", v.id()), |b| {
        b.iter(|| perft(black_box(&mid), 5).unwrap())
    });
    group.finish();
}

fn bench_playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let v = Variant::default_variant();
    let start = Mill::new(v, 0);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function(v.id(), |b| {
        let mut moves = Vec::new();
        b.iter(|| {
            seed += 1;
            let mut rng = GameRng::seeded(seed);
            let mut g = start.clone();
            loop {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                g.make(moves[rng.below(moves.len() as u32) as usize]);
            }
            black_box(g.outcome())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_playout);
criterion_main!(benches);
