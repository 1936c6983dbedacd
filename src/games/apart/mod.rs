//! Apart (Kanare Kato): pieces move along their lines as far as the line is
//! long, jump on in chains and capture by landing; a player wins by having
//! no two own pieces adjacent. Rules as implemented: `docs/rules/apart.md`.

pub mod eval;
pub mod lines;
pub mod movegen;
pub mod net;
mod svg;

use gamut_core::bits::{draw_board, parse_board, write_board, zobrist_table, Bitboard, Square};
use gamut_core::game::{
    BenchCase, Diagram, Game, GameInfo, NoChance, NoSimultaneous, NodeKind, Notation, Outcome,
    ParseError, Player,
};
pub use movegen::Move;

/// Zobrist keys: one per colour and square (`colour * 64 + square`).
const PIECE_KEYS: [u64; 128] = zobrist_table(0xa9a7);
/// Zobrist keys for Black to move (`[0]`) and for the first move of the
/// game being next (`[1]`).
const STATE_KEYS: [u64; 2] = zobrist_table(0xa9a8);

/// An Apart position: both colours' pieces, the side to move, and whether
/// the next move is the first of the game (which may not be a continuous
/// jump).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apart {
    pieces: [Bitboard; 2],
    side: Player,
    first: bool,
    hash: u64,
}

impl Apart {
    /// A position from its parts (the pieces as bits `file + 8 * rank`);
    /// `first` is only allowed with White to move.
    pub fn new(white: u64, black: u64, side: Player, first: bool) -> Result<Apart, ParseError> {
        let (white, black) = (Bitboard(white), Bitboard(black));
        if !(white & black).is_empty() {
            return Err(ParseError::new(
                "a square holds both a white and a black piece",
            ));
        }
        if first && side != Player::FIRST {
            return Err(ParseError::new(
                "the first move of the game ('1') must be White's (side 'w')",
            ));
        }
        let mut p = Apart {
            pieces: [white, black],
            side,
            first,
            hash: 0,
        };
        p.hash = p.hash_from_scratch();
        Ok(p)
    }

    /// The pieces of `player` (White is [`Player::FIRST`]).
    #[must_use]
    pub fn pieces(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }

    /// The side to move.
    #[must_use]
    pub fn side(&self) -> Player {
        self.side
    }

    /// Whether the next move is the first of the game.
    #[must_use]
    pub fn is_first_move(&self) -> bool {
        self.first
    }

    /// Whether `player` is apart: no two of its pieces are adjacent.
    #[must_use]
    pub fn is_apart(&self, player: Player) -> bool {
        lines::is_apart(self.pieces[player.index()])
    }

    /// Whether the game is over because a player is apart.
    fn someone_apart(&self) -> bool {
        lines::is_apart(self.pieces[0]) || lines::is_apart(self.pieces[1])
    }

    /// The squares move `m` visits, each with whether a capture happened
    /// there: the start first (never a capture).
    #[must_use]
    pub fn path(&self, m: Move) -> Vec<(Square, bool)> {
        let me = self.side.index();
        let rest = self.pieces[me] - m.from().bb();
        let enemy = self.pieces[1 - me];
        let mut at = m.from();
        let mut out = vec![(at, false)];
        for i in 0..m.legs() {
            let d = m.direction(i);
            let l = lines::line_length(rest | at.bb(), at.0 as usize, d & 3);
            at = Square(lines::TARGET[at.0 as usize][d][l]);
            out.push((at, enemy.has(at)));
        }
        out
    }

    /// Checks one leg of a move being parsed: from `at` to `to` with the
    /// other own pieces `rest`; returns the leg's direction.
    fn parse_leg(
        &self,
        rest: Bitboard,
        at: Square,
        to: Square,
        leg: usize,
    ) -> Result<usize, String> {
        let df = i32::from(to.file()) - i32::from(at.file());
        let dr = i32::from(to.rank()) - i32::from(at.rank());
        let dist = df.abs().max(dr.abs());
        if dist == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return Err(format!("{at} to {to} is not along a line"));
        }
        let d = gamut_core::bits::DIRECTIONS
            .iter()
            .position(|&(x, y)| i32::from(x) == df.signum() && i32::from(y) == dr.signum())
            .expect("a unit step is one of the eight directions");
        let l = lines::line_length(rest | at.bb(), at.0 as usize, d & 3);
        if dist as usize != l {
            return Err(format!(
                "the piece on {at} moves {l} squares along that line, not {dist}"
            ));
        }
        if leg > 0 && l < 2 {
            return Err(format!(
                "{at} to {to} is a single step, which cannot continue a jump"
            ));
        }
        Ok(d)
    }
}

