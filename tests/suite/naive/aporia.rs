//! A deliberately plain Aporia move generator, written straight from the
//! rules with a 2-D array and simple loops. Tests use it to cross-check the
//! engine's perft counts; it shares no code with the engine.
//!
//! It panics on malformed position text: it only ever reads test data.
#![allow(dead_code)]

const SIZE: i32 = 4;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

/// A node as (file, rank), both 0..4; (0, 0) is a1.
type Node = (i32, i32);

/// A move from one node to another.
type Step = (Node, Node);

#[derive(Clone)]
struct Position {
    /// `board[rank][file]`.
    board: [[Cell; 4]; 4],
    /// Player 1 or 2 to move.
    player: u8,
    /// The opponent's last move.
    last: Option<Step>,
    /// The mover's own previous move.
    own_last: Option<Step>,
}

fn parse_node(text: &str) -> Node {
    let bytes = text.as_bytes();
    assert_eq!(bytes.len(), 2, "bad node {text:?}");
    let file = i32::from(bytes[0]) - 'a' as i32;
    let rank = i32::from(bytes[1]) - '1' as i32;
    assert!(on_board((file, rank)), "bad node {text:?}");
    (file, rank)
}

fn parse_step(text: &str) -> Option<Step> {
    if text == "-" {
        return None;
    }
    let (from, to) = text.split_once('-').expect("move needs '-'");
    Some((parse_node(from), parse_node(to)))
}

fn parse(text: &str) -> Position {
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields.len(), 4, "position needs 4 fields: {text}");
    let rows: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(rows.len(), 4, "board needs 4 ranks: {text}");
    let mut board = [[Cell::Empty; 4]; 4];
    for (i, row) in rows.iter().enumerate() {
        let rank = 3 - i;
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
            assert!(file < 4, "rank too long in {text}");
            board[rank][file] = cell;
            file += 1;
        }
        assert_eq!(file, 4, "rank {} has wrong length in {text}", rank + 1);
    }
    let player = match fields[1] {
        "1" => 1,
        "2" => 2,
        other => panic!("bad player {other:?} in {text}"),
    };
    Position {
        board,
        player,
        last: parse_step(fields[2]),
        own_last: parse_step(fields[3]),
    }
}

fn on_board((file, rank): Node) -> bool {
    (0..SIZE).contains(&file) && (0..SIZE).contains(&rank)
}

/// Which 2×2 platform a node is on, as (file half, rank half).
fn platform((file, rank): Node) -> (i32, i32) {
    (file / 2, rank / 2)
}

fn node_name((file, rank): Node) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Position {
    fn at(&self, (file, rank): Node) -> Cell {
        self.board[rank as usize][file as usize]
    }

    /// A platform whose four nodes hold pieces of one colour.
    fn platform_locked(&self, which: (i32, i32)) -> bool {
        let (pf, pr) = which;
        let first = self.at((pf * 2, pr * 2));
        if first == Cell::Empty {
            return false;
        }
        [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .all(|&(df, dr)| self.at((pf * 2 + df, pr * 2 + dr)) == first)
    }

    fn locked_platforms(&self) -> usize {
        [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .filter(|&&p| self.platform_locked(p))
            .count()
    }

    /// Every from-to move the pieces can make, before the repetition rules.
    fn geometric_moves(&self) -> Vec<Step> {
        let mut out = Vec::new();
        for rank in 0..SIZE {
            for file in 0..SIZE {
                let from = (file, rank);
                if self.at(from) == Cell::Empty || self.platform_locked(platform(from)) {
                    continue;
                }
                // Diagonal steps onto another platform.
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let to = (file + df, rank + dr);
                    if on_board(to) && self.at(to) == Cell::Empty && platform(to) != platform(from)
                    {
                        out.push((from, to));
                    }
                }
                // Orthogonal jumps over a run of one or more pieces.
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let mut to = (file + df, rank + dr);
                    let mut jumped = 0;
                    while on_board(to) && self.at(to) != Cell::Empty {
                        jumped += 1;
                        to = (to.0 + df, to.1 + dr);
                    }
                    if jumped > 0 && on_board(to) {
                        out.push((from, to));
                    }
                }
            }
        }
        out
    }

    /// The moves the repetition prohibitions forbid.
    fn prohibited(&self) -> Vec<Step> {
        let mut out = Vec::new();
        if let Some((x, y)) = self.last {
            // Prohibition 1: the piece now on y may not go back to x.
            out.push((y, x));
        }
        if let Some((u, v)) = self.own_last {
            // Prohibition 2: my last-moved piece may not go back to u. It is on
            // v unless the opponent then moved it from v to y.
            let now_on = match self.last {
                Some((x, y)) if x == v => y,
                _ => v,
            };
            out.push((now_on, u));
        }
        out
    }

    /// Every legal move as (text, resulting position), ignoring whether the
    /// game is already over.
    fn children(&self) -> Vec<(String, Position)> {
        let banned = self.prohibited();
        let mut out = Vec::new();
        for (from, to) in self.geometric_moves() {
            if banned.contains(&(from, to)) {
                continue;
            }
            let mut child = self.clone();
            child.board[to.1 as usize][to.0 as usize] = self.at(from);
            child.board[from.1 as usize][from.0 as usize] = Cell::Empty;
            child.player = 3 - self.player;
            child.last = Some((from, to));
            child.own_last = self.last;
            out.push((format!("{}-{}", node_name(from), node_name(to)), child));
        }
        out
    }

    /// The children of this position in the perft sense: none once the game is over.
    fn legal_children(&self) -> Vec<(String, Position)> {
        if self.locked_platforms() >= 2 {
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
