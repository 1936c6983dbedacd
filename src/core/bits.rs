//! Building blocks shared by the games: bitsets of any width, 8×8 squares
//! and bitboards, board text, and Zobrist keys.

use crate::game::ParseError;
use std::fmt;

/// The storage of a bitset: one unsigned integer, or an array of `u64`
/// words with bit `i` in word `i / 64`.
pub trait Word: Copy + Eq {
    /// No bits set.
    const ZERO: Self;
    /// Bitwise or.
    fn or(self, o: Self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// Bitwise exclusive or.
    fn xor(self, o: Self) -> Self;
    /// The bits of `self` not in `o`.
    fn and_not(self, o: Self) -> Self;
    /// Bitwise complement.
    fn not(self) -> Self;
    /// The number of set bits.
    fn count(self) -> u32;
    /// Whether no bit is set.
    fn is_zero(self) -> bool;
    /// Whether bit `i` is set.
    fn bit(self, i: u32) -> bool;
    /// The index of the lowest set bit of a non-zero word.
    fn lowest(self) -> u32;
    /// Clears the lowest set bit and returns its index, if any is set.
    fn pop_lowest(&mut self) -> Option<u32>;
}

/// [`Word`] for the unsigned integer types.
macro_rules! int_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn or(self, o: $t) -> $t {
                self | o
            }
            #[inline(always)]
            fn and(self, o: $t) -> $t {
                self & o
            }
            #[inline(always)]
            fn xor(self, o: $t) -> $t {
                self ^ o
            }
            #[inline(always)]
            fn and_not(self, o: $t) -> $t {
                self & !o
            }
            #[inline(always)]
            fn not(self) -> $t {
                !self
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn bit(self, i: u32) -> bool {
                self >> i & 1 != 0
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn pop_lowest(&mut self) -> Option<u32> {
                if *self == 0 {
                    None
                } else {
                    let i = self.trailing_zeros();
                    *self &= *self - 1;
                    Some(i)
                }
            }
        }
    )*};
}

int_word!(u16, u64);

/// Applies `f` word by word.
#[inline(always)]
fn zip<const N: usize>(a: [u64; N], b: [u64; N], f: impl Fn(u64, u64) -> u64) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = f(a[i], b[i]);
        i += 1;
    }
    out
}

impl<const N: usize> Word for [u64; N] {
    const ZERO: [u64; N] = [0; N];
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        zip(self, o, |x, y| x | y)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        zip(self, o, |x, y| x & y)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        zip(self, o, |x, y| x ^ y)
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        zip(self, o, |x, y| x & !y)
    }
    #[inline(always)]
    fn not(self) -> Self {
        zip(self, self, |x, _| !x)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.iter().fold(0, |a, w| a | w) == 0
    }
    #[inline(always)]
    fn bit(self, i: u32) -> bool {
        self[(i / 64) as usize] >> (i % 64) & 1 != 0
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        let mut i = 0;
        while self[i] == 0 {
            i += 1;
        }
        64 * i as u32 + self[i].trailing_zeros()
    }
    #[inline(always)]
    fn pop_lowest(&mut self) -> Option<u32> {
        for (i, w) in self.iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros();
                *w &= *w - 1;
                return Some(64 * i as u32 + b);
            }
        }
        None
    }
}

