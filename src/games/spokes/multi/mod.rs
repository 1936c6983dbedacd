//! Spokes for four players: `spokes4` (each for themselves) and
//! `spokes2v2` (players 1 and 2 against 3 and 4). Four placements at once,
//! up to four stones on a node (crowded nodes), resolvers rotating 1–4.
//!
//! A round is two nodes of the game tree, as in the two-player game: a
//! simultaneous placement node where the four players act, and a decision
//! node of the resolver (of the resolver's team in `spokes2v2`) whose moves
//! are the resolution outcomes. The nodes, colours and push tables are the
//! two-player game's.

pub mod board;
pub mod resolve;

use crate::bits::{splitmix64, zobrist_table};
use crate::game::{
    BenchCase, Diagram, Evaluate, Game, GameInfo, Listing, ListingBudget, NoChance, NodeKind,
    Notation, Outcome, ParseError, Player, SimultaneousRules, TermMask, EVAL_LIMIT,
};
use crate::games::spokes::board::{Colour, Node, NodeSet};
use crate::games::spokes::resolve::{at_rest, loop_removal};
use crate::games::spokes::resolve::{StateLimitExceeded, DEFAULT_STATE_LIMIT};
use crate::games::spokes::score::{HALVES, QUARTERS};
use crate::games::spokes::svg;
use crate::games::spokes::tables::ADJACENT;
use crate::games::spokes::text;
use crate::games::spokes::Phase;
use board::{Board, Cell};
use resolve::{Resolved, Resolver};

/// How many stones of each colour there are.
pub const STONES_PER_COLOUR: u32 = 44;

/// A move: one player's placement, or a resolution outcome.
pub type Move = crate::games::spokes::Move<Board>;

/// A four-player Spokes position; `TEAMS` is `spokes2v2`, otherwise
/// `spokes4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpokesMulti<const TEAMS: bool> {
    board: Board,
    round: u32,
    phase: Phase,
    hash: u64,
}

/// Four players, each for themselves.
pub type Spokes4 = SpokesMulti<false>;
/// Four players in two teams, 1+2 against 3+4.
pub type Spokes2v2 = SpokesMulti<true>;

const CELL_KEYS: [u64; 45 * 15] = zobrist_table(0x5b4e5);
const PHASE_KEYS: [u64; 3] = zobrist_table(0x5b4e6);

fn cell_key(n: Node, c: Cell) -> u64 {
    if c == Cell::EMPTY {
        0
    } else {
        CELL_KEYS[n.index() * 15 + c.code()]
    }
}

fn round_key(round: u32) -> u64 {
    splitmix64(0x5b4e7 ^ u64::from(round) << 8)
}

/// The hash change from board `a` to board `b`.
fn board_delta(a: &Board, b: &Board) -> u64 {
    let mut h = 0;
    for n in board::all_nodes() {
        let (x, y) = (a.get(n), b.get(n));
        if x != y {
            h ^= cell_key(n, x) ^ cell_key(n, y);
        }
    }
    h
}

/// A resolver's work space and the outcomes of the last board it resolved:
/// the variants' [`Game::Scratch`], one per thread.
#[derive(Default)]
pub struct Workspace {
    resolver: Resolver,
    board: Option<Board>,
    outcomes: Vec<Resolved>,
}

/// The home nodes of each side: the four players, or the two teams (whose
/// homes are the two-player game's).
pub fn homes(teams: bool) -> &'static [NodeSet] {
    if teams {
        &HALVES.home
    } else {
        &QUARTERS.home
    }
}

/// Why a board at rest ends the game, if it does (see [`crate::games::spokes::score::Sides::rest_end`]).
fn rest_end<const TEAMS: bool>(b: &Board) -> Option<&'static str> {
    if TEAMS {
        HALVES.rest_end(b)
    } else {
        QUARTERS.rest_end(b)
    }
}

/// The result of a finished game (see [`crate::games::spokes::score::Sides::outcome`]).
fn outcome<const TEAMS: bool>(b: &Board, reason: &'static str) -> Outcome {
    if TEAMS {
        HALVES.outcome(b, reason)
    } else {
        QUARTERS.outcome(b, reason)
    }
}

/// The stones each side counts on its home nodes.
fn points<const TEAMS: bool>(b: &Board) -> Vec<u32> {
    if TEAMS {
        HALVES.points(b).to_vec()
    } else {
        QUARTERS.points(b).to_vec()
    }
}

