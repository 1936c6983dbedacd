//! Apart speed: move generation, the counting walk, and perft.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gamut_core::game::{Game, Notation};
use gamut_core::perft::perft;
use gamut_games::apart::Apart;

/// The start and two positions reached by play, one with long jump chains.
fn positions() -> Vec<(&'static str, Apart)> {
    vec![
        ("start", Apart::start()),
        (
            "after b2-b3 c7-c6",
            Apart::parse("1BBBBBB1/1B1BBBB1/2B5/8/8/1W6/2WWWWW1/1WWWWWW1 w -").unwrap(),
        ),
        (
            "chains",
            Apart::parse("1BB1BBB1/1B2B3/2B1B3/3W4/2W1W1B1/1WW1W3/1W1WW1W1/3W1WW1 w -").unwrap(),
        ),
    ]
}

fn movegen(c: &mut Criterion) {
    let mut buf = Vec::new();
    for (name, p) in positions() {
        c.bench_function(&format!("apart moves {name}"), |b| {
            b.iter(|| {
                black_box(&p).moves(&mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("apart move_count {name}"), |b| {
            b.iter(|| black_box(&p).move_count())
        });
    }
}

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("apart perft");
    g.sample_size(10);
    let start = Apart::start();
    g.bench_function("start depth 3", |b| b.iter(|| perft(black_box(&start), 3)));
    g.bench_function("start depth 4", |b| b.iter(|| perft(black_box(&start), 4)));
    g.finish();
}

criterion_group!(benches, movegen, perft_bench);
criterion_main!(benches);
