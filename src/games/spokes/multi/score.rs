//! The end of a four-player game and its result: homes, quadrants and
//! approaches of each player (`spokes4`) or team (`spokes2v2`).

use super::board::{Board, Sets};
use crate::game::{Outcome, Player};
use crate::games::spokes::board::NodeSet;
use crate::games::spokes::score as two;
use crate::games::spokes::tables::ADJACENT;

/// Player k's home nodes in `spokes4`: H(4k+1)–H(4k+4), k from 0.
pub const HOME: [NodeSet; 4] = [
    NodeSet(0xf << 29),
    NodeSet(0xf << 33),
    NodeSet(0xf << 37),
    NodeSet(0xf << 41),
];

/// Player k's quadrant in `spokes4`, the tie-break: B(k+1),
/// C(2k+1)–C(2k+2), D(4k+1)–D(4k+4).
pub const QUADRANT: [NodeSet; 4] = [
    NodeSet(1 << 1 | 0b11 << 5 | 0xf << 13),
    NodeSet(1 << 2 | 0b11 << 7 | 0xf << 17),
    NodeSet(1 << 3 | 0b11 << 9 | 0xf << 21),
    NodeSet(1 << 4 | 0b11 << 11 | 0xf << 25),
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

/// The nodes next to each `spokes4` player's home nodes that are not home
/// nodes of theirs (player 1: D1–D4, H16 and H5).
pub const APPROACH: [NodeSet; 4] = [
    approaches(HOME[0]),
    approaches(HOME[1]),
    approaches(HOME[2]),
    approaches(HOME[3]),
];

/// The home nodes of each side: the four players, or the two teams (whose
/// homes are the two-player game's).
pub fn homes(teams: bool) -> &'static [NodeSet] {
    if teams {
        &two::HOME
    } else {
        &HOME
    }
}

/// Why a board at rest ends the game, if it does: (a) a side has a stone
/// on every home node, or (b) every approach of a side's home holds a block.
pub fn rest_end(b: &Board, s: &Sets, teams: bool) -> Option<&'static str> {
    let occupied = !s.empty;
    let approach: &[NodeSet] = if teams { &two::APPROACH } else { &APPROACH };
    if homes(teams).iter().any(|&h| h & occupied == h) {
        Some("home nodes filled")
    } else if approach.iter().any(|&a| a & s.blocked == a) {
        Some("home blocked")
    } else {
        debug_assert_eq!(occupied, b.occupied());
        None
    }
}

/// The stones each side counts on its home nodes.
pub fn points(b: &Board, teams: bool) -> Vec<u32> {
    homes(teams).iter().map(|&h| b.stones_on(h)).collect()
}

/// The stones each side has next to its home nodes (on its approaches).
pub fn approach_stones(b: &Board, teams: bool) -> Vec<u32> {
    let approach: &[NodeSet] = if teams { &two::APPROACH } else { &APPROACH };
    approach.iter().map(|&a| b.stones_on(a)).collect()
}

/// The result of a finished game on board `b`. `spokes4`: the most home
/// stones wins; among those tied, the most stones in the quadrant; still
/// tied, the highest-numbered. `spokes2v2`: the most home stones, then the
/// most on the semicircle, then team 2.
pub fn outcome(b: &Board, reason: &'static str, teams: bool) -> Outcome {
    let pts = points(b, teams);
    let tie_break: &[NodeSet] = if teams { &two::SEMICIRCLE } else { &QUADRANT };
    let best = *pts.iter().max().expect("sides");
    let tied: Vec<usize> = (0..pts.len()).filter(|&i| pts[i] == best).collect();
    let second = tied
        .iter()
        .map(|&i| b.stones_on(tie_break[i]))
        .max()
        .expect("someone has the most");
    let winner = *tied
        .iter()
        .rfind(|&&i| b.stones_on(tie_break[i]) == second)
        .expect("someone has the most");
    Outcome {
        winner: Some(Player::nth(winner)),
        reason,
        points: if teams { Some([pts[0], pts[1]]) } else { None },
    }
}
