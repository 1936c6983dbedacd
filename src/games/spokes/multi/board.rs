//! The board of the four-player variants: a node holds up to four stones,
//! as blocks (a white and a black stone each) and loose stones of one
//! colour.

use crate::spokes::board::{Colour, Node, NodeSet, NODES};
use crate::spokes::node_text::NodeText;

/// What one node holds: 0–2 blocks and 0–4 loose stones of one colour, at
/// most four stones in all (15 possibilities, numbered 0–14; 0 is empty).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(u8);

/// The blocks, loose stones and loose colour (0 white, 1 black) of each
/// cell number.
const PARTS: [(u8, u8, u8); 15] = [
    (0, 0, 0),
    (0, 1, 0),
    (0, 1, 1),
    (0, 2, 0),
    (0, 2, 1),
    (0, 3, 0),
    (0, 3, 1),
    (0, 4, 0),
    (0, 4, 1),
    (1, 0, 0),
    (1, 1, 0),
    (1, 1, 1),
    (1, 2, 0),
    (1, 2, 1),
    (2, 0, 0),
];

impl Cell {
    /// An empty node.
    pub const EMPTY: Cell = Cell(0);
    /// One block and nothing else.
    pub const BLOCK: Cell = Cell(9);

    /// The cell with `blocks` blocks and `loose` loose stones of `colour`;
    /// `None` beyond four stones or two blocks.
    #[must_use]
    pub const fn new(blocks: u32, loose: u32, colour: Colour) -> Option<Cell> {
        let c = colour.index() as u8;
        match (blocks, loose) {
            (0, 0) => Some(Cell(0)),
            (0, 1..=4) => Some(Cell(2 * loose as u8 - 1 + c)),
            (1, 0) => Some(Cell(9)),
            (1, 1..=2) => Some(Cell(10 + 2 * (loose as u8 - 1) + c)),
            (2, 0) => Some(Cell(14)),
            _ => None,
        }
    }

    /// A single stone of `colour`.
    #[must_use]
    pub const fn single(colour: Colour) -> Cell {
        Cell(1 + colour.index() as u8)
    }

    /// The cell's number, 0–14.
    #[must_use]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// The number of blocks.
    #[must_use]
    pub const fn blocks(self) -> u32 {
        PARTS[self.0 as usize].0 as u32
    }

    /// The number of loose stones.
    #[must_use]
    pub const fn loose(self) -> u32 {
        PARTS[self.0 as usize].1 as u32
    }

    /// The colour of the loose stones (white where there are none).
    #[must_use]
    pub const fn colour(self) -> Colour {
        if PARTS[self.0 as usize].2 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The stones it counts in scoring: two per block, one per loose stone.
    #[must_use]
    pub const fn stones(self) -> u32 {
        2 * self.blocks() + self.loose()
    }

    /// The stones of `c` it holds.
    #[must_use]
    pub const fn stones_of(self, c: Colour) -> u32 {
        let own = if self.colour().index() == c.index() {
            self.loose()
        } else {
            0
        };
        self.blocks() + own
    }

    /// Whether it holds more than one unit (a block or a loose stone).
    #[must_use]
    pub const fn is_crowded(self) -> bool {
        self.blocks() + self.loose() > 1
    }

    /// The cell after a stone of `c` lands: it pairs with a loose stone of
    /// the other colour into a block if there is one.
    #[must_use]
    pub const fn with_stone(self, c: Colour) -> Option<Cell> {
        let (k, n) = (self.blocks(), self.loose());
        if n > 0 && self.colour().index() != c.index() {
            Cell::new(k + 1, n - 1, self.colour())
        } else {
            Cell::new(k, n + 1, c)
        }
    }

    /// The cell after one loose stone leaves.
    #[must_use]
    pub const fn without_loose(self) -> Cell {
        match Cell::new(self.blocks(), self.loose() - 1, self.colour()) {
            Some(c) => c,
            None => Cell::EMPTY,
        }
    }

    /// The cell after a block lands on it (empty or a single stone).
    #[must_use]
    pub const fn with_block(self) -> Option<Cell> {
        Cell::new(self.blocks() + 1, self.loose(), self.colour())
    }
}

const PER_WORD: usize = 15;

/// Every node's [`Cell`], four bits each, fifteen nodes to a word.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board {
    words: [u64; 3],
}

/// The node sets a resolution step looks at, worked out from a [`Board`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sets {
    /// Empty nodes.
    pub empty: NodeSet,
    /// Nodes holding exactly one stone, by colour.
    pub singles: [NodeSet; 2],
    /// Crowded nodes (more than one unit).
    pub crowded: NodeSet,
    /// Nodes holding at least one block.
    pub blocked: NodeSet,
}

