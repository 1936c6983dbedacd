//! Epaminondas: the perft suite, rule cases on concrete positions, text
//! errors, and random games checked position by position.

use crate::common;

use gamut_core::game::{Game, NodeKind, Notation, Player};
use gamut_core::perft::perft;
use gamut_games::epaminondas::Epaminondas;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Counts above this many leaves are left to the command line (the start
/// position at depth 4, the random positions' depth 4): the rest of the
/// suite runs in a few seconds in release.
const LEAF_BUDGET: u64 = 12_000_000;

/// Position text with the given White and Black stones and side to move.
fn position(white: &[&str], black: &[&str], side: char) -> Epaminondas {
    let mut cells = [['.'; 14]; 12];
    for (stones, c) in [(white, 'W'), (black, 'B')] {
        for sq in stones {
            let f = (sq.as_bytes()[0] - b'a') as usize;
            let r: usize = sq[1..].parse().unwrap();
            cells[r - 1][f] = c;
        }
    }
    let rows: Vec<String> = (0..12)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut run = 0;
            for &c in &cells[r] {
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(c);
            }
            if run > 0 {
                row += &run.to_string();
            }
            row
        })
        .collect();
    Epaminondas::parse(&format!("{} {side}", rows.join("/"))).unwrap()
}

/// The sorted texts of the legal moves.
fn moves(p: &Epaminondas) -> Vec<String> {
    let mut v = Vec::new();
    p.moves(&mut v);
    let mut t: Vec<String> = v.into_iter().map(|m| p.move_text(m)).collect();
    t.sort();
    t
}

fn has(p: &Epaminondas, text: &str) -> bool {
    moves(p).iter().any(|m| m == text)
}

#[test]
fn suite_counts_match() {
    let checked = common::check_suite::<Epaminondas>("epaminondas.perft", LEAF_BUDGET);
    assert!(checked >= 100, "only {checked} counts checked");
}

#[test]
fn start_position_counts() {
    let p = Epaminondas::start();
    assert_eq!(
        p.text(),
        "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w"
    );
    assert_eq!(perft(&p, 1), 114);
    assert_eq!(perft(&p, 2), 12_996);
    let m = moves(&p);
    for t in [
        "a1-a3", "a1-a4", "a2-a3", "a1-c3", "n1-l3", "l1-n3", "b2-a3",
    ] {
        assert!(m.iter().any(|x| x == t), "{t} missing");
    }
    // m1-n2 lands on an own stone; a pair moves at most two (a1-e5); m2 (the head
    // of l1-m2) cannot move two squares north-east off the board.
    for t in ["m1-n2", "a1-a5", "l1-o4", "a1-e5"] {
        assert!(!m.iter().any(|x| x == t), "{t} listed");
    }
}

#[test]
fn a_line_moves_any_front_part_at_most_its_length() {
    let p = position(&["d1", "d2", "d3", "d4", "d5"], &["k12"], 'w');
    let north: Vec<String> = moves(&p)
        .into_iter()
        .filter(|m| m.as_bytes()[0] == b'd' && m.ends_with(|c: char| c.is_ascii_digit()))
        .filter(|m| m[3..].starts_with('d'))
        .collect();
    // Tails d5 (1 stone: 1 square) .. d1 (5 stones: up to 5 squares), all
    // landing in file d above d5; the rear stones cannot move north alone.
    let mut expect = vec![];
    for (tail, k) in [(5, 1), (4, 2), (3, 3), (2, 4), (1, 5)] {
        for s in 1..=k {
            expect.push(format!("d{tail}-d{}", 5 + s));
        }
    }
    expect.sort();
    assert_eq!(north, expect);
}

