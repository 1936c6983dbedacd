//! Moves: a piece's first leg (a single step or a jump its line's length
//! long) and, after a jump, every continuation of jumps that lands on no
//! square twice. Every stopping point is its own move.
//!
//! Only the mover's own pieces decide where a piece may go (lines are runs
//! of own pieces, jumped pieces stay, the landing square must not be own), so
//! the generators take the mover's pieces alone; captures are read off the
//! opponent's pieces when a move is played or written.

use super::lines::{
    for_each_length, line_length, shift, AXIS_NEIGHBOURS, DELTA, NEIGHBOURS, OFF, TARGET,
};
use gamut_core::bits::{Bitboard, Square};

/// Legs stored per word of [`Move`]'s direction list (3 bits each).
const LEGS_PER_WORD: usize = 21;

/// A move: the moving piece's start, its legs (one direction each, the
/// distance being the line length where the leg starts), the squares it
/// landed on, and where it stopped. A path has at most 63 legs (no square is
/// landed on twice and the start counts as visited), and the direction list
/// holds 63.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    landed: Bitboard,
    directions: [u64; 3],
    from: Square,
    to: Square,
    legs: u8,
}

impl Move {
    /// A one-leg move from `from` in direction `d`, landing on `to`.
    #[must_use]
    pub fn first_leg(from: Square, d: usize, to: Square) -> Move {
        Move {
            landed: to.bb(),
            directions: [d as u64, 0, 0],
            from,
            to,
            legs: 1,
        }
    }

    /// This move extended by a jump in direction `d` landing on `to`.
    #[must_use]
    pub fn then(mut self, d: usize, to: Square) -> Move {
        let i = self.legs as usize;
        self.directions[i / LEGS_PER_WORD] |= (d as u64) << (3 * (i % LEGS_PER_WORD));
        self.landed |= to.bb();
        self.to = to;
        self.legs += 1;
        self
    }

    /// The square the piece started on.
    #[must_use]
    pub fn from(self) -> Square {
        self.from
    }

    /// The square the piece stopped on.
    #[must_use]
    pub fn to(self) -> Square {
        self.to
    }

    /// Every square the piece landed on (where captures happen).
    #[must_use]
    pub fn landed(self) -> Bitboard {
        self.landed
    }

    /// The number of legs.
    #[must_use]
    pub fn legs(self) -> usize {
        self.legs as usize
    }

    /// The direction of leg `i` (an index into [`gamut_core::bits::DIRECTIONS`]).
    #[must_use]
    pub fn direction(self, i: usize) -> usize {
        (self.directions[i / LEGS_PER_WORD] >> (3 * (i % LEGS_PER_WORD)) & 7) as usize
    }
}

/// The square `k` steps back from `t` against direction `d`.
#[inline(always)]
fn origin(t: usize, d: usize, k: usize) -> usize {
    (t as i32 - DELTA[d] * k as i32) as usize
}

/// Appends every move of the side owning `own` to `out`; with `first` set
/// (the game's first move) a move has one leg only.
pub fn generate(own: Bitboard, first: bool, out: &mut Vec<Move>) {
    for a in 0..4 {
        for_each_length(own, a, |k, pieces| {
            if k >= 8 {
                return;
            }
            for d in [a, a ^ 4] {
                for to in shift(pieces, d, k) - own {
                    let from = Square(origin(to.0 as usize, d, k) as u8);
                    let m = Move::first_leg(from, d, to);
                    out.push(m);
                    if k >= 2 && !first && !(NEIGHBOURS[to.0 as usize] & own).is_empty() {
                        continue_jumps(own ^ from.bb(), m, from.bb() | to.bb(), out);
                    }
                }
            }
        });
    }
}

/// Appends every continuation of `m` (whose piece stands on `m.to()`, the
/// other own pieces being `rest`), never landing on `visited`.
fn continue_jumps(rest: Bitboard, m: Move, visited: Bitboard, out: &mut Vec<Move>) {
    let at = m.to().0 as usize;
    let own = rest | m.to().bb();
    let blocked = rest | visited;
    for (a, &next_to) in AXIS_NEIGHBOURS[at].iter().enumerate() {
        if (next_to & rest).is_empty() {
            continue;
        }
        let l = line_length(own, at, a);
        for d in [a, a ^ 4] {
            let u = TARGET[at][d][l];
            if u != OFF && !blocked.has(Square(u)) {
                let next = m.then(d, Square(u));
                out.push(next);
                if !(NEIGHBOURS[u as usize] & rest).is_empty() {
                    continue_jumps(rest, next, visited | Square(u).bb(), out);
                }
            }
        }
    }
}

/// The number of moves [`generate`] would give, counted without a list:
/// first legs by popcount over all pieces at once, continuations by a walk.
#[must_use]
pub fn count(own: Bitboard, first: bool) -> usize {
    // Jump landings next to an own piece are the only ones that can go on
    // (the piece's old square is never next to its landing square).
    let beside_own = own.neighbours();
    let mut n = 0;
    for a in 0..4 {
        for_each_length(own, a, |k, pieces| {
            if k >= 8 {
                return;
            }
            for d in [a, a ^ 4] {
                let land = shift(pieces, d, k) - own;
                n += land.count() as usize;
                if k >= 2 && !first {
                    for to in land & beside_own {
                        let from = Square(origin(to.0 as usize, d, k) as u8);
                        n += count_continuations(own ^ from.bb(), to, from.bb() | to.bb());
                    }
                }
            }
        });
    }
    n
}

/// The number of continuations of a jump that landed on `at`, the other own
/// pieces being `rest`, never landing on `visited`.
fn count_continuations(rest: Bitboard, at: Square, visited: Bitboard) -> usize {
    let own = rest | at.bb();
    let blocked = rest | visited;
    let at = at.0 as usize;
    let mut n = 0;
    for (a, &next_to) in AXIS_NEIGHBOURS[at].iter().enumerate() {
        if (next_to & rest).is_empty() {
            continue;
        }
        let l = line_length(own, at, a);
        for d in [a, a ^ 4] {
            let u = TARGET[at][d][l];
            if u != OFF && !blocked.has(Square(u)) {
                n += 1;
                if !(NEIGHBOURS[u as usize] & rest).is_empty() {
                    n += count_continuations(rest, Square(u), visited | Square(u).bb());
                }
            }
        }
    }
    n
}