/// The stones each side has next to its home nodes.
fn approach_stones<const TEAMS: bool>(b: &Board) -> Vec<u32> {
    if TEAMS {
        HALVES.approach_stones(b).to_vec()
    } else {
        QUARTERS.approach_stones(b).to_vec()
    }
}

/// The colours a player may place: those with at least four stones off the
/// board, so that all four players can always be served.
pub fn placeable_colours(b: &Board) -> impl Iterator<Item = Colour> + '_ {
    Colour::BOTH
        .into_iter()
        .filter(|&c| b.stones_of(c) + 4 <= STONES_PER_COLOUR)
}

impl<const TEAMS: bool> SpokesMulti<TEAMS> {
    /// The position with `board` at `round` and `phase`.
    pub fn from_parts(board: Board, round: u32, phase: Phase) -> Self {
        let mut s = SpokesMulti {
            board,
            round,
            phase,
            hash: 0,
        };
        s.hash = s.hash_from_scratch();
        s
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The round: the next round at a placement node, the round being
    /// resolved at a resolution node.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The phase of the round.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player (of four) who resolves the current round: player
    /// ((round − 1) mod 4) + 1.
    pub fn resolver(&self) -> Player {
        Player::nth((self.round.wrapping_sub(1) % 4) as usize)
    }

    /// The side of player `p`: the player, or in `spokes2v2` the team.
    pub fn side_of(p: Player) -> Player {
        if TEAMS {
            Player::nth(p.index() / 2)
        } else {
            p
        }
    }

    /// The resolution outcomes here, visiting at most `limit` boards; an
    /// error if more are reachable. Empty except at a resolution node.
    pub fn outcomes_limited(&self, limit: usize) -> Result<Vec<Move>, StateLimitExceeded> {
        if self.phase != Phase::Resolution {
            return Ok(Vec::new());
        }
        let mut found = Vec::new();
        Resolver::default().outcomes(&self.board, limit, &mut found)?;
        Ok(found.into_iter().map(Move::Outcome).collect())
    }

    /// The resolution outcomes under the default limit. Beyond it the
    /// placement is declared unresolvable: the only outcome is the loop
    /// removal applied to the board as placed, as in the two-player game.
    fn resolved<'w>(&self, w: &'w mut Workspace) -> &'w [Resolved] {
        if w.board != Some(self.board) {
            w.board = Some(self.board);
            if w.resolver
                .outcomes(&self.board, DEFAULT_STATE_LIMIT, &mut w.outcomes)
                .is_err()
            {
                w.outcomes.clear();
                w.outcomes.push(Resolved {
                    board: loop_removal(&self.board),
                    looped: true,
                });
            }
        }
        &w.outcomes
    }

    /// Every outcome move here with its short form, in the order of
    /// `moves`; empty except at a resolution node.
    pub fn short_texts(&self) -> Vec<(Move, String)> {
        if self.phase != Phase::Resolution {
            return Vec::new();
        }
        let mut w = Workspace::default();
        let outcomes = self.resolved(&mut w);
        let texts = crate::games::spokes::short::short_texts(&self.board, outcomes);
        outcomes
            .iter()
            .map(|&r| Move::Outcome(r))
            .zip(texts)
            .collect()
    }

    /// Why the game is over at a placement node, if it is.
    fn end_reason(&self) -> Option<&'static str> {
        match self.phase {
            Phase::Loop => Some("unbreakable loop"),
            Phase::Resolution => None,
            Phase::Placement => {
                let s = self.board.sets();
                rest_end::<TEAMS>(&self.board).or(
                    if (s.empty & NodeSet::PLACEABLE).is_empty()
                        || placeable_colours(&self.board).next().is_none()
                    {
                        Some("no placement")
                    } else {
                        None
                    },
                )
            }
        }
    }

    /// The resolution node after stones were placed, giving `board`.
    fn after_placement(&self, board: Board) -> Self {
        SpokesMulti {
            board,
            round: self.round,
            phase: Phase::Resolution,
            hash: self.hash
                ^ board_delta(&self.board, &board)
                ^ PHASE_KEYS[self.phase as usize]
                ^ PHASE_KEYS[Phase::Resolution as usize],
        }
    }
}

