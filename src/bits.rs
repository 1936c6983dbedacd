//! Building blocks shared by the games: 8×8 squares and bitboards, board
//! text, and Zobrist keys.

use crate::game::ParseError;
use std::fmt;

/// A square of an 8×8 board: `file + 8 * rank`, `a1` = 0, `h8` = 63.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square on file `f` (0 = a) and rank `r` (0 = rank 1).
    pub const fn new(f: u8, r: u8) -> Square {
        Square(f + 8 * r)
    }

    /// The file, 0 for `a`.
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 for rank 1.
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square's bit.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
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

/// A set of squares of an 8×8 board, one bit per square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

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
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(u64::MAX);

    /// Whether `s` is in the set.
    pub const fn has(self, s: Square) -> bool {
        self.0 >> s.0 & 1 != 0
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set shifted one step in direction `d` (an index into
    /// [`DIRECTIONS`]); squares leaving the board are dropped.
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
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let h = ((b & NOT_H) << 1) | ((b & NOT_A) >> 1);
        let row = h | b;
        Bitboard(h | (row << 8) | (row >> 8))
    }

    /// The lowest square of a non-empty set.
    pub const fn first(self) -> Square {
        Square(self.0.trailing_zeros() as u8)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}

impl std::ops::BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl std::ops::BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}

impl std::ops::BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}

impl std::ops::BitXorAssign for Bitboard {
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0;
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Yields the squares of the set from lowest to highest, emptying it.
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = Square(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

/// The splitmix64 step: a well-mixed 64-bit value for each input, used to
/// fill Zobrist tables at compile time.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A table of `N` Zobrist keys, distinct per `seed` (use one seed per game
/// and per table).
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
                    n = n * 10 + e as usize;
                    chars.next();
                }
                if n == 0 || d == 0 {
                    return Err(ParseError::new(format!(
                        "rank {}: empty run must be a positive number without leading zero",
                        rank + 1
                    )));
                }
                file += n;
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
