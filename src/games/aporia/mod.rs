//! Aporia: eight pieces on 4×4 nodes grouped into four 2×2 platforms. Both
//! players move pieces of either colour; four pieces of one colour on a
//! platform lock it, and the player who locks a second platform wins.
//! Rules as implemented: `docs/rules/aporia.md`.

pub mod board;
mod eval;
pub mod movegen;
pub mod net;
pub mod solve;
pub mod states;
mod svg;
pub mod symmetry;

use board::{Move, Node, NodeSet, PLATFORMS, PLATFORM_NAMES, PLATFORM_OF};
use gamut_core::bits::{draw_board, parse_board, write_board, zobrist_table};
use gamut_core::game::{
    BenchCase, Diagram, Game, GameInfo, NoChance, NoSimultaneous, NodeKind, Notation, Outcome,
    ParseError, Player,
};

/// Zobrist keys: a piece of each colour on each node (white 0..16, black
/// 16..32), then the side to move.
const PIECE_KEYS: [u64; 33] = zobrist_table(0xa907_1a01);
/// Keys for the opponent's last move, indexed `from * 16 + to`.
const LAST_KEYS: [u64; 256] = zobrist_table(0xa907_1a02);
/// Keys for the mover's own previous move, indexed `from * 16 + to`.
const OWN_KEYS: [u64; 256] = zobrist_table(0xa907_1a03);
const SIDE_KEY: u64 = PIECE_KEYS[32];

/// A piece colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Colour {
    White,
    Black,
}

/// An Aporia position: the pieces, the locked platforms, the side to move
/// and the two moves the repetition rules look back on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Aporia {
    white: NodeSet,
    black: NodeSet,
    /// The nodes of the locked platforms (read from the board, kept for speed).
    locked: NodeSet,
    side: Player,
    /// The opponent's last move (`x-y`).
    last: Option<Move>,
    /// The side to move's own previous move (`u-v`).
    own_last: Option<Move>,
    hash: u64,
}

fn move_key(keys: &[u64; 256], m: Option<Move>) -> u64 {
    m.map_or(0, |m| keys[m.from.0 as usize * 16 + m.to.0 as usize])
}

fn set_keys(set: NodeSet, base: usize) -> u64 {
    set.fold(0, |h, n| h ^ PIECE_KEYS[base + n.0 as usize])
}

/// The nodes of platforms holding four pieces of one colour.
fn locked_platforms(white: NodeSet, black: NodeSet) -> NodeSet {
    PLATFORMS
        .into_iter()
        .filter(|&p| white.contains(p) || black.contains(p))
        .fold(NodeSet::EMPTY, |a, p| a | p)
}

fn move_field(m: Option<Move>) -> String {
    m.map_or_else(|| "-".to_string(), |m| m.to_string())
}

impl Aporia {
    /// The letter of the piece on node `n` in the board text and diagram
    /// (`W`, `B`), if any.
    fn piece_letter(&self, n: Node) -> Option<char> {
        if self.white.has(n) {
            Some('W')
        } else if self.black.has(n) {
            Some('B')
        } else {
            None
        }
    }

    /// The nodes of the locked platforms.
    #[must_use]
    pub fn locked(&self) -> NodeSet {
        self.locked
    }

    /// The player to move.
    #[must_use]
    pub fn side(&self) -> Player {
        self.side
    }

    /// The opponent's last move, if any.
    #[must_use]
    pub fn last(&self) -> Option<Move> {
        self.last
    }

    /// The side to move's own previous move, if any.
    #[must_use]
    pub fn own_last(&self) -> Option<Move> {
        self.own_last
    }

    fn parse_move_field(text: &str, name: &str) -> Result<Option<Move>, ParseError> {
        if text == "-" {
            return Ok(None);
        }
        let m = Move::parse(text).map_err(|e| ParseError::new(format!("{name}: {e}")))?;
        if !m.is_diagonal_step() && !m.is_jump_shape() {
            return Err(ParseError::new(format!(
                "{name} '{m}' is neither a diagonal step onto another platform nor a jump"
            )));
        }
        Ok(Some(m))
    }

