//! Lines: the unbroken runs of one colour's pieces along the four axes, and
//! the squares a line's length carries a piece to.
//!
//! Directions are indices into [`gamut_core::bits::DIRECTIONS`] (N, NE, E, SE, S,
//! SW, W, NW): direction `d` and `d ^ 4` are opposite and share the axis
//! `d & 3` (0 file, 1 diagonal, 2 rank, 3 anti-diagonal).

use gamut_core::bits::{Bitboard, DIRECTIONS};

/// The square-index step of each direction.
pub const DELTA: [i32; 8] = [8, 9, 1, -7, -8, -9, -1, 7];

/// The square `k` steps from `s` in direction `d`, if on the board.
const fn walk(s: usize, d: usize, k: i32) -> Option<usize> {
    let f = (s % 8) as i32 + DIRECTIONS[d].0 as i32 * k;
    let r = (s / 8) as i32 + DIRECTIONS[d].1 as i32 * k;
    if f < 0 || f > 7 || r < 0 || r > 7 {
        None
    } else {
        Some((f + 8 * r) as usize)
    }
}

/// `SOURCE[d][k]`: the squares from which `k` steps in direction `d` stay on
/// the board.
const SOURCE: [[u64; 8]; 8] = {
    let mut t = [[0u64; 8]; 8];
    let mut d = 0;
    while d < 8 {
        let mut k = 0;
        while k < 8 {
            let mut s = 0;
            while s < 64 {
                if walk(s, d, k as i32).is_some() {
                    t[d][k] |= 1 << s;
                }
                s += 1;
            }
            k += 1;
        }
        d += 1;
    }
    t
};

/// Every square of `b` moved `k` (0..=7) steps in direction `d`; squares
/// that would leave the board are dropped.
#[inline(always)]
#[must_use]
pub fn shift(b: Bitboard, d: usize, k: usize) -> Bitboard {
    let m = b.0 & SOURCE[d][k];
    let n = DELTA[d] * k as i32;
    Bitboard(if n >= 0 { m << n } else { m >> -n })
}

/// Calls `f(k, pieces)` for every length `k` for which some pieces of `own`
/// have a line of exactly length `k` on axis `a`, with those pieces.
///
/// Works on all pieces at once: `window` holds the squares that start `k`
/// consecutive pieces in the axis' forward direction, and spreading it
/// `k - 1` steps forward gives every piece in a line at least `k` long.
#[inline(always)]
pub fn for_each_length(own: Bitboard, a: usize, mut f: impl FnMut(usize, Bitboard)) {
    let back = a ^ 4;
    let mut window = own;
    let mut at_least = own;
    let mut k = 1;
    while !at_least.is_empty() {
        window &= shift(window, back, 1);
        let mut longer = window;
        let mut i = 0;
        while i < k {
            longer |= shift(longer, a, 1);
            i += 1;
        }
        f(k, at_least - longer);
        at_least = longer;
        k += 1;
    }
}

/// `RUN[byte][i]`: the length of the run of set bits of `byte` through bit
/// `i` (0 when bit `i` is clear).
const RUN: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                let mut lo = i;
                while lo > 0 && b >> (lo - 1) & 1 == 1 {
                    lo -= 1;
                }
                let mut hi = i;
                while hi < 7 && b >> (hi + 1) & 1 == 1 {
                    hi += 1;
                }
                t[b][i] = (hi - lo + 1) as u8;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The squares of every line through `s` on axis `a` (`AXIS_MASK[s][a]`).
const AXIS_MASK: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut a = 0;
        while a < 4 {
            let mut m = 1u64 << s;
            let mut k = 1;
            while k < 8 {
                if let Some(x) = walk(s, a, k) {
                    m |= 1 << x;
                }
                if let Some(x) = walk(s, a + 4, k) {
                    m |= 1 << x;
                }
                k += 1;
            }
            t[s][a] = m;
            a += 1;
        }
        s += 1;
    }
    t
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Moves bit `8r` of a masked a-file to bit `56 + r`, without carries.
const FILE_TO_TOP: u64 = 0x0102_0408_1020_4080;

