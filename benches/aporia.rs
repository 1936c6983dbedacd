//! Aporia speed: move generation, counting and playing over the perft
//! suite's positions, and perft from the start position.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamut_core::game::{Game, Notation};
use gamut_core::perft::perft;
use gamut_core::suite::parse_suite;
use gamut_games::aporia::Aporia;
use std::time::Duration;

/// The non-terminal positions of `positions/aporia.perft`.
fn suite_positions() -> Vec<Aporia> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/aporia.perft");
    let text = std::fs::read_to_string(path).expect("the Aporia perft suite");
    parse_suite(&text)
        .expect("the suite parses")
        .iter()
        .map(|e| Aporia::parse(&e.position).expect("suite positions parse"))
        .filter(|p| p.move_count() > 0)
        .collect()
}

fn movegen(c: &mut Criterion) {
    let positions = suite_positions();
    let mut g = c.benchmark_group("aporia/movegen");
    g.throughput(Throughput::Elements(positions.len() as u64));
    let mut buf = Vec::with_capacity(64);
    g.bench_function("moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                black_box(p).moves(&mut buf);
                n += buf.len();
            }
            n
        })
    });
    g.bench_function("move_count", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).move_count())
                .sum::<usize>()
        })
    });
    let children: Vec<(Aporia, _)> = positions
        .iter()
        .map(|p| {
            p.moves(&mut buf);
            (*p, buf[buf.len() / 2])
        })
        .collect();
    g.bench_function("play", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|(p, m)| black_box(p).play(*m).hash())
                .fold(0, |a, h| a ^ h)
        })
    });
    g.finish();
}

fn perft_start(c: &mut Criterion) {
    let start = Aporia::start();
    let mut g = c.benchmark_group("aporia/perft");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    for (depth, leaves) in [(6, 951_024u64), (8, 76_799_544)] {
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("start depth {depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    g.finish();
}

criterion_group!(benches, movegen, perft_start);
criterion_main!(benches);
