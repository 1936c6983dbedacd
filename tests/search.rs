//! The searcher against plain minimax on real positions of every game: with
//! the transposition table, every ordering heuristic, aspiration windows,
//! Star1 and quiescence on, alpha-beta must return exactly the value that
//! unpruned minimax (expectimax at chance nodes, exact matrix games at
//! simultaneous nodes) gives at the same depth with the same evaluation.

mod common;

use gamut::game::{Evaluate, NodeKind, Player, TermMask};
use gamut::search::score::outcome_score;
use gamut::search::{self, matrix, Config, Limits, Table};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Plain minimax with the searcher's depth rules and quiescence.
fn minimax<G: Evaluate>(pos: &G, depth: i32, ply: usize, quiescence: bool) -> i32 {
    let value = |child: &G, d: i32, me: Player| {
        let v = minimax(child, d, ply + 1, quiescence);
        if child.perspective() == me {
            v
        } else {
            -v
        }
    };
    let mut moves = Vec::new();
    match pos.node() {
        NodeKind::Terminal => outcome_score(&pos.outcome().unwrap(), pos.perspective(), ply),
        NodeKind::Decision(me) => {
            pos.moves(&mut moves);
            if depth <= 0 {
                let stand = pos.evaluate(TermMask::ALL);
                if !quiescence {
                    return stand;
                }
                return moves
                    .iter()
                    .filter(|&&m| pos.move_hint(m) > 0)
                    .map(|&m| value(&pos.play(m), 0, me))
                    .fold(stand, i32::max);
            }
            if moves.is_empty() {
                return pos.evaluate(TermMask::ALL);
            }
            moves
                .iter()
                .map(|&m| value(&pos.play(m), depth - 1, me))
                .max()
                .unwrap()
        }
        NodeKind::Chance => {
            let me = pos.perspective();
            pos.moves(&mut moves);
            let sum: f64 = moves
                .iter()
                .map(|&m| pos.probability(m) * value(&pos.play(m), depth, me) as f64)
                .sum();
            sum.round() as i32
        }
        NodeKind::Simultaneous => {
            let (mut rows, mut cols) = (Vec::new(), Vec::new());
            pos.actions(Player::FIRST, &mut rows);
            pos.actions(Player::SECOND, &mut cols);
            let payoff: Vec<f64> = rows
                .iter()
                .flat_map(|&a| cols.iter().map(move |&b| (a, b)))
                .map(|(a, b)| value(&pos.play_joint(a, b), depth, Player::FIRST) as f64)
                .collect();
            matrix::solve(&payoff, rows.len(), cols.len()).value.round() as i32
        }
    }
}

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
            let m = minimax(&pos, depth as i32, 0, config.quiescence);
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
