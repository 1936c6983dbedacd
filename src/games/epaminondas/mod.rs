//! Epaminondas (Robert Abbott): phalanxes of stones on a 14×12 board; a side
//! wins by having more stones on the far row than the opponent has on its
//! own at the start of its turn. Rules as implemented:
//! `docs/rules/epaminondas.md`.

pub mod board;
mod eval;
mod movegen;
pub mod net;
mod svg;

use board::{Bitboard, Dir, Square, FILES, RANKS};
use gamut_core::bits::{draw_board, parse_board, write_board, zobrist_table};
use gamut_core::game::{
    BenchCase, Diagram, Game, GameInfo, NoChance, NoSimultaneous, NodeKind, Notation, Outcome,
    ParseError, Player,
};

/// Stones each side starts with; no position holds more.
pub const STONES: u32 = 28;

/// Zobrist keys: 192 per player (one per bit of a [`Bitboard`]), then one
/// for Black to move.
const KEYS: [u64; 385] = zobrist_table(0x6570_616d);
const BLACK_TO_MOVE: u64 = KEYS[384];

fn key(p: Player, sq: Square) -> u64 {
    KEYS[192 * p.index() + sq.0 as usize]
}

/// A move: the `k` stones from `tail` onwards in direction `dir` shift `s`
/// squares that way.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The rearmost moving stone.
    pub tail: Square,
    /// The direction of the line and of the move.
    pub dir: Dir,
    /// How many stones move (1 for a single stone).
    pub k: u8,
    /// How many squares they move, `1 ≤ s ≤ k`.
    pub s: u8,
}

/// An Epaminondas position: the stones of each side, the side to move and
/// the Zobrist hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epaminondas {
    stones: [Bitboard; 2],
    side: Player,
    hash: u64,
}

impl Epaminondas {
    /// The position with the given stones (White's, Black's) and side to move.
    #[must_use]
    pub fn from_parts(white: Bitboard, black: Bitboard, side: Player) -> Epaminondas {
        let mut p = Epaminondas {
            stones: [white, black],
            side,
            hash: 0,
        };
        p.hash = p.hash_from_scratch();
        p
    }

    /// The stones of player `p`.
    #[must_use]
    pub fn stones(&self, p: Player) -> Bitboard {
        self.stones[p.index()]
    }

    /// The player to move.
    #[must_use]
    pub fn side(&self) -> Player {
        self.side
    }

    fn own(&self) -> Bitboard {
        self.stones[self.side.index()]
    }

    fn enemy(&self) -> Bitboard {
        self.stones[self.side.index() ^ 1]
    }

    /// Player `p`'s home row (rank 1 for White, rank 12 for Black).
    #[must_use]
    pub fn home_row(p: Player) -> Bitboard {
        if p == Player::FIRST {
            Bitboard::rank(0)
        } else {
            Bitboard::rank(RANKS - 1)
        }
    }

    /// The opponent's home row, which the side to move tries to reach.
    fn far_row(&self) -> Bitboard {
        Self::home_row(self.side.other())
    }

    /// Whether the side to move has won on home rows: more of its stones on
    /// the opponent's home row than the opponent has on its own.
    #[must_use]
    pub fn home_row_win(&self) -> bool {
        let ours = (self.own() & self.far_row()).count();
        let theirs = (self.enemy() & Self::home_row(self.side)).count();
        ours > theirs
    }

    fn cell(&self, i: usize) -> Option<char> {
        let sq = Square::new((i % FILES as usize) as u8, (i / FILES as usize) as u8);
        if self.stones[0].has(sq) {
            Some('W')
        } else if self.stones[1].has(sq) {
            Some('B')
        } else {
            None
        }
    }

    /// The number of the mover's stones in the unbroken run from `from` in
    /// direction `d` (0 if `from` holds none).
    fn own_run(&self, from: Square, d: Dir) -> u8 {
        let own = self.own();
        let mut n = 0;
        let mut at = Some(from);
        while let Some(sq) = at.filter(|&sq| own.has(sq)) {
            n += 1;
            at = sq.step(d);
        }
        n
    }