impl<const TEAMS: bool> Game for SpokesMulti<TEAMS> {
    type Move = Move;
    type Chance = NoChance;
    type Simultaneous = Self;
    type Scratch = Workspace;
    const ID: &'static str = if TEAMS { "spokes2v2" } else { "spokes4" };
    /// Two stones on home nodes.
    const SCORE_SCALE: f64 = 2.0;

    const INFO: GameInfo = GameInfo {
        name: if TEAMS {
            "Spokes, two teams of two"
        } else {
            "Spokes for four players"
        },
        sides: if TEAMS {
            &["team 1", "team 2"]
        } else {
            &["player 1", "player 2", "player 3", "player 4"]
        },
        setup: None,
        ply_limit: 1000,
        bench: &[BenchCase {
            position: "[XX]/w1b1/5b1b/4b2w2K[Xw]4/16 5 resolve",
            perft_depth: 1,
            search_depth: 1,
        }],
    };

    fn start() -> Self {
        Self::from_parts(Board::EMPTY, 1, Phase::Placement)
    }

    fn node(&self) -> NodeKind {
        match self.phase {
            Phase::Resolution => NodeKind::Decision(Self::side_of(self.resolver())),
            _ if self.end_reason().is_some() => NodeKind::Terminal,
            _ => NodeKind::Simultaneous,
        }
    }

