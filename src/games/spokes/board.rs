//! Nodes, node sets, stone colours and the packed board of Spokes.

use gamut_core::bits::bitset;
use std::fmt;

/// The number of nodes: A, B1–B4, C1–C8, D1–D16, H1–H16.
pub const NODES: usize = 45;

/// The first node index of each circle: A, B, C, D, home.
pub const CIRCLE_START: [usize; 5] = [0, 1, 5, 13, 29];

/// The number of nodes on each circle: A, B, C, D, home.
pub const CIRCLE_LEN: [usize; 5] = [1, 4, 8, 16, 16];

/// The letter naming each circle (`H` for the home circle).
pub const CIRCLE_LETTER: [char; 5] = ['A', 'B', 'C', 'D', 'H'];

/// A node: index 0 is A, 1–4 are B1–B4, 5–12 C1–C8, 13–28 D1–D16 and
/// 29–44 the home nodes H1–H16.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub u8);

impl Node {
    /// The centre node A.
    pub const A: Node = Node(0);

    /// The node's index, 0..45.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set holding only this node.
    #[must_use]
    pub const fn bit(self) -> NodeSet {
        NodeSet(1 << self.0)
    }

    /// The circle the node lies on: 0 for A, 1 B, 2 C, 3 D, 4 home.
    #[must_use]
    pub const fn circle(self) -> usize {
        let n = self.0 as usize;
        if n == 0 {
            0
        } else if n < 5 {
            1
        } else if n < 13 {
            2
        } else if n < 29 {
            3
        } else {
            4
        }
    }

    /// The node's number on its circle, from 1 (1 for A).
    #[must_use]
    pub const fn number(self) -> usize {
        self.index() - CIRCLE_START[self.circle()] + 1
    }

    /// The node with `number` (from 1) on `circle`, if there is one.
    #[must_use]
    pub const fn on_circle(circle: usize, number: usize) -> Option<Node> {
        if circle > 4 || number == 0 || number > CIRCLE_LEN[circle] {
            None
        } else {
            Some(Node((CIRCLE_START[circle] + number - 1) as u8))
        }
    }

    /// Whether the node is a home node (H1–H16).
    #[must_use]
    pub const fn is_home(self) -> bool {
        self.0 >= 29
    }

    /// Parses a node name as move text writes it: `A`, `B1`..`B4`,
    /// `C1`..`C8`, `D1`..`D16`, `H1`..`H16`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Node> {
        if s == "A" {
            return Some(Node::A);
        }
        let mut chars = s.chars();
        let letter = chars.next()?;
        let circle = CIRCLE_LETTER[1..].iter().position(|&c| c == letter)? + 1;
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        Node::on_circle(circle, digits.parse().ok()?)
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.circle() {
            0 => f.write_str("A"),
            c => write!(f, "{}{}", CIRCLE_LETTER[c], self.number()),
        }
    }
}

bitset! {
    /// A set of nodes, one bit per node index.
    NodeSet(u64) of Node, all (1 << NODES) - 1
}

impl NodeSet {
    /// The nodes where stones are placed: A, B, C and D.
    pub const PLACEABLE: NodeSet = NodeSet((1 << 29) - 1);
}

/// A stone colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// White, written `w`.
    White,
    /// Black, written `b`.
    Black,
}

impl Colour {
    /// Both colours, white first.
    pub const BOTH: [Colour; 2] = [Colour::White, Colour::Black];

    /// 0 for white, 1 for black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The colour's letter in move text: `w` or `b`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

/// What a node holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    /// Nothing.
    Empty,
    /// One charged stone.
    Single(Colour),
    /// One white and one black stone: neutral, never moves.
    Block,
    /// Two stones of one colour.
    Double(Colour),
}