    /// The move from `tail` to `landing` with its separator, or what makes
    /// it illegal.
    fn check_move(
        &self,
        text: &str,
        tail: Square,
        landing: Square,
        sep: char,
    ) -> Result<Move, ParseError> {
        let err = |why: String| Err(ParseError::new(format!("'{text}': {why}")));
        if !self.own().has(tail) {
            return err(format!("{tail} holds no stone of the side to move"));
        }
        let Some((dir, n)) = Dir::between(tail, landing) else {
            return err(format!("{landing} is not on a line from {tail}"));
        };
        let k = self.own_run(tail, dir);
        if n < k {
            return err(format!("{landing} holds a stone of the moving line"));
        }
        let s = n - k + 1;
        if s > k {
            return err(format!("{k} stone(s) move at most {k} square(s), not {s}"));
        }
        let m = Move { tail, dir, k, s };
        let head = tail.shifted(dir, i32::from(k) - 1);
        for i in 1..i32::from(s) {
            let sq = head.shifted(dir, i);
            if !(self.own() | self.enemy()).has(sq) {
                continue;
            }
            return err(format!("the way is blocked at {sq}"));
        }
        if self.own().has(landing) {
            return err(format!("{landing} holds a stone of the side to move"));
        }
        let captured = self.captures(m);
        if captured >= u32::from(k) {
            return err(format!("{k} stone(s) cannot capture a line of {captured}"));
        }
        match (captured > 0, sep) {
            (true, '-') => return err(format!("the move captures: write {tail}x{landing}")),
            (false, 'x') => return err(format!("{landing} is empty: write {tail}-{landing}")),
            _ => {}
        }
        if self.breaks_symmetry_rule(m) {
            return err("forbidden by the symmetry rule".to_string());
        }
        Ok(m)
    }
}

impl Epaminondas {
    /// The legal move to `landing` whose line holds `tail` behind its
    /// head but starts further back: what a person means who names a
    /// stone in the middle of a phalanx instead of its rearmost stone.
    fn rear_stone(&self, text: &str, tail: Square, landing: Square) -> Option<Move> {
        let (dir, _) = Dir::between(tail, landing)?;
        let mut rear = tail;
        while self.own().has(rear) {
            rear = rear.step(dir.reverse())?;
            if !self.own().has(rear) {
                return None;
            }
            for sep in ['-', 'x'] {
                if let Ok(m) = self.check_move(text, rear, landing, sep) {
                    return Some(m);
                }
            }
        }
        None
    }
}

impl Game for Epaminondas {
    type Move = Move;
    type Chance = NoChance;
    type Simultaneous = NoSimultaneous;
    type Scratch = ();

    const ID: &'static str = "epaminondas";

    const INFO: GameInfo = GameInfo {
        name: "Epaminondas",
        sides: &["White", "Black"],
        setup: None,
        ply_limit: 1000,
        score_unit: "centistones (100 a stone)",
        bench: &[BenchCase {
            position: "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w",
            perft_depth: 4,
            search_depth: 7,
        }],
    };

    fn start() -> Self {
        let white = Bitboard::rank(0) | Bitboard::rank(1);
        let black = Bitboard::rank(RANKS - 2) | Bitboard::rank(RANKS - 1);
        Epaminondas::from_parts(white, black, Player::FIRST)
    }

    fn node(&self) -> NodeKind {
        if self.home_row_win() || !self.has_move() {
            NodeKind::Terminal
        } else {
            NodeKind::Decision(self.side)
        }
    }

    fn perspective(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.home_row_win() {
            Some(Outcome::win(self.side, "home row"))
        } else if !self.has_move() {
            Some(Outcome::win(self.side.other(), "no move"))
        } else {
            None
        }
    }