impl Game for Apart {
    type Move = Move;
    type Chance = NoChance;
    type Simultaneous = NoSimultaneous;
    type Scratch = ();

    const ID: &'static str = "apart";

    const INFO: GameInfo = GameInfo {
        name: "Apart",
        sides: &["White", "Black"],
        setup: None,
        ply_limit: 1000,
        score_unit: "closeness units (about 20 a unit of closeness)",
        bench: &[BenchCase {
            position: "1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 w 1",
            perft_depth: 4,
            search_depth: 5,
        }],
    };

    fn start() -> Apart {
        let rank = |r: u32| 0x7eu64 << (8 * r);
        Apart::new(rank(0) | rank(1), rank(6) | rank(7), Player::FIRST, true)
            .expect("the start position is valid")
    }

    fn node(&self) -> NodeKind {
        // A side that is not apart always has a move (docs/rules/apart.md,
        // "No legal move"): a side without one fills the whole board.
        if self.someone_apart() {
            NodeKind::Terminal
        } else {
            NodeKind::Decision(self.side)
        }
    }

    fn perspective(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        let mover = self.side.other();
        match (self.is_apart(mover), self.is_apart(self.side)) {
            (true, true) => Some(Outcome::win(self.side, "both apart: the mover loses")),
            (true, false) => Some(Outcome::win(mover, "apart")),
            (false, true) => Some(Outcome::win(self.side, "made apart by the opponent")),
            (false, false) => None,
        }
    }

    fn moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if !self.someone_apart() {
            movegen::generate(self.pieces[self.side.index()], self.first, out);
        }
    }

    fn move_count(&self) -> usize {
        if self.someone_apart() {
            0
        } else {
            movegen::count(self.pieces[self.side.index()], self.first)
        }
    }

    fn play(&self, m: Move) -> Apart {
        let me = self.side.index();
        let captured = self.pieces[1 - me] & m.landed();
        let mut hash = self.hash
            ^ PIECE_KEYS[me * 64 + m.from().0 as usize]
            ^ PIECE_KEYS[me * 64 + m.to().0 as usize]
            ^ STATE_KEYS[0];
        if self.first {
            hash ^= STATE_KEYS[1];
        }
        for c in captured {
            hash ^= PIECE_KEYS[(1 - me) * 64 + c.0 as usize];
        }
        let mut pieces = self.pieces;
        pieces[me] ^= m.from().bb() | m.to().bb();
        pieces[1 - me] ^= captured;
        Apart {
            pieces,
            side: self.side.other(),
            first: false,
            hash,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (c, &bb) in self.pieces.iter().enumerate() {
            for s in bb {
                h ^= PIECE_KEYS[c * 64 + s.0 as usize];
            }
        }
        if self.side == Player::SECOND {
            h ^= STATE_KEYS[0];
        }
        if self.first {
            h ^= STATE_KEYS[1];
        }
        h
    }
}

impl Diagram for Apart {
    /// Fitted to 3,000 self-play games with the default network
    /// (`tools/winprob-fit.py`, docs/serve.md): 89.5, 95% 83 to 95.
    const SCORE_SCALE: f64 = 90.0;

    fn diagram(&self) -> String {
        let mut s = draw_board(8, 8, |i| self.cell(i));
        if self.first {
            s.push_str("first move of the game: no continuous jump\n");
        }
        s
    }

    fn svg(&self, opts: &gamut_core::svg::SvgOptions, before: Option<&Self>) -> String {
        svg::svg(self, opts, before)
    }
}

