//! The eight symmetries of the 4×4 board (the dihedral group of the
//! square). Each maps 2×2 platforms onto 2×2 platforms, diagonal steps onto
//! diagonal steps and runs onto runs, so it maps the rules onto themselves.

use super::board::{Move, Node, NodeSet};
use super::Aporia;
use gamut_core::game::Game;

/// How many symmetries there are; symmetry 0 is the identity.
pub const COUNT: usize = 8;

/// Symmetry `g` applied to node `n`: transpose when bit 2 is set, then
/// mirror the files when bit 0 is set and the ranks when bit 1 is set.
#[must_use]
pub const fn node(g: usize, n: Node) -> Node {
    let (mut f, mut r) = (n.file(), n.rank());
    if g & 4 != 0 {
        (f, r) = (r, f);
    }
    if g & 1 != 0 {
        f = 3 - f;
    }
    if g & 2 != 0 {
        r = 3 - r;
    }
    Node::new(f, r)
}

/// `SET_LOW[g][b]` is the image under symmetry `g` of the nodes 0..8 in
/// byte `b`; `SET_HIGH` likewise for nodes 8..16.
const SET_LOW: [[u16; 256]; COUNT] = set_table(0);
const SET_HIGH: [[u16; 256]; COUNT] = set_table(8);

const fn set_table(shift: u8) -> [[u16; 256]; COUNT] {
    let mut t = [[0u16; 256]; COUNT];
    let mut g = 0;
    while g < COUNT {
        let mut b = 0;
        while b < 256 {
            let mut out = 0u16;
            let mut i = 0;
            while i < 8 {
                if b >> i & 1 != 0 {
                    out |= 1 << node(g, Node(i + shift)).0;
                }
                i += 1;
            }
            t[g][b] = out;
            b += 1;
        }
        g += 1;
    }
    t
}

/// Symmetry `g` applied to a set of nodes.
#[inline(always)]
#[must_use]
pub fn set(g: usize, s: NodeSet) -> NodeSet {
    NodeSet(SET_LOW[g][(s.0 & 0xff) as usize] | SET_HIGH[g][(s.0 >> 8) as usize])
}

/// Symmetry `g` applied to a move.
#[inline(always)]
#[must_use]
pub fn mv(g: usize, m: Move) -> Move {
    Move::new(node(g, m.from), node(g, m.to))
}

/// Symmetry `g` applied to a whole position: pieces, locks and the two
/// moves the repetition rules look back on.
#[must_use]
pub fn position(g: usize, pos: &Aporia) -> Aporia {
    let mut image = Aporia {
        white: set(g, pos.white),
        black: set(g, pos.black),
        locked: set(g, pos.locked),
        side: pos.side,
        last: pos.last.map(|m| mv(g, m)),
        own_last: pos.own_last.map(|m| mv(g, m)),
        hash: 0,
    };
    image.hash = image.hash_from_scratch();
    image
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aporia::board::{DIAGONAL, PLATFORMS};

    #[test]
    fn symmetries_are_distinct_permutations_keeping_platforms_and_diagonals() {
        let mut images = Vec::new();
        for g in 0..COUNT {
            let image: Vec<u8> = (0..16).map(|n| node(g, Node(n)).0).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..16).collect::<Vec<u8>>(), "symmetry {g}");
            images.push(image);
            for p in PLATFORMS {
                assert!(PLATFORMS.contains(&set(g, p)), "symmetry {g}");
            }
            for n in 0..16 {
                assert_eq!(
                    set(g, DIAGONAL[n]),
                    DIAGONAL[node(g, Node(n as u8)).0 as usize]
                );
            }
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), COUNT);
        assert_eq!(set(3, NodeSet(0x0001)), NodeSet(0x8000));
    }
}
