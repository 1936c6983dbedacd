//! Forced results: every line of `positions/<game>.tactics` is a position,
//! a depth, the set of best moves and the score. The searcher must find a
//! move of the set with exactly that score, and plain minimax must agree
//! that the set is complete: the listed moves, and only they, reach the
//! root's value.
//!
//! Line format: `<position> ; depth <d> ; best <move> [<move> …] ; score <score>`
//! where `<score>` is `win in N`, `loss in N` or a number; or
//! `<position> ; depth <d> ; avoid <move> [<move> …]`: a move the default
//! search (selective features on) must not choose at that depth, with the
//! classic evaluation and, where the game has one, its network (a
//! position lost to a threat beyond the horizon).

use crate::common;

use gamut_core::evaluate::FullGame;
use gamut_core::game::NodeKind;
use gamut_search::score::Score;
use gamut_search::{self as search, Config, Limits, Table};

struct Tactic {
    line: usize,
    position: String,
    depth: u32,
    best: Vec<String>,
    score: String,
    /// Moves the default search must not choose (an `avoid` line).
    avoid: Vec<String>,
}

fn read(file: &str) -> Vec<Tactic> {
    let path = format!("{}/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("tactics file");
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = raw.split(';').map(str::trim).collect();
        if let Some(moves) = f.get(2).and_then(|m| m.strip_prefix("avoid ")) {
            assert_eq!(f.len(), 3, "{path}:{}: three fields", i + 1);
            out.push(Tactic {
                line: i + 1,
                position: f[0].to_string(),
                depth: f[1].strip_prefix("depth ").unwrap().parse().unwrap(),
                best: Vec::new(),
                score: String::new(),
                avoid: moves.split_whitespace().map(String::from).collect(),
            });
            continue;
        }
        assert_eq!(f.len(), 4, "{path}:{}: four fields", i + 1);
        out.push(Tactic {
            line: i + 1,
            position: f[0].to_string(),
            depth: f[1].strip_prefix("depth ").unwrap().parse().unwrap(),
            best: f[2]
                .strip_prefix("best ")
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect(),
            score: f[3].strip_prefix("score ").unwrap().to_string(),
            avoid: Vec::new(),
        });
    }
    out
}

/// Whether plain minimax also proves each position's value and set of best
/// moves (minutes in Apart and Epaminondas: the long checks), or only the
/// searcher is checked against the file.
#[derive(Clone, Copy, PartialEq)]
enum Proof {
    SearcherOnly,
    ByMinimax,
}

fn check<G: FullGame>(file: &str, at_least: usize, proof: Proof) {
    let tactics = read(file);
    assert!(
        tactics.len() >= at_least,
        "{file}: {} positions",
        tactics.len()
    );
    for t in tactics {
        let here = format!("{file}:{}", t.line);
        let pos = G::parse(&t.position).unwrap_or_else(|e| panic!("{here}: {e}"));
        let me = match pos.node() {
            NodeKind::Decision(p) => p,
            k => panic!("{here}: not a decision node ({k:?})"),
        };
        if !t.avoid.is_empty() {
            let mut evals = vec![gamut_search::Evaluation::Classic];
            evals.extend(gamut_search::Evaluation::builtin::<G>());
            for eval in evals {
                let config = Config {
                    eval,
                    ..Config::for_game::<G>(1)
                };
                let limits = Limits {
                    depth: Some(t.depth),
                    ..Limits::default()
                };
                let r = search::search(&pos, &limits, &config, &Table::new(16), |_| {});
                let chosen = pos.move_text(r.best);
                assert!(
                    !t.avoid.contains(&chosen),
                    "{here}: {} chose {chosen}",
                    config.eval.name()
                );
            }
            continue;
        }
        let config = Config::for_game::<G>(1).exact();
        let limits = Limits {
            depth: Some(t.depth),
            ..Limits::default()
        };
        let r = search::search(&pos, &limits, &config, &Table::new(16), |_| {});
        assert_eq!(Score(r.score).to_string(), t.score, "{here}: score");
        let best = pos.move_text(r.best);
        assert!(t.best.contains(&best), "{here}: searcher chose {best}");
        if proof == Proof::SearcherOnly {
            continue;
        }
        // Independent check by plain minimax over every root move.
        let root = common::minimax(&pos, t.depth as i32, 0, config.quiescence);
        assert_eq!(root, r.score, "{here}: minimax value");
        let mut moves = Vec::new();
        pos.moves(&mut moves);
        let mut reaching: Vec<String> = moves
            .iter()
            .filter(|&&m| {
                let c = pos.play(m);
                let v = common::minimax(&c, t.depth as i32 - 1, 1, config.quiescence);
                (if c.perspective() == me { v } else { -v }) == root
            })
            .map(|&m| pos.move_text(m))
            .collect();
        reaching.sort();
        let mut listed = t.best.clone();
        listed.sort();
        assert_eq!(reaching, listed, "{here}: the set of best moves");
    }
}

