//! The plain Apart generator in `naive/apart.rs` against the spec's
//! known counts, hand-made rule cases, and `positions/apart.perft`.

use crate::naive::apart as naive;
use crate::naive::suite;

const START: &str = "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w 1";

fn has(moves: &[String], text: &str) -> bool {
    moves.iter().any(|m| m == text)
}

#[test]
fn start_counts_match_the_spec() {
    assert_eq!(naive::perft(START, 0), 1);
    assert_eq!(naive::perft(START, 1), 40);
    assert_eq!(naive::perft(START, 2), 3_280);
    assert_eq!(naive::perft(START, 3), 434_388);
}

#[test]
fn the_first_move_of_the_game_is_a_single_leg() {
    let first = naive::moves(START);
    assert!(first.iter().all(|m| m.len() == 5), "{first:?}");
    // b1 jumps along its rank of six, its file of two and its diagonal of two.
    for m in ["b1-h1", "b1-b3", "b1-d3", "b1-a2", "c2-c4", "b2-b4"] {
        assert!(has(&first, m), "{m} missing");
    }
    // The same board later in the game allows continuous jumps.
    let later = naive::moves("1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w -");
    assert!(has(&later, "b1-b3-b5"), "b3 and b2 form a new line of two");
    assert!(later.len() > first.len());
    assert_eq!(
        naive::divide(START, 2).iter().map(|(_, n)| n).sum::<u64>(),
        3_280
    );
}

#[test]
fn a_jump_sequence_never_lands_twice_on_a_square() {
    // White a3 b3 c2 c6, black g8 h8.
    let pos = "6BB/8/2W5/8/8/WW6/2W5/8 w -";
    let a3: Vec<String> = naive::moves(pos)
        .into_iter()
        .filter(|m| m.starts_with("a3"))
        .collect();
    let mut expected: Vec<String> = [
        "a3-a4",
        "a3-a2",
        "a3-b4",
        "a3-b2",
        "a3-c3",
        "a3-c3-e3",
        "a3-c3-c1",
        "a3-c3-c5",
        "a3-c3-c5-c7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    expected.sort();
    // Left out: a3-c3-a3 (back to the start), a3-c3-c5-c3 and
    // a3-c3-c5-c7-c5 (back to a square already landed on).
    assert_eq!(a3, expected);
}

#[test]
fn captures_are_marked_and_lines_stop_at_enemy_pieces() {
    // White a1 b1, black c1 d1 (and g8 h8).
    let pos = "6BB/8/8/8/8/8/8/WWBB4 w -";
    let moves = naive::moves(pos);
    assert!(has(&moves, "a1xc1"));
    assert!(
        has(&moves, "a1xc1-e1"),
        "b1 c1 make a line of two; d1 is passed"
    );
    assert!(!has(&moves, "a1xc1-f1"), "d1 is not part of White's line");
    assert!(!has(&moves, "a1-c1"));
    // After a1xc1 Black's pieces d1 g8 h8 are still together; after
    // a1xc1-e1 White is apart: the mover wins, the game is over.
    let divide = naive::divide(pos, 2);
    let count = |m: &str| divide.iter().find(|(t, _)| t == m).unwrap().1;
    assert!(count("a1xc1") > 0);
    assert_eq!(count("a1xc1-e1"), 0);
}

#[test]
fn a_position_with_a_player_apart_is_over() {
    // Black's b8 and d8 are not neighbours.
    let pos = "1B1B4/8/8/8/8/8/8/WW6 w -";
    assert!(naive::moves(pos).is_empty());
    assert_eq!(naive::perft(pos, 0), 1);
    assert_eq!(naive::perft(pos, 1), 0);
    // A player without pieces is apart too.
    assert_eq!(naive::perft("8/8/8/8/8/8/8/WW6 b -", 1), 0);
}

#[test]
fn suite_counts_agree_with_the_naive_generator() {
    suite::cross_check("apart", 3, 3_000_000, naive::perft, naive::divide);
}
