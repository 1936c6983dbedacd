//! The plain Aporia generator in `naive/aporia.rs` against the spec's
//! known counts, hand-made rule cases, and `positions/aporia.perft`.

use crate::naive::aporia as naive;
use crate::naive::suite;

const START: &str = "W2W/1BB1/1BB1/W2W 1 - -";

fn has(moves: &[String], text: &str) -> bool {
    moves.iter().any(|m| m == text)
}

#[test]
fn start_counts_match_the_spec() {
    let expected = [1, 16, 184, 1_632, 13_368, 110_208, 951_024];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(naive::perft(START, depth as u32), count, "depth {depth}");
    }
}

#[test]
fn start_moves_are_the_spec_list() {
    let mut expected: Vec<String> = [
        "b2-a3", "b2-c1", "c2-b1", "c2-d3", "b3-a2", "b3-c4", "c3-b4", "c3-d2", "b2-b4", "b2-d2",
        "b3-b1", "b3-d3", "c2-a2", "c2-c4", "c3-a3", "c3-c1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    expected.sort();
    assert_eq!(naive::moves(START), expected);
}

#[test]
fn jumps_cross_whole_runs_and_diagonals_leave_the_platform() {
    // White a1 a2 a3 d4, black b1 c1 d1 c4.
    let pos = "2BW/W3/W3/WBBB 1 - -";
    let moves = naive::moves(pos);
    assert!(has(&moves, "a1-a4"), "a1 jumps a2 and a3 together");
    assert!(!has(&moves, "a1-a3"), "a jump lands after the whole run");
    assert!(has(&moves, "a2-a4"));
    assert!(!has(&moves, "a1-b2"), "no diagonal step inside a platform");
    assert!(!has(&moves, "a3-b4"), "no diagonal step inside a platform");
    assert!(has(&moves, "a3-b2"), "diagonal step onto another platform");
    assert!(
        !has(&moves, "c4-c3") && !has(&moves, "b1-b2"),
        "no plain steps"
    );
}

#[test]
fn the_opponents_piece_may_not_return_at_once() {
    // After 1. b2-a3, player 2 may not take a3 back to b2.
    let after = "W2W/BBB1/2B1/W2W 2 b2-a3 -";
    assert!(!has(&naive::moves(after), "a3-b2"));
    assert!(has(&naive::moves("W2W/BBB1/2B1/W2W 2 - -"), "a3-b2"));
    // The start's child b2-a3 is exactly that position.
    let divide = naive::divide(START, 2);
    let child = divide.iter().find(|(m, _)| m == "b2-a3").unwrap();
    assert_eq!(child.1, naive::perft(after, 1));
}

#[test]
fn the_movers_own_last_piece_may_not_return_either() {
    // 1. b2-a3 2. c2-d3: player 1 may move neither d3-c2 nor a3-b2.
    let pos = "W2W/BBBB/4/W2W 1 c2-d3 b2-a3";
    let moves = naive::moves(pos);
    assert!(!has(&moves, "d3-c2"), "prohibition 1");
    assert!(!has(&moves, "a3-b2"), "prohibition 2");
    let free = naive::moves("W2W/BBBB/4/W2W 1 - -");
    assert!(has(&free, "d3-c2") && has(&free, "a3-b2"));
    assert_eq!(moves.len() + 2, free.len());
}

#[test]
fn prohibition_two_follows_a_piece_the_opponent_moved_on() {
    // Player 1 played b2-c3; player 2 then moved that piece on, c3-b4. The
    // piece now on b4 may go back neither to c3 (prohibition 1) nor to b2
    // (prohibition 2: it is the piece player 1 moved last).
    let pos = "1W1W/1B1B/B1B1/W2W 1 c3-b4 b2-c3";
    let moves = naive::moves(pos);
    assert!(!has(&moves, "b4-c3"));
    assert!(!has(&moves, "b4-b2"));
    let only_last = naive::moves("1W1W/1B1B/B1B1/W2W 1 c3-b4 -");
    assert!(!has(&only_last, "b4-c3"));
    assert!(has(&only_last, "b4-b2"));
    assert_eq!(moves.len() + 1, only_last.len());
}

#[test]
fn locked_pieces_stay_and_a_second_lock_ends_the_game() {
    // White holds the whole NW platform: locked. Black: c1 d1 c2 c3.
    let pos = "WW2/WWB1/2B1/2BB 1 - -";
    let moves = naive::moves(pos);
    assert!(!moves.is_empty(), "the first lock does not end the game");
    for m in &moves {
        let from = &m[..2];
        assert!(
            !["a3", "b3", "a4", "b4"].contains(&from),
            "{m} moves a locked piece"
        );
    }
    assert!(has(&moves, "c3-d2"));
    // c3-d2 locks the SE platform too: the game is over after it.
    let divide = naive::divide(pos, 2);
    for (m, n) in &divide {
        if m == "c3-d2" {
            assert_eq!(*n, 0, "two locked platforms end the game");
        } else {
            assert!(*n > 0, "{m} should not end the game");
        }
    }
    let over = "WW2/WW2/2BB/2BB 2 c3-d2 -";
    assert!(naive::moves(over).is_empty());
    assert_eq!(naive::perft(over, 0), 1);
    assert_eq!(naive::perft(over, 1), 0);
}

#[test]
fn suite_counts_agree_with_the_naive_generator() {
    suite::cross_check("aporia", 5, 3_000_000, naive::perft, naive::divide);
}
