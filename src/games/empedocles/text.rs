//! Position text, move text and the diagram.

use super::elements::{Element, Pairing};
use super::{Die, Empedocles, Move, Stage};
use gamut_core::bits::{draw_board, parse_board, write_board, Bitboard, Square};
use gamut_core::game::{Game, NodeKind, Notation, ParseError, Player};

/// The owner and element a board letter stands for.
fn piece_of_letter(c: char) -> Option<(Player, Element)> {
    let e = Element::from_letter(c)?;
    let owner = if c.is_ascii_uppercase() {
        Player::FIRST
    } else {
        Player::SECOND
    };
    Some((owner, e))
}

/// The board letter of a piece of `p` made of `e`.
fn letter(p: Player, e: Element) -> char {
    if p == Player::FIRST {
        e.letter()
    } else {
        e.letter().to_ascii_lowercase()
    }
}

/// Parses `<board> <side> <state>:<elements>` strictly.
pub(super) fn parse_position(text: &str) -> Result<Empedocles, ParseError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 3 {
        return Err(ParseError::new(format!(
            "position must be '<board> <side> <state>:<elements>' separated by single spaces; found {} fields",
            fields.len()
        )));
    }
    let side = match fields[1] {
        "1" => Player::FIRST,
        "2" => Player::SECOND,
        s => return Err(ParseError::new(format!("side '{s}' must be 1 or 2"))),
    };
    let (state, elements) = fields[2].split_once(':').ok_or_else(|| {
        ParseError::new(format!(
            "state '{}' lacks the element pairing (e.g. 'r:fire,earth')",
            fields[2]
        ))
    })?;
    let pairing = Pairing::parse(elements)?;
    let (stage, placer) = match state {
        "s1" => (Stage::Setup, Some(Player::FIRST)),
        "s2" => (Stage::Setup, Some(Player::SECOND)),
        "r" => (Stage::Roll, None),
        "a1" => (Stage::OneAction, None),
        "a2" => (Stage::TwoActions, None),
        s => {
            return Err(ParseError::new(format!(
                "state '{s}' is not s1, s2, r, a1 or a2"
            )))
        }
    };
    let cells = parse_board(fields[0], 8, 8, piece_of_letter)?;
    let mut pieces = [Bitboard::EMPTY; 2];
    for (i, cell) in cells.into_iter().enumerate() {
        if let Some((p, e)) = cell {
            let sq = Square(i as u8);
            if e != pairing.of(p) {
                return Err(ParseError::new(format!(
                    "'{}' on {sq}: {p} plays {}",
                    letter(p, e),
                    pairing.of(p).name()
                )));
            }
            pieces[p.index()] |= sq.bb();
        }
    }
    if let Some(placer) = placer {
        let n = pieces.map(|b| b.count());
        if side != placer {
            return Err(ParseError::new(format!(
                "state {state} needs side {}",
                placer.index() + 1
            )));
        }
        let fits = if placer == Player::FIRST {
            n[0] <= 2 && n[1] == 0
        } else {
            n[0] == 3 && n[1] <= 2
        };
        if !fits {
            let need = if placer == Player::FIRST {
                "player 1 with 0-2 pieces and player 2 with none"
            } else {
                "player 1 with 3 pieces and player 2 with 0-2"
            };
            return Err(ParseError::new(format!(
                "state {state} needs {need}; the board has {} and {}",
                n[0], n[1]
            )));
        }
    }
    Ok(Empedocles::from_parts(pieces, pairing, side, stage))
}

/// The state field without the pairing (`s2`, `r`, `a1`).
fn state_text(pos: &Empedocles) -> &'static str {
    match (pos.stage, pos.side == Player::FIRST) {
        (Stage::Setup, true) => "s1",
        (Stage::Setup, false) => "s2",
        (Stage::Roll, _) => "r",
        (Stage::OneAction, _) => "a1",
        (Stage::TwoActions, _) => "a2",
    }
}