#[test]
fn captures_need_a_longer_phalanx() {
    // Three white stones c3-c5 against two black ones: c3xc7 takes both.
    let p = position(&["c3", "c4", "c5"], &["c7", "c8", "a12"], 'w');
    assert!(has(&p, "c3xc7"));
    assert!(!has(&p, "c4xc7"), "two stones cannot take two");
    assert!(
        !has(&p, "c3-c8") && !has(&p, "c3xc8"),
        "no passing an enemy"
    );
    let after = p.play(p.parse_move("c3xc7").unwrap());
    assert_eq!(after.stones(Player::SECOND).count(), 1);
    assert_eq!(after.stones(Player::FIRST).count(), 3);
    // Against three black stones the same phalanx of three cannot capture.
    let q = position(&["c3", "c4", "c5"], &["c7", "c8", "c9", "a12"], 'w');
    assert!(!has(&q, "c3xc7"));
    assert_eq!(
        q.parse_move("c3xc7").unwrap_err().0,
        "'c3xc7': 3 stone(s) cannot capture a line of 3"
    );
    // A single stone never captures, even a single stone.
    let r = position(&["e5"], &["e6", "a12"], 'w');
    assert!(!has(&r, "e5xe6") && !has(&r, "e5-e6"));
    // Diagonal: three on a1-c3 take two on d4, e5 and stop on d4.
    let s = position(&["a1", "b2", "c3"], &["d4", "e5", "n12"], 'w');
    let t = s.play(s.parse_move("a1xd4").unwrap());
    assert_eq!(
        t.text(),
        Epaminondas::parse("13B/14/14/14/14/14/14/14/3W10/2W11/1W12/14 b")
            .unwrap()
            .text()
    );
}

#[test]
fn symmetry_rule_forbids_exactly_the_mirror_move() {
    // g11-g12 would give White g12, h12 against Black a1, n1: symmetric.
    let p = position(&["g11", "h12"], &["a1", "n1"], 'w');
    let forbidden = "g11-g12";
    assert!(!has(&p, forbidden));
    assert_eq!(
        p.parse_move(forbidden).unwrap_err().0,
        "'g11-g12': forbidden by the symmetry rule"
    );
    // The same position with one extra black stone: every move of the
    // original is still there, plus g11-g12 and nothing else.
    let q = position(&["g11", "h12"], &["a1", "n1", "d5"], 'w');
    let mut expect = moves(&p);
    expect.push(forbidden.to_string());
    expect.sort();
    assert_eq!(moves(&q), expect);
    // A pair reaching the row: g9-g12 would mirror h11, h12.
    let r = position(&["g9", "g10", "h11", "h12"], &["a1", "n1"], 'w');
    assert!(!has(&r, "g9-g12"));
    assert!(has(&r, "g9-g11") && has(&r, "g10-g11"));
    // Symmetry off the far row is no matter: g10-g11 is legal.
    let s = position(&["g10", "h11"], &["a3", "n3"], 'w');
    assert!(has(&s, "g10-g11"));
    // Black onto rank 1, and a capture landing there.
    let b = position(&["a12", "n12"], &["g2", "h1"], 'b');
    assert!(!has(&b, "g2-g1") && has(&b, "g2-f1"));
    let c = position(&["g1", "a12", "n12"], &["g2", "g3", "h1", "h2"], 'b');
    assert!(!has(&c, "g3xg1"));
    let c2 = position(&["g1", "a12", "n12"], &["g2", "g3", "h1", "h2", "m6"], 'b');
    assert!(has(&c2, "g3xg1"));
}

#[test]
fn home_row_win_is_checked_for_the_side_to_move_only() {
    let won = position(&["c12", "d6"], &["e5"], 'w');
    assert_eq!(won.node(), NodeKind::Terminal);
    let o = won.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::FIRST), "home row"));
    assert!(moves(&won).is_empty());
    assert_eq!(won.move_count(), 0);
    // Black to move on the same board plays on (and may capture c12).
    let on = position(&["c12", "d6"], &["e5"], 'b');
    assert_eq!(on.node(), NodeKind::Decision(Player::SECOND));
    // One each on the home rows: a tie, no win.
    let tie = position(&["c12", "d6"], &["e5", "a1"], 'w');
    assert_eq!(tie.node(), NodeKind::Decision(Player::FIRST));
    // Reaching the row wins only at the mover's next turn, if it survives.
    let p = position(&["c11", "d6"], &["e5", "n12"], 'w');
    let q = p.play(p.parse_move("c11-c12").unwrap());
    assert_eq!(q.node(), NodeKind::Decision(Player::SECOND));
    let r = q.play(q.parse_move("e5-e4").unwrap());
    assert_eq!(r.outcome().unwrap().winner, Some(Player::FIRST));
    // The home-row rule comes before the no-move rule.
    let hemmed = position(&["c12"], &["b12", "d12", "b11", "c11", "d11"], 'w');
    assert_eq!(hemmed.outcome().unwrap().reason, "home row");
}

