//! Epaminondas speed: move listing and counting at a few positions, and
//! perft from the start.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamut_core::game::{Game, Notation};
use gamut_core::perft::perft;
use gamut_games::epaminondas::Epaminondas;

/// The start, a middle game and a late position reached by random play.
const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w",
    ),
    (
        "middle",
        "BB3BBB1BBB1B/B6B6/1BB3B2BB3/BB5BB3BB/1BB1B1B7/2W11/6BW6/3B2W7/W1WW1W1W6/2W1W1W1W2W2/1W1W1WW1WWW1W1/1W1W4WWW1WW w",
    ),
    (
        "late",
        "2WB7B2/B13/W4BBB5B/7BBBB3/7B4BB/6WB6/4WW3B1BW1/BBWW3WBB1W2/4W1B2W1W1W/W2B2BW2W3/2WW3B2W3/W1W6W1W1W b",
    ),
];

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("epaminondas movegen");
    for (name, text) in POSITIONS {
        let p = Epaminondas::parse(text).expect("bench position parses");
        let mut buf = Vec::with_capacity(256);
        g.bench_function(format!("moves {name}"), |b| {
            b.iter(|| {
                black_box(&p).moves(&mut buf);
                buf.len()
            })
        });
        g.bench_function(format!("move_count {name}"), |b| {
            b.iter(|| black_box(&p).move_count())
        });
    }
    g.finish();
}

fn perft_start(c: &mut Criterion) {
    let p = Epaminondas::start();
    let mut g = c.benchmark_group("epaminondas perft");
    g.throughput(Throughput::Elements(1_787_292));
    g.sample_size(20);
    g.bench_function("start depth 3", |b| b.iter(|| perft(black_box(&p), 3)));
    g.finish();
}

criterion_group!(benches, movegen, perft_start);
criterion_main!(benches);
