//! Squares and bitboards of the 14×12 Epaminondas board.
//!
//! Each rank takes 16 bits (files `a`..`n` in bits 0..13, two padding bits),
//! so the 12 ranks fill three `u64` words exactly, four ranks per word. A
//! step in any of the eight directions is a shift by 1, 15, 16 or 17 bits;
//! stones stepping off the left or right edge land in padding bits, which
//! [`Bitboard::step`] clears, and stones stepping off the top or bottom fall
//! out of the 192 bits.

use gamut_core::bits::bitset;
use gamut_core::game::ParseError;
use std::fmt;

/// Number of files (`a`..`n`).
pub const FILES: u8 = 14;
/// Number of ranks (`1`..`12`).
pub const RANKS: u8 = 12;
/// Bits per rank in a [`Bitboard`].
const STRIDE: u8 = 16;

/// A square of the 14×12 board: `file + 16 * rank`, `a1` = 0, `n12` = 189.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square on file `f` (0 = a) and rank `r` (0 = rank 1).
    #[must_use]
    pub const fn new(f: u8, r: u8) -> Square {
        Square(f + STRIDE * r)
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// The rank, 0 for rank 1.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// The square's bit.
    #[must_use]
    pub const fn bb(self) -> Bitboard {
        let mut w = [0u64; 3];
        w[(self.0 >> 6) as usize] = 1 << (self.0 & 63);
        Bitboard(w)
    }

    /// The square `n` steps away in direction `d`, assumed on the board.
    #[must_use]
    pub const fn shifted(self, d: Dir, n: i32) -> Square {
        Square((self.0 as i32 + d.delta() * n) as u8)
    }

    /// The square one step away in direction `d`, if on the board.
    #[must_use]
    pub const fn step(self, d: Dir) -> Option<Square> {
        let (df, dr) = d.offset();
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f >= FILES as i8 || r < 0 || r >= RANKS as i8 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }

    /// Parses a square name (`a1`..`n12`).
    pub fn parse(s: &str) -> Result<Square, ParseError> {
        let b = s.as_bytes();
        let bad = || ParseError::new(format!("'{s}' is not a square (a1..n12)"));
        if b.len() < 2 || !(b'a'..b'a' + FILES).contains(&b[0]) {
            return Err(bad());
        }
        let digits = &s[1..];
        if digits.starts_with('0') || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        match digits.parse::<u8>() {
            Ok(r) if (1..=RANKS).contains(&r) => Ok(Square::new(b[0] - b'a', r - 1)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// One of the eight directions, in the order of [`gamut_core::bits::DIRECTIONS`]:
/// N, NE, E, SE, S, SW, W, NW (north is towards rank 12).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dir(pub u8);

impl Dir {
    /// All eight directions.
    pub const ALL: [Dir; 8] = [
        Dir(0),
        Dir(1),
        Dir(2),
        Dir(3),
        Dir(4),
        Dir(5),
        Dir(6),
        Dir(7),
    ];

    /// (file step, rank step).
    #[must_use]
    pub const fn offset(self) -> (i8, i8) {
        gamut_core::bits::DIRECTIONS[self.0 as usize]
    }

    /// The change of square index for one step.
    #[must_use]
    pub const fn delta(self) -> i32 {
        let (df, dr) = self.offset();
        df as i32 + STRIDE as i32 * dr as i32
    }

    /// The opposite direction.
    #[must_use]
    pub const fn reverse(self) -> Dir {
        Dir((self.0 + 4) & 7)
    }

    /// The direction of one step from `from` to `to`, with the number of
    /// steps, if `to` lies on a line from `from` (and differs from it).
    #[must_use]
    pub fn between(from: Square, to: Square) -> Option<(Dir, u8)> {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let n = df.abs().max(dr.abs());
        let d = Dir::ALL
            .into_iter()
            .find(|d| d.offset() == (df.signum(), dr.signum()))?;
        Some((d, n as u8))
    }
}

bitset! {
    /// A set of squares of the 14×12 board (see the module documentation).
    Bitboard([u64; 3]) of Square, all [LANES; 3]
}

/// The 14 file bits of each 16-bit rank lane of a word.
const LANES: u64 = 0x3fff_3fff_3fff_3fff;

/// `RANK_BITS[b]`: every square whose rank index (0 for rank 1) has bit `b`
/// set, so that the sum of the rank indices of a set's squares is
/// `Σ 2^b · |set ∩ RANK_BITS[b]|`.
const RANK_BITS: [Bitboard; 4] = [
    ranks_with_bit(0),
    ranks_with_bit(1),
    ranks_with_bit(2),
    ranks_with_bit(3),
];

/// Every square whose rank index has bit `b` set.
const fn ranks_with_bit(b: u8) -> Bitboard {
    let mut w = [0u64; 3];
    let mut r = 0;
    while r < RANKS {
        if (r >> b) & 1 == 1 {
            let rank = Bitboard::rank(r).0;
            w = [w[0] | rank[0], w[1] | rank[1], w[2] | rank[2]];
        }
        r += 1;
    }
    Bitboard(w)
}

impl Bitboard {
    /// The sum over the set's squares of their rank index (0 for rank 1).
    #[must_use]
    pub fn rank_sum(self) -> u32 {
        RANK_BITS
            .iter()
            .enumerate()
            .map(|(b, &plane)| (self & plane).count() << b)
            .sum()
    }

    /// Every square of rank `r` (0 = rank 1).
    #[must_use]
    pub const fn rank(r: u8) -> Bitboard {
        let mut w = [0u64; 3];
        w[(r / 4) as usize] = 0x3fff << (16 * (r % 4));
        Bitboard(w)
    }

    /// The set shifted one step in direction `D` (an index into
    /// [`Dir::ALL`]), without clearing padding bits: stones leaving the
    /// board sideways land in padding bits. Callers intersect the result
    /// with a set of real squares before using it.
    #[inline(always)]
    #[must_use]
    pub const fn step_raw<const D: u8>(self) -> Bitboard {
        let delta = Dir(D).delta();
        let [a, b, c] = self.0;
        if delta > 0 {
            let n = delta as u32;
            Bitboard([
                a << n,
                (b << n) | (a >> (64 - n)),
                (c << n) | (b >> (64 - n)),
            ])
        } else {
            let n = (-delta) as u32;
            Bitboard([
                (a >> n) | (b << (64 - n)),
                (b >> n) | (c << (64 - n)),
                c >> n,
            ])
        }
    }

    /// The set shifted one step in direction `d`; squares leaving the board
    /// are dropped.
    #[must_use]
    pub fn step(self, d: Dir) -> Bitboard {
        let r = match d.0 {
            0 => self.step_raw::<0>(),
            1 => self.step_raw::<1>(),
            2 => self.step_raw::<2>(),
            3 => self.step_raw::<3>(),
            4 => self.step_raw::<4>(),
            5 => self.step_raw::<5>(),
            6 => self.step_raw::<6>(),
            _ => self.step_raw::<7>(),
        };
        r & Bitboard::ALL
    }

    /// The set reflected left to right (file `a` ↔ `n` on each rank).
    #[inline]
    #[must_use]
    pub const fn mirror(self) -> Bitboard {
        const fn word(x: u64) -> u64 {
            // Reversing all 64 bits reverses each 16-bit lane and the lane
            // order; swap the lanes back, then move the 14 files down over
            // the two padding bits.
            let r = x.reverse_bits().rotate_left(32);
            let r = ((r & 0x0000_ffff_0000_ffff) << 16) | ((r >> 16) & 0x0000_ffff_0000_ffff);
            (r >> 2) & LANES
        }
        Bitboard([word(self.0[0]), word(self.0[1]), word(self.0[2])])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_squares() -> impl Iterator<Item = Square> {
        (0..RANKS).flat_map(|r| (0..FILES).map(move |f| Square::new(f, r)))
    }

    #[test]
    fn rank_sums_add_the_ranks_of_the_squares() {
        // Every single square, and sets made of squares picked by a
        // pseudo-random walk over the board.
        for s in all_squares() {
            assert_eq!(s.bb().rank_sum(), u32::from(s.rank()), "{s}");
        }
        let squares: Vec<Square> = all_squares().collect();
        let mut x = 12345u64;
        for _ in 0..200 {
            let mut set = Bitboard::EMPTY;
            let mut expect = 0;
            for &sq in &squares {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if x >> 62 == 0 {
                    set |= sq.bb();
                    expect += u32::from(sq.rank());
                }
            }
            assert_eq!(set.rank_sum(), expect);
        }
        assert_eq!(Bitboard::EMPTY.rank_sum(), 0);
    }

    #[test]
    fn steps_match_square_offsets() {
        for d in Dir::ALL {
            for s in all_squares() {
                let expect = s.step(d).map_or(Bitboard::EMPTY, |t| t.bb());
                assert_eq!(s.bb().step(d), expect, "{s} {d:?}");
            }
        }
    }

    #[test]
    fn mirror_reflects_files() {
        for s in all_squares() {
            let m = Square::new(FILES - 1 - s.file(), s.rank());
            assert_eq!(s.bb().mirror(), m.bb(), "{s}");
        }
        assert_eq!(Bitboard::ALL.mirror(), Bitboard::ALL);
    }

    #[test]
    fn squares_parse_and_print() {
        for s in all_squares() {
            assert_eq!(Square::parse(&s.to_string()), Ok(s));
        }
        for bad in ["a0", "o1", "a13", "a01", "A1", "a", "", "a1x", "a+1"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Square::parse("n12"), Ok(Square(189)));
    }

    #[test]
    fn between_finds_lines() {
        let a1 = Square::parse("a1").unwrap();
        let c3 = Square::parse("c3").unwrap();
        assert_eq!(Dir::between(a1, c3), Some((Dir(1), 2)));
        assert_eq!(Dir::between(c3, a1), Some((Dir(5), 2)));
        assert_eq!(Dir::between(a1, Square::parse("b3").unwrap()), None);
        assert_eq!(Dir::between(a1, a1), None);
    }
}
