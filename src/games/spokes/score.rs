//! The end of the game and its score, for any number of sides: each side's
//! home nodes, the nodes next to them (approaches) and the region that
//! breaks ties (two players, or two teams: semicircles; four players:
//! quadrants).

use super::board::{Board, NodeSet};
use super::tables::ADJACENT;
use gamut_core::game::{Outcome, Player};

/// Each player's home nodes: H1–H8 for player 1, H9–H16 for player 2.
pub const HOME: [NodeSet; 2] = [NodeSet(0xff << 29), NodeSet(0xff << 37)];

/// Each player's home semicircle, the first tie-break: B1, B2, C1–C4,
/// D1–D8 for player 1 and B3, B4, C5–C8, D9–D16 for player 2.
pub const SEMICIRCLE: [NodeSet; 2] = [
    NodeSet(0b11 << 1 | 0xf << 5 | 0xff << 13),
    NodeSet(0b11 << 3 | 0xf << 9 | 0xff << 21),
];

/// Player k's home nodes in `spokes4`: H(4k+1)–H(4k+4), k from 0.
pub const HOME4: [NodeSet; 4] = [
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

/// The nodes next to each player's home nodes that are not their home
/// nodes (D1–D8, H9 and H16 for player 1).
pub const APPROACH: [NodeSet; 2] = [approaches(HOME[0]), approaches(HOME[1])];

/// The nodes next to each `spokes4` player's home nodes that are not home
/// nodes of theirs (player 1: D1–D4, H16 and H5).
pub const APPROACH4: [NodeSet; 4] = [
    approaches(HOME4[0]),
    approaches(HOME4[1]),
    approaches(HOME4[2]),
    approaches(HOME4[3]),
];

/// What scoring asks of a board.
pub trait Stones {
    /// The stones on `nodes`, counted as in scoring (a block two, a double
    /// two, a triple three).
    fn stones_on(&self, nodes: NodeSet) -> u32;
    /// The occupied nodes.
    fn occupied(&self) -> NodeSet;
    /// The nodes holding at least one block.
    fn blocked(&self) -> NodeSet;
}

/// The `N` sides of a game: each one's home nodes, approaches and
/// tie-break region.
#[derive(Copy, Clone, Debug)]
pub struct Sides<const N: usize> {
    /// Each side's home nodes.
    pub home: [NodeSet; N],
    /// The nodes next to each side's home nodes that are not its own.
    pub approach: [NodeSet; N],
    /// The region whose stones break a tie on home stones.
    pub tie_break: [NodeSet; N],
}

/// Two players, or two teams of two: the halves of the board.
pub const HALVES: Sides<2> = Sides {
    home: HOME,
    approach: APPROACH,
    tie_break: SEMICIRCLE,
};

/// Four players each for themselves: the quarters of the board.
pub const QUARTERS: Sides<4> = Sides {
    home: HOME4,
    approach: APPROACH4,
    tie_break: QUADRANT,
};

impl<const N: usize> Sides<N> {
    /// Why a board at rest ends the game, if it does: a side has a stone
    /// on every home node, or every approach of a side's home holds a
    /// block.
    pub fn rest_end(&self, b: &impl Stones) -> Option<&'static str> {
        let occupied = b.occupied();
        if self.home.iter().any(|&h| h & occupied == h) {
            return Some("home nodes filled");
        }
        let blocked = b.blocked();
        if self.approach.iter().any(|&a| a & blocked == a) {
            Some("home blocked")
        } else {
            None
        }
    }

    /// The stones each side counts on its home nodes.
    pub fn points(&self, b: &impl Stones) -> [u32; N] {
        self.home.map(|h| b.stones_on(h))
    }

    /// The stones each side has next to its home nodes.
    pub fn approach_stones(&self, b: &impl Stones) -> [u32; N] {
        self.approach.map(|a| b.stones_on(a))
    }

    /// The result of a finished game on board `b`: the most home stones
    /// wins; among those tied, the most stones in the tie-break region;
    /// still tied, the highest-numbered side. Points are given for two
    /// sides.
    pub fn outcome(&self, b: &impl Stones, reason: &'static str) -> Outcome {
        let pts = self.points(b);
        let best = *pts.iter().max().expect("sides");
        let region = |i: usize| b.stones_on(self.tie_break[i]);
        let second = (0..N)
            .filter(|&i| pts[i] == best)
            .map(region)
            .max()
            .expect("someone has the most");
        let winner = (0..N)
            .rev()
            .find(|&i| pts[i] == best && region(i) == second)
            .expect("someone has the most");
        Outcome {
            winner: Some(Player::nth(winner)),
            reason,
            points: (N == 2).then(|| [pts[0], pts[1]]),
        }
    }
}

impl Stones for Board {
    fn stones_on(&self, nodes: NodeSet) -> u32 {
        Board::stones_on(self, nodes)
    }

    fn occupied(&self) -> NodeSet {
        Board::occupied(self)
    }

    fn blocked(&self) -> NodeSet {
        self.blocks()
    }
}
