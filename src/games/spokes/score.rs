//! The end of the game and its score.

use super::board::{Board, NodeSet};
use super::tables::ADJACENT;
use crate::game::{Outcome, Player};

/// Each player's home nodes: H1–H8 for player 1, H9–H16 for player 2.
pub const HOME: [NodeSet; 2] = [NodeSet(0xff << 29), NodeSet(0xff << 37)];

/// Each player's home semicircle, the first tie-break: B1, B2, C1–C4,
/// D1–D8 for player 1 and B3, B4, C5–C8, D9–D16 for player 2.
pub const SEMICIRCLE: [NodeSet; 2] = [
    NodeSet(0b11 << 1 | 0xf << 5 | 0xff << 13),
    NodeSet(0b11 << 3 | 0xf << 9 | 0xff << 21),
];

const fn approaches(home: NodeSet) -> NodeSet {
    let mut out = 0;
    let mut n = 0;
    while n < 45 {
        if home.0 >> n & 1 != 0 {
            out |= ADJACENT[n].0;
        }
        n += 1;
    }
    NodeSet(out & !home.0)
}

/// The nodes next to each player's home nodes that are not their home
/// nodes (D1–D8, H9 and H16 for player 1).
pub const APPROACH: [NodeSet; 2] = [approaches(HOME[0]), approaches(HOME[1])];

/// Why a board at rest ends the game, if it does: a player has a stone on
/// every home node, or every approach of a player's home holds a block.
pub fn rest_end(b: &Board) -> Option<&'static str> {
    let occupied = b.occupied();
    let blocks = b.blocks();
    if HOME.iter().any(|&h| h & occupied == h) {
        Some("home nodes filled")
    } else if APPROACH.iter().any(|&a| a & blocks == a) {
        Some("home blocked")
    } else {
        None
    }
}

/// The stones each player counts on their home nodes (single 1, block 2,
/// double 2).
pub fn points(b: &Board) -> [u32; 2] {
    [b.stones_on(HOME[0]), b.stones_on(HOME[1])]
}

/// The result of a finished game on board `b`: most points wins; then most
/// stones on the home semicircle; then player 2.
pub fn outcome(b: &Board, reason: &'static str) -> Outcome {
    let pts = points(b);
    let semi = [b.stones_on(SEMICIRCLE[0]), b.stones_on(SEMICIRCLE[1])];
    let winner = if pts[0] != pts[1] {
        if pts[0] > pts[1] {
            Player::FIRST
        } else {
            Player::SECOND
        }
    } else if semi[0] > semi[1] {
        Player::FIRST
    } else {
        Player::SECOND
    };
    Outcome {
        winner: Some(winner),
        reason,
        points: Some(pts),
    }
}
