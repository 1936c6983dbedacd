//! Spokes' simultaneous-move search against full matrix games two rounds
//! deep: on small late-game positions (few empty nodes left), the double
//! oracle with its windows, table and threads must give exactly the value
//! of unpruned minimax over every joint placement, and of the search's own
//! full-matrix switch.

use crate::common;

use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::spokes::Spokes;
use gamut_search::{self as search, Config, Limits, Table};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Placement positions from random games with at most `max_actions`
/// placements per player (and at least two), `n` of them.
fn late_positions(n: usize, max_actions: usize, seed: u64) -> Vec<Spokes> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let mut pos = Spokes::start();
    let mut actions = Vec::new();
    while out.len() < n {
        if pos.node() == NodeKind::Terminal {
            pos = Spokes::start();
        }
        if pos.node() == NodeKind::Simultaneous {
            pos.actions(Player::FIRST, &mut actions);
            if (2..=max_actions).contains(&actions.len()) {
                out.push(pos.clone());
            }
        }
        pos = common::random_child(&pos, &mut rng, &mut buf);
    }
    out
}

fn value_at(pos: &Spokes, depth: u32, config: &Config) -> f64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search::search_simultaneous(pos, &limits, config, &Table::new(4), |_| {}).value
}

/// Checks the double oracle, one thread and two, against full matrix
/// games and against minimax, two rounds deep from `count` late positions.
fn check_two_rounds_deep(count: usize) {
    for pos in &late_positions(count, 10, 21) {
        let want = common::minimax(pos, 2, 0, false);
        let mut full = Config::for_game::<Spokes>(1).exact();
        full.full_matrix = true;
        let fast = Config::for_game::<Spokes>(1).exact();
        let threaded = Config::for_game::<Spokes>(2).exact();
        for (name, config) in [("full", full), ("fast", fast), ("threads", threaded)] {
            let v = value_at(pos, 2, &config);
            assert_eq!(v.round() as i32, want, "{name} {}", pos.text());
        }
    }
}

#[test]
#[ignore = "long check"]
fn long_the_double_oracle_equals_full_matrix_games_two_rounds_deep_from_four_positions() {
    check_two_rounds_deep(4);
}
