//! The state space of Aporia for solving it: every position reduced to what
//! matters for the rest of the game, canonicalised under the eight
//! symmetries, and numbered densely.
//!
//! A position's future depends on the board, on the two moves the
//! repetition rules forbid now, and on the opponent's last move `x-y` (it
//! names the piece prohibition 2 will hold back next turn). The move
//! prohibition 1 forbids, `y-x`, carries exactly that information, so a
//! [`Key`] holds the board plus two forbidden moves:
//!
//! - `back`: `y-x`, unless the last move locked the platform of `y` (then
//!   the piece never moves again, now or next turn) or there was none;
//! - `again`: the move prohibition 2 forbids, kept only when the mover could
//!   otherwise play it (a piece on a free platform, the path open) and it is
//!   not `back`.
//!
//! Both are then moves the position's board allows before the repetition
//! rules (*open* moves). States are numbered per canonical board: with the
//! board's `k` open moves in a fixed order, `back` and `again` each take
//! one of `k + 1` values (none, or an open move), so the board owns
//! `(k + 1)²` consecutive numbers.

use super::board::{Move, Node, NodeSet};
use super::{locked_platforms, symmetry, Aporia};
use gamut_core::game::{Game, Player};

/// A position reduced to what its future depends on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The white pieces.
    pub white: NodeSet,
    /// The black pieces.
    pub black: NodeSet,
    /// The move prohibition 1 forbids, when it could otherwise be played.
    pub back: Option<Move>,
    /// The move prohibition 2 forbids, when it could otherwise be played and
    /// differs from `back`.
    pub again: Option<Move>,
}

impl Key {
    /// The key of a position.
    pub fn of(pos: &Aporia) -> Key {
        let back = pos
            .last()
            .map(Move::reversed)
            .filter(|&m| pos.is_pseudo_legal(m));
        let again = pos.prohibited()[1].filter(|&m| pos.is_pseudo_legal(m) && Some(m) != back);
        Key {
            white: pos.white,
            black: pos.black,
            back,
            again,
        }
    }

