//! Apart: the perft suite, hand-made rule cases, text parsing, the
//! evaluation, and random games with full checks.

use crate::common;

use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::{Game, NodeKind, Notation, Player};
use gamut_core::perft::perft;
use gamut_games::apart::Apart;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn pos(text: &str) -> Apart {
    Apart::parse(text).unwrap_or_else(|e| panic!("'{text}': {e}"))
}

fn texts(p: &Apart) -> Vec<String> {
    let mut v = Vec::new();
    p.moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| p.move_text(m)).collect();
    t.sort();
    t
}

fn play(p: &Apart, text: &str) -> Apart {
    p.play(p.parse_move(text).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn perft_suite_within_a_leaf_budget() {
    let checked = common::check_suite::<Apart>("apart.perft", 100_000_000);
    assert_eq!(checked, 173, "every count is within the budget");
}

#[test]
fn start_position_and_its_text() {
    let p = Apart::start();
    assert_eq!(p.text(), "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w 1");
    assert_eq!(p.node(), NodeKind::Decision(Player::FIRST));
    assert_eq!(perft(&p, 2), 3280);
}

#[test]
fn lines_set_the_distance() {
    // b1 is on a rank of six, a file of two, a diagonal of two (b1 c2) and
    // an anti-diagonal of one (a2 is empty).
    let t = texts(&Apart::start());
    for m in [
        "b1-h1", "b1-b3", "b1-d3", "b1-a2", "c2-c4", "g2-g4", "b2-b4",
    ] {
        assert!(t.contains(&m.to_string()), "{m} missing");
    }
    // Moving one square where the line is longer than one is not a move.
    assert!(Apart::start().parse_move("b2-b3").is_err());
}

#[test]
fn first_move_cannot_chain() {
    let first = Apart::start();
    let mut v = Vec::new();
    first.moves(&mut v);
    assert!(v.iter().all(|m| m.legs() == 1));
    assert_eq!(v.len(), 40);
    // The same board later in the game: b1-b3 then b3 (with b2) jumps on.
    let later = pos("1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w -");
    assert!(texts(&later).contains(&"b1-b3-b5".to_string()));
    assert!(first.parse_move("b1-b3-b5").is_err());
    assert!(first.parse_move("b1-b3").is_ok());
    // After the first move the flag is gone.
    assert!(!play(&first, "b1-b3").is_first_move());
    assert!(Apart::parse("1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 b 1").is_err());
}

#[test]
fn a_chain_never_lands_twice() {
    // White a3 b3 c2 c6, Black g8 h8.
    let p = pos("6BB/8/2W5/8/8/WW6/2W5/8 w -");
    let a3: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("a3"))
        .collect();
    // Not a3-c3-a3 (the start), a3-c3-c5-c3 or a3-c3-c5-c7-c5 (landed on).
    let expected = [
        "a3-a2",
        "a3-a4",
        "a3-b2",
        "a3-b4",
        "a3-c3",
        "a3-c3-c1",
        "a3-c3-c5",
        "a3-c3-c5-c7",
        "a3-c3-e3",
    ];
    assert_eq!(a3, expected);
    assert!(p.parse_move("a3-c3-c5-c3").is_err());
    assert!(p.parse_move("a3-c3-c5-c7-c5").is_err());
}

#[test]
fn the_start_square_counts_as_visited() {
    // d4 jumps to b4 along d4 e4; at b4 the line a4 b4 would carry it back
    // to d4, its start square.
    let p = pos("6BB/8/8/8/W2WW3/8/8/8 w -");
    let t = texts(&p);
    assert!(t.contains(&"d4-b4".to_string()));
    assert!(!t.iter().any(|m| m.starts_with("d4-b4-")), "{t:?}");
    let err = p.parse_move("d4-b4-d4").unwrap_err();
    assert!(err.0.contains("visited"), "{err}");
}

#[test]
fn a_single_step_never_continues_a_chain() {
    // a1 jumps to c1 along a1 b1; at c1 its rank (b1 c1) and file (c1 c2)
    // carry it two squares on, while its diagonals (length 1) give no leg.
    let p = pos("6BB/8/8/8/8/8/2W5/WW6 w -");
    for m in texts(&p) {
        let path: Vec<&str> = m.split(['-', 'x']).collect();
        for leg in path.windows(2).skip(1) {
            let (a, b) = (leg[0].as_bytes(), leg[1].as_bytes());
            let dist = (i32::from(a[0]) - i32::from(b[0]))
                .abs()
                .max((i32::from(a[1]) - i32::from(b[1])).abs());
            assert!(dist >= 2, "{m}: a later leg is a single step");
        }
    }
    assert!(p.parse_move("a1-c1-c3").is_ok());
}

#[test]
fn captures_happen_along_the_path() {
    // White a1 b1, Black c1 d1 (and g8 h8): a1 jumps onto c1 and captures;
    // there its line is b1 c1, so it may jump on over d1 to e1.
    let p = pos("6BB/8/8/8/8/8/8/WWBB4 w -");
    let t = texts(&p);
    assert!(t.contains(&"a1xc1".to_string()));
    assert!(t.contains(&"a1xc1-e1".to_string()));
    assert!(
        p.parse_move("a1-c1").is_err(),
        "a capture must be written x"
    );
    let after = play(&p, "a1xc1-e1");
    assert_eq!(after.text(), "6BB/8/8/8/8/8/8/1W1BW3 b -");
    // White b1 e1 are apart, Black d1 g8 h8 are not: White wins.
    assert_eq!(after.node(), NodeKind::Terminal);
    assert_eq!(after.outcome().unwrap().winner, Some(Player::FIRST));
}

#[test]
fn both_apart_the_mover_loses() {
    // White d4 e4, Black b4 b5: d4xb4 leaves White b4 e4 and Black b5.
    let p = pos("8/8/8/1B6/1B1WW3/8/8/8 w -");
    let after = play(&p, "d4xb4");
    assert!(after.is_apart(Player::FIRST) && after.is_apart(Player::SECOND));
    assert_eq!(after.node(), NodeKind::Terminal);
    assert_eq!(after.outcome().unwrap().winner, Some(Player::SECOND));
    assert_eq!(perft(&after, 1), 0);
}

#[test]
fn only_the_mover_apart_the_mover_wins() {
    let p = pos("8/8/8/8/3WW3/8/8/6BB w -");
    let after = play(&p, "d4-b4");
    assert_eq!(after.outcome().unwrap().winner, Some(Player::FIRST));
    // A move that keeps White together does not end the game.
    assert_eq!(play(&p, "d4-d5").node(), NodeKind::Decision(Player::SECOND));
}

#[test]
fn only_the_opponent_apart_the_opponent_wins() {
    // White d4 e4 e5, Black b4 b5: d4xb4 leaves Black b5 alone while White
    // e4 e5 still touch.
    let p = pos("8/8/8/1B2W3/1B1WW3/8/8/8 w -");
    let after = play(&p, "d4xb4");
    assert!(!after.is_apart(Player::FIRST));
    assert_eq!(after.outcome().unwrap().winner, Some(Player::SECOND));
    // Every White move on a board full of White captures a piece of the
    // pair g8 h8, and so hands Black the game.
    let full = pos("WWWWWWBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW w -");
    let mut v = Vec::new();
    full.moves(&mut v);
    assert!(!v.is_empty());
    for m in v {
        assert_eq!(full.play(m).outcome().unwrap().winner, Some(Player::SECOND));
    }
}

#[test]
fn a_position_with_a_player_apart_is_over() {
    // Side not to move apart: it made the last move and wins.
    let p = pos("1B1B4/8/8/8/8/8/8/WW6 w -");
    assert_eq!(p.node(), NodeKind::Terminal);
    assert_eq!(p.outcome().unwrap().winner, Some(Player::SECOND));
    assert_eq!(p.move_count(), 0);
    assert!(p.parse_move("a1-c1").is_err());
    // No pieces is apart.
    let empty = pos("8/8/8/8/8/8/8/WW6 b -");
    assert_eq!(empty.outcome().unwrap().winner, Some(Player::SECOND));
    // Both apart: the side not to move made the last move and lost.
    let both = pos("1W1W4/8/8/8/8/8/8/B1B5 b -");
    assert_eq!(both.outcome().unwrap().winner, Some(Player::SECOND));
    // Nobody apart: the game goes on.
    assert_eq!(Apart::start().outcome(), None);
}

#[test]
fn a_side_that_is_not_apart_always_has_a_move() {
    // docs/rules/apart.md: only a side filling the whole board is stuck.
    // Dense random boards come closest; none may be a stuck decision node.
    let mut x = 0x5eedu64;
    let mut draw = || {
        x = gamut_core::bits::splitmix64(x);
        x
    };
    let mut tried = 0;
    for i in 0..40_000 {
        let holes = draw() & draw() & if i % 2 == 0 { draw() } else { u64::MAX };
        // The side to move holds the dense set.
        let (dense, sparse) = (!holes, holes & draw());
        let side = Player::from_index(i);
        let (white, black) = if side == Player::FIRST {
            (dense, sparse)
        } else {
            (sparse, dense)
        };
        let p = Apart::new(white, black, side, false).unwrap();
        if p.node() != NodeKind::Terminal {
            tried += 1;
            assert!(p.move_count() > 0, "{}", p.text());
        }
    }
    assert!(tried > 200, "{tried}");
    // The full board: Black has no pieces, so it is apart and the game over.
    let full = pos("WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW b -");
    assert_eq!(full.node(), NodeKind::Terminal);
}

#[test]
fn bad_position_texts_are_rejected() {
    for bad in [
        "",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1  w 1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w 1 ",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 x 1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w 2",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 b 1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1 w 1",
        "1BBBBBB1/1BBBBBB1/9/8/8/8/1WWWWWW1/1WWWWWW1 w 1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWX1 w 1",
        "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWw1 w 1",
        "1BBBBBB1/1BBBBBB1/44/8/8/8/1WWWWWW1/1WWWWWW1 w 1",
        "ü",
    ] {
        let e = Apart::parse(bad).expect_err(bad);
        assert!(!e.0.is_empty() && !e.0.contains('\n'), "{bad}: {e}");
    }
}

#[test]
fn bad_move_texts_are_rejected() {
    let p = pos("6BB/8/8/8/8/8/8/WWBB4 w -");
    for bad in [
        "",
        "a1",
        "a1-",
        "a1xc1-",
        "a1c1",
        "a1-c1",
        "a1xc1-e1-",
        "a1xc1xe1",
        "a1+c1",
        "i1-c1",
        "a1-c9",
        "c1-e1",
        "b1-c1",
        "a1-b2-c3",
        "a1xc1-e1-e3",
        "a1-a3",
        "ü1-a2",
        "a1-a2ü",
    ] {
        let e = p.parse_move(bad).expect_err(bad);
        assert!(!e.0.contains('\n'), "{bad}: {e}");
    }
}

#[test]
fn moves_are_unique_and_paths_distinct() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut buf = Vec::new();
    for _ in 0..40 {
        let mut p = Apart::start();
        while p.node() != NodeKind::Terminal {
            let t = texts(&p);
            let mut dedup = t.clone();
            dedup.dedup();
            assert_eq!(dedup.len(), t.len(), "a move twice at {}", p.text());
            for m in &t {
                let mut squares: Vec<&str> = m.split(['-', 'x']).collect();
                squares.sort();
                let n = squares.len();
                squares.dedup();
                assert_eq!(squares.len(), n, "{m} visits a square twice");
            }
            p = common::random_child(&p, &mut rng, &mut buf);
        }
    }
}