#[test]
fn a_side_without_moves_loses() {
    let none = position(&[], &["c4"], 'w');
    let o = none.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::SECOND), "no move"));
    let hemmed = position(&["a1"], &["a2", "b2", "b1", "m12"], 'w');
    assert_eq!(hemmed.node(), NodeKind::Terminal);
    assert_eq!(hemmed.outcome().unwrap().winner, Some(Player::SECOND));
    assert_eq!(perft(&hemmed, 3), 0);
}

#[test]
fn bad_position_texts_say_what_is_wrong() {
    let start = Epaminondas::start().text();
    let cases: [(String, &str); 8] = [
        (
            start.replace(" w", " x"),
            "side to move 'x' is not 'w' or 'b'",
        ),
        (start.replace(" w", ""), "position needs 2 fields"),
        (start.replace(" w", "  w"), "position needs 2 fields"),
        (
            start.replacen("14/", "13/", 1),
            "rank 10 has 13 squares, expected 14",
        ),
        (
            start.replacen("14/", "15/", 1),
            "rank 10 is longer than 14 squares",
        ),
        (
            start.replacen("14/", "14/14/", 1),
            "board has 13 ranks, expected 12",
        ),
        (
            start.replacen("14/", "13X/", 1),
            "rank 10: unexpected character 'X'",
        ),
        (
            start.replacen("14/", "W13/", 1),
            "White has 29 stones, at most 28",
        ),
    ];
    for (text, want) in cases {
        let err = Epaminondas::parse(&text).unwrap_err().0;
        assert!(err.contains(want), "'{text}': got '{err}', want '{want}'");
    }
}

#[test]
fn bad_move_texts_say_what_is_wrong() {
    let p = position(&["b4", "c3", "c4", "c5", "e4"], &["c7", "c8", "a12"], 'w');
    let cases = [
        ("c3c7", "is not '<tail>-<landing>' or '<tail>x<landing>'"),
        ("c0-c7", "'c0-c7': tail: 'c0' is not a square"),
        ("c3-p7", "landing: 'p7' is not a square"),
        ("d3-d4", "d3 holds no stone of the side to move"),
        ("c3-d5", "d5 is not on a line from c3"),
        ("c3-c4", "c4 holds a stone of the moving line"),
        ("c5-c7", "1 stone(s) move at most 1 square(s), not 2"),
        ("c3-c7", "the move captures: write c3xc7"),
        ("e4xe5", "e5 is empty: write e4-e5"),
        ("c3xc8", "the way is blocked at c7"),
        ("b4-e4", "e4 holds a stone of the side to move"),
    ];
    for (text, want) in cases {
        let err = p.parse_move(text).unwrap_err().0;
        assert!(err.contains(want), "'{text}': got '{err}', want '{want}'");
    }
    let won = position(&["c12"], &["e5"], 'w');
    assert!(won
        .parse_move("c12-d12")
        .unwrap_err()
        .0
        .contains("game is over"));
}

