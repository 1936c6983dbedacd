//! Position text and the text diagram.

use super::board::{Board, Content, Node, CIRCLE_LEN, CIRCLE_START};
use super::movegen::STONES_PER_COLOUR;
use super::resolve::for_each_step;
use super::tables::ADJACENT;
use super::{Phase, Spokes};
use crate::game::{Game, NodeKind, ParseError};

const CIRCLE_NAME: [&str; 5] = [
    "centre A",
    "circle B",
    "circle C",
    "circle D",
    "home circle",
];

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
            match b.content(Node((CIRCLE_START[c] + i) as u8)) {
                Content::Empty => run += 1,
                x => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(x.char());
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    s
}

/// Parses a `<nodes>` field; runs of empty nodes may be dots, numbers or
/// both.
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
        let mut chars = group.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut n = d as usize;
                while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(e as usize);
                    chars.next();
                }
                if d == 0 {
                    return Err(ParseError::new(format!(
                        "{}: empty run must be a positive number without leading zero",
                        CIRCLE_NAME[c]
                    )));
                }
                pos = pos.saturating_add(n);
            } else {
                let content = Content::from_char(ch).ok_or_else(|| {
                    ParseError::new(format!(
                        "{}: unexpected character '{ch}' (expected . w b X W K or a number)",
                        CIRCLE_NAME[c]
                    ))
                })?;
                if pos < len {
                    board.set(Node((CIRCLE_START[c] + pos) as u8), content);
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

/// Parses a whole position text strictly.
pub fn parse_position(text: &str) -> Result<Spokes, ParseError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if !(2..=3).contains(&fields.len()) || fields.iter().any(|f| f.is_empty()) {
        return Err(ParseError::new(format!(
            "'{text}' is not '<nodes> <round>' optionally followed by ' loop' or ' resolve'"
        )));
    }
    let board = parse_nodes(fields[0])?;
    let r = fields[1];
    let round: u32 = match r.parse() {
        Ok(n) if n >= 1 && !r.starts_with('0') && !r.starts_with('+') => n,
        _ => {
            return Err(ParseError::new(format!(
                "round '{r}' is not a number from 1 to {}",
                u32::MAX
            )))
        }
    };
    let phase = match fields.get(2) {
        None => Phase::Placement,
        Some(&"loop") => Phase::Loop,
        Some(&"resolve") => Phase::Resolution,
        Some(other) => {
            return Err(ParseError::new(format!(
                "third field '{other}' is neither 'loop' nor 'resolve'"
            )))
        }
    };
    for c in super::board::Colour::BOTH {
        let n = board.stones_of(c);
        if n > STONES_PER_COLOUR {
            return Err(ParseError::new(format!(
                "{n} {} stones on the board, at most {STONES_PER_COLOUR}",
                if c.index() == 0 { "white" } else { "black" }
            )));
        }
    }
    if phase == Phase::Placement {
        let singles = board.all_singles();
        for u in singles.iter() {
            if let Some(v) = (ADJACENT[u.index()] & singles).iter().next() {
                return Err(ParseError::new(format!(
                    "round start not at rest: single stones on {u} and {v} are adjacent (add ' resolve' for a position awaiting resolution)"
                )));
            }
        }
        let mut steps = false;
        for_each_step(&board, |_| steps = true);
        if steps {
            return Err(ParseError::new(
                "round start not at rest: a double can still move (add ' resolve' for a position awaiting resolution)",
            ));
        }
    }
    Ok(Spokes::from_parts(board, round, phase))
}

/// A readable diagram: each circle with its node names and contents, then
/// the round, the phase and the stones left.
pub fn diagram(p: &Spokes) -> String {
    let b = p.board();
    let mut s = String::new();
    for c in 0..5 {
        let row = |from: usize, to: usize| {
            (from..to)
                .map(|i| {
                    let n = Node((CIRCLE_START[c] + i) as u8);
                    format!("{:>4} {}", n.to_string(), b.content(n).char())
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let label = ["A", "B", "C", "D", "home"][c];
        if CIRCLE_LEN[c] > 8 {
            s.push_str(&format!("{label:<5}{}\n", row(0, 8)));
            s.push_str(&format!("{:<5}{}\n", "", row(8, 16)));
        } else {
            s.push_str(&format!("{label:<5}{}\n", row(0, CIRCLE_LEN[c])));
        }
    }
    let left = |c| STONES_PER_COLOUR - b.stones_of(c);
    let state = match p.node() {
        NodeKind::Decision(r) => format!("resolution by {}", Spokes::INFO.side(r)),
        NodeKind::Simultaneous => "placement".to_string(),
        _ => match p.outcome() {
            Some(o) => format!("game over: {}", o.describe(Spokes::INFO.sides)),
            None => "game over".to_string(),
        },
    };
    s.push_str(&format!(
        "round {}: {state}; off the board: {} white, {} black\n",
        p.round(),
        left(super::board::Colour::White),
        left(super::board::Colour::Black)
    ));
    s
}