impl Sets {
    /// Single stones of either colour.
    #[must_use]
    pub fn all_singles(&self) -> NodeSet {
        self.singles[0] | self.singles[1]
    }
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { words: [0; 3] };

    /// The packed cells, fifteen nodes to a word.
    #[must_use]
    pub fn words(&self) -> [u64; 3] {
        self.words
    }

    /// What node `n` holds.
    #[must_use]
    pub fn get(&self, n: Node) -> Cell {
        let i = n.index();
        Cell((self.words[i / PER_WORD] >> (4 * (i % PER_WORD)) & 15) as u8)
    }

    /// Puts `cell` on node `n`.
    pub fn set(&mut self, n: Node, cell: Cell) {
        let i = n.index();
        let shift = 4 * (i % PER_WORD);
        let w = &mut self.words[i / PER_WORD];
        *w = *w & !(15 << shift) | u64::from(cell.0) << shift;
    }

    /// Every occupied node with its cell.
    pub fn cells(&self) -> impl Iterator<Item = (Node, Cell)> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let at = bits.trailing_zeros() as usize / 4;
                let cell = Cell((bits >> (4 * at) & 15) as u8);
                bits &= !(15 << (4 * at));
                Some((Node((w * PER_WORD + at) as u8), cell))
            })
        })
    }

    /// The node sets of this board.
    #[must_use]
    pub fn sets(&self) -> Sets {
        let mut s = Sets {
            empty: NodeSet::ALL,
            singles: [NodeSet::EMPTY; 2],
            crowded: NodeSet::EMPTY,
            blocked: NodeSet::EMPTY,
        };
        for (n, c) in self.cells() {
            s.empty.0 &= !(1 << n.0);
            if c.is_crowded() {
                s.crowded |= n.bit();
            } else if c.loose() == 1 {
                s.singles[c.colour().index()] |= n.bit();
            }
            if c.blocks() > 0 {
                s.blocked |= n.bit();
            }
        }
        s
    }

    /// The stones of colour `c` on the board.
    #[must_use]
    pub fn stones_of(&self, c: Colour) -> u32 {
        self.cells().map(|(_, cell)| cell.stones_of(c)).sum()
    }

    /// The stones on `nodes`, counted as in scoring.
    #[must_use]
    pub fn stones_on(&self, nodes: NodeSet) -> u32 {
        self.cells()
            .filter(|&(n, _)| nodes.has(n))
            .map(|(_, cell)| cell.stones())
            .sum()
    }

    /// The occupied nodes.
    #[must_use]
    pub fn occupied(&self) -> NodeSet {
        self.cells().fold(NodeSet::EMPTY, |s, (n, _)| s | n.bit())
    }
}

impl crate::spokes::score::Stones for Board {
    fn stones_on(&self, nodes: NodeSet) -> u32 {
        Board::stones_on(self, nodes)
    }

    fn occupied(&self) -> NodeSet {
        Board::occupied(self)
    }

    fn blocked(&self) -> NodeSet {
        self.sets().blocked
    }
}

impl crate::spokes::svg::Drawn for Board {
    fn colours(&self, n: Node) -> Vec<Colour> {
        let cell = self.get(n);
        let mut out = Vec::new();
        for _ in 0..cell.blocks() {
            out.extend([Colour::White, Colour::Black]);
        }
        out.extend(std::iter::repeat_n(cell.colour(), cell.loose() as usize));
        out
    }
}

/// The text of one node: `.`, `w`, `b`, `X`, `W`, `K`, or a crowded node in
/// brackets, its blocks then its loose stones (`[Xbb]`).
#[must_use]
pub fn cell_text(c: Cell) -> String {
    let letter = |col: Colour| col.letter();
    match (c.blocks(), c.loose()) {
        (0, 0) => ".".into(),
        (0, 1) => letter(c.colour()).to_string(),
        (1, 0) => "X".into(),
        (0, 2) => match c.colour() {
            Colour::White => "W".into(),
            Colour::Black => "K".into(),
        },
        (k, n) => {
            let mut s = String::from("[");
            s.extend(std::iter::repeat_n('X', k as usize));
            s.extend(std::iter::repeat_n(letter(c.colour()), n as usize));
            s.push(']');
            s
        }
    }
}

impl NodeText for Board {
    const EMPTY: Board = Board::EMPTY;
    const BRACKETS: bool = true;

    fn node_text(&self, n: Node) -> String {
        cell_text(self.get(n))
    }

    fn is_empty_at(&self, n: Node) -> bool {
        self.get(n) == Cell::EMPTY
    }

