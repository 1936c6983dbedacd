//! Empedocles' Stones (classical variant): four elements, a die each turn,
//! transmutation by neighbour count. Rules: `docs/rules/empedocles.md`.

pub mod elements;
pub mod eval;
pub mod movegen;
pub mod net;
mod svg;
mod text;

use elements::Pairing;
use gamut_core::bits::{zobrist_table, Bitboard, Square};
use gamut_core::game::{
    BenchCase, ChanceRules, Diagram, Game, GameInfo, NoSimultaneous, NodeKind, Notation, Outcome,
    ParseError, Player,
};
use movegen::{NeighbourCounts, Sides};

/// Where in a turn a position stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Setup: the side to move places a piece (`s1`/`s2`).
    Setup,
    /// A turn is about to start: the die is to be rolled (`r`).
    Roll,
    /// One action remains in this turn (`a1`).
    OneAction,
    /// The die showed 6: two actions remain (`a2`).
    TwoActions,
}

/// A class of die rolls: the children of a roll node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Die {
    /// 1–2 (probability 1/3): transmutation, then one action (`T`).
    Transmute,
    /// 3–5 (probability 1/2): one action (`N`).
    Normal,
    /// 6 (probability 1/6): two actions (`D`).
    Double,
}

impl Die {
    /// The three classes in the order `T`, `N`, `D`.
    pub const ALL: [Die; 3] = [Die::Transmute, Die::Normal, Die::Double];

    /// The class's text.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Die::Transmute => 'T',
            Die::Normal => 'N',
            Die::Double => 'D',
        }
    }

    /// The probability of rolling this class.
    #[must_use]
    pub const fn probability(self) -> f64 {
        match self {
            Die::Transmute => 1.0 / 3.0,
            Die::Normal => 1.0 / 2.0,
            Die::Double => 1.0 / 6.0,
        }
    }
}

/// A child of an Empedocles position: an action, a pass, or a die class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A new piece on a square (setup or action): `@d4`.
    Place(Square),
    /// A piece moves, capturing whatever enemy stands on the target:
    /// `e4-e5` or `e4xe5`.
    Step(Square, Square),
    /// No action is available: `pass`.
    Pass,
    /// The die class rolled at a roll node: `T`, `N`, `D`.
    Roll(Die),
}

const PIECE_KEYS: [u64; 128] = zobrist_table(0xE3_0001);
const STAGE_KEYS: [u64; 4] = zobrist_table(0xE3_0002);
const PAIRING_KEYS: [u64; 16] = zobrist_table(0xE3_0003);
const SIDE_KEY: u64 = zobrist_table::<1>(0xE3_0004)[0];

/// An Empedocles' Stones position: both players' pieces, the element
/// pairing, the side to move and where in the turn it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Empedocles {
    pieces: [Bitboard; 2],
    pairing: Pairing,
    side: Player,
    stage: Stage,
    hash: u64,
}

fn piece_key(p: Player, s: Square) -> u64 {
    PIECE_KEYS[p.index() * 64 + s.0 as usize]
}

impl Empedocles {
    /// The empty board in setup with player 1 to place, for `pairing`.
    #[must_use]
    pub fn new(pairing: Pairing) -> Empedocles {
        Empedocles::from_parts([Bitboard::EMPTY; 2], pairing, Player::FIRST, Stage::Setup)
    }

    /// A position from its parts (not checked for consistency).
    fn from_parts(
        pieces: [Bitboard; 2],
        pairing: Pairing,
        side: Player,
        stage: Stage,
    ) -> Empedocles {
        let mut p = Empedocles {
            pieces,
            pairing,
            side,
            stage,
            hash: 0,
        };
        p.hash = p.hash_from_scratch();
        p
    }

    /// The pieces of player `p`.
    #[must_use]
    pub fn pieces(&self, p: Player) -> Bitboard {
        self.pieces[p.index()]
    }

    /// The element pairing.
    #[must_use]
    pub fn pairing(&self) -> Pairing {
        self.pairing
    }

    /// The side to move (or to roll).
    #[must_use]
    pub fn side(&self) -> Player {
        self.side
    }

    /// Where in the turn the position stands.
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The board as player `p` sees it when acting.
    #[must_use]
    pub fn sides(&self, p: Player) -> Sides {
        Sides {
            own: self.pieces(p),
            opp: self.pieces(p.other()),
            element: self.pairing.of(p),
            enemy: self.pairing.of(p.other()),
        }
    }

    /// The pieces of both players that would survive a transmutation now.
    #[must_use]
    pub fn survivors(&self) -> [Bitboard; 2] {
        let counts = NeighbourCounts::of(self.pieces[0] | self.pieces[1]);
        Player::BOTH.map(|p| self.pieces(p) & counts.within(self.pairing.of(p).range()))
    }

    /// Puts a piece of `p` on `s` or takes it off, keeping the hash.
    fn toggle(&mut self, p: Player, s: Square) {
        self.pieces[p.index()] ^= s.bb();
        self.hash ^= piece_key(p, s);
    }

