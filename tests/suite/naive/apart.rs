//! A deliberately plain Apart move generator, written straight from the
//! rules with a 2-D array and simple loops. Tests use it to cross-check the
//! engine's perft counts; it shares no code with the engine.
//!
//! It panics on malformed position text: it only ever reads test data.
#![allow(dead_code)]

const SIZE: i32 = 8;

/// One direction per axis (rank, file, diagonal, anti-diagonal); the
/// opposite direction is the negation.
const AXES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

/// A square as (file, rank), both 0..8; (0, 0) is a1.
type Square = (i32, i32);

#[derive(Clone)]
struct Position {
    /// `board[rank][file]`.
    board: [[Cell; 8]; 8],
    white_to_move: bool,
    /// The next move is the first of the game (no continuous jump).
    first: bool,
}

fn parse(text: &str) -> Position {
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields.len(), 3, "position needs 3 fields: {text}");
    let rows: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(rows.len(), 8, "board needs 8 ranks: {text}");
    let mut board = [[Cell::Empty; 8]; 8];
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as usize;
                continue;
            }
            let cell = match ch {
                'W' => Cell::White,
                'B' => Cell::Black,
                _ => panic!("bad board character {ch:?} in {text}"),
            };
            assert!(file < 8, "rank too long in {text}");
            board[rank][file] = cell;
            file += 1;
        }
        assert_eq!(file, 8, "rank {} has wrong length in {text}", rank + 1);
    }
    let white_to_move = match fields[1] {
        "w" => true,
        "b" => false,
        other => panic!("bad side {other:?} in {text}"),
    };
    let first = match fields[2] {
        "1" => true,
        "-" => false,
        other => panic!("bad first-move field {other:?} in {text}"),
    };
    Position {
        board,
        white_to_move,
        first,
    }
}

fn on_board((file, rank): Square) -> bool {
    (0..SIZE).contains(&file) && (0..SIZE).contains(&rank)
}

fn square_name((file, rank): Square) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

type Board = [[Cell; 8]; 8];

fn at(board: &Board, (file, rank): Square) -> Cell {
    board[rank as usize][file as usize]
}

/// The length of the line of `colour` through `sq` along the axis `(df, dr)`.
fn line_length(board: &Board, sq: Square, (df, dr): (i32, i32), colour: Cell) -> i32 {
    let mut length = 1;
    for sign in [1, -1] {
        let mut next = (sq.0 + sign * df, sq.1 + sign * dr);
        while on_board(next) && at(board, next) == colour {
            length += 1;
            next = (next.0 + sign * df, next.1 + sign * dr);
        }
    }
    length
}

/// No two pieces of `colour` are neighbours (true with no pieces).
fn is_apart(board: &Board, colour: Cell) -> bool {
    for rank in 0..SIZE {
        for file in 0..SIZE {
            if at(board, (file, rank)) != colour {
                continue;
            }
            for df in -1..=1 {
                for dr in -1..=1 {
                    let n = (file + df, rank + dr);
                    if (df, dr) != (0, 0) && on_board(n) && at(board, n) == colour {
                        return false;
                    }
                }
            }
        }
    }
    true
}

impl Position {
    fn own(&self) -> Cell {
        if self.white_to_move {
            Cell::White
        } else {
            Cell::Black
        }
    }

    /// A position given as text is over when either player is apart.
    fn game_over(&self) -> bool {
        is_apart(&self.board, Cell::White) || is_apart(&self.board, Cell::Black)
    }

    /// Every legal move as (text, resulting position), ignoring whether the
    /// game is already over.
    fn children(&self) -> Vec<(String, Position)> {
        let own = self.own();
        let mut out = Vec::new();
        for rank in 0..SIZE {
            for file in 0..SIZE {
                let start = (file, rank);
                if at(&self.board, start) != own {
                    continue;
                }
                let text = square_name(start);
                let visited = vec![start];
                self.extend(&self.board, start, &text, &visited, true, &mut out);
            }
        }
        out
    }

    /// Adds every move that continues a turn whose piece stands on `from`
    /// (with `board` as it is now, `text` the squares so far, `visited` the
    /// squares the piece may not land on): one leg, then maybe more jumps.
    fn extend(
        &self,
        board: &Board,
        from: Square,
        text: &str,
        visited: &[Square],
        first_leg: bool,
        out: &mut Vec<(String, Position)>,
    ) {
        let own = self.own();
        for axis in AXES {
            let length = line_length(board, from, axis, own);
            if length == 1 && !first_leg {
                continue;
            }
            for sign in [1, -1] {
                let to = (
                    from.0 + sign * length * axis.0,
                    from.1 + sign * length * axis.1,
                );
                if !on_board(to) || at(board, to) == own || visited.contains(&to) {
                    continue;
                }
                let capture = at(board, to) != Cell::Empty;
                let mut after = *board;
                after[from.1 as usize][from.0 as usize] = Cell::Empty;
                after[to.1 as usize][to.0 as usize] = own;
                let sep = if capture { 'x' } else { '-' };
                let new_text = format!("{text}{sep}{}", square_name(to));
                out.push((
                    new_text.clone(),
                    Position {
                        board: after,
                        white_to_move: !self.white_to_move,
                        first: false,
                    },
                ));
                if length >= 2 && !self.first {
                    let mut new_visited = visited.to_vec();
                    new_visited.push(to);
                    self.extend(&after, to, &new_text, &new_visited, false, out);
                }
            }
        }
    }

    /// The children of this position in the perft sense: none once the game is over.
    fn legal_children(&self) -> Vec<(String, Position)> {
        if self.game_over() {
            return Vec::new();
        }
        self.children()
    }
}

fn perft_of(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = position.legal_children();
    if depth == 1 {
        return children.len() as u64;
    }
    children
        .iter()
        .map(|(_, child)| perft_of(child, depth - 1))
        .sum()
}

/// The number of leaves `depth` plies below `position` (the spec's perft).
pub fn perft(position: &str, depth: u32) -> u64 {
    perft_of(&parse(position), depth)
}

/// One `(move text, perft of the child at depth - 1)` per legal move, sorted by text.
pub fn divide(position: &str, depth: u32) -> Vec<(String, u64)> {
    assert!(depth >= 1, "divide needs depth 1 or more");
    let mut out: Vec<(String, u64)> = parse(position)
        .legal_children()
        .iter()
        .map(|(text, child)| (text.clone(), perft_of(child, depth - 1)))
        .collect();
    out.sort();
    out
}

/// The sorted texts of the legal moves (none when the game is over).
pub fn moves(position: &str) -> Vec<String> {
    let mut out: Vec<String> = parse(position)
        .legal_children()
        .into_iter()
        .map(|(text, _)| text)
        .collect();
    out.sort();
    out
}