    fn perspective(&self) -> Player {
        match self.phase {
            Phase::Resolution => Self::side_of(self.resolver()),
            _ => Player::FIRST,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end_reason()
            .map(|reason| outcome::<TEAMS>(&self.board, reason))
    }

    fn moves(&self, out: &mut Vec<Move>) {
        self.moves_with(out, &mut Workspace::default());
    }

    fn move_count(&self) -> usize {
        self.move_count_with(&mut Workspace::default())
    }

    fn moves_with(&self, out: &mut Vec<Move>, scratch: &mut Workspace) {
        out.clear();
        if self.phase != Phase::Resolution {
            return;
        }
        out.extend(self.resolved(scratch).iter().map(|&r| Move::Outcome(r)));
    }

    /// The outcomes, or none if the resolution visits more boards than
    /// `budget.give_up_after` (a complete list is kept for the next request
    /// of the same board). The variants' resolutions are not cut short
    /// otherwise: their searchers give up on long ones instead.
    fn moves_within(
        &self,
        out: &mut Vec<Move>,
        scratch: &mut Workspace,
        budget: &ListingBudget<'_>,
    ) -> Listing {
        out.clear();
        if self.phase != Phase::Resolution {
            return Listing::Complete;
        }
        let limit = budget.give_up_after.unwrap_or(DEFAULT_STATE_LIMIT);
        if limit < DEFAULT_STATE_LIMIT && scratch.board != Some(self.board) {
            let w = scratch;
            if w.resolver
                .outcomes(&self.board, limit, &mut w.outcomes)
                .is_err()
            {
                w.board = None;
                return Listing::GaveUp;
            }
            w.board = Some(self.board);
            out.extend(w.outcomes.iter().map(|&r| Move::Outcome(r)));
            return Listing::Complete;
        }
        out.extend(self.resolved(scratch).iter().map(|&r| Move::Outcome(r)));
        Listing::Complete
    }

    fn move_count_with(&self, scratch: &mut Workspace) -> usize {
        if self.phase != Phase::Resolution {
            return 0;
        }
        self.resolved(scratch).len()
    }

    /// Plays a resolution outcome; a placement played alone puts just that
    /// stone on the board and leads to the resolution.
    fn play(&self, m: Move) -> Self {
        match m {
            Move::Outcome(r) => {
                let round = self.round.saturating_add(1);
                let phase = if r.looped {
                    Phase::Loop
                } else {
                    Phase::Placement
                };
                SpokesMulti {
                    board: r.board,
                    round,
                    phase,
                    hash: self.hash
                        ^ board_delta(&self.board, &r.board)
                        ^ round_key(self.round)
                        ^ round_key(round)
                        ^ PHASE_KEYS[self.phase as usize]
                        ^ PHASE_KEYS[phase as usize],
                }
            }
            Move::Place { .. } => self.play_joint_all(&[m]),
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.cells().map(|(n, c)| cell_key(n, c)).fold(
            round_key(self.round) ^ PHASE_KEYS[self.phase as usize],
            |h, k| h ^ k,
        )
    }
}

impl<const TEAMS: bool> Diagram for SpokesMulti<TEAMS> {
    fn diagram(&self) -> String {
        let b = &self.board;
        let mut s = text::board_rows(b, 6);
        let left = |c| STONES_PER_COLOUR - b.stones_of(c);
        let state = match self.node() {
            NodeKind::Decision(_) => {
                let r = self.resolver();
                if TEAMS {
                    format!(
                        "resolution by {r} for {}",
                        Self::INFO.side(Self::side_of(r))
                    )
                } else {
                    format!("resolution by {r}")
                }
            }
            NodeKind::Simultaneous => "placement".to_string(),
            _ => match self.outcome() {
                Some(o) => format!("game over: {}", o.describe(Self::INFO.sides)),
                None => "game over".to_string(),
            },
        };
        s.push_str(&format!(
            "round {}: {state}; off the board: {} white, {} black\n",
            self.round,
            left(Colour::White),
            left(Colour::Black)
        ));
        s
    }

    /// An SVG picture of the board: circles, spokes, each side's home nodes
    /// in its colour, node names and stones (up to four on a node).
    fn svg(&self, opts: &crate::svg::SvgOptions, before: Option<&Self>) -> String {
        let homes = svg::Homes {
            nodes: homes(TEAMS),
            colours: &HOME_COLOURS,
            radius: 5.0,
        };
        svg::svg(
            &self.board,
            &self.text(),
            before.map(|q| &q.board),
            opts,
            &homes,
        )
    }

    fn move_squares(&self, m: Move) -> Vec<String> {
        match m {
            Move::Place { node, .. } => vec![node.to_string()],
            Move::Outcome(_) => Vec::new(),
        }
    }
}

impl<const TEAMS: bool> Notation for SpokesMulti<TEAMS> {
    fn parse(text: &str) -> Result<Self, ParseError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if !(2..=3).contains(&fields.len()) || fields.iter().any(|f| f.is_empty()) {
            return Err(ParseError::new(format!(
                "'{text}' is not '<nodes> <round>' optionally followed by ' loop' or ' resolve'"
            )));
        }
        let board: Board = text::parse_nodes(fields[0])?;
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
        for c in Colour::BOTH {
            let n = board.stones_of(c);
            if n > STONES_PER_COLOUR {
                return Err(ParseError::new(format!(
                    "{n} {} stones on the board, at most {STONES_PER_COLOUR}",
                    if c == Colour::White { "white" } else { "black" }
                )));
            }
        }
        if phase == Phase::Placement && !at_rest(&board) {
            return Err(ParseError::new(
                "round start not at rest: single stones are adjacent or a crowded node can still move (add ' resolve' for a position awaiting resolution)",
            ));
        }
        Ok(Self::from_parts(board, round, phase))
    }

    fn text(&self) -> String {
        let mut s = format!("{} {}", text::nodes_field(&self.board), self.round);
        match self.phase {
            Phase::Placement => {}
            Phase::Resolution => s.push_str(" resolve"),
            Phase::Loop => s.push_str(" loop"),
        }
        s
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.parse_move_with(text, &mut Workspace::default())
    }

    /// Parses a placement (`wD12`) at a round start, or an outcome (a
    /// nodes field, then ` loop` for a loop, or the short form) at a
    /// resolution node.
    fn parse_move_with(&self, text: &str, scratch: &mut Workspace) -> Result<Move, ParseError> {
        let illegal = || ParseError::new(format!("'{text}' is not a legal move here"));
        match self.phase {
            Phase::Resolution => {
                text::parse_outcome(&self.board, self.resolved(scratch), text).map(Move::Outcome)
            }
            _ => {
                let mut v = Vec::new();
                self.actions(Player::FIRST, &mut v);
                v.into_iter()
                    .find(|&m| self.move_text(m) == text)
                    .ok_or_else(illegal)
            }
        }
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::Place { colour, node } => format!("{}{}", colour.letter(), node),
            Move::Outcome(r) => text::outcome_text(&r),
        }
    }

