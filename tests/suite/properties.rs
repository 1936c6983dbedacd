//! Property tests for every game (proptest): random reachable positions
//! round-trip through their text, random and mutated texts are refused with
//! one-line errors and never panic, move texts parse back to their moves,
//! incremental hashes match hashes from scratch, and the children listed by
//! `gamut_core::perft::children` add up to perft(1).

use crate::common;
use gamut_core::game::Child;
use gamut_core::game::{Game, NodeKind, Notation};
use gamut_core::moves::named_children;
use gamut_core::perft;
use gamut_games::{apart, aporia, empedocles, epaminondas, spokes};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Cases per property and game: the module stays within a few seconds.
const CASES: u32 = 48;

/// Cases for Spokes, whose resolutions make some random playouts slow:
/// drawn from a fixed seed ([`common::fixed_cases`]).
const SPOKES_CASES: u32 = 6;

/// Joint actions of a simultaneous node checked at most.
const JOINT_SAMPLE: usize = 32;

/// Where random playouts start: the start position, then every position of
/// the game's perft suite.
fn starts<G: Notation>(suite: &str) -> Vec<G> {
    let mut v = vec![G::start()];
    v.extend(
        common::suite_entries(suite)
            .into_iter()
            .map(|(_, text, _)| G::parse(&text).expect("suite position parses")),
    );
    v
}

/// A position reached by `plies` random plies from start `which` (modulo
/// the number of starts), stopping early at the end of the game.
fn reachable<G: Notation>(starts: &[G], which: usize, seed: u64, plies: usize) -> G {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut pos = starts[which % starts.len()].clone();
    for _ in 0..plies {
        if pos.node() == NodeKind::Terminal {
            break;
        }
        pos = common::random_child(&pos, &mut rng, &mut buf);
    }
    pos
}

/// One edit of a text: replace, insert or delete the character at a place.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Characters that position texts use, plus a few that none does.
    let ch = prop_oneof![
        prop::sample::select(
            " /;:,.-+0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                .chars()
                .collect::<Vec<_>>()
        ),
        any::<char>(),
    ];
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