    /// Moves the turn to `side` at `stage`, keeping the hash.
    fn set_turn(&mut self, side: Player, stage: Stage) {
        if side != self.side {
            self.hash ^= SIDE_KEY;
            self.side = side;
        }
        self.hash ^= STAGE_KEYS[self.stage as usize] ^ STAGE_KEYS[stage as usize];
        self.stage = stage;
    }

    /// Removes, all at once, every piece whose neighbour count (taken
    /// before any removal) lies outside its element's range.
    fn transmute(&mut self) {
        let survivors = self.survivors();
        for p in Player::BOTH {
            for s in self.pieces(p) & !survivors[p.index()] {
                self.toggle(p, s);
            }
        }
    }

    /// Applies an action or pass of the side to move (no change of turn).
    fn act(&mut self, m: Move) {
        let me = self.side;
        match m {
            Move::Place(s) => self.toggle(me, s),
            Move::Step(from, to) => {
                self.toggle(me, from);
                if self.pieces(me.other()).has(to) {
                    self.toggle(me.other(), to);
                }
                self.toggle(me, to);
            }
            Move::Pass | Move::Roll(_) => {}
        }
    }

    /// Whether the game is over (never during setup).
    fn is_over(&self) -> bool {
        match self.stage {
            Stage::Setup => false,
            _ if self.pieces[0].is_empty() || self.pieces[1].is_empty() => true,
            Stage::Roll => false,
            Stage::OneAction | Stage::TwoActions => {
                !self.sides(self.side).has_action() && !self.sides(self.side.other()).has_action()
            }
        }
    }
}

impl Game for Empedocles {
    type Move = Move;
    type Chance = Self;
    type Simultaneous = NoSimultaneous;
    type Scratch = ();

    const ID: &'static str = "empedocles";

    const INFO: GameInfo = GameInfo {
        name: "Empedocles' Stones",
        sides: &["player 1", "player 2"],
        setup: Some(
            "the element pairing, player 1's element first \
             (e.g. fire,water; default fire,earth)",
        ),
        ply_limit: 1000,
        score_unit: "centipieces (100 a piece)",
        bench: &[BenchCase {
            position: "8/8/3ee3/3Fe3/3FF3/8/8/8 1 a1:fire,earth",
            perft_depth: 5,
            search_depth: 5,
        }],
    };

    fn start() -> Self {
        Empedocles::new(Pairing::DEFAULT)
    }

    fn node(&self) -> NodeKind {
        if self.is_over() {
            NodeKind::Terminal
        } else if self.stage == Stage::Roll {
            NodeKind::Chance
        } else {
            NodeKind::Decision(self.side)
        }
    }

    fn perspective(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let n = Player::BOTH.map(|p| self.pieces(p).count());
        let wiped = n[0] == 0 || n[1] == 0;
        let winner = match n[0].cmp(&n[1]) {
            std::cmp::Ordering::Greater => Player::FIRST,
            std::cmp::Ordering::Less => Player::SECOND,
            std::cmp::Ordering::Equal => {
                return Some(Outcome::draw(if wiped {
                    "no pieces left"
                } else {
                    "no actions, equal pieces"
                }))
            }
        };
        let pyrrhic = (self.pieces(winner) & self.survivors()[winner.index()]).is_empty();
        let reason = match (wiped, pyrrhic) {
            (true, false) => "opponent has no pieces",
            (true, true) => "pyrrhic: opponent has no pieces",
            (false, false) => "no actions, most pieces",
            (false, true) => "pyrrhic: no actions, most pieces",
        };
        Some(Outcome::win(winner, reason))
    }

    fn moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.stage {
            Stage::Setup => out.extend((!(self.pieces[0] | self.pieces[1])).map(Move::Place)),
            Stage::Roll => {
                if !self.is_over() {
                    out.extend(Die::ALL.map(Move::Roll));
                }
            }
            Stage::OneAction | Stage::TwoActions => {
                if self.is_over() {
                    return;
                }
                let sides = self.sides(self.side);
                out.extend(sides.placements().map(Move::Place));
                sides.for_each_move(|from, targets| {
                    out.extend(targets.map(|to| Move::Step(from, to)));
                });
                if out.is_empty() {
                    out.push(Move::Pass);
                }
            }
        }
    }

    fn move_count(&self) -> usize {
        match self.stage {
            Stage::Setup => (!(self.pieces[0] | self.pieces[1])).count() as usize,
            _ if self.is_over() => 0,
            Stage::Roll => Die::ALL.len(),
            Stage::OneAction | Stage::TwoActions => self.sides(self.side).action_count().max(1),
        }
    }

    fn play(&self, m: Move) -> Self {
        let mut next = self.clone();
        match self.stage {
            Stage::Setup => {
                next.act(m);
                if next.pieces(self.side).count() == 3 {
                    if self.side == Player::FIRST {
                        next.set_turn(Player::SECOND, Stage::Setup);
                    } else {
                        next.set_turn(Player::FIRST, Stage::Roll);
                    }
                }
            }
            Stage::Roll => {
                if m == Move::Roll(Die::Transmute) {
                    next.transmute();
                }
                let stage = if m == Move::Roll(Die::Double) {
                    Stage::TwoActions
                } else {
                    Stage::OneAction
                };
                next.set_turn(self.side, stage);
            }
            Stage::TwoActions => {
                next.act(m);
                next.set_turn(self.side, Stage::OneAction);
            }
            Stage::OneAction => {
                next.act(m);
                next.set_turn(self.side.other(), Stage::Roll);
            }
        }
        next
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = STAGE_KEYS[self.stage as usize] ^ PAIRING_KEYS[self.pairing.index()];
        if self.side == Player::SECOND {
            h ^= SIDE_KEY;
        }
        for p in Player::BOTH {
            for s in self.pieces(p) {
                h ^= piece_key(p, s);
            }
        }
        h
    }
}

