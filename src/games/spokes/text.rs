//! Position text and the rows of the text diagram, for either board.

use super::board::{Colour, Node, CIRCLE_LEN, CIRCLE_START};
use super::movegen::STONES_PER_COLOUR;
use super::node_text::NodeText;
use super::resolve::Resolved;
use super::{Phase, SpokesBoard};
use gamut_core::game::ParseError;

const CIRCLE_NAME: [&str; 5] = [
    "centre A",
    "circle B",
    "circle C",
    "circle D",
    "home circle",
];

/// The `<nodes>` field: the five circles separated by `/`, every maximal
/// run of empty nodes written as its length.
pub fn nodes_field<B: NodeText>(b: &B) -> String {
    let mut s = String::with_capacity(64);
    for c in 0..5 {
        if c > 0 {
            s.push('/');
        }
        let mut run = 0;
        for i in 0..CIRCLE_LEN[c] {
            let n = Node((CIRCLE_START[c] + i) as u8);
            if b.is_empty_at(n) {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push_str(&b.node_text(n));
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    s
}

/// Parses a `<nodes>` field; runs of empty nodes may be dots, numbers or
/// both; crowded nodes (where the board has them) only in canonical
/// brackets.
pub fn parse_nodes<B: NodeText>(text: &str) -> Result<B, ParseError> {
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != 5 {
        return Err(ParseError::new(format!(
            "nodes field '{text}' has {} groups separated by '/', expected 5 (A, B, C, D, home)",
            groups.len()
        )));
    }
    let expected = if B::BRACKETS {
        ". w b X W K, a bracket or a number"
    } else {
        ". w b X W K or a number"
    };
    let mut board = B::EMPTY;
    for (c, group) in groups.iter().enumerate() {
        let len = CIRCLE_LEN[c];
        let name = CIRCLE_NAME[c];
        let mut pos = 0usize;
        let mut rest = *group;
        while let Some(ch) = rest.chars().next() {
            if ch.is_ascii_digit() {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if ch == '0' {
                    return Err(ParseError::new(format!(
                        "{name}: empty run must be a positive number without leading zero"
                    )));
                }
                pos = pos.saturating_add(rest[..digits].parse().unwrap_or(usize::MAX));
                rest = &rest[digits..];
            } else {
                let token = if ch == '[' && B::BRACKETS {
                    let close = rest
                        .find(']')
                        .ok_or_else(|| ParseError::new(format!("{name}: '[' without ']'")))?;
                    &rest[..=close]
                } else {
                    &rest[..ch.len_utf8()]
                };
                rest = &rest[token.len()..];
                if pos < len && token != "." {
                    let n = Node((CIRCLE_START[c] + pos) as u8);
                    if !board.set_text(n, token) {
                        return Err(ParseError::new(if token.len() > 1 {
                            format!(
                                "{name}: '{token}' is not a crowded node (blocks X then loose stones of one colour, at most four stones; doubles are W and K)"
                            )
                        } else {
                            format!("{name}: unexpected character '{ch}' (expected {expected})")
                        }));
                    }
                }
                pos += 1;
            }
            if pos > len {
                return Err(ParseError::new(format!("{name} has more than {len} nodes")));
            }
        }
        if pos != len {
            return Err(ParseError::new(format!(
                "{name} has {pos} nodes, expected {len}"
            )));
        }
    }
    Ok(board)
}

/// The rows of a readable diagram: each circle with its node names and
/// contents, each content padded to `width` characters.
pub fn board_rows<B: NodeText>(b: &B, width: usize) -> String {
    let mut s = String::new();
    for c in 0..5 {
        let row = |from: usize, to: usize| {
            (from..to)
                .map(|i| {
                    let n = Node((CIRCLE_START[c] + i) as u8);
                    format!("{:>4} {:<width$}", n.to_string(), b.node_text(n))
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

/// The canonical text of a resolution outcome: its `<nodes>` field, then
/// ` loop` for an unbreakable loop.
pub fn outcome_text<B: NodeText>(r: &Resolved<B>) -> String {
    let mut s = nodes_field(&r.board);
    if r.looped {
        s.push_str(" loop");
    }
    s
}

/// The outcome of `outcomes` (the sorted outcomes of the board `placed`)
/// that `text` names: in canonical form (a `<nodes>` field, then ` loop`
/// for a loop), or in the short form of [`super::short`].
pub fn parse_outcome<B: NodeText + Ord>(
    placed: &B,
    outcomes: &[Resolved<B>],
    text: &str,
) -> Result<Resolved<B>, ParseError> {
    if !text.contains('/') {
        return super::short::parse_short(placed, outcomes, text).map_err(ParseError::new);
    }
    let (nodes, looped) = match text.strip_suffix(" loop") {
        Some(n) => (n, true),
        None => (text, false),
    };
    let board: B = parse_nodes(nodes)?;
    if nodes_field(&board) != nodes {
        return Err(ParseError::new(format!(
            "'{nodes}' is not in canonical form ('{}')",
            nodes_field(&board)
        )));
    }
    let r = Resolved { board, looped };
    if outcomes.binary_search(&r).is_ok() {
        Ok(r)
    } else {
        Err(ParseError::new(format!(
            "'{text}' is not a legal move here"
        )))
    }
}

/// The highest round a position text may give: 2^31. The round counter
/// (32 bits) then has more rounds to count than any game, search or perft
/// plays (a game ends at its ply limit), so it never overflows and every
/// round has its one resolver.
pub const MAX_ROUND: u32 = 1 << 31;

/// Parses a whole position text strictly: the board, the round and the
/// phase.
pub fn parse_position<B: SpokesBoard>(text: &str) -> Result<(B, u32, Phase), ParseError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if !(2..=3).contains(&fields.len()) || fields.iter().any(|f| f.is_empty()) {
        return Err(ParseError::new(format!(
            "'{text}' is not '<nodes> <round>' optionally followed by ' loop' or ' resolve'"
        )));
    }
    let board: B = parse_nodes(fields[0])?;
    let r = fields[1];
    let round: u32 = match r.parse() {
        Ok(n) if (1..=MAX_ROUND).contains(&n) && !r.starts_with('0') && !r.starts_with('+') => n,
        _ => {
            return Err(ParseError::new(format!(
                "round '{r}' is not a number from 1 to {MAX_ROUND}"
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
    for c in Colour::BOTH {
        let n = board.stones_of(c);
        if n > STONES_PER_COLOUR {
            return Err(ParseError::new(format!(
                "{n} {} stones on the board, at most {STONES_PER_COLOUR}",
                if c == Colour::White { "white" } else { "black" }
            )));
        }
    }
    if phase == Phase::Placement {
        board.rest_error()?;
    }
    Ok((board, round, phase))
}