    fn code(&self, n: Node) -> u8 {
        self.get(n).0
    }

    fn set_text(&mut self, n: Node, token: &str) -> bool {
        let single = |c| Some(Cell::single(c));
        let cell = match token {
            "w" => single(Colour::White),
            "b" => single(Colour::Black),
            "X" => Some(Cell::BLOCK),
            "W" => Cell::new(0, 2, Colour::White),
            "K" => Cell::new(0, 2, Colour::Black),
            _ => token
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .and_then(bracket_cell),
        };
        cell.map(|c| self.set(n, c)).is_some()
    }
}

/// Parses the inside of a bracket: blocks then loose stones of one colour,
/// crowded, and not a double (written `W` or `K`).
fn bracket_cell(inner: &str) -> Option<Cell> {
    let blocks = inner.bytes().take_while(|&b| b == b'X').count();
    let rest = &inner[blocks..];
    let colour = match rest.bytes().next() {
        None => Colour::White,
        Some(b'w') => Colour::White,
        Some(b'b') => Colour::Black,
        Some(_) => return None,
    };
    if !rest.bytes().all(|b| b == colour.letter() as u8) {
        return None;
    }
    let cell = Cell::new(blocks as u32, rest.len() as u32, colour)?;
    (cell.is_crowded() && cell_text(cell) == format!("[{inner}]")).then_some(cell)
}

/// Every node, in index order.
pub fn all_nodes() -> impl Iterator<Item = Node> {
    (0..NODES as u8).map(Node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spokes::text::nodes_field;

    fn parse_nodes(text: &str) -> Result<Board, gamut_core::game::ParseError> {
        crate::spokes::text::parse_nodes(text)
    }

    #[test]
    fn cells_add_up() {
        for code in 0..15u8 {
            let c = Cell(code);
            assert_eq!(Cell::new(c.blocks(), c.loose(), c.colour()), Some(c));
            assert!(c.stones() <= 4);
        }
        let w = Colour::White;
        let b = Colour::Black;
        let ww = Cell::single(w).with_stone(w).unwrap();
        assert_eq!((ww.blocks(), ww.loose(), ww.is_crowded()), (0, 2, true));
        let x = ww.with_stone(b).unwrap();
        assert_eq!((x.blocks(), x.loose(), x.colour()), (1, 1, w));
        assert_eq!(x.with_stone(b), Some(Cell::new(2, 0, w).unwrap()));
        assert_eq!(Cell::new(2, 0, w).unwrap().with_stone(w), None);
        assert!(!Cell::BLOCK.is_crowded());
        assert!(!Cell::single(b).is_crowded());
    }

    #[test]
    fn board_sets_and_cells_agree() {
        let mut b = Board::EMPTY;
        b.set(Node(0), Cell::BLOCK);
        b.set(Node(14), Cell::new(1, 2, Colour::Black).unwrap());
        b.set(Node(44), Cell::single(Colour::White));
        b.set(Node(30), Cell::new(0, 3, Colour::White).unwrap());
        let cells: Vec<_> = b.cells().collect();
        assert_eq!(cells.len(), 4);
        assert_eq!(b.get(Node(44)), Cell::single(Colour::White));
        let s = b.sets();
        assert_eq!(s.blocked, Node(0).bit() | Node(14).bit());
        assert_eq!(s.crowded, Node(14).bit() | Node(30).bit());
        assert_eq!(s.singles[0], Node(44).bit());
        assert_eq!(s.empty.count(), 41);
        assert_eq!(b.stones_of(Colour::Black), 4);
        assert_eq!(b.stones_of(Colour::White), 6);
        b.set(Node(14), Cell::EMPTY);
        assert_eq!(b.cells().count(), 3);
    }

    #[test]
    fn brackets_are_canonical_and_strict() {
        for text in ["[Xw]", "[XX]", "[www]", "[bbbb]", "[Xbb]", "[Xb]", "[Xww]"] {
            let b = parse_nodes(&format!("{text}/4/8/16/16")).unwrap();
            assert_eq!(nodes_field(&b), format!("{text}/4/8/16/16"));
        }
        for bad in [
            "[]", "[w]", "[X]", "[ww]", "[bb]", "[wX]", "[wb]", "[XXw]", "[wwwww]", "[Xwww]",
            "[XXX]", "[Xwb]", "[w", "[x]",
        ] {
            assert!(parse_nodes(&format!("{bad}/4/8/16/16")).is_err(), "{bad}");
        }
        let b = parse_nodes("./..[XX]./3[www]4/16/8[Xw]7").unwrap();
        assert_eq!(nodes_field(&b), "1/2[XX]1/3[www]4/16/8[Xw]7");
    }
}
