//! The searcher against plain minimax on real positions of every game: with
//! the transposition table, every ordering heuristic, aspiration windows,
//! Star1 and quiescence on, alpha-beta must return exactly the value that
//! unpruned minimax (expectimax at chance nodes, exact matrix games at
//! simultaneous nodes) gives at the same depth with the same evaluation.

mod common;

use gamut::game::{Evaluate, NodeKind};
use gamut::search::{self, Config, Limits, Table};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Decision positions reached by random play from the start.
fn decision_positions<G: Evaluate>(n: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let mut plies = 0;
    let mut pos = G::start();
    while out.len() < n {
        if pos.node() == NodeKind::Terminal || plies > 60 {
            pos = G::start();
            plies = 0;
        }
        if let NodeKind::Decision(_) = pos.node() {
            if plies % 3 == 2 {
                out.push(pos.clone());
            }
        }
        pos = common::random_child(&pos, &mut rng, &mut buf);
        plies += 1;
    }
    out
}

fn check_against_minimax<G: Evaluate>(positions: usize, max_depth: u32) {
    for pos in decision_positions::<G>(positions, 11) {
        for depth in 1..=max_depth {
            let config = Config::for_game::<G>(1);
            let tt = Table::new(4);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = search::search(&pos, &limits, &config, &tt, |_| {});
            let m = common::minimax(&pos, depth as i32, 0, config.quiescence);
            assert_eq!(r.score, m, "{} depth {depth}", pos.text());
        }
    }
}

fn check_deterministic<G: Evaluate>(depth: u32) {
    let pos = &decision_positions::<G>(1, 5)[0];
    let run = || {
        let tt = Table::new(16);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = search::search(pos, &limits, &Config::for_game::<G>(1), &tt, |_| {});
        (r.best, r.score, r.nodes)
    };
    assert_eq!(run(), run());
}

#[test]
fn epaminondas_alpha_beta_equals_minimax() {
    check_against_minimax::<gamut::games::epaminondas::Epaminondas>(40, 2);
    check_deterministic::<gamut::games::epaminondas::Epaminondas>(5);
}
