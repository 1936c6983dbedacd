//! Empedocles' Stones speed: action generation and perft (leaves per
//! second are criterion's "elements" throughput).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamut_core::game::{Game, Notation};
use gamut_core::perft::perft;
use gamut_games::empedocles::Empedocles;

/// Action nodes of every element pairing, reached by random play.
const ACTION_NODES: [&str; 8] = [
    "8/8/2www3/8/1Fww4/2F5/4F3/8 2 a1:fire,water",
    "8/8/8/4e3/2FF4/2FF4/8/8 1 a1:fire,earth",
    "8/a3aF2/8/8/4F3/2F5/8/8 1 a1:fire,air",
    "8/8/4eW2/2e1eW2/2W5/2W5/8/8 2 a1:water,earth",
    "8/1fEf3E/1E6/8/5E2/5f2/8/8 2 a1:earth,fire",
    "8/8/w7/2EE2E1/4w3/3w4/8/8 1 a1:earth,water",
    "5f2/3f4/1A6/4f3/8/2A1A3/8/8 1 a1:air,fire",
    "8/8/1A6/3e4/3A1e2/4A3/8/8 1 a1:air,earth",
];

fn actions(c: &mut Criterion) {
    let positions: Vec<Empedocles> = ACTION_NODES
        .iter()
        .map(|t| Empedocles::parse(t).expect("bench position"))
        .collect();
    let total: usize = positions.iter().map(|p| p.move_count()).sum();
    let mut group = c.benchmark_group("empedocles/actions");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("moves", |b| {
        let mut buf = Vec::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                black_box(p).moves(&mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.bench_function("move_count", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).move_count())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let cases = [
        ("start d4", "8/8/8/8/8/8/8/8 1 s1:fire,earth", 4),
        ("mid d3", "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth", 3),
        ("mid d4", "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth", 4),
        (
            "water chain d3",
            "8/8/2www3/8/1Fww4/2F5/4F3/8 2 a1:fire,water",
            3,
        ),
        ("air earth d3", "8/8/4A2A/3e4/3e4/4eA2/8/8 1 r:air,earth", 3),
    ];
    let mut group = c.benchmark_group("empedocles/perft");
    group.sample_size(10);
    for (name, text, depth) in cases {
        let p = Empedocles::parse(text).expect("bench position");
        group.throughput(Throughput::Elements(perft(&p, depth)));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&p), depth)));
    }
    group.finish();
}

criterion_group!(benches, actions, perft_bench);
criterion_main!(benches);
