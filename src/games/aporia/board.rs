//! The 4×4 nodes of Aporia, sets of nodes, platforms, moves, and the tables
//! the move generator reads (diagonal targets per node, jump landings per
//! line occupancy, source masks for counting moves in bulk).

use gamut_core::bits::bitset;
use gamut_core::game::ParseError;
use std::fmt;

/// A node of the 4×4 grid: `file + 4 * rank`, `a1` = 0, `d4` = 15.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub u8);

impl Node {
    /// The node on file `f` (0 = a) and rank `r` (0 = rank 1).
    #[must_use]
    pub const fn new(f: u8, r: u8) -> Node {
        Node(f + 4 * r)
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 3
    }

    /// The rank, 0 for rank 1.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }

    /// The set holding only this node.
    #[must_use]
    pub const fn bit(self) -> NodeSet {
        NodeSet(1 << self.0)
    }

    /// The index (into [`PLATFORMS`]) of the platform holding this node.
    #[must_use]
    pub const fn platform(self) -> usize {
        (self.file() / 2 + 2 * (self.rank() / 2)) as usize
    }

    /// Parses a node name, `a1`..`d4`.
    pub fn parse(s: &str) -> Result<Node, ParseError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'd').contains(&b[0]) && (b'1'..=b'4').contains(&b[1]) {
            Ok(Node::new(b[0] - b'a', b[1] - b'1'))
        } else {
            Err(ParseError::new(format!("'{s}' is not a node (a1..d4)")))
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

bitset! {
    /// A set of nodes, bit `n` for node `n`.
    NodeSet(u16) of Node, all 0xffff
}

/// The four platforms, in the order SW, SE, NW, NE.
pub const PLATFORMS: [NodeSet; 4] = [
    NodeSet(0x0033),
    NodeSet(0x00cc),
    NodeSet(0x3300),
    NodeSet(0xcc00),
];

/// The names of the platforms, in the order of [`PLATFORMS`].
pub const PLATFORM_NAMES: [&str; 4] = ["SW", "SE", "NW", "NE"];

/// The platform of each node, as a set.
pub const PLATFORM_OF: [NodeSet; 16] = {
    let mut t = [NodeSet(0); 16];
    let mut n = 0;
    while n < 16 {
        t[n] = PLATFORMS[Node(n as u8).platform()];
        n += 1;
    }
    t
};

/// A move: the piece on `from` goes to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Node,
    /// Where it lands.
    pub to: Node,
}

impl Move {
    /// The move from `from` to `to`.
    #[must_use]
    pub const fn new(from: Node, to: Node) -> Move {
        Move { from, to }
    }

    /// The same path travelled backwards.
    #[must_use]
    pub const fn reversed(self) -> Move {
        Move::new(self.to, self.from)
    }

    /// Parses move text `<from>-<to>` (`b2-a3`) without asking whether a
    /// piece could travel that way.
    pub fn parse(s: &str) -> Result<Move, ParseError> {
        let (a, b) = s.split_once('-').ok_or_else(|| {
            ParseError::new(format!("'{s}' is not a move (<from>-<to>, e.g. b2-a3)"))
        })?;
        let from = Node::parse(a).map_err(|e| ParseError::new(format!("move '{s}': {e}")))?;
        let to = Node::parse(b).map_err(|e| ParseError::new(format!("move '{s}': {e}")))?;
        Ok(Move::new(from, to))
    }

    /// Whether the move is a diagonal step onto another platform.
    #[must_use]
    pub const fn is_diagonal_step(self) -> bool {
        DIAGONAL[self.from.0 as usize].0 & (1 << self.to.0) != 0
    }

    /// Whether the move goes along a rank or a file by two or three nodes,
    /// the shape of a jump.
    #[must_use]
    pub const fn is_jump_shape(self) -> bool {
        let (f0, r0, f1, r1) = (
            self.from.file(),
            self.from.rank(),
            self.to.file(),
            self.to.rank(),
        );
        (f0 == f1 && r0.abs_diff(r1) >= 2) || (r0 == r1 && f0.abs_diff(f1) >= 2)
    }

