//! Pairing 1,000 waiting players: the pure pairing function on a pool with recent opponents,
//! and the arena director's whole step (standings, pool, matching, seats) at an arena's
//! start, when every entrant is waiting. Each is measured twice: in wall-clock time
//! (`pairing-wall`) and in the CPU time of the benchmarking thread (`pairing-cpu`), the
//! target's measure, which other jobs on the machine do not inflate.

#[path = "support/cpu_time.rs"]
mod cpu_time;

use std::hint::black_box;
use std::time::Duration;

use cpu_time::CpuTime;
use criterion::measurement::Measurement;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tournament::arena::pairing::{self, PairingSettings, Pool, Waiting};
use tournament::arena::{Arena, ArenaSettings};
use tournament::{Event, PlayerId, PlyMinimums};

const PLAYERS: usize = 1_000;

/// A deterministic stand-in for chance (xorshift).
fn dice(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn name(i: usize) -> PlayerId {
    PlayerId::new(format!("player-{i:04}"))
}

/// A pool in the middle of an arena: ranks 1…1000, ratings 1000–2400, arrivals over the
/// last 30 seconds, and five recent opponents each from nearby in the standings (the first
/// 100 recall a few from further down: they are paired among themselves all the same).
fn pool() -> Vec<Waiting> {
    let mut seed = 0x5eed;
    (0..PLAYERS)
        .map(|i| Waiting {
            player: name(i),
            rating: 1000 + (dice(&mut seed) % 1400) as i32,
            rank: i as u32 + 1,
            since: 1_000_000 - dice(&mut seed) % 30_000,
            recent: (0..5)
                .map(|_| name((i + 1 + (dice(&mut seed) % 20) as usize) % PLAYERS))
                .collect(),
        })
        .collect()
}

fn wall(c: &mut Criterion) {
    bench_pairing(c, "pairing-wall");
}

fn cpu(c: &mut Criterion<CpuTime>) {
    bench_pairing(c, "pairing-cpu");
}

fn bench_pairing<M: Measurement>(c: &mut Criterion<M>, group_name: &str) {
    let mut group = c.benchmark_group(group_name);
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    let waiting = pool();
    let settings = PairingSettings::for_clock(180_000, 2_000);
    group.bench_function("pool/1000", |b| {
        b.iter(|| {
            let pool = Pool {
                waiting: black_box(&waiting),
                playing: 200,
                now: 1_000_000,
            };
            pairing::pair(pool, &settings, &[])
        })
    });

    // One group's worth: every arena we expect.
    let hundred: Vec<Waiting> = waiting[..100].to_vec();
    group.bench_function("pool/100", |b| {
        b.iter(|| {
            let pool = Pool {
                waiting: black_box(&hundred),
                playing: 20,
                now: 1_000_000,
            };
            pairing::pair(pool, &settings, &[])
        })
    });

    let mut arena = Arena::new(ArenaSettings {
        starts_at: 1_000_000,
        ends_at: 4_600_000,
        rated: true,
        berserk: true,
        minimums: PlyMinimums {
            berserk_bonus: 14,
            draw: 20,
        },
        pairing: settings.clone(),
        house_bots: Vec::new(),
    })
    .expect("good settings");
    let mut seed = 0xa11ce;
    for i in 0..PLAYERS {
        let rating = 1000 + (dice(&mut seed) % 1400) as i32;
        let join = Event::Join {
            player: name(i),
            rating,
        };
        arena.apply(0, &join).expect("joined");
    }
    group.bench_function("arena-start/1000", |b| {
        b.iter_batched(
            || arena.clone(),
            |mut arena| arena.apply(1_000_000, &Event::Tick).expect("started"),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(wall_clock, wall);
criterion_group! {
    name = cpu_clock;
    config = Criterion::default().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(wall_clock, cpu_clock);