/// The length of the line of `own` through `s` (which `own` holds) on axis
/// `a`: one byte of the line gathered by a multiplication, then a table.
#[inline(always)]
#[must_use]
pub fn line_length(own: Bitboard, s: usize, a: usize) -> usize {
    let own = own.0;
    let (byte, at) = match a {
        0 => (
            ((own >> (s & 7)) & FILE_A).wrapping_mul(FILE_TO_TOP) >> 56,
            s >> 3,
        ),
        2 => ((own >> (s & !7)) & 0xff, s & 7),
        _ => ((own & AXIS_MASK[s][a]).wrapping_mul(FILE_A) >> 56, s & 7),
    };
    RUN[byte as usize][at] as usize
}

/// No square: the marker in [`TARGET`] for a landing off the board.
pub const OFF: u8 = 64;

/// `TARGET[s][d][l]`: the square `l` steps from `s` in direction `d`, or
/// [`OFF`].
pub const TARGET: [[[u8; 9]; 8]; 64] = {
    let mut t = [[[OFF; 9]; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let mut l = 1;
            while l < 9 {
                if let Some(x) = walk(s, d, l as i32) {
                    t[s][d][l] = x as u8;
                }
                l += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// `AXIS_NEIGHBOURS[s][a]`: the (up to two) squares next to `s` on axis `a`;
/// a piece on `s` has a line longer than 1 on `a` only if one of them is
/// its own.
pub const AXIS_NEIGHBOURS: [[Bitboard; 4]; 64] = {
    let mut t = [[Bitboard::EMPTY; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut a = 0;
        while a < 4 {
            if let Some(x) = walk(s, a, 1) {
                t[s][a].0 |= 1 << x;
            }
            if let Some(x) = walk(s, a + 4, 1) {
                t[s][a].0 |= 1 << x;
            }
            a += 1;
        }
        s += 1;
    }
    t
};

/// `NEIGHBOURS[s]`: the up to eight squares king-adjacent to `s`.
pub const NEIGHBOURS: [Bitboard; 64] = {
    let mut t = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = Bitboard(
            AXIS_NEIGHBOURS[s][0].0
                | AXIS_NEIGHBOURS[s][1].0
                | AXIS_NEIGHBOURS[s][2].0
                | AXIS_NEIGHBOURS[s][3].0,
        );
        s += 1;
    }
    t
};

/// Whether no two squares of `own` are king-adjacent (an empty set is).
#[inline(always)]
#[must_use]
pub fn is_apart(own: Bitboard) -> bool {
    (own & own.neighbours()).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::bits::Square;

    /// The line length by walking square by square.
    fn walked_length(own: Bitboard, s: usize, a: usize) -> usize {
        let mut n = 1;
        for d in [a, a + 4] {
            let mut k = 1;
            while let Some(x) = walk(s, d, k) {
                if !own.has(Square(x as u8)) {
                    break;
                }
                n += 1;
                k += 1;
            }
        }
        n
    }

    fn sample_boards() -> Vec<Bitboard> {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut v = vec![0, u64::MAX, 0x7e7e, 0xff00_ff00_ff00_ff00];
        for i in 0..400 {
            x = gamut_core::bits::splitmix64(x);
            // Denser and sparser boards, by and-ing or or-ing a second draw.
            let y = gamut_core::bits::splitmix64(x ^ 7);
            v.push(match i % 3 {
                0 => x,
                1 => x & y,
                _ => x | y,
            });
        }
        v.into_iter().map(Bitboard).collect()
    }

    #[test]
    fn line_length_matches_walking() {
        for own in sample_boards() {
            for s in own {
                for a in 0..4 {
                    let s = s.0 as usize;
                    assert_eq!(line_length(own, s, a), walked_length(own, s, a));
                }
            }
        }
    }

    #[test]
    fn lengths_for_all_pieces_match_walking() {
        for own in sample_boards() {
            for a in 0..4 {
                let mut seen = Bitboard::EMPTY;
                for_each_length(own, a, |k, set| {
                    assert!((seen & set).is_empty(), "a piece has two lengths");
                    seen |= set;
                    for s in set {
                        assert_eq!(walked_length(own, s.0 as usize, a), k, "{own:?} {s} {a}");
                    }
                });
                assert_eq!(seen, own);
            }
        }
    }

    #[test]
    fn shifts_drop_squares_leaving_the_board() {
        for own in sample_boards() {
            for d in 0..8 {
                for k in 0..8 {
                    let mut expect = Bitboard::EMPTY;
                    for s in own {
                        if let Some(x) = walk(s.0 as usize, d, k as i32) {
                            expect |= Square(x as u8).bb();
                        }
                    }
                    assert_eq!(shift(own, d, k), expect);
                }
            }
        }
    }
}