    /// The short outcome form at a resolution node (see
    /// [`crate::games::spokes::short`]); a placement's text otherwise.
    fn short_move_text(&self, m: Move) -> String {
        match m {
            Move::Outcome(r) if self.phase == Phase::Resolution => self
                .short_texts()
                .into_iter()
                .find(|&(o, _)| o == Move::Outcome(r))
                .map_or_else(|| self.move_text(m), |(_, t)| t),
            _ => self.move_text(m),
        }
    }
}

/// A round's placement is simultaneous: the four players each choose where
/// to put a stone of either colour, from the same choices.
impl<const TEAMS: bool> SimultaneousRules<SpokesMulti<TEAMS>> for SpokesMulti<TEAMS> {
    const PLAYERS: usize = 4;
    const ANONYMOUS: bool = true;

    fn actions(pos: &Self, _player: Player, out: &mut Vec<Move>) {
        out.clear();
        if pos.node() != NodeKind::Simultaneous {
            return;
        }
        let nodes = pos.board.sets().empty & NodeSet::PLACEABLE;
        for colour in placeable_colours(&pos.board) {
            out.extend(nodes.iter().map(|node| Move::Place { colour, node }));
        }
    }

    fn side_of(player: Player) -> Player {
        SpokesMulti::<TEAMS>::side_of(player)
    }

    /// Four players place, never two: two placements alone put just those
    /// stones on the board.
    fn play_joint(pos: &Self, first: Move, second: Move) -> Self {
        <Self as SimultaneousRules<Self>>::play_joint_all(pos, &[first, second])
    }

    /// Places every stone at once: on each node every white+black pair
    /// makes a block, the rest stay loose.
    fn play_joint_all(pos: &Self, actions: &[Move]) -> Self {
        let mut board = pos.board;
        for &m in actions {
            if let Move::Place { colour, node } = m {
                let cell = board.get(node).with_stone(colour);
                board.set(node, cell.expect("at most four stones land on a node"));
            }
        }
        pos.after_placement(board)
    }
}

/// Every side's stones on its home nodes and on the nodes next to them,
/// for one side: its own less the best of the others'.
impl<const TEAMS: bool> Evaluate for SpokesMulti<TEAMS> {
    const TERMS: &'static [&'static str] = &["home", "approaches"];

    fn evaluate(&self, mask: TermMask) -> i32 {
        self.evaluate_for(self.perspective(), mask)
    }

    fn evaluate_for(&self, side: Player, mask: TermMask) -> i32 {
        let me = side.index();
        let lead = |pts: &[u32]| {
            let best_other = (0..pts.len())
                .filter(|&i| i != me)
                .map(|i| pts[i])
                .max()
                .unwrap_or(0);
            pts[me] as i32 - best_other as i32
        };
        let mut v = 0;
        if mask.has(0) {
            v += HOME_WEIGHT * lead(&points::<TEAMS>(&self.board));
        }
        if mask.has(1) {
            v += APPROACH_WEIGHT * lead(&approach_stones::<TEAMS>(&self.board));
        }
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// A placement next to the player's side's home nodes looks best, then
    /// one in its quadrant (semicircle for a team), one next to a single
    /// stone (something to push or pull) better than one alone; one next
    /// to another side's home nodes looks worst.
    fn action_hint(&self, player: Player, m: Move) -> i32 {
        let Move::Place { node, .. } = m else {
            return 0;
        };
        let side = Self::side_of(player).index();
        let around = ADJACENT[node.index()];
        let homes = homes(TEAMS);
        let region = if TEAMS {
            HALVES.tie_break[side]
        } else {
            QUARTERS.tie_break[side]
        };
        let mut hint = 0;
        if !(around & homes[side]).is_empty() {
            hint += 4;
        }
        if region.has(node) {
            hint += 2;
        }
        if (0..homes.len()).any(|s| s != side && !(around & homes[s]).is_empty()) {
            hint -= 3;
        }
        if !(around & self.board.sets().all_singles()).is_empty() {
            hint += 1;
        }
        hint
    }
}

/// The home colour of each side in pictures, in side order.
const HOME_COLOURS: [&str; 4] = ["#7a1f1f", "#1f4f7a", "#2f6b2a", "#7a5a1f"];

/// Evaluation units per home stone ahead of the best other side.
const HOME_WEIGHT: i32 = 100;
/// Evaluation units per stone next to the home nodes ahead of the best
/// other side.
const APPROACH_WEIGHT: i32 = 20;
