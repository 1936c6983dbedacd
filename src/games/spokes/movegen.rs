//! Placements: where a stone may be placed, and how two placements land on
//! the two-player board. Which colours may be placed depends on the number
//! of players ([`super::SpokesGame::placeable_colours`]).

use super::board::{Board, Colour, Node, NodeSet};
use super::SpokesBoard;

/// How many stones of each colour there are.
pub const STONES_PER_COLOUR: u32 = 44;

/// The nodes where a stone may be placed: empty nodes off the home circle.
pub fn placeable_nodes<B: SpokesBoard>(b: &B) -> NodeSet {
    b.empty_nodes() & NodeSet::PLACEABLE
}

/// The two-player board after both placements: a block where different
/// colours meet on one node, a double where the same colour does.
#[must_use]
pub fn place(b: &Board, first: (Colour, Node), second: (Colour, Node)) -> Board {
    let mut next = *b;
    let ((c1, n1), (c2, n2)) = (first, second);
    if n1 == n2 && c1 == c2 {
        *next.colour_mut(c1) |= n1.bit();
        next.doubles |= n1.bit();
    } else {
        *next.colour_mut(c1) |= n1.bit();
        *next.colour_mut(c2) |= n2.bit();
    }
    next
}