impl Content {
    /// The character of the position text: `.`, `w`, `b`, `X`, `W`, `K`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Content::Empty => '.',
            Content::Single(Colour::White) => 'w',
            Content::Single(Colour::Black) => 'b',
            Content::Block => 'X',
            Content::Double(Colour::White) => 'W',
            Content::Double(Colour::Black) => 'K',
        }
    }

    /// The content written as `c` in position text, if any.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Content> {
        match c {
            '.' => Some(Content::Empty),
            'w' => Some(Content::Single(Colour::White)),
            'b' => Some(Content::Single(Colour::Black)),
            'X' => Some(Content::Block),
            'W' => Some(Content::Double(Colour::White)),
            'K' => Some(Content::Double(Colour::Black)),
            _ => None,
        }
    }

    /// How many stones the content counts in scoring (single 1, block and
    /// double 2).
    #[must_use]
    pub const fn stones(self) -> u32 {
        match self {
            Content::Empty => 0,
            Content::Single(_) => 1,
            Content::Block | Content::Double(_) => 2,
        }
    }
}

/// The stones on the board, packed into three node sets: the nodes holding
/// at least one white stone, those holding at least one black stone, and
/// the doubles. A block is a node in both colour sets; a double is a node of
/// one colour set and of `doubles`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board {
    /// Nodes with a white stone: white singles, white doubles, blocks.
    pub white: NodeSet,
    /// Nodes with a black stone: black singles, black doubles, blocks.
    pub black: NodeSet,
    /// Nodes holding a double (of the colour whose set holds the node).
    pub doubles: NodeSet,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        white: NodeSet::EMPTY,
        black: NodeSet::EMPTY,
        doubles: NodeSet::EMPTY,
    };

    /// The nodes holding at least one stone of colour `c`.
    #[must_use]
    pub const fn colour(&self, c: Colour) -> NodeSet {
        match c {
            Colour::White => self.white,
            Colour::Black => self.black,
        }
    }

    /// The set of colour `c`, mutably.
    pub fn colour_mut(&mut self, c: Colour) -> &mut NodeSet {
        match c {
            Colour::White => &mut self.white,
            Colour::Black => &mut self.black,
        }
    }

    /// The occupied nodes.
    #[must_use]
    pub fn occupied(&self) -> NodeSet {
        self.white | self.black
    }

    /// The empty nodes.
    #[must_use]
    pub fn empty(&self) -> NodeSet {
        !(self.white | self.black)
    }

    /// The blocks.
    #[must_use]
    pub fn blocks(&self) -> NodeSet {
        self.white & self.black
    }

    /// The single stones of colour `c`.
    #[must_use]
    pub fn singles(&self, c: Colour) -> NodeSet {
        self.colour(c) & !self.colour(c.other()) & !self.doubles
    }

    /// The single stones of both colours.
    #[must_use]
    pub fn all_singles(&self) -> NodeSet {
        (self.white ^ self.black) & !self.doubles
    }

    /// The doubles of colour `c`.
    #[must_use]
    pub fn doubles_of(&self, c: Colour) -> NodeSet {
        self.colour(c) & self.doubles
    }

    /// What node `n` holds.
    #[must_use]
    pub fn content(&self, n: Node) -> Content {
        match (self.white.has(n), self.black.has(n), self.doubles.has(n)) {
            (false, false, _) => Content::Empty,
            (true, true, _) => Content::Block,
            (true, false, false) => Content::Single(Colour::White),
            (false, true, false) => Content::Single(Colour::Black),
            (true, false, true) => Content::Double(Colour::White),
            (false, true, true) => Content::Double(Colour::Black),
        }
    }

    /// Puts `content` on node `n`, replacing what was there.
    pub fn set(&mut self, n: Node, content: Content) {
        let b = n.bit();
        self.white -= b;
        self.black -= b;
        self.doubles -= b;
        match content {
            Content::Empty => {}
            Content::Single(c) => *self.colour_mut(c) |= b,
            Content::Block => {
                self.white |= b;
                self.black |= b;
            }
            Content::Double(c) => {
                *self.colour_mut(c) |= b;
                self.doubles |= b;
            }
        }
    }

    /// How many stones of colour `c` are on the board.
    #[must_use]
    pub fn stones_of(&self, c: Colour) -> u32 {
        self.colour(c).count() + self.doubles_of(c).count()
    }

    /// The scoring value of the stones on `nodes` (single 1, block 2,
    /// double 2).
    #[must_use]
    pub fn stones_on(&self, nodes: NodeSet) -> u32 {
        (self.white & nodes).count() + (self.black & nodes).count() + (self.doubles & nodes).count()
    }
}
