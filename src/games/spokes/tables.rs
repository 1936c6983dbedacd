//! The board's geometry, computed at compile time: which nodes are
//! adjacent, where a pushed stone goes straight on, and where it may go
//! perpendicularly instead.
//!
//! Angles are counted in units of 22.5° clockwise from north, so node `i`
//! (from 0) of a circle with `n` nodes lies at angle `i · 16 / n`.

use super::board::{Node, NodeSet, CIRCLE_LEN, CIRCLE_START, NODES};

/// Marks "no node" in the node tables.
const NONE: usize = usize::MAX;

const fn circle(n: usize) -> usize {
    Node(n as u8).circle()
}

const fn angle(n: usize) -> usize {
    let c = circle(n);
    (n - CIRCLE_START[c]) * (16 / CIRCLE_LEN[c])
}

/// The node of circle `c` (1..=4) at `angle`, or `NONE`.
const fn at(c: usize, angle: usize) -> usize {
    let step = 16 / CIRCLE_LEN[c];
    if !angle.is_multiple_of(step) {
        NONE
    } else {
        CIRCLE_START[c] + angle / step
    }
}

/// The next node inward along the spoke through `n` (A for B nodes), or
/// `NONE` where the spoke starts at `n`.
const fn inner(n: usize) -> usize {
    match circle(n) {
        0 => NONE,
        1 => 0,
        c => at(c - 1, angle(n)),
    }
}

/// The next node outward along the spoke through `n` (not defined for A,
/// which has four), or `NONE` on the home circle.
const fn outer(n: usize) -> usize {
    match circle(n) {
        0 | 4 => NONE,
        c => at(c + 1, angle(n)),
    }
}

/// The neighbour of `n` one step clockwise (`d` = 1) or anticlockwise
/// (`d` = -1) around its circle.
const fn around(n: usize, d: isize) -> usize {
    let c = circle(n);
    let len = CIRCLE_LEN[c] as isize;
    let i = (n - CIRCLE_START[c]) as isize;
    CIRCLE_START[c] + ((i + d + len) % len) as usize
}

/// Whether `p` and `q` are neighbours on one circle (not A).
const fn on_circle_line(p: usize, q: usize) -> bool {
    circle(p) == circle(q) && circle(p) >= 1 && (around(p, 1) == q || around(p, -1) == q)
}

const fn bit(n: usize) -> u64 {
    if n == NONE {
        0
    } else {
        1 << n
    }
}

const fn adjacency() -> [NodeSet; NODES] {
    let mut t = [NodeSet::EMPTY; NODES];
    let mut p = 0;
    while p < NODES {
        let mut q = 0;
        while q < NODES {
            if inner(p) == q || inner(q) == p || on_circle_line(p, q) {
                t[p] = NodeSet(t[p].0 | 1 << q);
            }
            q += 1;
        }
        p += 1;
    }
    t
}

/// The node beyond `q` on the line from `p` through `q`, or `NONE`.
const fn beyond(p: usize, q: usize) -> usize {
    if on_circle_line(p, q) {
        let d = if around(p, 1) == q { 1 } else { -1 };
        around(q, d)
    } else if inner(q) == p {
        outer(q)
    } else if q == 0 {
        at(1, (angle(p) + 8) % 16)
    } else {
        inner(q)
    }
}

/// The perpendicular neighbours of `q` pushed by `p`.
const fn sideways(p: usize, q: usize) -> u64 {
    if on_circle_line(p, q) {
        bit(inner(q)) | bit(outer(q))
    } else if q == 0 {
        let opposite = at(1, (angle(p) + 8) % 16);
        bit(around(opposite, 1)) | bit(around(opposite, -1))
    } else {
        bit(around(q, 1)) | bit(around(q, -1))
    }
}

const fn straight_table() -> [[u8; NODES]; NODES] {
    let mut t = [[NO_NODE; NODES]; NODES];
    let mut p = 0;
    while p < NODES {
        let mut q = 0;
        while q < NODES {
            if ADJACENT[p].0 >> q & 1 != 0 {
                let r = beyond(p, q);
                if r != NONE {
                    t[p][q] = r as u8;
                }
            }
            q += 1;
        }
        p += 1;
    }
    t
}

const fn perpendicular_table() -> [[NodeSet; NODES]; NODES] {
    let mut t = [[NodeSet::EMPTY; NODES]; NODES];
    let mut p = 0;
    while p < NODES {
        let mut q = 0;
        while q < NODES {
            if ADJACENT[p].0 >> q & 1 != 0 {
                t[p][q] = NodeSet(sideways(p, q));
            }
            q += 1;
        }
        p += 1;
    }
    t
}

/// The value of [`STRAIGHT`] where there is no node straight on.
pub const NO_NODE: u8 = u8::MAX;

/// The neighbours of each node.
pub const ADJACENT: [NodeSet; NODES] = adjacency();

/// `STRAIGHT[p][q]`: the node straight on beyond `q` when `p` pushes it
/// (`p`, `q` adjacent), or [`NO_NODE`].
pub const STRAIGHT: [[u8; NODES]; NODES] = straight_table();

/// `PERPENDICULAR[p][q]`: the perpendicular neighbours of `q` when `p`
/// pushes it: along its circle when pushed along a spoke, along its spoke
/// when pushed along a circle, and for A pushed from `Bi` the two B nodes
/// beside `Bi`'s opposite.
pub const PERPENDICULAR: [[NodeSet; NODES]; NODES] = perpendicular_table();

/// The node straight on beyond `q` when `p` pushes it.
#[must_use]
pub fn straight_on(p: Node, q: Node) -> Option<Node> {
    match STRAIGHT[p.index()][q.index()] {
        NO_NODE => None,
        r => Some(Node(r)),
    }
}

/// The perpendicular neighbours of `q` when `p` pushes it.
#[must_use]
pub fn perpendicular(p: Node, q: Node) -> NodeSet {
    PERPENDICULAR[p.index()][q.index()]
}

/// The neighbours of `n`.
#[must_use]
pub fn adjacent(n: Node) -> NodeSet {
    ADJACENT[n.index()]
}

const fn push_target_table() -> [NodeSet; NODES] {
    let mut t = [NodeSet::EMPTY; NODES];
    let mut q = 0;
    while q < NODES {
        let mut p = 0;
        while p < NODES {
            let r = STRAIGHT[p][q];
            if r != NO_NODE {
                t[q] = NodeSet(t[q].0 | 1 << r);
            }
            p += 1;
        }
        q += 1;
    }
    t
}

/// `PUSH_TARGETS[q]`: the nodes a stone on `q` reaches when pushed straight
/// on from one of its neighbours.
pub const PUSH_TARGETS: [NodeSet; NODES] = push_target_table();
