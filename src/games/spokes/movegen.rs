//! Placements: which colour may be placed where.

use super::board::{Board, Colour, Node, NodeSet};

/// How many stones of each colour there are.
pub const STONES_PER_COLOUR: u32 = 44;

/// The colours a player may place: those with at least two stones off the
/// board, so that both players can always be served.
pub fn placeable_colours(b: &Board) -> impl Iterator<Item = Colour> + '_ {
    Colour::BOTH
        .into_iter()
        .filter(|&c| b.stones_of(c) + 2 <= STONES_PER_COLOUR)
}

/// The nodes where a stone may be placed: empty nodes off the home circle.
pub fn placeable_nodes(b: &Board) -> NodeSet {
    b.empty() & NodeSet::PLACEABLE
}

/// Whether any placement is possible.
pub fn can_place(b: &Board) -> bool {
    !placeable_nodes(b).is_empty() && placeable_colours(b).next().is_some()
}

/// The board after both placements: a block where different colours meet
/// on one node, a double where the same colour does.
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