#[test]
fn epaminondas_tactics() {
    check::<gamut_games::epaminondas::Epaminondas>("epaminondas.tactics", 10, Proof::SearcherOnly);
}

#[test]
#[ignore = "long check"]
fn long_epaminondas_tactics_proved_by_minimax() {
    check::<gamut_games::epaminondas::Epaminondas>("epaminondas.tactics", 10, Proof::ByMinimax);
}

/// Prints candidate tactics lines for the game named by `TACTICS_GAME`
/// (search depth `TACTICS_DEPTH`, default 4): positions reached by random
/// play where the searcher proves a result, with the full set of best moves
/// by minimax. Run by hand to extend a tactics file:
/// `TACTICS_GAME=aporia cargo test --profile test-release --test suite -- --ignored find_tactics --nocapture`.
#[test]
#[ignore = "generator, run by hand"]
fn find_tactics() {
    let game = std::env::var("TACTICS_GAME").unwrap_or_else(|_| "epaminondas".into());
    let depth: u32 = std::env::var("TACTICS_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let id: gamut_games::GameId = game.parse().unwrap();
    gamut_games::with_game!(id, G => find::<G>(depth));
}

fn find<G: FullGame>(depth: u32) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(2026);
    let mut buf = Vec::new();
    let mut found = std::collections::BTreeMap::<String, usize>::new();
    let mut pos = G::start();
    for _ in 0..200_000 {
        if pos.node() == NodeKind::Terminal {
            pos = G::start();
        }
        if let NodeKind::Decision(me) = pos.node() {
            let config = Config::for_game::<G>(1).exact();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = search::search(&pos, &limits, &config, &Table::new(4), |_| {});
            let score = Score(r.score);
            let key = score.to_string();
            if score.plies_to_end().is_some() && found.get(&key).copied().unwrap_or(0) < 4 {
                let root = common::minimax(&pos, depth as i32, 0, config.quiescence);
                let mut moves = Vec::new();
                pos.moves(&mut moves);
                let mut best: Vec<String> = moves
                    .iter()
                    .filter(|&&m| {
                        let c = pos.play(m);
                        let v = common::minimax(&c, depth as i32 - 1, 1, config.quiescence);
                        (if c.perspective() == me { v } else { -v }) == root
                    })
                    .map(|&m| pos.move_text(m))
                    .collect();
                best.sort();
                if root == r.score && best.len() < moves.len() {
                    *found.entry(key.clone()).or_default() += 1;
                    println!(
                        "{} ; depth {depth} ; best {} ; score {key}",
                        pos.text(),
                        best.join(" ")
                    );
                    if found.values().sum::<usize>() >= 16 {
                        return;
                    }
                }
            }
        }
        pos = common::random_child(&pos, &mut rng, &mut buf);
    }
}

#[test]
fn aporia_tactics() {
    check::<gamut_games::aporia::Aporia>("aporia.tactics", 10, Proof::ByMinimax);
}

#[test]
fn apart_tactics() {
    check::<gamut_games::apart::Apart>("apart.tactics", 10, Proof::SearcherOnly);
}

#[test]
#[ignore = "long check"]
fn long_apart_tactics_proved_by_minimax() {
    check::<gamut_games::apart::Apart>("apart.tactics", 10, Proof::ByMinimax);
}