impl Notation for Apart {
    fn parse(text: &str) -> Result<Apart, ParseError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 3 {
            return Err(ParseError::new(format!(
                "expected '<board> <side> <first>' (3 fields separated by single spaces), got {} fields",
                fields.len()
            )));
        }
        let cells = parse_board(fields[0], 8, 8, |c| match c {
            'W' => Some(0usize),
            'B' => Some(1usize),
            _ => None,
        })?;
        let mut pieces = [0u64; 2];
        for (i, c) in cells.iter().enumerate() {
            if let Some(colour) = c {
                pieces[*colour] |= 1 << i;
            }
        }
        let side = match fields[1] {
            "w" => Player::FIRST,
            "b" => Player::SECOND,
            s => {
                return Err(ParseError::new(format!(
                    "side to move must be 'w' or 'b', not '{s}'"
                )))
            }
        };
        let first = match fields[2] {
            "1" => true,
            "-" => false,
            s => {
                return Err(ParseError::new(format!(
                    "first-move field must be '1' or '-', not '{s}'"
                )))
            }
        };
        Apart::new(pieces[0], pieces[1], side, first)
    }

    fn text(&self) -> String {
        let board = write_board(8, 8, |i| self.cell(i));
        let side = if self.side == Player::FIRST { 'w' } else { 'b' };
        let first = if self.first { '1' } else { '-' };
        format!("{board} {side} {first}")
    }

    fn move_text(&self, m: Move) -> String {
        let mut s = String::new();
        for (i, (sq, capture)) in self.path(m).into_iter().enumerate() {
            if i > 0 {
                s.push(if capture { 'x' } else { '-' });
            }
            s.push_str(&sq.to_string());
        }
        s
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let err = |msg: String| ParseError::new(format!("move '{text}': {msg}"));
        if self.node() == NodeKind::Terminal {
            return Err(err("the game is over".into()));
        }
        // Squares and the separators before each but the first.
        let bytes = text.as_bytes();
        if bytes.len() < 5 || bytes.len() % 3 != 2 {
            return Err(err(
                "expected squares joined by '-' or 'x', like 'b2-b4xd6'".into(),
            ));
        }
        let square_at = |i: usize| {
            text.get(i..i + 2)
                .ok_or_else(|| err("expected squares joined by '-' or 'x'".into()))
                .and_then(|s| Square::parse(s).map_err(|e| err(e.0)))
        };
        let me = self.side.index();
        let from = square_at(0)?;
        if !self.pieces[me].has(from) {
            return Err(err(format!("no piece of the side to move on {from}")));
        }
        let rest = self.pieces[me] - from.bb();
        let enemy = self.pieces[1 - me];
        let mut visited = from.bb();
        let mut at = from;
        let mut m: Option<Move> = None;
        for (leg, i) in (2..bytes.len()).step_by(3).enumerate() {
            let to = square_at(i + 1)?;
            let capture = match bytes[i] {
                b'-' => false,
                b'x' => true,
                c => {
                    return Err(err(format!(
                        "'{}' is not a separator ('-' or 'x')",
                        c as char
                    )))
                }
            };
            if leg == 1 && self.first {
                return Err(err(
                    "the first move of the game cannot be a continuous jump".into(),
                ));
            }
            let d = self.parse_leg(rest, at, to, leg).map_err(err)?;
            if rest.has(to) {
                return Err(err(format!("{to} holds an own piece")));
            }
            if visited.has(to) {
                return Err(err(format!(
                    "{to} was already visited this turn (the start square counts)"
                )));
            }
            let takes = enemy.has(to);
            if takes != capture {
                return Err(err(if takes {
                    format!("landing on {to} captures: write 'x{to}'")
                } else {
                    format!("nothing to capture on {to}: write '-{to}'")
                }));
            }
            visited |= to.bb();
            m = Some(match m {
                None => Move::first_leg(from, d, to),
                Some(m) => m.then(d, to),
            });
            at = to;
        }
        m.ok_or_else(|| err("no destination".into()))
    }
}

impl Apart {
    /// The character of square `i` in board text: `W`, `B` or none.
    fn cell(&self, i: usize) -> Option<char> {
        let s = Square(i as u8);
        if self.pieces[0].has(s) {
            Some('W')
        } else if self.pieces[1].has(s) {
            Some('B')
        } else {
            None
        }
    }
}
