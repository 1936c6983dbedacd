//! The searcher in exact mode against plain minimax on real positions of every game: with
//! the transposition table, every ordering heuristic, aspiration windows,
//! Star1 and quiescence on, alpha-beta must return exactly the value that
//! unpruned minimax (expectimax at chance nodes, exact matrix games at
//! simultaneous nodes) gives at the same depth with the same evaluation.

use crate::common;

use gamut_core::evaluate::FullGame;
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_search::{self as search, Config, Limits, Table};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Decision positions reached by random play from the start.
fn decision_positions<G: FullGame>(n: usize, seed: u64) -> Vec<G> {
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

/// Compares search and minimax on `positions` random positions at depths
/// 1 to `max_depth`, with quiescence as the game has it when `quiescence`
/// is set (unpruned minimax with quiescence is expensive), else without.
fn check_against_minimax<G: FullGame>(positions: usize, max_depth: u32, quiescence: bool) {
    for pos in decision_positions::<G>(positions, 11) {
        for depth in 1..=max_depth {
            let mut config = Config::for_game::<G>(1).exact();
            config.quiescence &= quiescence;
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

fn check_deterministic<G: FullGame>(depth: u32) {
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
    check_against_minimax::<gamut_games::epaminondas::Epaminondas>(6, 2, false);
    check_against_minimax::<gamut_games::epaminondas::Epaminondas>(3, 1, true);
    check_deterministic::<gamut_games::epaminondas::Epaminondas>(5);
}

#[test]
#[ignore = "long check"]
fn long_epaminondas_alpha_beta_equals_minimax_on_many_positions() {
    check_against_minimax::<gamut_games::epaminondas::Epaminondas>(60, 2, false);
    check_against_minimax::<gamut_games::epaminondas::Epaminondas>(30, 1, true);
}

#[test]
fn aporia_alpha_beta_equals_minimax() {
    check_against_minimax::<gamut_games::aporia::Aporia>(100, 4, true);
    check_deterministic::<gamut_games::aporia::Aporia>(8);
}

#[test]
fn apart_alpha_beta_equals_minimax() {
    check_against_minimax::<gamut_games::apart::Apart>(4, 2, true);
    check_deterministic::<gamut_games::apart::Apart>(4);
}

#[test]
#[ignore = "long check"]
fn long_apart_alpha_beta_equals_minimax_on_many_positions() {
    check_against_minimax::<gamut_games::apart::Apart>(40, 2, true);
}

#[test]
fn empedocles_expectimax_with_star1_equals_plain_expectimax() {
    check_against_minimax::<gamut_games::empedocles::Empedocles>(40, 3, true);
    check_deterministic::<gamut_games::empedocles::Empedocles>(3);
}

#[test]
#[ignore = "long check"]
fn long_empedocles_expectimax_with_star1_equals_plain_expectimax_on_many_positions() {
    check_against_minimax::<gamut_games::empedocles::Empedocles>(250, 3, true);
}

/// Resolution choices one round deep from `positions` positions, then
/// `rounds` whole rounds solved exactly, against minimax.
fn check_spokes_against_minimax(positions: usize, rounds: usize) {
    use gamut_games::spokes::Spokes;
    check_against_minimax::<Spokes>(positions, 1, true);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut pos = Spokes::start();
    let mut checked = 0;
    while checked < rounds {
        if pos.node() == NodeKind::Terminal {
            pos = Spokes::start();
        }
        if pos.node() == NodeKind::Simultaneous {
            let limits = Limits {
                depth: Some(1),
                ..Limits::default()
            };
            let config = Config::for_game::<Spokes>(1).exact();
            let r = search::search_simultaneous(&pos, &limits, &config, &Table::new(4), |_| {});
            let m = common::minimax(&pos, 1, 0, config.quiescence);
            assert_eq!(r.value.round() as i32, m, "{}", pos.text());
            assert!(r.evaluated <= r.entries);
            checked += 1;
        }
        pos = common::random_child(&pos, &mut rng, &mut buf);
    }
}

#[test]
fn spokes_double_oracle_equals_the_full_matrix_game() {
    check_spokes_against_minimax(8, 2);
}

#[test]
#[ignore = "long check"]
fn long_spokes_double_oracle_equals_the_full_matrix_game_on_many_positions() {
    check_spokes_against_minimax(30, 6);
}

/// The nodes of a depth-`depth` search of `pos` with `config`, and its
/// best move.
fn nodes_and_best<G: FullGame>(pos: &G, depth: u32, config: &Config) -> (u64, G::Move) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = search::search(pos, &limits, config, &Table::new(16), |_| {});
    (r.nodes, r.best)
}

#[test]
fn each_selective_feature_changes_the_tree_and_exact_mode_turns_them_off() {
    use gamut_games::epaminondas::Epaminondas;
    use gamut_search::params::Selective;
    let mut positions = decision_positions::<Epaminondas>(3, 17);
    positions.push(Epaminondas::start());
    let exact = Config::for_game::<Epaminondas>(1).exact();
    assert_eq!(exact.selective, Selective::NONE);
    // Nodes over all positions, checking each best move is legal.
    let total = |config: &Config| -> u64 {
        let mut legal = Vec::new();
        positions
            .iter()
            .map(|pos| {
                let (nodes, best) = nodes_and_best(pos, 4, config);
                pos.moves(&mut legal);
                assert!(legal.contains(&best), "{}", pos.text());
                nodes
            })
            .sum()
    };
    let exact_nodes = total(&exact);
    let mut all = exact.clone();
    // Partial move lists and narrow matrix games change only games with
    // simultaneous rounds (Spokes, below).
    let spokes_only = ["partial", "narrow"];
    for name in Selective::NAMES
        .into_iter()
        .filter(|n| !spokes_only.contains(n))
    {
        let mut one = exact.clone();
        *one.selective.switch(name).unwrap() = true;
        *all.selective.switch(name).unwrap() = true;
        // Each switch changes the tree (a null move may cost more than it
        // saves this shallow).
        assert_ne!(total(&one), exact_nodes, "{name}");
    }
    all.selective.partial = true;
    all.selective.narrow = true;
    assert_eq!(all.clone().exact(), exact);
    assert!(total(&all) < exact_nodes);
}

#[test]
fn partial_move_lists_and_narrow_matrices_cut_spokes_searches_and_exact_mode_has_neither() {
    use gamut_games::spokes::Spokes;
    // A midgame round with resolutions of thousands of boards.
    let pos = Spokes::parse("1/2XX/1X1b4/1b3wX1w1w1X2b/16 9").unwrap();
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let run = |config: &Config| {
        search::search_simultaneous(&pos, &limits, config, &Table::new(16), |_| {})
    };
    let default = Config::for_game::<Spokes>(1);
    assert!(
        default.selective.partial && default.selective.narrow,
        "Spokes lists partially and narrows its matrix games by default"
    );
    let exact = default.clone().exact();
    assert!(!exact.selective.partial && !exact.selective.narrow);
    let e = run(&exact);
    let mut legal = [Vec::new(), Vec::new()];
    pos.actions(Player::FIRST, &mut legal[0]);
    pos.actions(Player::SECOND, &mut legal[1]);
    for name in ["partial", "narrow"] {
        let mut one = exact.clone();
        *one.selective.switch(name).unwrap() = true;
        let p = run(&one);
        assert!(p.nodes < e.nodes, "{name} {} exact {}", p.nodes, e.nodes);
        for (strategy, legal) in p.strategies.iter().zip(&legal) {
            assert!(strategy.iter().all(|(m, _)| legal.contains(m)), "{name}");
        }
    }
}

#[test]
fn selective_switches_on_the_command_line() {
    let nodes = |args: &[&str]| -> u64 {
        let out = common::ok(&[&["analyze", "epaminondas", "--depth", "4"], args].concat());
        let last = out.lines().rfind(|l| l.starts_with("depth 4 "));
        let words: Vec<&str> = last.expect("depth 4 reported").split(' ').collect();
        let i = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[i + 1].parse().expect("a node count")
    };
    let exact = nodes(&["--exact"]);
    let all = [
        "--lmr",
        "on",
        "--nmp",
        "on",
        "--rfp",
        "on",
        "--futility",
        "on",
    ];
    assert!(nodes(&all) < exact);
    assert_eq!(nodes(&[&all[..], &["--exact"]].concat()), exact);
    common::rejected(&["analyze", "epaminondas", "--depth", "2", "--lmr", "maybe"]);
    common::rejected(&[
        "tournament",
        "epaminondas",
        "--engine",
        "depth=1,nmp=maybe",
        "--engine",
        "random",
    ]);
}