    /// A position with this key, `side` to move: its move fields are chosen
    /// so that the repetition rules forbid exactly `back` and `again`.
    pub fn position(&self, side: Player) -> Aporia {
        let mut pos = Aporia {
            white: self.white,
            black: self.black,
            locked: locked_platforms(self.white, self.black),
            side,
            last: self.back.map(Move::reversed),
            own_last: self.again.map(Move::reversed),
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The key under symmetry `g`.
    #[must_use]
    pub fn mapped(&self, g: usize) -> Key {
        Key {
            white: symmetry::set(g, self.white),
            black: symmetry::set(g, self.black),
            back: self.back.map(|m| symmetry::mv(g, m)),
            again: self.again.map(|m| symmetry::mv(g, m)),
        }
    }
}

/// The 68 move shapes (diagonal steps onto another platform, and jumps of
/// two or three nodes along a line), in order of `(from, to)`.
const SHAPES: [Move; 68] = {
    let mut t = [Move::new(Node(0), Node(0)); 68];
    let mut i = 0;
    let mut code = 0;
    while code < 256 {
        let m = Move::new(Node((code / 16) as u8), Node((code % 16) as u8));
        if m.is_diagonal_step() || m.is_jump_shape() {
            t[i] = m;
            i += 1;
        }
        code += 1;
    }
    assert!(i == 68);
    t
};

/// The index into [`SHAPES`] of each move `from * 16 + to` (255: none).
const SHAPE_OF: [u8; 256] = {
    let mut t = [255u8; 256];
    let mut i = 0;
    while i < 68 {
        t[SHAPES[i].from.0 as usize * 16 + SHAPES[i].to.0 as usize] = i as u8;
        i += 1;
    }
    t
};

fn shape(m: Move) -> u32 {
    u32::from(SHAPE_OF[m.from.0 as usize * 16 + m.to.0 as usize])
}

/// `BINOMIAL[n][k]` = n choose k, for the ranks of piece sets.
const BINOMIAL: [[u32; 5]; 17] = {
    let mut t = [[0u32; 5]; 17];
    let mut n = 0;
    while n < 17 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The number of boards: 16! / (4! · 4! · 8!).
pub const BOARDS: usize = 900_900;

/// A dense number for every board, `0..BOARDS`: the colex rank of the white
/// set among the 16 nodes, then of the black set among the 12 others.
#[must_use]
pub fn board_rank(white: NodeSet, black: NodeSet) -> usize {
    let mut w = 0;
    for (i, n) in white.enumerate() {
        w += BINOMIAL[n.0 as usize][i + 1];
    }
    let free = !white.0;
    let mut b = 0;
    for (i, n) in black.enumerate() {
        let below = (free & ((1u16 << n.0) - 1)).count_ones();
        b += BINOMIAL[below as usize][i + 1];
    }
    (w * 495 + b) as usize
}

/// A board that is the smallest of its images, with its states.
#[derive(Clone, Debug)]
pub struct CanonicalBoard {
    /// The white pieces.
    pub white: NodeSet,
    /// The black pieces.
    pub black: NodeSet,
    /// Its open moves: bit `i` for `SHAPES[i]`.
    open: u128,
    /// The number of its first state.
    pub first: u64,
    /// The symmetries that map the board onto itself (bit `g`).
    stabiliser: u8,
}

impl CanonicalBoard {
    /// The number of open moves.
    #[must_use]
    pub fn open_count(&self) -> u32 {
        self.open.count_ones()
    }

    /// The number of states: `(k + 1)²` for `k` open moves.
    #[must_use]
    pub fn states(&self) -> u64 {
        let k = u64::from(self.open_count()) + 1;
        k * k
    }

    /// The position of an open move `m` in the order, plus one; 0 for none.
    fn slot(&self, m: Option<Move>) -> u64 {
        m.map_or(0, |m| {
            let s = shape(m);
            debug_assert!(self.open >> s & 1 == 1, "{m} is not open");
            u64::from((self.open & ((1u128 << s) - 1)).count_ones()) + 1
        })
    }

    /// The open move at `slot` (see [`Self::slot`]).
    fn at(&self, slot: u64) -> Option<Move> {
        if slot == 0 {
            return None;
        }
        let mut bits = self.open;
        for _ in 1..slot {
            bits &= bits - 1;
        }
        Some(SHAPES[bits.trailing_zeros() as usize])
    }

    /// The key of the board's state number `local`.
    #[must_use]
    pub fn key(&self, local: u64) -> Key {
        let k = u64::from(self.open_count()) + 1;
        Key {
            white: self.white,
            black: self.black,
            back: self.at(local / k),
            again: self.at(local % k),
        }
    }

    /// The number, within the board, of the state with these forbidden moves.
    fn local(&self, back: Option<Move>, again: Option<Move>) -> u64 {
        self.slot(back) * (u64::from(self.open_count()) + 1) + self.slot(again)
    }
}

/// Every state of Aporia, numbered.
pub struct StateSpace {
    /// For every board rank: its canonical board's number and a symmetry
    /// taking it there.
    class: Vec<(u32, u8)>,
    /// The canonical boards, in order of their numbers.
    pub boards: Vec<CanonicalBoard>,
    /// The number of states.
    pub total: u64,
}

/// The sets of four nodes among `mask`.
fn four_of(mask: u16) -> Vec<u16> {
    let mut out = Vec::new();
    let mut sub = mask;
    loop {
        if sub.count_ones() == 4 {
            out.push(sub);
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & mask;
    }
    out.sort_unstable();
    out
}

/// The smallest image of a board under the symmetries (white in the high
/// half), and a symmetry giving it.
fn canonical(white: NodeSet, black: NodeSet) -> (u32, usize) {
    (0..symmetry::COUNT)
        .map(|g| {
            let w = u32::from(symmetry::set(g, white).0);
            let b = u32::from(symmetry::set(g, black).0);
            (w << 16 | b, g)
        })
        .min()
        .expect("eight symmetries")
}

impl StateSpace {
    /// Enumerates the boards and numbers the states.
    #[must_use]
    pub fn new() -> StateSpace {
        let mut class = vec![(u32::MAX, 0u8); BOARDS];
        let mut boards = Vec::new();
        let mut all = Vec::with_capacity(BOARDS);
        for w in four_of(0xffff) {
            for b in four_of(!w) {
                all.push((NodeSet(w), NodeSet(b)));
            }
        }
        let mut first = 0;
        for &(white, black) in &all {
            let (min, _) = canonical(white, black);
            if min != u32::from(white.0) << 16 | u32::from(black.0) {
                continue;
            }
            let key = Key {
                white,
                black,
                back: None,
                again: None,
            };
            let mut open = 0u128;
            key.position(Player::FIRST)
                .for_each_move(|m| open |= 1 << shape(m));
            let stabiliser = (0..symmetry::COUNT)
                .filter(|&g| symmetry::set(g, white) == white && symmetry::set(g, black) == black)
                .fold(0u8, |s, g| s | 1 << g);
            class[board_rank(white, black)] = (boards.len() as u32, 0);
            let board = CanonicalBoard {
                white,
                black,
                open,
                first,
                stabiliser,
            };
            first += board.states();
            boards.push(board);
        }
        for &(white, black) in &all {
            let (min, g) = canonical(white, black);
            let (w, b) = (NodeSet((min >> 16) as u16), NodeSet(min as u16));
            let id = class[board_rank(w, b)].0;
            class[board_rank(white, black)] = (id, g as u8);
        }
        StateSpace {
            class,
            boards,
            total: first,
        }
    }

    /// The number of the state of `key`: the smallest over the symmetries
    /// taking its board to the canonical board.
    #[must_use]
    pub fn index(&self, key: &Key) -> u64 {
        let (id, g) = self.class[board_rank(key.white, key.black)];
        let board = &self.boards[id as usize];
        let (back, again) = (
            key.back.map(|m| symmetry::mv(g as usize, m)),
            key.again.map(|m| symmetry::mv(g as usize, m)),
        );
        let mut best = board.local(back, again);
        let mut others = board.stabiliser & !1;
        while others != 0 {
            let s = others.trailing_zeros() as usize;
            others &= others - 1;
            let local = board.local(
                back.map(|m| symmetry::mv(s, m)),
                again.map(|m| symmetry::mv(s, m)),
            );
            best = best.min(local);
        }
        board.first + best
    }

    /// The canonical board holding state `index`, by number.
    #[must_use]
    pub fn board_of(&self, index: u64) -> usize {
        self.boards.partition_point(|b| b.first <= index) - 1
    }

    /// The key of state `index` (on the canonical board).
    #[must_use]
    pub fn key(&self, index: u64) -> Key {
        let board = &self.boards[self.board_of(index)];
        board.key(index - board.first)
    }

    /// Whether state `index` is a real and canonical key: `again` differs
    /// from `back`, and no symmetry of the board gives a smaller number.
    #[must_use]
    pub fn is_canonical(&self, index: u64) -> bool {
        let key = self.key(index);
        (key.again.is_none() || key.again != key.back) && self.index(&key) == index
    }

    /// The number of distinct keys over all boards, before symmetry.
    #[must_use]
    pub fn raw_count(&self) -> u64 {
        self.boards
            .iter()
            .map(|b| {
                let k = u64::from(b.open_count());
                let images = symmetry::COUNT as u64 / u64::from(b.stabiliser.count_ones());
                ((k + 1) * (k + 1) - k) * images
            })
            .sum()
    }
}

impl Default for StateSpace {
    fn default() -> Self {
        StateSpace::new()
    }
}
