//! The plain Epaminondas generator in `naive/epaminondas.rs` against the
//! spec's known counts, hand-made rule cases, and `positions/epaminondas.perft`.

use crate::naive::epaminondas as naive;
use crate::naive::suite;

const START: &str =
    "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w";

/// Position text with the given white and black stones and side to move.
fn position(white: &[&str], black: &[&str], side: char) -> String {
    let mut board = [['.'; 14]; 12];
    for (stones, ch) in [(white, 'W'), (black, 'B')] {
        for sq in stones {
            let file = (sq.as_bytes()[0] - b'a') as usize;
            let rank: usize = sq[1..].parse().unwrap();
            board[rank - 1][file] = ch;
        }
    }
    let mut rows = Vec::new();
    for rank in (0..12).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for &c in &board[rank] {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                row += &empty.to_string();
                empty = 0;
            }
            row.push(c);
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!("{} {side}", rows.join("/"))
}

fn has(moves: &[String], text: &str) -> bool {
    moves.iter().any(|m| m == text)
}

#[test]
fn start_counts_match_the_spec() {
    assert_eq!(naive::perft(START, 0), 1);
    assert_eq!(naive::perft(START, 1), 114);
    assert_eq!(naive::perft(START, 2), 12_996);
    assert_eq!(naive::perft(START, 3), 1_787_292);
}

#[test]
fn start_divide_sums_to_perft_and_names_moves_by_tail_and_landing() {
    let divide = naive::divide(START, 2);
    assert_eq!(divide.len(), 114);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 12_996);
    let names: Vec<String> = divide.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(names, naive::moves(START));
    // The column a1-a2 moves one (a1-a3) or two (a1-a4); a2 alone moves one.
    for m in ["a1-a3", "a1-a4", "a2-a3", "a2-b3", "a1-c3", "n1-l3"] {
        assert!(has(&names, m), "{m} missing");
    }
    assert!(
        !has(&names, "a1-a5"),
        "a two-stone phalanx moves at most two"
    );
}

#[test]
fn a_pair_moves_each_stone_alone_and_both_together() {
    let pos = position(&["c3", "c4"], &["k10"], 'w');
    let alone_c4 = [
        "c4-c5", "c4-d5", "c4-d4", "c4-d3", "c4-b3", "c4-b4", "c4-b5",
    ];
    let alone_c3 = [
        "c3-d4", "c3-d3", "c3-d2", "c3-c2", "c3-b2", "c3-b3", "c3-b4",
    ];
    let both = ["c3-c5", "c3-c6", "c4-c2", "c4-c1"];
    let mut expected: Vec<String> = alone_c4
        .iter()
        .chain(&alone_c3)
        .chain(&both)
        .map(|s| s.to_string())
        .collect();
    expected.sort();
    assert_eq!(naive::moves(&pos), expected);
}

#[test]
fn a_phalanx_captures_only_a_shorter_enemy_run() {
    let pos = position(&["c3", "c4", "c5"], &["c7", "c8"], 'w');
    let moves = naive::moves(&pos);
    assert!(has(&moves, "c3xc7"), "three stones take two");
    assert!(has(&moves, "c3-c6"));
    assert!(has(&moves, "c4-c6"));
    assert!(has(&moves, "c5-c6"));
    assert!(!has(&moves, "c4xc7"), "two stones may not take two");
    assert!(!has(&moves, "c4-c7"));
    assert!(
        !has(&moves, "c3-c8") && !has(&moves, "c3xc8"),
        "no passing an enemy"
    );
    // The capture removes both black stones: Black then has no move.
    let divide = naive::divide(&pos, 2);
    let after = divide.iter().find(|(m, _)| m == "c3xc7").unwrap();
    assert_eq!(after.1, 0);
}

#[test]
fn a_single_stone_never_captures() {
    let pos = position(&["e4", "e5", "g4"], &["e6", "h5"], 'w');
    let moves = naive::moves(&pos);
    assert!(has(&moves, "e4xe6"), "two stones take one");
    assert!(!has(&moves, "e5xe6") && !has(&moves, "e5-e6"));
    assert!(!has(&moves, "g4xh5") && !has(&moves, "g4-h5"));
}

#[test]
fn reaching_the_home_row_into_mirror_symmetry_is_illegal() {
    let pos = position(&["h12", "g11"], &["a1", "n1"], 'w');
    let moves = naive::moves(&pos);
    assert!(!has(&moves, "g11-g12"), "g12 with h12 mirrors a1/n1");
    assert!(has(&moves, "g11-f12"));
    // With the symmetry broken the same move is legal.
    let broken = position(&["h12", "g11"], &["a1", "n1", "a5"], 'w');
    assert!(has(&naive::moves(&broken), "g11-g12"));
    // Black is bound the same way on rank 1.
    let black = position(&["a12", "n12"], &["h1", "g2"], 'b');
    let moves = naive::moves(&black);
    assert!(!has(&moves, "g2-g1"));
    assert!(has(&moves, "g2-f1"));
}

#[test]
fn mirror_symmetry_away_from_the_home_row_is_allowed() {
    let pos = position(&["g5", "h4"], &["a9", "n9"], 'w');
    assert!(has(&naive::moves(&pos), "h4-h5"));
}

#[test]
fn home_row_rule_checks_only_the_side_to_move() {
    // White to move with one stone on rank 12 and no black stone on rank 1: won.
    let won = position(&["a12"], &["c5"], 'w');
    assert!(naive::moves(&won).is_empty());
    assert_eq!(naive::perft(&won, 0), 1);
    assert_eq!(naive::perft(&won, 1), 0);
    // The same board with Black to move: Black plays on (the king moves of c5).
    let on = position(&["a12"], &["c5"], 'b');
    assert_eq!(naive::perft(&on, 1), 8);
    // Equal numbers on the home rows: no win.
    let equal = position(&["a12"], &["c1"], 'w');
    assert_eq!(naive::perft(&equal, 1), 3);
}

#[test]
fn a_side_without_stones_has_lost() {
    let pos = position(&[], &["c5"], 'w');
    assert!(naive::moves(&pos).is_empty());
    assert_eq!(naive::perft(&pos, 2), 0);
}

#[test]
fn suite_counts_agree_with_the_naive_generator() {
    suite::cross_check("epaminondas", 3, 3_000_000, naive::perft, naive::divide);
}
