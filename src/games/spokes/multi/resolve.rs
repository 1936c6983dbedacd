//! The resolution steps of the four-player board: crowded steps first,
//! then pulls and pushes of single stones. The outcomes are found by the
//! one resolver of [`crate::spokes::resolve`].

use super::board::{Board, Cell, Sets};
use crate::spokes::board::{Colour, Node, NodeSet};
use crate::spokes::resolve::{loop_gone, single_steps, Singles, Steps};
use crate::spokes::tables::ADJACENT;

/// One outcome of a four-player resolution.
pub type Resolved = crate::spokes::resolve::Resolved<Board>;

/// The resolver's work space for the four-player board.
pub type Resolver = crate::spokes::resolve::Resolver<Board>;

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
        single_steps(b, s.singles, s.empty, crowded_steps, &mut f)
    }

    /// Every single stone adjacent to another single stone, and every
    /// crowded node that still has a step (all its stones, blocks
    /// included), is removed.
    fn loop_removal(&self) -> Board {
        let b = self;
        let s = b.sets();
        let mut next = *b;
        for n in loop_gone(s.all_singles(), s.empty, s.crowded).iter() {
            next.set(n, Cell::EMPTY);
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

impl Singles for Board {
    const PULL_HIGHER_FIRST: bool = false;

    #[inline(always)]
    fn moved(&self, c: Colour, from: Node, to: Node) -> Board {
        let mut next = *self;
        next.set(from, Cell::EMPTY);
        next.set(
            to,
            self.get(to)
                .with_stone(c)
                .expect("lands on empty or single"),
        );
        next
    }
}
