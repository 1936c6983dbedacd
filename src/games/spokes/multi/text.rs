//! Position text of the four-player variants (the two-player notation, with
//! crowded nodes in brackets: `[Xw]`, `[XX]`, `[www]`) and the diagram.

use super::board::{Board, Cell};
use crate::game::ParseError;
use crate::games::spokes::board::{Colour, Node, CIRCLE_LEN, CIRCLE_START};

const CIRCLE_NAME: [&str; 5] = [
    "centre A",
    "circle B",
    "circle C",
    "circle D",
    "home circle",
];

/// The text of one node: `.`, `w`, `b`, `X`, `W`, `K`, or a crowded node in
/// brackets, its blocks then its loose stones (`[Xbb]`).
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

/// The `<nodes>` field: the five circles separated by `/`, every maximal
/// run of empty nodes written as its length.
pub fn nodes_field(b: &Board) -> String {
    let mut s = String::with_capacity(64);
    for c in 0..5 {
        if c > 0 {
            s.push('/');
        }
        let mut run = 0;
        for i in 0..CIRCLE_LEN[c] {
            let cell = b.get(Node((CIRCLE_START[c] + i) as u8));
            if cell == Cell::EMPTY {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push_str(&cell_text(cell));
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    s
}

/// Parses a `<nodes>` field; runs of empty nodes may be dots, numbers or
/// both; crowded nodes only in canonical brackets.
pub fn parse_nodes(text: &str) -> Result<Board, ParseError> {
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != 5 {
        return Err(ParseError::new(format!(
            "nodes field '{text}' has {} groups separated by '/', expected 5 (A, B, C, D, home)",
            groups.len()
        )));
    }
    let mut board = Board::EMPTY;
    for (c, group) in groups.iter().enumerate() {
        let len = CIRCLE_LEN[c];
        let mut pos = 0usize;
        let mut rest = *group;
        while let Some(ch) = rest.chars().next() {
            let cell = if ch.is_ascii_digit() {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if ch == '0' {
                    return Err(ParseError::new(format!(
                        "{}: empty run must be a positive number without leading zero",
                        CIRCLE_NAME[c]
                    )));
                }
                let n: usize = rest[..digits].parse().unwrap_or(usize::MAX);
                rest = &rest[digits..];
                pos = pos.saturating_add(n);
                None
            } else if ch == '[' {
                let close = rest.find(']').ok_or_else(|| {
                    ParseError::new(format!("{}: '[' without ']'", CIRCLE_NAME[c]))
                })?;
                let inner = &rest[1..close];
                let cell = bracket_cell(inner).ok_or_else(|| {
                    ParseError::new(format!(
                        "{}: '[{inner}]' is not a crowded node (blocks X then loose stones of one colour, at most four stones; doubles are W and K)",
                        CIRCLE_NAME[c]
                    ))
                })?;
                rest = &rest[close + 1..];
                Some(cell)
            } else {
                rest = &rest[ch.len_utf8()..];
                let colour = |col| Some(Cell::single(col));
                match ch {
                    '.' => Some(Cell::EMPTY),
                    'w' => colour(Colour::White),
                    'b' => colour(Colour::Black),
                    'X' => Some(Cell::BLOCK),
                    'W' => Cell::new(0, 2, Colour::White),
                    'K' => Cell::new(0, 2, Colour::Black),
                    _ => {
                        return Err(ParseError::new(format!(
                            "{}: unexpected character '{ch}' (expected . w b X W K, a bracket or a number)",
                            CIRCLE_NAME[c]
                        )))
                    }
                }
            };
            if let Some(cell) = cell {
                if pos < len {
                    board.set(Node((CIRCLE_START[c] + pos) as u8), cell);
                }
                pos += 1;
            }
            if pos > len {
                return Err(ParseError::new(format!(
                    "{} has more than {len} nodes",
                    CIRCLE_NAME[c]
                )));
            }
        }
        if pos != len {
            return Err(ParseError::new(format!(
                "{} has {pos} nodes, expected {len}",
                CIRCLE_NAME[c]
            )));
        }
    }
    Ok(board)
}

/// The rows of a readable diagram: each circle with its node names and
/// contents.
pub fn board_rows(b: &Board) -> String {
    let mut s = String::new();
    for c in 0..5 {
        let row = |from: usize, to: usize| {
            (from..to)
                .map(|i| {
                    let n = Node((CIRCLE_START[c] + i) as u8);
                    format!("{:>4} {:<6}", n.to_string(), cell_text(b.get(n)))
                })
                .collect::<Vec<_>>()
                .join(" ")
                .trim_end()
                .to_string()
        };
        let label = ["A", "B", "C", "D", "home"][c];
        if CIRCLE_LEN[c] > 8 {
            s.push_str(&format!("{label:<5}{}\n", row(0, 8)));
            s.push_str(&format!("{:<5}{}\n", "", row(8, 16)));
        } else {
            s.push_str(&format!("{label:<5}{}\n", row(0, CIRCLE_LEN[c])));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

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
