//! A deliberately plain Epaminondas move generator, written straight from the
//! rules with a 2-D array and simple loops. Tests use it to cross-check the
//! engine's perft counts; it shares no code with the engine.
//!
//! It panics on malformed position text: it only ever reads test data.
#![allow(dead_code)]

const FILES: usize = 14;
const RANKS: usize = 12;

/// The eight directions as (file step, rank step).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

/// `board[rank][file]`, rank 0 being rank 1 and file 0 being file `a`.
#[derive(Clone)]
struct Position {
    board: [[Cell; FILES]; RANKS],
    white_to_move: bool,
}

fn parse(text: &str) -> Position {
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields.len(), 2, "position needs 2 fields: {text}");
    let rows: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(rows.len(), RANKS, "board needs {RANKS} ranks: {text}");
    let mut board = [[Cell::Empty; FILES]; RANKS];
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let mut file = 0;
        let mut run = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            file += run;
            run = 0;
            let cell = match ch {
                'W' => Cell::White,
                'B' => Cell::Black,
                _ => panic!("bad board character {ch:?} in {text}"),
            };
            assert!(file < FILES, "rank too long in {text}");
            board[rank][file] = cell;
            file += 1;
        }
        file += run;
        assert_eq!(file, FILES, "rank {} has wrong length in {text}", rank + 1);
    }
    let white_to_move = match fields[1] {
        "w" => true,
        "b" => false,
        other => panic!("bad side {other:?} in {text}"),
    };
    Position {
        board,
        white_to_move,
    }
}

fn square_name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

impl Position {
    fn at(&self, file: i32, rank: i32) -> Cell {
        self.board[rank as usize][file as usize]
    }

    fn set(&mut self, file: i32, rank: i32, cell: Cell) {
        self.board[rank as usize][file as usize] = cell;
    }

    fn own(&self) -> Cell {
        if self.white_to_move {
            Cell::White
        } else {
            Cell::Black
        }
    }

    fn enemy(&self) -> Cell {
        if self.white_to_move {
            Cell::Black
        } else {
            Cell::White
        }
    }

    /// The rank index of the side to move's target row (the opponent's home row).
    fn target_rank(&self) -> i32 {
        if self.white_to_move {
            RANKS as i32 - 1
        } else {
            0
        }
    }

    /// The rank index of the side to move's own home row.
    fn home_rank(&self) -> i32 {
        if self.white_to_move {
            0
        } else {
            RANKS as i32 - 1
        }
    }

    fn count_on_rank(&self, rank: i32, cell: Cell) -> usize {
        (0..FILES as i32)
            .filter(|&f| self.at(f, rank) == cell)
            .count()
    }

    /// The home-row rule: the side to move has strictly more stones on the
    /// opponent's home row than the opponent has on the mover's home row.
    fn side_to_move_has_won(&self) -> bool {
        self.count_on_rank(self.target_rank(), self.own())
            > self.count_on_rank(self.home_rank(), self.enemy())
    }

    fn mirror_symmetric(&self) -> bool {
        for rank in 0..RANKS {
            for file in 0..FILES {
                if self.board[rank][file] != self.board[rank][FILES - 1 - file] {
                    return false;
                }
            }
        }
        true
    }

    /// Every legal move as (text, resulting position), ignoring whether the
    /// game is already over.
    fn children(&self) -> Vec<(String, Position)> {
        let own = self.own();
        let enemy = self.enemy();
        let mut out = Vec::new();
        for rank in 0..RANKS as i32 {
            for file in 0..FILES as i32 {
                if self.at(file, rank) != own {
                    continue;
                }
                // (file, rank) is the head; try every direction.
                for &(df, dr) in &DIRECTIONS {
                    // How many own stones stand in a row from the head backwards.
                    let mut run = 0;
                    while on_board(file - run * df, rank - run * dr)
                        && self.at(file - run * df, rank - run * dr) == own
                    {
                        run += 1;
                    }
                    for k in 1..=run {
                        for s in 1..=k {
                            if let Some(child) = self.try_move(file, rank, df, dr, k, s, enemy) {
                                out.push(child);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The move of the `k` stones whose head is at (`file`, `rank`), by `s`
    /// squares in direction (`df`, `dr`), if it is legal.
    #[allow(clippy::too_many_arguments)]
    fn try_move(
        &self,
        file: i32,
        rank: i32,
        df: i32,
        dr: i32,
        k: i32,
        s: i32,
        enemy: Cell,
    ) -> Option<(String, Position)> {
        let own = self.own();
        // The squares between the head and the landing square must be empty.
        for i in 1..s {
            let (f, r) = (file + i * df, rank + i * dr);
            if !on_board(f, r) || self.at(f, r) != Cell::Empty {
                return None;
            }
        }
        let (land_f, land_r) = (file + s * df, rank + s * dr);
        if !on_board(land_f, land_r) {
            return None;
        }
        let landing = self.at(land_f, land_r);
        if landing == own {
            return None;
        }
        let mut captured = 0;
        if landing == enemy {
            while on_board(land_f + captured * df, land_r + captured * dr)
                && self.at(land_f + captured * df, land_r + captured * dr) == enemy
            {
                captured += 1;
            }
            if captured >= k {
                return None;
            }
        }
        let mut child = self.clone();
        for j in 0..k {
            child.set(file - j * df, rank - j * dr, Cell::Empty);
        }
        for j in 0..captured {
            child.set(land_f + j * df, land_r + j * dr, Cell::Empty);
        }
        let mut reaches_target_row = false;
        for j in 0..k {
            let (f, r) = (land_f - j * df, land_r - j * dr);
            child.set(f, r, own);
            if r == self.target_rank() {
                reaches_target_row = true;
            }
        }
        if reaches_target_row && child.mirror_symmetric() {
            return None;
        }
        child.white_to_move = !self.white_to_move;
        let tail = square_name(file - (k - 1) * df, rank - (k - 1) * dr);
        let sep = if captured > 0 { 'x' } else { '-' };
        let text = format!("{tail}{sep}{}", square_name(land_f, land_r));
        Some((text, child))
    }

    /// The children of this position in the perft sense: none once the game is over.
    fn legal_children(&self) -> Vec<(String, Position)> {
        if self.side_to_move_has_won() {
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