/// The letter on square `i`, if any.
fn cell(pos: &Empedocles, i: usize) -> Option<char> {
    let s = Square(i as u8);
    Player::BOTH
        .into_iter()
        .find(|&p| pos.pieces(p).has(s))
        .map(|p| letter(p, pos.pairing.of(p)))
}

/// The canonical position text.
pub(super) fn position_text(pos: &Empedocles) -> String {
    format!(
        "{} {} {}:{}",
        write_board(8, 8, |i| cell(pos, i)),
        pos.side.index() + 1,
        state_text(pos),
        pos.pairing
    )
}

/// The board with a line naming the elements and what happens next.
pub(super) fn diagram(pos: &Empedocles) -> String {
    let mut s = draw_board(8, 8, |i| cell(pos, i));
    let p = Empedocles::INFO.side(pos.side);
    let next = match (pos.stage, pos.outcome()) {
        (_, Some(outcome)) => format!("game over: {}", outcome.describe(Empedocles::INFO.sides)),
        (Stage::Setup, _) => format!("{p} places a piece (setup)"),
        (Stage::Roll, _) => format!("{p} rolls the die"),
        (Stage::OneAction, _) => format!("{p} has one action"),
        (Stage::TwoActions, _) => format!("{p} has two actions"),
    };
    s.push_str(&format!(
        "player 1: {} ({}), player 2: {} ({}); {next}\n",
        pos.pairing.of(Player::FIRST).name(),
        letter(Player::FIRST, pos.pairing.of(Player::FIRST)),
        pos.pairing.of(Player::SECOND).name(),
        letter(Player::SECOND, pos.pairing.of(Player::SECOND)),
    ));
    s
}

/// The move a text names, by syntax alone.
fn move_syntax(text: &str) -> Result<Move, ParseError> {
    let bad = || {
        ParseError::new(format!(
            "'{text}' is not a move (e4-e5, e4xe5, @d4, pass, or a die class T, N, D)"
        ))
    };
    match text {
        "pass" => return Ok(Move::Pass),
        "T" => return Ok(Move::Roll(Die::Transmute)),
        "N" => return Ok(Move::Roll(Die::Normal)),
        "D" => return Ok(Move::Roll(Die::Double)),
        _ => {}
    }
    if let Some(sq) = text.strip_prefix('@') {
        return Square::parse(sq)
            .map(Move::Place)
            .map_err(|e| ParseError::new(format!("'{text}': {e}")));
    }
    let from = text.get(0..2).ok_or_else(bad)?;
    let sep = text.get(2..3).ok_or_else(bad)?;
    let to = text.get(3..).ok_or_else(bad)?;
    if sep != "-" && sep != "x" {
        return Err(bad());
    }
    let square = |s: &str| Square::parse(s).map_err(|e| ParseError::new(format!("'{text}': {e}")));
    Ok(Move::Step(square(from)?, square(to)?))
}

/// Parses a move's text: exactly the canonical text of a legal move here.
pub(super) fn parse_move(pos: &Empedocles, text: &str) -> Result<Move, ParseError> {
    let m = move_syntax(text)?;
    let mut legal = Vec::new();
    pos.moves(&mut legal);
    if !legal.contains(&m) {
        let why = match (pos.node(), pos.stage) {
            (NodeKind::Terminal, _) => "the game is over".to_string(),
            (_, Stage::Roll) => "the die is to be rolled: T, N or D".to_string(),
            (_, Stage::Setup) => {
                format!("{} places on an empty square: @<square>", pos.side)
            }
            _ if legal == [Move::Pass] => format!("{} has no action and must pass", pos.side),
            _ => format!("{} has no such action", pos.side),
        };
        return Err(ParseError::new(format!(
            "'{text}' is not legal here: {why}"
        )));
    }
    let canonical = pos.move_text(m);
    if canonical != text {
        return Err(ParseError::new(format!(
            "'{text}' must be written '{canonical}'"
        )));
    }
    Ok(m)
}
