//! Aporia: the perft suite, the rules case by case, and random games with
//! every invariant checked.

use crate::common;

use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::{Game, NodeKind, Notation, Player};
use gamut_games::aporia::board::{Move, Node, NodeSet, JUMP_COLUMN, JUMP_ROW, PLATFORMS};
use gamut_games::aporia::Aporia;
use gamut_search::{self as search, Config, Limits, Table};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

const START: &str = "W2W/1BB1/1BB1/W2W 1 - -";

fn pos(text: &str) -> Aporia {
    Aporia::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn move_texts(p: &Aporia) -> BTreeSet<String> {
    let mut v = Vec::new();
    p.moves(&mut v);
    v.into_iter().map(|m| p.move_text(m)).collect()
}

/// The moves of `with` missing from `without` (same board, other move fields).
fn forbidden(with: &str, without: &str) -> Vec<String> {
    let (a, b) = (move_texts(&pos(with)), move_texts(&pos(without)));
    assert!(a.is_subset(&b), "{with} has moves {without} lacks");
    b.difference(&a).cloned().collect()
}

fn play(p: &Aporia, text: &str) -> Aporia {
    let m = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{}: {e}", p.text()));
    p.play(m)
}

#[test]
fn perft_suite() {
    // Counts up to 1,000,000 leaves: every line at depth 5, most at depth 6.
    let checked = common::check_suite::<Aporia>("aporia.perft", 1_000_000);
    assert!(checked >= 250, "only {checked} counts checked");
}

#[test]
fn start_moves_are_the_specs_sixteen() {
    let expected: BTreeSet<String> = [
        "b2-a3", "b2-c1", "c2-b1", "c2-d3", "b3-a2", "b3-c4", "c3-b4", "c3-d2", "b2-b4", "b2-d2",
        "b3-b1", "b3-d3", "c2-a2", "c2-c4", "c3-a3", "c3-c1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(move_texts(&Aporia::start()), expected);
    assert_eq!(Aporia::start().text(), START);
    assert_eq!(Aporia::start().node(), NodeKind::Decision(Player::FIRST));
}

#[test]
fn diagonal_steps_leave_the_platform_and_jumps_cross_whole_runs() {
    // White a1 a2 a3 d4, black b1 c1 d1 c4.
    let p = pos("2BW/W3/W3/WBBB 1 - -");
    let m = move_texts(&p);
    assert!(m.contains("a1-a4"), "a1 jumps a2 and a3 in one go");
    assert!(!m.contains("a1-a3"), "a jump lands after the whole run");
    assert!(
        !m.contains("a1-b2") && !m.contains("a3-b4"),
        "no step inside a platform"
    );
    assert!(m.contains("a3-b2"), "a diagonal step onto another platform");
    assert!(
        !m.contains("c4-c3") && !m.contains("b1-b2"),
        "no plain steps"
    );
    // b2 steps into the diagonally opposite platform across the centre.
    assert!(move_texts(&pos("W2W/1B1B/1BB1/W2W 1 - -")).contains("b2-c3"));
}

#[test]
fn prohibition_one_forbids_exactly_the_way_back() {
    // After 1. b2-a3 the piece on a3 may not return to b2.
    assert_eq!(
        forbidden("W2W/BBB1/2B1/W2W 2 b2-a3 -", "W2W/BBB1/2B1/W2W 2 - -"),
        ["a3-b2"]
    );
    // After the jump 1. b2-b4, the jump back.
    assert_eq!(
        forbidden("WB1W/1BB1/2B1/W2W 2 b2-b4 -", "WB1W/1BB1/2B1/W2W 2 - -"),
        ["b4-b2"]
    );
    let p = play(&Aporia::start(), "b2-a3");
    let e = p.parse_move("a3-b2").unwrap_err().to_string();
    assert!(e.contains("prohibition 1"), "{e}");
}

#[test]
fn prohibition_two_forbids_the_movers_own_way_back() {
    // 1. b2-a3 2. c2-d3: beyond prohibition 1 (d3-c2), a3-b2 is forbidden.
    assert_eq!(
        forbidden("W2W/BBBB/4/W2W 1 c2-d3 b2-a3", "W2W/BBBB/4/W2W 1 c2-d3 -"),
        ["a3-b2"]
    );
    // The same for player 2: 1. b2-a3 2. c2-d3 3. b3-c4 forbids d3-c2.
    assert_eq!(
        forbidden("W1BW/B1BB/4/W2W 2 b3-c4 c2-d3", "W1BW/B1BB/4/W2W 2 b3-c4 -"),
        ["d3-c2"]
    );
    let p = ["b2-a3", "c2-d3"]
        .iter()
        .fold(Aporia::start(), |p, m| play(&p, m));
    assert_eq!(p.text(), "W2W/BBBB/4/W2W 1 c2-d3 b2-a3");
    let e = p.parse_move("a3-b2").unwrap_err().to_string();
    assert!(e.contains("prohibition 2"), "{e}");
}

#[test]
fn prohibition_two_follows_the_piece_the_opponent_moved_on() {
    // Player 1 played b2-c3; player 2 moved that piece on, c3-b4. It may
    // return neither to c3 (prohibition 1) nor to b2 (prohibition 2).
    let p = ["b2-c3", "c3-b4"]
        .iter()
        .fold(pos("3W/1B1B/BWB1/W2W 1 - -"), |p, m| play(&p, m));
    assert_eq!(p.text(), "1W1W/1B1B/B1B1/W2W 1 c3-b4 b2-c3");
    assert_eq!(
        forbidden(&p.text(), "1W1W/1B1B/B1B1/W2W 1 c3-b4 -"),
        ["b4-b2"]
    );
    assert_eq!(
        forbidden("1W1W/1B1B/B1B1/W2W 1 c3-b4 -", "1W1W/1B1B/B1B1/W2W 1 - -"),
        ["b4-c3"]
    );
}

#[test]
fn prohibition_two_forbids_nothing_once_the_way_back_is_gone() {
    // 1. b2-b4 2. b3-a2: the jumped piece left, so b4-b2 is no move anyway.
    assert!(forbidden(
        "WB1W/2B1/B1B1/W2W 1 b3-a2 b2-b4",
        "WB1W/2B1/B1B1/W2W 1 b3-a2 -"
    )
    .is_empty());
    // 1. b2-a3 2. c3-b2: the opponent landed on b2.
    assert!(forbidden(
        "W2W/BB2/1BB1/W2W 1 c3-b2 b2-a3",
        "W2W/BB2/1BB1/W2W 1 c3-b2 -"
    )
    .is_empty());
}

#[test]
fn locked_pieces_never_move() {
    // White fills NW: locked. The first lock does not end the game.
    let p = pos("WW2/WWB1/2B1/2BB 1 - -");
    assert_eq!(p.locked(), PLATFORMS[2]);
    assert_eq!(p.node(), NodeKind::Decision(Player::FIRST));
    let mut v = Vec::new();
    p.moves(&mut v);
    assert!(!v.is_empty());
    assert!(v.iter().all(|m| !PLATFORMS[2].has(m.from)), "{v:?}");
    let e = p.parse_move("b3-c4").unwrap_err().to_string();
    assert!(e.contains("locked"), "{e}");
}

/// A run of pieces into a locked platform always reaches the board's edge,
/// so no jump can land beyond a locked piece: locked pieces count as part of
/// a run, and the run then has no landing. Checked over every occupancy.
#[test]
fn a_run_into_a_locked_platform_never_has_a_landing() {
    for occ in 0..=u16::MAX {
        let occ = NodeSet(occ);
        for platform in PLATFORMS {
            if !occ.contains(platform) {
                continue;
            }
            for from in occ & !platform {
                let f = from.0 as usize;
                let row = (occ.0 >> (4 * from.rank())) as usize & 0xf;
                let col = (0..4).fold(0, |c, r| {
                    c | (usize::from(occ.has(Node::new(from.file(), r))) << r)
                });
                for to in JUMP_ROW[f][row] | JUMP_COLUMN[f][col] {
                    let jumped = Move::new(from, to).jumped();
                    assert!((jumped & platform).is_empty(), "{from}-{to} over {occ:?}");
                    assert!(occ.contains(jumped) && !occ.has(to));
                }
            }
        }
    }
}

#[test]
fn a_second_lock_wins_three_points() {
    let p = pos("WW2/WWB1/2B1/2BB 1 - -");
    let end = play(&p, "c3-d2");
    assert_eq!(end.node(), NodeKind::Terminal);
    let o = end.outcome().expect("game over");
    assert_eq!(o.winner, Some(Player::FIRST));
    assert_eq!(o.points, Some([3, 0]));
    assert_eq!(o.reason, "second lock");
    assert_eq!(end.move_count(), 0);
    // The same for player 2, and read from text.
    let o = pos("WW2/WW2/2BB/2BB 1 c3-d2 -").outcome().unwrap();
    assert_eq!((o.winner, o.points), (Some(Player::SECOND), Some([0, 3])));
    // Any other move of that position does not end the game.
    let mut v = Vec::new();
    p.moves(&mut v);
    for m in v {
        let child = p.play(m);
        assert_eq!(
            child.node() == NodeKind::Terminal,
            p.move_text(m) == "c3-d2"
        );
    }
}

#[test]
fn a_blockade_wins_two_points() {
    // Without any lock: no piece can move.
    let o = pos("B1B1/1B1B/W1W1/1W1W 1 - -")
        .outcome()
        .expect("blockade");
    assert_eq!((o.winner, o.points), (Some(Player::SECOND), Some([0, 2])));
    assert_eq!(o.reason, "no legal move");
    // The only move, b2-c3, is forbidden by prohibition 1, then by 2.
    assert_eq!(move_texts(&pos("4/W2W/1WBB/W1BB 2 - -")).len(), 1);
    for text in ["4/W2W/1WBB/W1BB 1 c3-b2 -", "4/W2W/1WBB/W1BB 1 b3-c2 c3-b2"] {
        let o = pos(text).outcome().expect("blockade");
        assert_eq!(
            (o.winner, o.points),
            (Some(Player::SECOND), Some([0, 2])),
            "{text}"
        );
    }
    // Player 1's only move leaves player 2 without one.
    let p = pos("WW1W/4/BB1W/BB2 1 c3-d2 c4-a4");
    assert_eq!(move_texts(&p).len(), 1);
    let mut v = Vec::new();
    p.moves(&mut v);
    let o = p.play(v[0]).outcome().expect("blockade");
    assert_eq!((o.winner, o.points), (Some(Player::FIRST), Some([2, 0])));
}

#[test]
fn bad_positions_say_what_is_wrong() {
    let cases = [
        ("W2W/1BB1/1BB1/W2W 1 -", "fields"),
        ("W2W/1BB1/1BB1/W2W  1 - -", "fields"),
        ("W2W/1BB1/1BB1/W2W 3 - -", "side to move '3'"),
        ("W2W/1BB1/1BB1/W2X 1 - -", "unexpected character 'X'"),
        ("WWW/1BB1/1BB1/W2W 1 - -", "rank 4 has 3 squares"),
        ("W2W/1BB1/1BB1 1 - -", "3 ranks"),
        ("W2W/1BB1/1BB1/W3 1 - -", "3 white and 4 black"),
        ("W2W/BBB1/1BB1/W2W 1 - -", "4 white and 5 black"),
        ("W2W/1BB1/1BB1/W2W 1 e2-a3 -", "'e2' is not a node"),
        ("W2W/1BB1/1BB1/W2W 1 b2a3 -", "is not a move"),
        ("W2W/1BB1/1BB1/W2W 1 a1-b2 -", "neither a diagonal step"),
        ("W2W/1BB1/1BB1/W2W 1 a1-a2 -", "neither a diagonal step"),
        ("W2W/1BB1/1BB1/W2W 1 b2-a3 -", "ends on empty node a3"),
        ("W2W/BBB1/2B1/W2W 2 a1-a3 -", "starts on occupied node a1"),
        ("W2W/BBB1/2B1/1W1W 2 a1-a3 -", "jumps over an empty node"),
        ("W2W/BBB1/2B1/W2W 2 b2-a3 d3-a3", "both end on a3"),
        ("W2W/BBB1/2B1/W2W 2 b2-a3 b2-c1", "left empty"),
        ("W2W/BBB1/2B1/W2W 2 - c3-d2", "ends on empty node d2"),
    ];
    for (text, want) in cases {
        let e = Aporia::parse(text).expect_err(text).to_string();
        assert!(e.contains(want), "'{text}': '{e}' lacks '{want}'");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn bad_moves_say_what_is_wrong() {
    let p = Aporia::start();
    let cases = [
        ("b2a3", "is not a move"),
        ("b2-e5", "'e5' is not a node"),
        ("b1-c2", "no piece"),
        ("a1-b2", "neither a diagonal step"),
        ("b2-b3", "neither a diagonal step"),
        ("b2-b3-b4", "not a node"),
    ];
    for (text, want) in cases {
        let e = p.parse_move(text).expect_err(text).to_string();
        assert!(e.contains(want), "'{text}': '{e}' lacks '{want}'");
    }
    let over = pos("WW2/WW2/2BB/2BB 2 c3-d2 -");
    assert!(over
        .parse_move("a3-b2")
        .unwrap_err()
        .to_string()
        .contains("over"));
}

#[test]
fn a_move_becomes_the_last_move_and_the_last_move_the_own_last() {
    let p = ["b2-a3", "c2-d3"]
        .iter()
        .fold(Aporia::start(), |p, m| play(&p, m));
    let m = p.parse_move("b3-c4").unwrap();
    let child = p.play(m);
    assert_eq!(child.last(), Some(m));
    assert_eq!(child.own_last(), p.last());
    assert_eq!(child.side(), Player::SECOND);
    assert_eq!(child.text(), "W1BW/B1BB/4/W2W 2 b3-c4 c2-d3");
}

#[test]
fn move_fields_are_part_of_the_hash() {
    let a = pos("W2W/BBB1/2B1/W2W 2 b2-a3 -");
    let b = pos("W2W/BBB1/2B1/W2W 2 - -");
    let c = pos("W2W/BBB1/2B1/W2W 1 - -");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(b.hash(), c.hash());
    assert_eq!(play(&Aporia::start(), "b2-a3"), a);
    assert_eq!(a.hash(), a.hash_from_scratch());
}

#[test]
fn evaluation_sees_lock_threats_and_prohibitions() {
    let terms = TermMask::ALL;
    let ready = pos("WW2/WWB1/2B1/2BB 1 - -");
    let blocked = pos("WW2/WWB1/2B1/2BB 1 d2-c3 -");
    assert!(
        ready.evaluate(terms) > 1000,
        "a second lock is one move away"
    );
    assert!(blocked.evaluate(terms) < ready.evaluate(terms));
    // Switching the lock term off removes the bonus.
    let without = terms.without(0);
    assert!(ready.evaluate(without) < ready.evaluate(terms) - 1000);
    // Prohibitions cost the mover.
    let free = pos("W2W/BBB1/2B1/W2W 2 - -");
    let prohibited = pos("W2W/BBB1/2B1/W2W 2 b2-a3 -");
    let only = TermMask(1 << 2);
    assert!(prohibited.evaluate(only) < free.evaluate(only));
    assert_eq!(
        Aporia::TERMS,
        ["lock_threats", "mobility", "prohibitions", "tempo"]
    );
    // Lock moves are tried first.
    let mut v = Vec::new();
    ready.moves(&mut v);
    let best = v.iter().max_by_key(|&&m| ready.move_hint(m)).unwrap();
    assert_eq!(ready.move_text(*best), "c3-d2");
    assert!(v.iter().filter(|&&m| ready.move_hint(m) > 0).count() == 1);
}

#[test]
fn evaluation_stays_within_the_limit() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut buf = Vec::new();
    for _ in 0..200 {
        let mut p = Aporia::start();
        while p.node() != NodeKind::Terminal {
            for mask in [
                TermMask::ALL,
                TermMask(1),
                TermMask(2),
                TermMask(4),
                TermMask(0),
            ] {
                assert!(p.evaluate(mask).abs() <= EVAL_LIMIT);
            }
            p.moves(&mut buf);
            p = p.play(buf[rng.gen_range(0..buf.len())]);
        }
    }
}

#[test]
fn random_games_keep_every_invariant() {
    // Random games end within a few hundred plies (see the soak below).
    let finished = common::random_games(&Aporia::start(), 2000, 2000, 11, true);
    assert!(finished >= 1990, "{finished} of 2000 games finished");
}

/// 10,000 random games to the end, capped at 2,000 plies: random play on
/// these 16 nodes ends almost always by then (about 2 games in 1,000 still
/// run). Checks the counting against the listing, the hash, and the outcome
/// against the board.
#[test]
fn random_soak() {
    let mut rng = SmallRng::seed_from_u64(20261122);
    let mut buf = Vec::new();
    let (mut second_locks, mut blockades, mut open) = (0, 0, 0);
    for _ in 0..10_000 {
        let mut p = Aporia::start();
        for _ in 0..2000 {
            p.moves(&mut buf);
            assert_eq!(p.move_count(), buf.len(), "{}", p.text());
            assert_eq!(p.hash(), p.hash_from_scratch(), "{}", p.text());
            if buf.is_empty() {
                break;
            }
            p = p.play(buf[rng.gen_range(0..buf.len())]);
        }
        match p.outcome() {
            None => open += 1,
            Some(o) => {
                let mover = p.side().other();
                assert_eq!(o.winner, Some(mover));
                if p.locked().count() == 8 {
                    assert_eq!(o.points.unwrap()[mover.index()], 3);
                    second_locks += 1;
                } else {
                    assert_eq!(o.points.unwrap()[mover.index()], 2);
                    blockades += 1;
                }
            }
        }
    }
    assert!(
        second_locks > 1000 && blockades > 5000,
        "{second_locks} {blockades}"
    );
    assert!(open < 100, "{open} games still running after 2000 plies");
}

fn search_to(p: &Aporia, depth: u32) -> (Move, i32) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = search::search(
        p,
        &limits,
        &Config::for_game::<Aporia>(1).exact(),
        &Table::new(4),
        |_| {},
    );
    (r.best, r.score)
}

#[test]
fn search_takes_the_second_lock_and_agrees_with_minimax() {
    let ready = pos("WW2/WWB1/2B1/2BB 1 - -");
    let (best, _) = search_to(&ready, 3);
    assert_eq!(ready.move_text(best), "c3-d2");
    // Alpha-beta with every heuristic returns the plain minimax value, on
    // the suite's positions that are still open.
    let quiescence = Config::for_game::<Aporia>(1).quiescence;
    for (line, text, _) in common::suite_entries("aporia.perft") {
        let p = pos(&text);
        if p.node() == NodeKind::Terminal {
            continue;
        }
        for depth in 1..=3 {
            let (_, score) = search_to(&p, depth);
            let plain = common::minimax(&p, depth as i32, 0, quiescence);
            assert_eq!(score, plain, "line {line} depth {depth}: {text}");
        }
    }
}