#[test]
fn a_move_naming_a_stone_inside_its_line_says_which_stone_to_name() {
    let p = position(&["b4", "c3", "c4", "c5", "e4"], &["c7", "c8", "a12"], 'w');
    let err = p.parse_move("c5-c7").unwrap_err().0;
    assert!(
        err.contains("c5 is not the rear stone of the line: name c3, write c3xc7"),
        "{err}"
    );
    let err = p.parse_move("c4xc7").unwrap_err().0;
    assert!(err.contains("name c3, write c3xc7"), "{err}");
    let start = Epaminondas::start();
    let err = start.parse_move("b2-b4").unwrap_err().0;
    assert!(err.contains("name b1, write b1-b4"), "{err}");
    // A tail that is the rear stone gets no such hint.
    let err = p.parse_move("c3xc8").unwrap_err().0;
    assert!(!err.contains("rear stone"), "{err}");
    let err = p.parse_move("e4-e6").unwrap_err().0;
    assert!(!err.contains("rear stone"), "{err}");
}

/// Every (tail, landing) pair of a position: `parse_move` (a square-by-square
/// check of the rules) accepts it exactly when the bitboard generator lists
/// it.
fn generator_agrees_with_square_checks(p: &Epaminondas) {
    let legal = moves(p);
    let squares: Vec<String> = (0..12)
        .flat_map(|r| (0..14).map(move |f| format!("{}{}", (b'a' + f) as char, r + 1)))
        .collect();
    let mut accepted = Vec::new();
    for a in &squares {
        for b in &squares {
            for sep in ['-', 'x'] {
                let t = format!("{a}{sep}{b}");
                if p.parse_move(&t).is_ok() {
                    accepted.push(t);
                }
            }
        }
    }
    accepted.sort();
    assert_eq!(accepted, legal, "at {}", p.text());
}

#[test]
fn generator_agrees_with_square_checks_along_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut buf = Vec::new();
    for _ in 0..6 {
        let mut p = Epaminondas::start();
        let mut ply = 0;
        while p.node() != NodeKind::Terminal {
            if ply % 40 == 0 {
                generator_agrees_with_square_checks(&p);
            }
            p = common::random_child(&p, &mut rng, &mut buf);
            ply += 1;
        }
    }
    for e in common::suite_entries("epaminondas.perft") {
        let p = Epaminondas::parse(&e.1).unwrap();
        if p.node() != NodeKind::Terminal {
            generator_agrees_with_square_checks(&p);
        }
    }
}

/// Random games from the start end well within this many plies: in the
/// 10,000 seeded games below the longest takes 1,625 plies (the median
/// about 410). A game without a draw rule could in principle go on for ever,
/// so the soak counts the games that pass the cap and requires none.
const PLY_CAP: usize = 5_000;

#[test]
fn random_games_keep_text_hash_and_moves_consistent() {
    // Full checks on every position of 800 games, each cut at 60 plies to
    // keep the test short (the soak below plays games to the end).
    let finished = common::random_games(&Epaminondas::start(), 800, 60, 0xe9a, true);
    assert!(finished < 800);
}

#[test]
#[ignore = "long check"]
fn long_more_random_games_keep_text_hash_and_moves_consistent() {
    let finished = common::random_games(&Epaminondas::start(), 5_000, 60, 0xe9b, true);
    assert!(finished < 5_000);
}

#[test]
fn random_games_soak_to_the_end() {
    soak_to_the_end(4_000, 0x50a6);
}

#[test]
#[ignore = "long check"]
fn long_more_random_games_soak_to_the_end() {
    soak_to_the_end(20_000, 0x50a7);
}

/// `games` random games from the start, played to their end (within
/// [`PLY_CAP`]), each won by a side.
fn soak_to_the_end(games: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut unfinished = 0;
    let mut longest = 0;
    for _ in 0..games {
        let mut p = Epaminondas::start();
        let mut plies = 0;
        while p.node() != NodeKind::Terminal && plies < PLY_CAP {
            p = common::random_child(&p, &mut rng, &mut buf);
            plies += 1;
        }
        match p.outcome() {
            Some(o) => assert!(o.winner.is_some(), "Epaminondas has no drawn end"),
            None => unfinished += 1,
        }
        longest = longest.max(plies);
    }
    println!("longest game: {longest} plies");
    assert_eq!(unfinished, 0, "games still running after {PLY_CAP} plies");
}