    fn moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if !self.home_row_win() {
            self.generate(out);
        }
    }

    fn move_count(&self) -> usize {
        if self.home_row_win() {
            0
        } else {
            self.count_moves()
        }
    }

    fn play(&self, m: Move) -> Self {
        let (own, enemy, captured) = self.after(m);
        let me = self.side;
        let mut hash = self.hash ^ BLACK_TO_MOVE;
        // The squares the line leaves and those it comes to; a square in
        // both is keyed twice, which cancels.
        for i in 0..i32::from(m.k) {
            hash ^= key(me, m.tail.shifted(m.dir, i));
            hash ^= key(me, m.tail.shifted(m.dir, i + i32::from(m.s)));
        }
        for sq in captured {
            hash ^= key(me.other(), sq);
        }
        let mut stones = [Bitboard::EMPTY; 2];
        stones[me.index()] = own;
        stones[me.other().index()] = enemy;
        Epaminondas {
            stones,
            side: me.other(),
            hash,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Player::SECOND {
            BLACK_TO_MOVE
        } else {
            0
        };
        for p in Player::BOTH {
            for sq in self.stones(p) {
                h ^= key(p, sq);
            }
        }
        h
    }
}

impl Diagram for Epaminondas {
    /// Fitted to 1,877 self-play games with the default network
    /// (`tools/winprob-fit.py`, docs/serve.md): 500.6, 95% 428 to 591.
    const SCORE_SCALE: f64 = 500.0;

    fn diagram(&self) -> String {
        draw_board(FILES as usize, RANKS as usize, |i| self.cell(i))
    }

    fn svg(&self, opts: &gamut_core::svg::SvgOptions, before: Option<&Self>) -> String {
        svg::svg(self, opts, before)
    }

    /// The phalanx's other stones, in front of its rear one.
    fn move_also_from(&self, m: Move) -> Vec<String> {
        (1..i32::from(m.k))
            .map(|i| m.tail.shifted(m.dir, i).to_string())
            .collect()
    }
}

impl Notation for Epaminondas {
    fn parse(text: &str) -> Result<Self, ParseError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 2 {
            return Err(ParseError::new(format!(
                "position needs 2 fields '<board> <side>' separated by one space, found {}",
                fields.len()
            )));
        }
        let cells = parse_board(fields[0], FILES as usize, RANKS as usize, |c| match c {
            'W' => Some(0usize),
            'B' => Some(1),
            _ => None,
        })?;
        let mut stones = [Bitboard::EMPTY; 2];
        for (i, c) in cells.iter().enumerate() {
            if let Some(p) = *c {
                let sq = Square::new((i % FILES as usize) as u8, (i / FILES as usize) as u8);
                stones[p] |= sq.bb();
            }
        }
        for (p, name) in [(0, "White"), (1, "Black")] {
            let n = stones[p].count();
            if n > STONES {
                return Err(ParseError::new(format!(
                    "{name} has {n} stones, at most {STONES}"
                )));
            }
        }
        let side = match fields[1] {
            "w" => Player::FIRST,
            "b" => Player::SECOND,
            s => {
                return Err(ParseError::new(format!(
                    "side to move '{s}' is not 'w' or 'b'"
                )))
            }
        };
        Ok(Epaminondas::from_parts(stones[0], stones[1], side))
    }

    fn text(&self) -> String {
        let board = write_board(FILES as usize, RANKS as usize, |i| self.cell(i));
        let side = if self.side == Player::FIRST { 'w' } else { 'b' };
        format!("{board} {side}")
    }

    fn move_text(&self, m: Move) -> String {
        let landing = m.landing();
        let sep = if self.enemy().has(landing) { 'x' } else { '-' };
        format!("{}{sep}{landing}", m.tail)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        if self.home_row_win() {
            return Err(ParseError::new(format!(
                "'{text}': the game is over (home row)"
            )));
        }
        let Some(i) = text.find(['-', 'x']) else {
            return Err(ParseError::new(format!(
                "'{text}' is not '<tail>-<landing>' or '<tail>x<landing>'"
            )));
        };
        let sep = text[i..].chars().next().unwrap_or('-');
        let tail = Square::parse(&text[..i])
            .map_err(|e| ParseError::new(format!("'{text}': tail: {e}")))?;
        let landing = Square::parse(&text[i + 1..])
            .map_err(|e| ParseError::new(format!("'{text}': landing: {e}")))?;
        self.check_move(text, tail, landing, sep).map_err(|e| {
            match self.rear_stone(text, tail, landing) {
                Some(m) => ParseError::new(format!(
                    "{}; {tail} is not the rear stone of the line: name {}, write {}",
                    e.0,
                    m.tail,
                    self.move_text(m)
                )),
                None => e,
            }
        })
    }
}