/// `text` with `edits` applied, places taken modulo its length.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len();
        match *e {
            Edit::Replace(i, c) if n > 0 => chars[i % n] = c,
            Edit::Insert(i, c) => chars.insert(i % (n + 1), c),
            Edit::Delete(i) if n > 0 => {
                chars.remove(i % n);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A refusal is a message on one line unless the input itself brought the
/// line break, and never empty.
fn assert_one_line(input: &str, msg: &str) {
    assert!(!msg.is_empty(), "empty error for {input:?}");
    if !input.chars().any(char::is_control) {
        assert!(
            !msg.chars().any(char::is_control),
            "error for {input:?} is not one line: {msg:?}"
        );
    }
}

/// Printing then parsing gives the position and the same text back.
fn round_trip<G: Notation>(pos: &G) {
    let text = pos.text();
    let back = G::parse(&text).unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"));
    assert_eq!(&back, pos, "'{text}' parses to another position");
    assert_eq!(back.text(), text, "'{text}' is not canonical");
}

/// A text either parses to a position that prints canonically and parses
/// back to itself, or is refused with a one-line error.
fn parse_any<G: Notation>(text: &str) {
    match G::parse(text) {
        Ok(pos) => round_trip(&pos),
        Err(e) => assert_one_line(text, &e.to_string()),
    }
}

/// Every child's text parses back to it, the child's incremental hash
/// equals its hash from scratch, and the children's perft counts add up to
/// perft(1).
fn children_agree<G: Notation>(pos: &G) {
    let text = pos.text();
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash of '{text}'");
    let kids = named_children(pos, perft::children(pos));
    let cost = perft::child_cost(pos);
    // Joint actions each need a resolution, which can be slow: check an
    // evenly spread sample of at most JOINT_SAMPLE of them, without the sum.
    let stride = match pos.node() {
        NodeKind::Simultaneous => kids.len().div_ceil(JOINT_SAMPLE).max(1),
        _ => 1,
    };
    let mut below = 0;
    for (t, child) in kids.iter().step_by(stride) {
        match *child {
            Child::Move(m) => assert_eq!(pos.parse_move(t), Ok(m), "'{t}' at '{text}'"),
            Child::Joint(..) | Child::Joints(_) => {
                let actions = match child {
                    Child::Joint(a, b) => vec![*a, *b],
                    Child::Joints(all) => all.clone(),
                    Child::Move(_) => Vec::new(),
                };
                for m in actions {
                    let own = pos.move_text(m);
                    let back = pos.parse_move(&own).map(|x| pos.move_text(x));
                    assert_eq!(back, Ok(own.clone()), "action '{own}' at '{text}'");
                }
            }
        }
        let next = perft::child_position(pos, child);
        assert_eq!(
            next.hash(),
            next.hash_from_scratch(),
            "hash after '{t}' at '{text}'"
        );
        below += perft::perft(&next, 1 - cost);
    }
    if stride == 1 {
        assert_eq!(below, perft::perft(pos, 1), "children of '{text}'");
    }
    if let NodeKind::Decision(_) = pos.node() {
        assert_eq!(kids.len() as u64, perft::perft(pos, 1), "moves of '{text}'");
    }
}

/// The properties of one game, as a proptest module; `$attr`s (such as
/// `#[ignore]`) go on every check.
macro_rules! properties {
    ($module:ident, $game:ty, $suite:expr, $config:expr $(, #[$attr:meta])*) => {
        mod $module {
            use super::*;

            fn starts() -> Vec<$game> {
                super::starts::<$game>($suite)
            }

            proptest! {
                #![proptest_config($config)]

                #[test]
                $(#[$attr])*
                fn reachable_positions_round_trip_and_their_children_agree(
                    which in 0usize..64, seed in any::<u64>(), plies in 0usize..200,
                ) {
                    let starts = starts();
                    let pos = reachable(&starts, which, seed, plies);
                    round_trip(&pos);
                    children_agree(&pos);
                }

                #[test]
                $(#[$attr])*
                fn mutated_position_texts_never_panic(
                    which in 0usize..64, seed in any::<u64>(), plies in 0usize..100,
                    edits in prop::collection::vec(edit(), 1..6),
                ) {
                    let starts = starts();
                    let text = reachable(&starts, which, seed, plies).text();
                    parse_any::<$game>(&mutate(&text, &edits));
                }

                #[test]
                $(#[$attr])*
                fn random_strings_never_panic(text in ".{0,80}") {
                    parse_any::<$game>(&text);
                    let pos = <$game>::start();
                    if let Err(e) = pos.parse_move(&text) {
                        assert_one_line(&text, &e.to_string());
                    }
                    if let Err(e) = <$game>::start_with(&text) {
                        assert_one_line(&text, &e.to_string());
                    }
                }

                #[test]
                $(#[$attr])*
                fn mutated_move_texts_never_panic(
                    which in 0usize..64, seed in any::<u64>(), plies in 0usize..100,
                    pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..4),
                ) {
                    let starts = starts();
                    let pos = reachable(&starts, which, seed, plies);
                    let kids = named_children(&pos, perft::children(&pos));
                    if let Some((text, _)) = kids.get(pick % kids.len().max(1)) {
                        let bad = mutate(text, &edits);
                        match pos.parse_move(&bad) {
                            Ok(m) => assert_eq!(pos.move_text(m), bad),
                            Err(e) => assert_one_line(&bad, &e.to_string()),
                        }
                    }
                }
            }
        }
    };
}

properties!(
    aporia_properties,
    aporia::Aporia,
    "aporia.perft",
    ProptestConfig::with_cases(CASES)
);
properties!(
    apart_properties,
    apart::Apart,
    "apart.perft",
    ProptestConfig::with_cases(CASES)
);
properties!(
    empedocles_properties,
    empedocles::Empedocles,
    "empedocles.perft",
    ProptestConfig::with_cases(CASES)
);
properties!(
    spokes_properties,
    spokes::Spokes,
    "spokes.perft",
    common::fixed_cases(SPOKES_CASES)
);
// Fresh Spokes cases in every long run (the default run's are fixed).
properties!(
    long_spokes_properties,
    spokes::Spokes,
    "spokes.perft",
    ProptestConfig::with_cases(4 * SPOKES_CASES),
    #[ignore = "long check"]
);
properties!(
    epaminondas_properties,
    epaminondas::Epaminondas,
    "epaminondas.perft",
    ProptestConfig::with_cases(CASES)
);
