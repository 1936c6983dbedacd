//! The short outcome form of Spokes (`docs/rules/spokes.md`, "Short
//! outcome form"): at resolution nodes met in random games, every outcome's
//! short form and canonical text parse back to that outcome, and no two
//! outcomes of one placement share a short form.

use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::spokes::{Spokes, Spokes2v2, Spokes4};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::collections::HashSet;

/// Checks every outcome of resolution node `pos`, given its outcomes with
/// their short forms; returns how many outcomes it checked.
fn check_node<G: Notation>(pos: &G, short: &[(G::Move, String)]) -> usize {
    let mut moves = Vec::new();
    pos.moves(&mut moves);
    let listed: Vec<G::Move> = short.iter().map(|&(m, _)| m).collect();
    assert_eq!(
        listed,
        moves,
        "short forms of every outcome at {}",
        pos.text()
    );
    let mut seen = HashSet::new();
    let mut scratch = G::Scratch::default();
    for (m, text) in short {
        assert!(
            seen.insert(text.clone()),
            "'{text}' names two outcomes at {}",
            pos.text()
        );
        assert!(!text.contains('/'), "'{text}' is not short");
        for t in [text.clone(), pos.move_text(*m)] {
            let back = pos
                .parse_move_with(&t, &mut scratch)
                .unwrap_or_else(|e| panic!("'{t}' at {}: {e}", pos.text()));
            assert_eq!(back, *m, "'{t}' at {}", pos.text());
        }
    }
    // The trait's short text is the same form (spot check: it resolves the
    // node again for every move).
    let (m, text) = &short[0];
    assert_eq!(&pos.short_move_text(*m), text);
    short.len()
}

/// Plays one random game (four placements at once where four players
/// place) and calls `f` at every resolution node; stops early when `f`
/// returns false.
fn walk<G: Notation>(seed: u64, mut f: impl FnMut(&G) -> bool) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = G::start();
    let mut buf = Vec::new();
    for _ in 0..G::INFO.ply_limit {
        pos = match pos.node() {
            NodeKind::Terminal => return,
            NodeKind::Simultaneous => {
                let joint: Vec<G::Move> = (0..G::players())
                    .map(|i| {
                        pos.actions(Player::nth(i), &mut buf);
                        buf[rng.gen_range(0..buf.len())]
                    })
                    .collect();
                pos.play_joint_all(&joint)
            }
            _ => {
                if !f(&pos) {
                    return;
                }
                pos.moves(&mut buf);
                pos.play(buf[rng.gen_range(0..buf.len())])
            }
        };
    }
}

/// Checks `positions` resolution nodes of random games, one game per
/// proptest case (seeded by proptest); returns the outcomes checked.
fn check_random<G: Notation>(
    positions: usize,
    short: impl Fn(&G) -> Vec<(G::Move, String)>,
) -> usize {
    let checked = Cell::new(0);
    let outcomes = Cell::new(0);
    // Fixed seeds: a random game can reach resolutions that take minutes,
    // so the games checked are the same in every run.
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: positions as u32,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    runner
        .run(&any::<u64>(), |seed| {
            walk::<G>(seed, |pos| {
                if checked.get() >= positions {
                    return false;
                }
                checked.set(checked.get() + 1);
                outcomes.set(outcomes.get() + check_node(pos, &short(pos)));
                true
            });
            Ok(())
        })
        .unwrap();
    assert_eq!(
        checked.get(),
        positions,
        "random games gave enough positions"
    );
    outcomes.get()
}

#[test]
fn short_outcomes_parse_back_and_are_unique_spokes() {
    let n = check_random::<Spokes>(200, Spokes::short_texts);
    assert!(n >= 200);
}

#[test]
fn short_outcomes_parse_back_and_are_unique_four_players() {
    check_random::<Spokes4>(40, Spokes4::short_texts);
    check_random::<Spokes2v2>(40, Spokes2v2::short_texts);
}

/// The examples of the rules document: a pull names the block it makes, a
/// push the stone's new node, a placement without a step `-`.
#[test]
fn short_forms_name_what_changed() {
    let at = |moves: &str| {
        let mut pos = Spokes::start();
        pos = gamut_core::moves::play_moves(pos, moves, "test").unwrap();
        let mut v: Vec<String> = pos.short_texts().into_iter().map(|(_, t)| t).collect();
        v.sort();
        (pos, v)
    };
    let (pull, texts) = at("wA,bB1");
    assert_eq!(texts, ["XA", "XB1"]);
    let m = pull.parse_move("XB1").unwrap();
    assert_eq!(pull.move_text(m), "1/X3/8/16/16");
    assert_eq!(pull.short_move_text(m), "XB1");
    let (_, texts) = at("wA,bD5");
    assert_eq!(texts, ["-"]);
    let (push, texts) = at("wA,wB1");
    assert!(texts.iter().all(|t| t.len() <= 4), "{texts:?}");
    assert!(push.parse_move("XQ9").is_err());
    assert!(push.parse_move("wA wB1").is_err());
    assert!(push.parse_move("").is_err());
    assert!(push.parse_move(".A.B1").is_err(), "no outcome empties both");
}