/// Defines a bitset newtype `$name(pub $word)` whose members are `$item`
/// (a newtype over the `u8` bit index), with `all` the bits of real members:
/// set operators (`|`, `&`, `^`, `-` for and-not, `!` as the complement
/// within `all`), counting, membership, and iteration from the lowest member
/// up (a set is its own iterator, emptying itself).
#[macro_export]
macro_rules! bitset {
    ($(#[$doc:meta])* $name:ident($word:ty) of $item:ident, all $all:expr) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $word);

        impl $name {
            /// No members.
            pub const EMPTY: $name = $name(<$word as $crate::bits::Word>::ZERO);
            /// Every member.
            pub const ALL: $name = $name($all);

            /// Whether `x` is in the set.
            #[inline(always)]
            pub fn has(self, x: $item) -> bool {
                $crate::bits::Word::bit(self.0, u32::from(x.0))
            }

            /// The number of members.
            #[inline(always)]
            pub fn count(self) -> u32 {
                $crate::bits::Word::count(self.0)
            }

            /// Whether the set is empty.
            #[inline(always)]
            pub fn is_empty(self) -> bool {
                $crate::bits::Word::is_zero(self.0)
            }

            /// Whether every member of `other` is in the set.
            #[inline(always)]
            pub fn contains(self, other: $name) -> bool {
                self & other == other
            }

            /// The lowest member of a non-empty set.
            #[inline(always)]
            pub fn first(self) -> $item {
                $item($crate::bits::Word::lowest(self.0) as u8)
            }

            /// The members, lowest first.
            #[inline(always)]
            pub fn iter(self) -> $name {
                self
            }
        }

        $crate::bits::set_operator!($name, BitOr, bitor, BitOrAssign, bitor_assign, or);
        $crate::bits::set_operator!($name, BitAnd, bitand, BitAndAssign, bitand_assign, and);
        $crate::bits::set_operator!($name, BitXor, bitxor, BitXorAssign, bitxor_assign, xor);
        $crate::bits::set_operator!($name, Sub, sub, SubAssign, sub_assign, and_not);

        impl std::ops::Not for $name {
            type Output = $name;
            /// The complement within [`Self::ALL`].
            #[inline(always)]
            fn not(self) -> $name {
                $name($crate::bits::Word::not(self.0)) & $name::ALL
            }
        }

        impl Iterator for $name {
            type Item = $item;

            /// The lowest member, removed from the set.
            #[inline(always)]
            fn next(&mut self) -> Option<$item> {
                $crate::bits::Word::pop_lowest(&mut self.0).map(|i| $item(i as u8))
            }
        }
    };
}

/// Implements the binary operator `$op` (and its assigning form) on the
/// bitset `$name` with the word operation `$word_fn`.
#[doc(hidden)]
#[macro_export]
macro_rules! set_operator {
    ($name:ident, $op:ident, $f:ident, $op_assign:ident, $f_assign:ident, $word_fn:ident) => {
        impl std::ops::$op for $name {
            type Output = $name;
            #[inline(always)]
            fn $f(self, o: $name) -> $name {
                $name($crate::bits::Word::$word_fn(self.0, o.0))
            }
        }

        impl std::ops::$op_assign for $name {
            #[inline(always)]
            fn $f_assign(&mut self, o: $name) {
                *self = std::ops::$op::$f(*self, o);
            }
        }
    };
}

pub use crate::bitset;
#[doc(hidden)]
pub use crate::set_operator;

/// A square of an 8×8 board: `file + 8 * rank`, `a1` = 0, `h8` = 63.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square on file `f` (0 = a) and rank `r` (0 = rank 1).
    #[must_use]
    pub const fn new(f: u8, r: u8) -> Square {
        Square(f + 8 * r)
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 for rank 1.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square's bit.
    #[must_use]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 7 || r < 0 || r > 7 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }

    /// Parses a square name (`a1`..`h8`).
    pub fn parse(s: &str) -> Result<Square, ParseError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            Ok(Square::new(b[0] - b'a', b[1] - b'1'))
        } else {
            Err(ParseError::new(format!("'{s}' is not a square (a1..h8)")))
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

bitset! {
    /// A set of squares of an 8×8 board, one bit per square.
    Bitboard(u64) of Square, all u64::MAX
}

/// The eight king directions as (file step, rank step): N, NE, E, SE, S, SW, W, NW.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

impl Bitboard {
    /// The set shifted one step in direction `d` (an index into
    /// [`DIRECTIONS`]); squares leaving the board are dropped.
    #[must_use]
    pub const fn step(self, d: usize) -> Bitboard {
        let b = self.0;
        Bitboard(match d {
            0 => b << 8,
            1 => (b & NOT_H) << 9,
            2 => (b & NOT_H) << 1,
            3 => (b & NOT_H) >> 7,
            4 => b >> 8,
            5 => (b & NOT_A) >> 9,
            6 => (b & NOT_A) >> 1,
            _ => (b & NOT_A) << 7,
        })
    }

    /// Every square king-adjacent to some square of the set (not the set
    /// itself unless adjacent to another member).
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let h = ((b & NOT_H) << 1) | ((b & NOT_A) >> 1);
        let row = h | b;
        Bitboard(h | (row << 8) | (row >> 8))
    }
}

/// The splitmix64 step: a well-mixed 64-bit value for each input, used to
/// fill Zobrist tables at compile time.
#[must_use]
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A table of `N` Zobrist keys, distinct per `seed` (use one seed per game
/// and per table).
#[must_use]
pub const fn zobrist_table<const N: usize>(seed: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix64(
            seed.wrapping_mul(0x1000_0001)
                .wrapping_add(i as u64 * 0x9e37),
        );
        i += 1;
    }
    t
}

/// Parses the board field of a position text: `ranks` rows from the top rank
/// down, separated by `/`, each `files` cells wide, where a run of empty
/// cells is written as its length in decimal and every other character is
/// turned into a cell by `cell` (`None` rejects it). Returns the cells in
/// `file + files * rank` order (rank 0 at the bottom), `None` for empty.
pub fn parse_board<T: Copy>(
    text: &str,
    files: usize,
    ranks: usize,
    cell: impl Fn(char) -> Option<T>,
) -> Result<Vec<Option<T>>, ParseError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return Err(ParseError::new(format!(
            "board has {} ranks, expected {ranks}",
            rows.len()
        )));
    }
    let mut cells = vec![None; files * ranks];
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                    // Saturating: a run too long to count is still too long.
                    n = n.saturating_mul(10).saturating_add(e as usize);
                    chars.next();
                }
                if n == 0 || d == 0 {
                    return Err(ParseError::new(format!(
                        "rank {}: empty run must be a positive number without leading zero",
                        rank + 1
                    )));
                }
                file = file.saturating_add(n);
            } else {
                let v = cell(c).ok_or_else(|| {
                    ParseError::new(format!("rank {}: unexpected character '{c}'", rank + 1))
                })?;
                if file < files {
                    cells[file + files * rank] = Some(v);
                }
                file += 1;
            }
            if file > files {
                return Err(ParseError::new(format!(
                    "rank {} is longer than {files} squares",
                    rank + 1
                )));
            }
        }
        if file != files {
            return Err(ParseError::new(format!(
                "rank {} has {file} squares, expected {files}",
                rank + 1
            )));
        }
    }
    Ok(cells)
}