    /// The nodes strictly between `from` and `to` on a jump-shaped move.
    #[must_use]
    pub const fn jumped(self) -> NodeSet {
        let (f0, r0, f1, r1) = (
            self.from.file() as i8,
            self.from.rank() as i8,
            self.to.file() as i8,
            self.to.rank() as i8,
        );
        let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
        let mut set = 0u16;
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f != f1 || r != r1 {
            set |= 1 << (f + 4 * r);
            f += df;
            r += dr;
        }
        NodeSet(set)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// For each node, its diagonal neighbours that lie on another platform.
pub const DIAGONAL: [NodeSet; 16] = {
    let mut t = [NodeSet(0); 16];
    let mut n = 0;
    while n < 16 {
        let node = Node(n as u8);
        let (f, r) = (node.file() as i8, node.rank() as i8);
        let mut set = 0u16;
        let steps = [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)];
        let mut i = 0;
        while i < 4 {
            let (g, s) = (f + steps[i].0, r + steps[i].1);
            if g >= 0 && g < 4 && s >= 0 && s < 4 {
                let to = Node::new(g as u8, s as u8);
                if to.platform() != node.platform() {
                    set |= 1 << to.0;
                }
            }
            i += 1;
        }
        t[n] = NodeSet(set);
        n += 1;
    }
    t
};

/// Jump landings along one line of four cells: for cell `i` and line
/// occupancy `occ` (bit `j` for cell `j`), the cells a piece on `i` reaches
/// by jumping a run of one or more occupied cells, as bits.
const fn line_jumps(i: usize, occ: usize) -> u16 {
    let mut out = 0u16;
    let mut j = i + 1;
    while j < 4 && occ >> j & 1 == 1 {
        j += 1;
    }
    if j < 4 && j > i + 1 {
        out |= 1 << j;
    }
    let mut k = i as i32 - 1;
    while k >= 0 && occ >> k & 1 == 1 {
        k -= 1;
    }
    if k >= 0 && k < i as i32 - 1 {
        out |= 1 << k;
    }
    out
}

/// Jump landings along a node's rank: `JUMP_ROW[node][rank occupancy]`,
/// where bit `f` of the occupancy is the node on file `f`.
pub const JUMP_ROW: [[NodeSet; 16]; 16] = {
    let mut t = [[NodeSet(0); 16]; 16];
    let mut n = 0;
    while n < 16 {
        let node = Node(n as u8);
        let mut occ = 0;
        while occ < 16 {
            let line = line_jumps(node.file() as usize, occ);
            t[n][occ] = NodeSet(line << (4 * node.rank()));
            occ += 1;
        }
        n += 1;
    }
    t
};

/// Jump landings along a node's file: `JUMP_COLUMN[node][file occupancy]`,
/// where bit `r` of the occupancy is the node on rank `r`.
pub const JUMP_COLUMN: [[NodeSet; 16]; 16] = {
    let mut t = [[NodeSet(0); 16]; 16];
    let mut n = 0;
    while n < 16 {
        let node = Node(n as u8);
        let mut occ = 0;
        while occ < 16 {
            let line = line_jumps(node.rank() as usize, occ);
            let mut set = 0u16;
            let mut r = 0;
            while r < 4 {
                if line >> r & 1 == 1 {
                    set |= 1 << (node.file() as usize + 4 * r);
                }
                r += 1;
            }
            t[n][occ] = NodeSet(set);
            occ += 1;
        }
        n += 1;
    }
    t
};

/// The occupancy of `node`'s rank in `occ`, bit `f` for file `f`.
#[inline(always)]
#[must_use]
pub const fn rank_bits(occ: NodeSet, node: Node) -> usize {
    (occ.0 >> (4 * node.rank())) as usize & 0xf
}

/// The occupancy of `node`'s file in `occ`, bit `r` for rank `r`.
#[inline(always)]
#[must_use]
pub const fn file_bits(occ: NodeSet, node: Node) -> usize {
    let x = (occ.0 >> node.file()) & 0x1111;
    let x = x | x >> 3;
    ((x | x >> 6) & 0xf) as usize
}

/// The nodes whose neighbour `delta` steps along the node numbering
/// (+5 = up-right, +3 = up-left, -3 = down-right, -5 = down-left) is a
/// diagonal target on another platform.
#[must_use]
pub const fn diagonal_sources(delta: i8) -> u16 {
    let mut set = 0u16;
    let mut n = 0i8;
    while n < 16 {
        let t = n + delta;
        if t >= 0 && t < 16 && DIAGONAL[n as usize].0 >> t & 1 != 0 {
            set |= 1 << n;
        }
        n += 1;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_nodes_step_to_three_platforms_and_corners_to_none() {
        let b2 = Node::parse("b2").unwrap();
        let names: Vec<String> = DIAGONAL[b2.0 as usize].map(|n| n.to_string()).collect();
        assert_eq!(names, ["c1", "a3", "c3"]);
        assert!(DIAGONAL[Node::parse("a1").unwrap().0 as usize].is_empty());
    }

    #[test]
    fn jumps_cross_runs_and_need_one_piece() {
        let a1 = Node::parse("a1").unwrap();
        // a1 b1 c1 occupied: a1 jumps to d1.
        assert_eq!(
            JUMP_ROW[a1.0 as usize][0b0111],
            Node::parse("d1").unwrap().bit()
        );
        // b1 empty: no jump.
        assert!(JUMP_ROW[a1.0 as usize][0b0101].is_empty());
        let b3 = Node::parse("b3").unwrap();
        // b3 and b2 occupied, b1 empty; b4 empty: jump down to b1 only.
        assert_eq!(
            JUMP_COLUMN[b3.0 as usize][0b0110],
            Node::parse("b1").unwrap().bit()
        );
    }

    #[test]
    fn file_and_rank_bits_read_the_right_line() {
        let occ = NodeSet(0b1000_0100_0010_0001); // a1 b2 c3 d4
        let c3 = Node::parse("c3").unwrap();
        assert_eq!(file_bits(occ, c3), 0b0100);
        assert_eq!(rank_bits(occ, c3), 0b0100);
        assert_eq!(
            file_bits(NodeSet(0x1111 << 1), Node::parse("b1").unwrap()),
            0xf
        );
    }

    #[test]
    fn jumped_lists_the_run() {
        let m = Move::parse("a1-a4").unwrap();
        assert_eq!(
            m.jumped(),
            Node::parse("a2").unwrap().bit() | Node::parse("a3").unwrap().bit()
        );
        assert!(m.is_jump_shape());
        assert!(!Move::parse("a1-a2").unwrap().is_jump_shape());
        assert!(Move::parse("b2-c3").unwrap().is_diagonal_step());
        assert!(!Move::parse("a1-b2").unwrap().is_diagonal_step());
    }
}
