//! The resolution steps of the four-player board: crowded steps first,
//! then pulls and pushes of single stones. The outcomes are found by the
//! one resolver of [`crate::games::spokes::resolve`].

use super::board::{Board, Cell, Sets};
use crate::games::spokes::board::{Colour, Node, NodeSet};
use crate::games::spokes::resolve::Steps;
use crate::games::spokes::tables::{ADJACENT, NO_NODE, PERPENDICULAR, STRAIGHT};

/// One outcome of a four-player resolution.
pub type Resolved = crate::games::spokes::resolve::Resolved<Board>;

/// The resolver's work space for the four-player board.
pub type Resolver = crate::games::spokes::resolve::Resolver<Board>;

impl Steps for Board {
    /// While some crowded node has a step, only crowded steps are given;
    /// otherwise every pull and push of two adjacent single stones.
    fn for_each_step(&self, mut f: impl FnMut(Board)) -> bool {
        let b = self;
        let s = b.sets();
        let mut crowded_steps = false;
        for n in s.crowded.iter() {
            let cell = b.get(n);
            for t in crowded_targets(&s, n, cell).iter() {
                crowded_steps = true;
                let mut next = *b;
                let landed = if cell.loose() > 0 {
                    next.set(n, cell.without_loose());
                    b.get(t).with_stone(cell.colour())
                } else {
                    next.set(n, Cell::BLOCK);
                    b.get(t).with_block()
                };
                next.set(
                    t,
                    landed.expect("a stone lands on an empty node or a single"),
                );
                f(next);
            }
        }
        let singles = s.all_singles();
        let mut adjacent = false;
        for u in singles.iter() {
            let near = ADJACENT[u.index()] & singles;
            if near.is_empty() {
                continue;
            }
            adjacent = true;
            if crowded_steps {
                break;
            }
            let cu = if s.singles[0].has(u) {
                Colour::White
            } else {
                Colour::Black
            };
            for v in near.iter().filter(|v| v.0 > u.0) {
                if s.singles[cu.index()].has(v) {
                    push(b, &s, cu, u, v, &mut f);
                    push(b, &s, cu, v, u, &mut f);
                } else {
                    // Pulls: the pulled stone joins the other, making a block.
                    for (from, to) in [(u, v), (v, u)] {
                        let mut next = *b;
                        next.set(from, Cell::EMPTY);
                        next.set(to, Cell::BLOCK);
                        f(next);
                    }
                }
            }
        }
        adjacent
    }

    /// Every single stone adjacent to another single stone, and every
    /// crowded node that still has a step (all its stones, blocks
    /// included), is removed.
    fn loop_removal(&self) -> Board {
        let b = self;
        let s = b.sets();
        let singles = s.all_singles();
        let mut next = *b;
        for u in singles.iter() {
            if !(ADJACENT[u.index()] & singles).is_empty() {
                next.set(u, Cell::EMPTY);
            }
        }
        for n in s.crowded.iter() {
            if !(ADJACENT[n.index()] & (s.empty | singles)).is_empty() {
                next.set(n, Cell::EMPTY);
            }
        }
        next
    }

    fn words(&self) -> [u64; 3] {
        Board::words(self)
    }
}

/// The nodes a crowded node `n` may send a stone to: for loose stones of
/// colour `c`, adjacent empty nodes and singles of the other colour, or
/// only if there are none adjacent singles of `c`; for two blocks, adjacent
/// empty nodes, or only if there are none adjacent singles.
fn crowded_targets(s: &Sets, n: Node, cell: Cell) -> NodeSet {
    let near = ADJACENT[n.index()];
    let (first, then) = if cell.loose() > 0 {
        let c = cell.colour().index();
        (near & (s.empty | s.singles[1 - c]), near & s.singles[c])
    } else {
        (near & s.empty, near & s.all_singles())
    };
    if first.is_empty() {
        then
    } else {
        first
    }
}

/// The boards after single stone `q` of colour `c` is pushed by `p`.
fn push(b: &Board, s: &Sets, c: Colour, p: Node, q: Node, f: &mut impl FnMut(Board)) {
    let r = STRAIGHT[p.index()][q.index()];
    let mut go = |t: Node| {
        let mut next = *b;
        next.set(q, Cell::EMPTY);
        next.set(t, b.get(t).with_stone(c).expect("lands on empty or single"));
        f(next);
    };
    if r != NO_NODE {
        let r = Node(r);
        if s.empty.has(r) || s.singles[c.other().index()].has(r) {
            go(r);
            return;
        }
    }
    for t in (PERPENDICULAR[p.index()][q.index()] & s.empty).iter() {
        go(t);
    }
}