/// Writes cells (in `file + files * rank` order) as a board field: the
/// inverse of [`parse_board`], in canonical form.
pub fn write_board(files: usize, ranks: usize, cell: impl Fn(usize) -> Option<char>) -> String {
    let mut s = String::new();
    for rank in (0..ranks).rev() {
        let mut run = 0;
        for file in 0..files {
            match cell(file + files * rank) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(c);
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Draws a rectangular board for `gamut show`: rank numbers on the left,
/// file letters below, `.` for empty cells.
pub fn draw_board(files: usize, ranks: usize, cell: impl Fn(usize) -> Option<char>) -> String {
    let mut s = String::new();
    for rank in (0..ranks).rev() {
        s.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..files {
            s.push(' ');
            s.push(cell(file + files * rank).unwrap_or('.'));
        }
        s.push('\n');
    }
    s.push_str("    ");
    for file in 0..files {
        s.push(' ');
        s.push((b'a' + file as u8) as char);
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    bitset! {
        /// A two-word set of 72 members, to test the word-array storage.
        Wide([u64; 2]) of Square, all [u64::MAX, 0xff]
    }

    #[test]
    fn word_array_sets_cross_word_boundaries() {
        let set = Wide([1 << 3, 1 << 0 | 1 << 6]);
        assert_eq!(set.count(), 3);
        assert_eq!(set.first(), Square(3));
        assert_eq!(set.map(|s| s.0).collect::<Vec<_>>(), [3, 64, 70]);
        assert!(set.has(Square(64)) && !set.has(Square(65)));
        let rest = !set;
        assert_eq!(rest.count(), 72 - 3);
        assert!(rest.has(Square(71)) && !rest.has(Square(72)) && !rest.has(Square(70)));
        assert_eq!(Wide::ALL - rest, set);
        assert!(Wide::ALL.contains(set) && !set.contains(Wide::ALL));
        assert!((set & rest).is_empty() && (set ^ rest) == Wide::ALL);
        assert_eq!(Wide::EMPTY.iter().next(), None);
    }

    #[test]
    fn board_text_round_trips_and_rejects_bad_rows() {
        let cells = parse_board("2W/B2/3", 3, 3, |c| (c == 'W' || c == 'B').then_some(c)).unwrap();
        assert_eq!(cells[2 + 3 * 2], Some('W'));
        assert_eq!(cells[3], Some('B')); // a2
        assert_eq!(write_board(3, 3, |i| cells[i]), "2W/B2/3");
        let bad = |t: &str| parse_board(t, 3, 3, |c| (c == 'W').then_some(c)).is_err();
        assert!(bad("2W/3"));
        assert!(bad("4/3/3"));
        assert!(bad("2W/X2/3"));
        assert!(bad("11W/3/3"));
        assert!(bad("03/3/3"));
        // Runs past the machine's word: 2^64 + 3, and 2 + (2^64 - 1), would
        // wrap around to 3 and 1 squares.
        assert!(bad("18446744073709551619/3/3"));
        assert!(bad("W18446744073709551615W/3/3"));
    }

    #[test]
    fn two_digit_runs_parse() {
        let cells = parse_board("W13/14", 14, 2, |c| (c == 'W').then_some(c)).unwrap();
        assert_eq!(cells.iter().filter(|c| c.is_some()).count(), 1);
        assert_eq!(write_board(14, 2, |i| cells[i]), "W13/14");
    }

    #[test]
    fn steps_drop_squares_that_leave_the_board() {
        let h4 = Square::parse("h4").unwrap().bb();
        assert_eq!(h4.step(2), Bitboard::EMPTY);
        assert_eq!(h4.step(6), Square::parse("g4").unwrap().bb());
        let a1 = Square::parse("a1").unwrap().bb();
        assert_eq!(a1.neighbours().count(), 3);
        assert_eq!(Square::parse("d4").unwrap().bb().neighbours().count(), 8);
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            for s in 0..64u8 {
                let sq = Square(s);
                let expect = sq.offset(df, dr).map_or(Bitboard::EMPTY, |t| t.bb());
                assert_eq!(sq.bb().step(d), expect);
            }
        }
    }
}