impl Diagram for Empedocles {
    /// Fitted to 3,000 self-play games (`tools/winprob-fit.py`,
    /// docs/serve.md): 1,948, 95% 1,415 to 2,735 — a score counts a proven
    /// win as 10,000, so ordinary scores are large.
    const SCORE_SCALE: f64 = 1950.0;

    fn diagram(&self) -> String {
        text::diagram(self)
    }

    fn svg(&self, opts: &gamut_core::svg::SvgOptions, before: Option<&Self>) -> String {
        svg::svg(self, opts, before)
    }

    /// The die's classes as the rules name them (docs/rules/empedocles.md,
    /// "A turn"), with what each does.
    fn outcome_words(&self, m: Self::Move) -> Option<(String, String)> {
        let (name, does) = match self.move_text(m).as_str() {
            "T" => (
                "transmutation, then one action (1–2)",
                "a roll of 1 or 2 (1/3): every piece whose neighbour count lies outside its element's \
                 range (fire and water 2–4, earth 2–8, air 1–3) dies, all at once; then one action",
            ),
            "N" => (
                "one action (3–5)",
                "a roll of 3, 4 or 5 (1/2): one action, a placement or a move",
            ),
            "D" => (
                "two actions (6)",
                "a roll of 6 (1/6): two actions, one after the other",
            ),
            _ => return None,
        };
        Some((name.to_string(), does.to_string()))
    }

    /// A transmutation's dead, by element and square (`4 pieces died,
    /// fire on d5, c4, e4, d3`), or that none died.
    fn outcome_effect(&self, m: Self::Move, after: &Self) -> Option<String> {
        if self.move_text(m) != "T" {
            return None;
        }
        let mut dead: Vec<(&str, Vec<String>)> = Vec::new();
        let mut n = 0;
        // Ranks from the top, as the board is drawn and its text written.
        for rank in (0..8).rev() {
            for file in 0..8 {
                let s = Square::new(file, rank);
                for pl in Player::BOTH {
                    if self.pieces(pl).has(s) && !after.pieces(pl).has(s) {
                        let kind = self.pairing().of(pl).name();
                        n += 1;
                        match dead.iter_mut().find(|d| d.0 == kind) {
                            Some(d) => d.1.push(s.to_string()),
                            None => dead.push((kind, vec![s.to_string()])),
                        }
                    }
                }
            }
        }
        if n == 0 {
            return Some("no piece died".into());
        }
        let each: Vec<String> = dead
            .iter()
            .map(|(kind, squares)| format!("{kind} on {}", squares.join(", ")))
            .collect();
        Some(format!(
            "{n} piece{} died, {}",
            if n == 1 { "" } else { "s" },
            each.join("; ")
        ))
    }

    /// Each player's element's tint, as its stones and the pairing's
    /// legend show it.
    fn side_colours(&self) -> Vec<String> {
        Player::BOTH
            .into_iter()
            .map(|pl| svg::tint(self.pairing().of(pl)).to_string())
            .collect()
    }
}

impl Notation for Empedocles {
    /// The empty board in setup for the element pairing `setup`
    /// (`fire,water`).
    fn start_with(setup: &str) -> Result<Self, ParseError> {
        Ok(Empedocles::new(Pairing::parse(setup)?))
    }

    /// The twelve ordered element pairings, player 1's element first.
    fn setups() -> Vec<String> {
        Pairing::all().map(|p| p.to_string()).collect()
    }

    fn parse(text: &str) -> Result<Self, ParseError> {
        text::parse_position(text)
    }

    fn text(&self) -> String {
        text::position_text(self)
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::Place(s) => format!("@{s}"),
            Move::Step(from, to) => {
                let sep = if self.pieces(self.side.other()).has(to) {
                    'x'
                } else {
                    '-'
                };
                format!("{from}{sep}{to}")
            }
            Move::Pass => "pass".to_string(),
            Move::Roll(d) => d.letter().to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        text::parse_move(self, text)
    }
}

/// Chance nodes are die rolls: each class has its probability.
impl ChanceRules<Empedocles> for Empedocles {
    fn probability(_: &Empedocles, m: Move) -> f64 {
        match m {
            Move::Roll(d) => d.probability(),
            Move::Place(_) | Move::Step(..) | Move::Pass => 0.0,
        }
    }
}