#[test]
fn evaluation_is_bounded_and_terms_switch() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut buf = Vec::new();
    let mut changed = [false; 3];
    for _ in 0..30 {
        let mut p = Apart::start();
        while p.node() != NodeKind::Terminal {
            let all = p.evaluate(TermMask::ALL);
            assert!(all.abs() <= EVAL_LIMIT);
            for (i, c) in changed.iter_mut().enumerate() {
                let v = p.evaluate(TermMask::ALL.without(i));
                assert!(v.abs() <= EVAL_LIMIT);
                *c |= v != all;
            }
            assert_eq!(p.evaluate(TermMask(0)), 0);
            p = common::random_child(&p, &mut rng, &mut buf);
        }
    }
    assert_eq!(changed, [true; 3], "{:?}", Apart::TERMS);
    // The side closer to apart scores better: White f1 g1 touch once,
    // Black a4 b4 b5 three times.
    let p = pos("8/8/8/1B6/BB6/8/8/3W1WW1 w -");
    assert!(p.evaluate(TermMask(1)) > 0);
}

#[test]
fn hints_rank_winning_moves_and_captures_first() {
    let p = pos("8/8/8/8/3WW3/8/8/6BB w -");
    let win = p.parse_move("d4-b4").unwrap();
    let quiet = p.parse_move("d4-d5").unwrap();
    assert!(p.move_hint(win) > p.move_hint(quiet));
    let q = pos("6BB/8/8/8/8/8/8/WWBB4 w -");
    let capture = q.parse_move("a1xc1").unwrap();
    let step = q.parse_move("b1-b2").unwrap();
    assert!(q.move_hint(capture) > q.move_hint(step));
}

#[test]
fn random_games_with_full_checks() {
    let finished = common::random_games(&Apart::start(), 700, 1_000, 0xa9a7, true);
    assert_eq!(finished, 700);
}

#[test]
#[ignore = "long check"]
fn long_more_random_games_with_full_checks() {
    let finished = common::random_games(&Apart::start(), 4_000, 1_000, 0xa9a8, true);
    assert_eq!(finished, 4_000);
}

#[test]
fn random_soak_reaches_the_end() {
    let finished = common::random_games(&Apart::start(), 10_000, 1_000, 0x50a6, false);
    assert_eq!(finished, 10_000);
}
