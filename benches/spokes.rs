//! Spokes benchmarks: the hardest resolution met in random play, and perft
//! depth 1 from the start. The setup also prints the speed of random play
//! in rounds per second and the size of that hardest resolution.

use criterion::{criterion_group, criterion_main, Criterion};
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_core::perft::perft;
use gamut_games::spokes::resolve::DEFAULT_STATE_LIMIT;
use gamut_games::spokes::{Phase, Spokes};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Plays `games` random games; returns the resolution node with the most
/// boards in its graph, that number, and the rounds played.
fn hardest_in_random_play(games: usize, seed: u64) -> (Spokes, usize, u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut other = Vec::new();
    let mut hardest = (Spokes::start(), 0, 0);
    for _ in 0..games {
        let mut pos = Spokes::start();
        loop {
            match pos.node() {
                NodeKind::Terminal => break,
                NodeKind::Simultaneous => {
                    pos.actions(Player::FIRST, &mut buf);
                    pos.actions(Player::SECOND, &mut other);
                    let a = buf[rng.gen_range(0..buf.len())];
                    let b = other[rng.gen_range(0..other.len())];
                    pos = pos.play_joint(a, b);
                }
                _ => {
                    let Ok(r) = pos.outcomes_limited(DEFAULT_STATE_LIMIT) else {
                        println!(
                            "beyond the state limit of {DEFAULT_STATE_LIMIT}: '{}' (game dropped)",
                            pos.text()
                        );
                        break;
                    };
                    if r.states > hardest.1 {
                        hardest = (pos.clone(), r.states, hardest.2);
                    }
                    hardest.2 += 1;
                    pos = pos.play(r.outcomes[rng.gen_range(0..r.outcomes.len())]);
                }
            }
        }
    }
    hardest
}

fn bench(c: &mut Criterion) {
    let t = Instant::now();
    let (hard, states, rounds) = hardest_in_random_play(100, 0x5b0e5);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "random play: {rounds} rounds in {secs:.2} s = {:.0} rounds/s",
        rounds as f64 / secs
    );
    assert_eq!(hard.phase(), Phase::Resolution);
    let t = Instant::now();
    let r = hard
        .outcomes_limited(DEFAULT_STATE_LIMIT)
        .expect("within limit");
    println!(
        "hardest resolution: '{}': {states} boards, {} outcomes, {:.1} ms",
        hard.text(),
        r.outcomes.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    c.bench_function("spokes resolution of the hardest placement", |b| {
        b.iter(|| {
            hard.outcomes_limited(DEFAULT_STATE_LIMIT)
                .unwrap()
                .outcomes
                .len()
        })
    });
    let start = Spokes::start();
    c.bench_function("spokes perft 1 from the start", |b| {
        b.iter(|| perft(&start, 1))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