    /// Checks that the two move fields could have been played to reach
    /// this board.
    fn check_history(&self) -> Result<(), ParseError> {
        let occ = self.occupied();
        if let Some(l) = self.last {
            if !occ.has(l.to) {
                return Err(ParseError::new(format!(
                    "last move '{l}' ends on empty node {}",
                    l.to
                )));
            }
            if occ.has(l.from) {
                return Err(ParseError::new(format!(
                    "last move '{l}' starts on occupied node {}",
                    l.from
                )));
            }
            if l.is_jump_shape() && !occ.contains(l.jumped()) {
                return Err(ParseError::new(format!(
                    "last move '{l}' jumps over an empty node"
                )));
            }
        }
        if let Some(o) = self.own_last {
            match self.last {
                Some(l) if l.to == o.to => {
                    return Err(ParseError::new(format!(
                        "own last move '{o}' and last move '{l}' both end on {}",
                        o.to
                    )))
                }
                Some(l) if l.from == o.from => {
                    return Err(ParseError::new(format!(
                        "last move '{l}' starts on {}, which own last move '{o}' left empty",
                        l.from
                    )))
                }
                Some(l) if l.from == o.to => {}
                _ if !occ.has(o.to) => {
                    return Err(ParseError::new(format!(
                        "own last move '{o}' ends on empty node {}",
                        o.to
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl Game for Aporia {
    type Move = Move;
    type Chance = NoChance;
    type Simultaneous = NoSimultaneous;
    type Scratch = ();

    const ID: &'static str = "aporia";

    const INFO: GameInfo = GameInfo {
        name: "Aporia",
        sides: &["player 1", "player 2"],
        setup: None,
        ply_limit: 500,
        score_unit: "positional units (a lock threat 2500-3000)",
        bench: &[BenchCase {
            position: "W2W/1BB1/1BB1/W2W 1 - -",
            perft_depth: 7,
            search_depth: 9,
        }],
    };

    fn start() -> Self {
        Aporia::parse("W2W/1BB1/1BB1/W2W 1 - -").expect("the start position parses")
    }

    fn node(&self) -> NodeKind {
        if self.has_legal_move() {
            NodeKind::Decision(self.side)
        } else {
            NodeKind::Terminal
        }
    }

    fn perspective(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let winner = self.side.other();
        let (reason, points) = if self.locked.count() == 8 {
            ("second lock", 3)
        } else {
            ("no legal move", 2)
        };
        let mut score = [0; 2];
        score[winner.index()] = points;
        Some(Outcome {
            winner: Some(winner),
            reason,
            points: Some(score),
        })
    }

    fn moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_move(|m| out.push(m));
    }

    #[inline]
    fn move_count(&self) -> usize {
        self.legal_count() as usize
    }

    #[inline]
    fn play(&self, m: Move) -> Self {
        let (from, to) = (m.from.bit(), m.to.bit());
        let mut c = *self;
        let platform = PLATFORM_OF[m.to.0 as usize];
        let base = if self.white.has(m.from) {
            c.white ^= from | to;
            if c.white.contains(platform) {
                c.locked |= platform;
            }
            0
        } else {
            c.black ^= from | to;
            if c.black.contains(platform) {
                c.locked |= platform;
            }
            16
        };
        c.hash ^= PIECE_KEYS[base + m.from.0 as usize] ^ PIECE_KEYS[base + m.to.0 as usize];
        c.hash ^= SIDE_KEY;
        c.hash ^= move_key(&LAST_KEYS, self.last) ^ move_key(&LAST_KEYS, Some(m));
        c.hash ^= move_key(&OWN_KEYS, self.own_last) ^ move_key(&OWN_KEYS, self.last);
        c.side = self.side.other();
        c.own_last = self.last;
        c.last = Some(m);
        c
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = set_keys(self.white, 0) ^ set_keys(self.black, 16);
        if self.side == Player::SECOND {
            h ^= SIDE_KEY;
        }
        h ^ move_key(&LAST_KEYS, self.last) ^ move_key(&OWN_KEYS, self.own_last)
    }
}

impl Diagram for Aporia {
    /// Fitted against the solved table (docs/serve.md): where a search
    /// proves nothing, the position is a draw under perfect play all but
    /// once in 20,000, so the curve is nearly flat.
    const SCORE_SCALE: f64 = 71_500.0;

    /// None: both players place the same stones and lock platforms in
    /// either colour, so neither owns one.
    fn side_colours(&self) -> Vec<String> {
        Vec::new()
    }

    fn diagram(&self) -> String {
        let mut s = draw_board(4, 4, |i| self.piece_letter(Node(i as u8)));
        let locked: Vec<&str> = PLATFORMS
            .iter()
            .zip(PLATFORM_NAMES)
            .filter(|(p, _)| self.locked.contains(**p))
            .map(|(_, name)| name)
            .collect();
        s.push_str(&format!(
            "last move {}; own last move {}; locked: {}\n",
            move_field(self.last),
            move_field(self.own_last),
            if locked.is_empty() {
                "none".to_string()
            } else {
                locked.join(" ")
            }
        ));
        s
    }

    #[inline]
    fn svg(&self, opts: &gamut_core::svg::SvgOptions, before: Option<&Self>) -> String {
        svg::svg(self, opts, before)
    }
}

impl Notation for Aporia {
    fn parse(text: &str) -> Result<Self, ParseError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 4 {
            return Err(ParseError::new(format!(
                "position has {} fields, expected 4: <board> <side> <last> <own-last>",
                fields.len()
            )));
        }
        let cells = parse_board(fields[0], 4, 4, |c| match c {
            'W' => Some(Colour::White),
            'B' => Some(Colour::Black),
            _ => None,
        })?;
        let (mut white, mut black) = (NodeSet::EMPTY, NodeSet::EMPTY);
        for (i, c) in cells.iter().enumerate() {
            match c {
                Some(Colour::White) => white |= Node(i as u8).bit(),
                Some(Colour::Black) => black |= Node(i as u8).bit(),
                None => {}
            }
        }
        if white.count() != 4 || black.count() != 4 {
            return Err(ParseError::new(format!(
                "board has {} white and {} black pieces, expected 4 of each",
                white.count(),
                black.count()
            )));
        }
        let side = match fields[1] {
            "1" => Player::FIRST,
            "2" => Player::SECOND,
            s => return Err(ParseError::new(format!("side to move '{s}' is not 1 or 2"))),
        };
        let last = Aporia::parse_move_field(fields[2], "last move")?;
        let own_last = Aporia::parse_move_field(fields[3], "own last move")?;
        let mut pos = Aporia {
            white,
            black,
            locked: locked_platforms(white, black),
            side,
            last,
            own_last,
            hash: 0,
        };
        pos.check_history()?;
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    fn text(&self) -> String {
        let board = write_board(4, 4, |i| self.piece_letter(Node(i as u8)));
        format!(
            "{board} {} {} {}",
            self.side.index() + 1,
            move_field(self.last),
            move_field(self.own_last)
        )
    }

    fn move_text(&self, m: Move) -> String {
        m.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let m = Move::parse(text)?;
        let why = if self.locked.count() == 8 {
            "the game is over (two platforms are locked)"
        } else if !self.occupied().has(m.from) {
            "there is no piece on its start node"
        } else if self.locked.has(m.from) {
            "the piece stands on a locked platform"
        } else if !self.targets(m.from).has(m.to) {
            "it is neither a diagonal step onto an empty node of another platform nor a jump over a run of pieces to the first empty node"
        } else {
            match self.prohibited() {
                [Some(p), _] if p == m => "prohibition 1 forbids moving the piece the opponent just moved back to where it came from",
                [_, Some(p)] if p == m => "prohibition 2 forbids moving the piece you moved last time back to where it came from",
                _ => return Ok(m),
            }
        };
        Err(ParseError::new(format!(
            "'{text}' is not a legal move here: {why}"
        )))
    }
}
