//! Neighbour counts of all squares at once, transmutation survivors,
//! placement squares, and every element's moves, all by bitboard arithmetic.

use super::elements::Element;
use gamut_core::bits::{Bitboard, Square};

/// The king-step neighbours of every square.
const KING: [Bitboard; 64] = {
    let mut t = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = Square(s as u8).bb().neighbours();
        s += 1;
    }
    t
};

/// The king-step neighbours of `s`.
const fn king(s: Square) -> Bitboard {
    KING[s.0 as usize]
}

/// Neighbour counts (0–8) of every square, bit-sliced: bit `i` of the count
/// of square `s` is bit `s` of plane `i`.
#[derive(Copy, Clone, Debug)]
pub struct NeighbourCounts([u64; 4]);

/// Sum and carry of three one-bit boards.
const fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let t = a ^ b;
    (t ^ c, (a & b) | (t & c))
}

impl NeighbourCounts {
    /// How many squares of `occupied` neighbour each square: the eight
    /// shifted boards summed by a tree of adders.
    #[must_use]
    pub fn of(occupied: Bitboard) -> NeighbourCounts {
        let s: [u64; 8] = std::array::from_fn(|d| occupied.step(d).0);
        // Weight 1: eight bits into three sums and three carries.
        let (s0, c0) = full_add(s[0], s[1], s[2]);
        let (s1, c1) = full_add(s[3], s[4], s[5]);
        let (s2, c2) = (s[6] ^ s[7], s[6] & s[7]);
        let (bit0, c3) = full_add(s0, s1, s2);
        // Weight 2: four carries.
        let (t0, t1) = full_add(c0, c1, c2);
        let bit1 = t0 ^ c3;
        let c4 = t0 & c3;
        // Weight 4 and 8.
        NeighbourCounts([bit0, bit1, t1 ^ c4, t1 & c4])
    }

    /// The squares whose count is exactly `n`.
    #[must_use]
    pub fn exactly(&self, n: u8) -> Bitboard {
        let mut b = u64::MAX;
        for (i, plane) in self.0.iter().enumerate() {
            b &= if n >> i & 1 != 0 { *plane } else { !*plane };
        }
        Bitboard(b)
    }

    /// The squares whose count lies in `lo..=hi`.
    #[must_use]
    pub fn within(&self, (lo, hi): (u8, u8)) -> Bitboard {
        (lo..=hi).fold(Bitboard::EMPTY, |b, n| b | self.exactly(n))
    }
}

/// The board as the player to act sees it.
#[derive(Copy, Clone, Debug)]
pub struct Sides {
    /// The acting player's pieces.
    pub own: Bitboard,
    /// The opponent's pieces.
    pub opp: Bitboard,
    /// The acting player's element.
    pub element: Element,
    /// The opponent's element.
    pub enemy: Element,
}

impl Sides {
    /// The empty squares.
    #[must_use]
    pub fn empty(&self) -> Bitboard {
        !(self.own | self.opp)
    }

    /// The enemy pieces the acting element may capture at all (before any
    /// condition on the capture's geometry).
    fn prey(&self) -> Bitboard {
        match (self.element, self.enemy) {
            (Element::Fire | Element::Earth, _)
            | (Element::Water, Element::Fire)
            | (Element::Air, Element::Earth) => self.opp,
            _ => Bitboard::EMPTY,
        }
    }

    /// The squares where the acting player may place a piece: empty, exactly
    /// three occupied neighbours, at least one of them its own.
    #[must_use]
    pub fn placements(&self) -> Bitboard {
        let counts = NeighbourCounts::of(self.own | self.opp);
        self.empty() & counts.exactly(3) & self.own.neighbours()
    }

    /// Calls `f(from, targets)` for the acting player's pieces with the
    /// squares each may move to (empty, or an enemy it captures there). A
    /// piece may be reported more than once, always with disjoint targets;
    /// pieces without targets may be left out.
    pub fn for_each_move(&self, mut f: impl FnMut(Square, Bitboard)) {
        let empty = self.empty();
        let ends = empty | self.prey();
        match self.element {
            Element::Fire => {
                for s in self.own {
                    f(s, king(s) & ends);
                }
            }
            Element::Air => {
                for s in self.own {
                    let one = king(s);
                    let two = (one & empty).neighbours();
                    f(s, (one | two) & ends);
                }
            }
            Element::Water => {
                // Every piece of a connected group of water reaches, through
                // the others, the neighbours of the whole group.
                let mut rest = self.own;
                while !rest.is_empty() {
                    let mut group = rest.first().bb();
                    loop {
                        let grown = group | (group.neighbours() & self.own);
                        if grown == group {
                            break;
                        }
                        group = grown;
                    }
                    let targets = group.neighbours() & ends;
                    for s in group {
                        f(s, targets);
                    }
                    rest &= !group;
                }
            }
            Element::Earth => {
                for s in self.own {
                    f(s, king(s) & empty);
                }
                // Captures at t = s + d need t + d off the board or own.
                for d in 0..8 {
                    let back = (d + 4) % 8;
                    let anvil = !Bitboard::ALL.step(back) | self.own.step(back);
                    let hits = self.own.step(d) & self.opp & anvil;
                    for t in hits {
                        let s = t.bb().step(back).first();
                        f(s, t.bb());
                    }
                }
            }
        }
    }

    /// The number of actions (moves and placements) available.
    #[must_use]
    pub fn action_count(&self) -> usize {
        let mut n = self.placements().count() as usize;
        self.for_each_move(|_, t| n += t.count() as usize);
        n
    }

    /// Whether any action is available.
    #[must_use]
    pub fn has_action(&self) -> bool {
        // Every element may step onto an empty neighbouring square.
        !(self.own.neighbours() & self.empty()).is_empty() || self.action_count() > 0
    }

    /// The enemy pieces the acting player could capture now.
    #[must_use]
    pub fn threats(&self) -> Bitboard {
        let mut hit = Bitboard::EMPTY;
        self.for_each_move(|_, t| hit |= t & self.opp);
        hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_counting_square_by_square() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x = gamut_core::bits::splitmix64(x);
            let occ = Bitboard(x & gamut_core::bits::splitmix64(x ^ 1));
            let counts = NeighbourCounts::of(occ);
            for s in 0..64u8 {
                let n = (king(Square(s)) & occ).count() as u8;
                for k in 0..=8 {
                    assert_eq!(counts.exactly(k).has(Square(s)), n == k);
                }
            }
        }
    }
}
