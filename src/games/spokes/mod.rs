//! Spokes (Christopher St. Clair): players place stones in secret on a
//! polar board; same colours push, opposite colours pull, and the resolver
//! of the round chooses how it all comes to rest.
//!
//! A round is two nodes of the game tree: a simultaneous placement node and
//! a decision node of the resolver whose moves are the resolution outcomes
//! (see `docs/rules/spokes.md`).
//!
//! One position type, [`SpokesGame`], plays every seat count: its
//! [`Seats`] layout says how many players place, which board they place on
//! ([`SpokesBoard`]) and how the sides score. [`Spokes`] is the two-player
//! game; [`multi`] has the four-player games `spokes4` and `spokes2v2`.
//!
//! Kept in one file (over 800 lines): the rules' traits (`Game`,
//! `SimultaneousRules`, notation) of the one position type for every seat
//! count; the board, the resolution and the seat layouts have modules of
//! their own.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod multi;
pub mod net;
pub mod node_text;
pub mod resolve;
pub mod score;
pub mod short;
mod svg;
pub mod tables;
pub mod text;

use board::{Board, Colour, Node, NodeSet};
use gamut_core::bits::{splitmix64, zobrist_table};
use gamut_core::game::{
    BenchCase, Diagram, Game, GameInfo, Listing, ListingBudget, NoChance, NodeKind, NodeRules,
    Notation, Outcome, ParseError, Player, SimultaneousRules,
};
use movegen::STONES_PER_COLOUR;
pub use multi::{Spokes2v2, Spokes4};
use node_text::NodeText;
use resolve::{loop_removal, Resolved, Resolver, StateLimitExceeded, Steps, DEFAULT_STATE_LIMIT};
use score::Stones;
use tables::ADJACENT;

/// Which part of a round a position is at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Round start: the players place (or the game is over).
    Placement,
    /// Stones placed: the resolver chooses an outcome.
    Resolution,
    /// The game ended in an unbreakable loop; the board is after removal.
    Loop,
}

/// A move: one player's placement, or a resolution outcome on board `B`
/// (the two-player board, or the four-player one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move<B = Board> {
    /// A stone of `colour` placed on `node` (an action at a placement node).
    Place {
        /// The stone's colour.
        colour: Colour,
        /// The node, off the home circle.
        node: Node,
    },
    /// The board a resolution ends with, and whether it ended in an
    /// unbreakable loop (the board is then after removal).
    Outcome(Resolved<B>),
}

/// A board the game is played on: its resolution steps ([`Steps`]), text
/// ([`node_text::NodeText`]), picture and score, and what the game asks beyond
/// them. The two-player [`Board`] and the four-player board are the two.
pub trait SpokesBoard: Steps + svg::Drawn + Stones + Send + Sync + 'static {
    /// The hash keys of the three phases.
    const PHASE_KEYS: [u64; 3];
    /// The seed of the rounds' hash keys.
    const ROUND_SEED: u64;
    /// The width of a node's content in the text diagram.
    const DIAGRAM_WIDTH: usize;

    /// The stones of colour `c` on the board.
    fn stones_of(&self, c: Colour) -> u32;

    /// The empty nodes.
    fn empty_nodes(&self) -> NodeSet;

    /// The hash of the board alone: the keys of what its nodes hold.
    fn keys(&self) -> u64;

    /// The hash change from `self` to `other`.
    fn delta(&self, other: &Self) -> u64;

    /// The board after the stones of the placements among `stones` land
    /// at once.
    fn place(&self, stones: &[Move<Self>]) -> Self;

    /// Why the board cannot start a round (it is not at rest), if so.
    fn rest_error(&self) -> Result<(), ParseError>;
}

/// The seats of a Spokes game: how many players place each round, the
/// board, and the sides the players score for.
pub trait Seats: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// The board.
    type Board: SpokesBoard;
    /// The game's [`Game::ID`].
    const ID: &'static str;
    /// The game's [`Game::INFO`].
    const INFO: GameInfo;
    /// How many players place each round; the resolvers rotate through
    /// them.
    const PLAYERS: usize;
    /// See [`SimultaneousRules::ANONYMOUS`].
    const ANONYMOUS: bool;
    /// Whether a search's listing of outcomes may end with those found
    /// after a few boards ([`ListingBudget::partial_after`]); otherwise only
    /// `give_up_after` is heeded and searchers give up on long ones.
    const PARTIAL_LISTINGS: bool;
    /// The home colour of each side in pictures, in side order.
    const HOME_COLOURS: &'static [&'static str];
    /// The radius of a home node's dot in pictures.
    const HOME_RADIUS: f64;

    /// Each side's home nodes.
    fn homes() -> &'static [NodeSet];
    /// The side of player `p`: the player, or its team.
    fn side_of(p: Player) -> Player;
    /// Why a board at rest ends the game, if it does (see
    /// [`score::Sides::rest_end`]).
    fn rest_end(b: &Self::Board) -> Option<&'static str>;
    /// The result of a finished game (see [`score::Sides::outcome`]).
    fn outcome(b: &Self::Board, reason: &'static str) -> Outcome;
}

/// A Spokes position for the seats `S`: the board, the round, and the
/// phase of the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpokesGame<S: Seats> {
    board: S::Board,
    round: u32,
    phase: Phase,
    hash: u64,
}

/// The two-player game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TwoSeats;

/// A two-player Spokes position.
pub type Spokes = SpokesGame<TwoSeats>;

/// The outcomes of one resolution, with the number of boards it visited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution<B = Board> {
    /// The outcome moves, sorted.
    pub outcomes: Vec<Move<B>>,
    /// How many boards the resolution graph had.
    pub states: usize,
}

/// One key per node for each of the board's three sets (white, black,
/// doubles): a board's hash is the keys of the members of its sets, so the
/// change between two boards is the keys of the nodes where a set differs.
const SET_KEYS: [u64; 45 * 3] = zobrist_table(0x5b0e5);

/// The keys of the members of `set`, the `which`th set of a board.
fn set_keys(set: NodeSet, which: usize) -> u64 {
    set.iter()
        .fold(0, |h, n| h ^ SET_KEYS[which * 45 + n.index()])
}

fn round_key<B: SpokesBoard>(round: u32) -> u64 {
    splitmix64(B::ROUND_SEED ^ u64::from(round) << 8)
}

fn phase_key<B: SpokesBoard>(p: Phase) -> u64 {
    B::PHASE_KEYS[p as usize]
}

impl SpokesBoard for Board {
    const PHASE_KEYS: [u64; 3] = zobrist_table(0x5b0e6);
    const ROUND_SEED: u64 = 0x5b0e7;
    const DIAGRAM_WIDTH: usize = 1;

    fn stones_of(&self, c: Colour) -> u32 {
        Board::stones_of(self, c)
    }

    fn empty_nodes(&self) -> NodeSet {
        self.empty()
    }

    fn keys(&self) -> u64 {
        set_keys(self.white, 0) ^ set_keys(self.black, 1) ^ set_keys(self.doubles, 2)
    }

    fn delta(&self, b: &Board) -> u64 {
        set_keys(self.white ^ b.white, 0)
            ^ set_keys(self.black ^ b.black, 1)
            ^ set_keys(self.doubles ^ b.doubles, 2)
    }

    /// Two placements: a block where different colours meet on one node, a
    /// double where the same colour does; a placement alone puts just its
    /// stone on the board.
    fn place(&self, stones: &[Move]) -> Board {
        if let [Move::Place {
            colour: c1,
            node: n1,
        }, Move::Place {
            colour: c2,
            node: n2,
        }] = *stones
        {
            return movegen::place(self, (c1, n1), (c2, n2));
        }
        let mut board = *self;
        for &m in stones {
            if let Move::Place { colour, node } = m {
                *board.colour_mut(colour) |= node.bit();
            }
        }
        board
    }

    fn rest_error(&self) -> Result<(), ParseError> {
        let singles = self.all_singles();
        for u in singles.iter() {
            if let Some(v) = (ADJACENT[u.index()] & singles).iter().next() {
                return Err(ParseError::new(format!(
                    "round start not at rest: single stones on {u} and {v} are adjacent (add ' resolve' for a position awaiting resolution)"
                )));
            }
        }
        let mut steps = false;
        self.for_each_step(|_| steps = true);
        if steps {
            return Err(ParseError::new(
                "round start not at rest: a double can still move (add ' resolve' for a position awaiting resolution)",
            ));
        }
        Ok(())
    }
}

impl Seats for TwoSeats {
    type Board = Board;
    const ID: &'static str = "spokes";
    const INFO: GameInfo = GameInfo {
        name: "Spokes",
        sides: &["player 1", "player 2"],
        setup: None,
        ply_limit: 1000,
        score_unit: "centistones (100 a home stone)",
        bench: &[
            BenchCase {
                position: "w/bb2/5b1b/4b2w5b2/16 4 resolve",
                perft_depth: 2,
                search_depth: 2,
            },
            // Two midgame round starts of `positions/spokes.bench`.
            BenchCase {
                position: "1/2XX/1X1b4/1b3wX1w1w1X2b/16 9",
                perft_depth: 1,
                search_depth: 2,
            },
            BenchCase {
                position: "1/2w1/2w3b1/5w2X2w2b1/16 5",
                perft_depth: 1,
                search_depth: 2,
            },
        ],
    };
    const PLAYERS: usize = 2;
    const ANONYMOUS: bool = false;
    const PARTIAL_LISTINGS: bool = true;
    const HOME_COLOURS: &'static [&'static str] = &["#7a1f1f", "#1f4f7a"];
    const HOME_RADIUS: f64 = 3.0;

    fn homes() -> &'static [NodeSet] {
        &score::HOME
    }

    fn side_of(p: Player) -> Player {
        p
    }

    fn rest_end(b: &Board) -> Option<&'static str> {
        score::HALVES.rest_end(b)
    }

    fn outcome(b: &Board, reason: &'static str) -> Outcome {
        score::HALVES.outcome(b, reason)
    }
}

/// A resolver's work space and the outcomes of the last board it resolved,
/// so that asking again for the same node's moves (listing, then counting)
/// resolves once: Spokes' [`Game::Scratch`], one per thread.
pub struct Workspace<B: Steps = Board> {
    resolver: Resolver<B>,
    /// The board last resolved, and after how many boards its listing
    /// could end (`None`: all its outcomes are in `outcomes`).
    board: Option<(B, Option<usize>)>,
    outcomes: Vec<Resolved<B>>,
}

impl<B: Steps> Default for Workspace<B> {
    fn default() -> Self {
        Workspace {
            resolver: Resolver::default(),
            board: None,
            outcomes: Vec::new(),
        }
    }
}

impl<B: Steps> Workspace<B> {
    /// Whether all the outcomes of `board` are in `outcomes`.
    fn holds(&self, board: &B) -> bool {
        matches!(self.board, Some((b, None)) if b == *board)
    }
}

impl<S: Seats> SpokesGame<S> {
    /// The position with `board` at `round` and `phase`.
    pub fn from_parts(board: S::Board, round: u32, phase: Phase) -> Self {
        let mut s = SpokesGame {
            board,
            round,
            phase,
            hash: 0,
        };
        s.hash = s.hash_from_scratch();
        s
    }

    /// The board.
    pub fn board(&self) -> &S::Board {
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

    /// The player who resolves the current round: player
    /// ((round − 1) mod players) + 1, player 1 in odd rounds of the
    /// two-player game.
    pub fn resolver(&self) -> Player {
        Player::nth((self.round.wrapping_sub(1) % S::PLAYERS as u32) as usize)
    }

    /// The side of player `p`: the player, or its team.
    #[must_use]
    pub fn side_of(p: Player) -> Player {
        S::side_of(p)
    }

    /// The colours a player may place: those with at least one stone per
    /// player off the board, so that every player can always be served.
    pub fn placeable_colours(&self) -> impl Iterator<Item = Colour> + '_ {
        Colour::BOTH
            .into_iter()
            .filter(|&c| self.board.stones_of(c) + S::PLAYERS as u32 <= STONES_PER_COLOUR)
    }

    /// The resolution outcomes here, visiting at most `limit` boards; an
    /// error if more are reachable. Empty except at a resolution node.
    pub fn outcomes_limited(
        &self,
        limit: usize,
    ) -> Result<Resolution<S::Board>, StateLimitExceeded> {
        if self.phase != Phase::Resolution {
            return Ok(Resolution {
                outcomes: Vec::new(),
                states: 0,
            });
        }
        let mut found = Vec::new();
        let mut resolver = Resolver::new();
        resolver.outcomes(&self.board, limit, &mut found)?;
        let states = resolver.last_states;
        Ok(Resolution {
            outcomes: found.into_iter().map(Move::Outcome).collect(),
            states,
        })
    }

    /// The resolution outcomes under the default limit. Beyond it the
    /// placement is declared unresolvable: the only outcome is the loop
    /// removal applied to the board as placed (see the rules document).
    /// The thread's stop check ([`gamut_core::game::with_thread_stop`])
    /// can end the resolution part way: then there are none.
    fn resolved<'w>(&self, w: &'w mut Workspace<S::Board>) -> &'w [Resolved<S::Board>] {
        if self.resolved_within(w, &ListingBudget::THREAD) == Listing::Stopped {
            w.outcomes.clear();
        }
        &w.outcomes
    }

    /// The resolution outcomes within a search's budget, left in
    /// `w.outcomes` (see [`Resolver::outcomes_within`]); a complete or
    /// partial list is kept for the next request of the same board.
    fn resolved_within(&self, w: &mut Workspace<S::Board>, budget: &ListingBudget<'_>) -> Listing {
        match w.board {
            Some((b, None)) if b == self.board => return Listing::Complete,
            Some((b, Some(after))) if b == self.board && budget.partial_after == Some(after) => {
                return Listing::Partial
            }
            _ => {}
        }
        w.board = None;
        let listing = match w.resolver.outcomes_within(
            &self.board,
            DEFAULT_STATE_LIMIT,
            budget,
            &mut w.outcomes,
        ) {
            Ok(listing) => listing,
            Err(StateLimitExceeded { .. }) => {
                w.outcomes.clear();
                w.outcomes.push(Resolved {
                    board: loop_removal(&self.board),
                    looped: true,
                });
                Listing::Complete
            }
        };
        match listing {
            Listing::Complete => w.board = Some((self.board, None)),
            Listing::Partial => w.board = Some((self.board, budget.partial_after)),
            Listing::Stopped | Listing::GaveUp => {}
        }
        listing
    }

    /// The outcomes, or none if the resolution visits more boards than
    /// `budget.give_up_after` (a complete list is kept for the next
    /// request of the same board): the listing of seats without partial
    /// listings.
    fn resolved_or_given_up(
        &self,
        w: &mut Workspace<S::Board>,
        budget: &ListingBudget<'_>,
    ) -> Listing {
        let limit = budget.give_up_after.unwrap_or(DEFAULT_STATE_LIMIT);
        if limit < DEFAULT_STATE_LIMIT && !w.holds(&self.board) {
            if w.resolver
                .outcomes(&self.board, limit, &mut w.outcomes)
                .is_err()
            {
                w.board = None;
                return Listing::GaveUp;
            }
            w.board = Some((self.board, None));
            return Listing::Complete;
        }
        self.resolved(w);
        Listing::Complete
    }

    /// Every outcome move here with its short form (see [`short`]), in
    /// the order of `moves`; empty except at a resolution node.
    pub fn short_texts(&self) -> Vec<(Move<S::Board>, String)> {
        if self.phase != Phase::Resolution {
            return Vec::new();
        }
        let mut w = Workspace::default();
        let outcomes = self.resolved(&mut w);
        let texts = short::short_texts(&self.board, outcomes);
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
            Phase::Placement => S::rest_end(&self.board).or(
                if movegen::placeable_nodes(&self.board).is_empty()
                    || self.placeable_colours().next().is_none()
                {
                    Some("no placement")
                } else {
                    None
                },
            ),
        }
    }

    /// The resolution node after stones were placed, giving `board`.
    fn after_placement(&self, board: S::Board) -> Self {
        SpokesGame {
            board,
            round: self.round,
            phase: Phase::Resolution,
            hash: self.hash
                ^ self.board.delta(&board)
                ^ phase_key::<S::Board>(self.phase)
                ^ phase_key::<S::Board>(Phase::Resolution),
        }
    }
}

impl<S: Seats> Game for SpokesGame<S> {
    type Move = Move<S::Board>;
    type Chance = NoChance;
    type Simultaneous = Self;
    type Scratch = Workspace<S::Board>;
    const ID: &'static str = S::ID;
    const INFO: GameInfo = S::INFO;

    fn start() -> Self {
        Self::from_parts(S::Board::EMPTY, 1, Phase::Placement)
    }

    fn node(&self) -> NodeKind {
        match self.phase {
            Phase::Resolution => NodeKind::Decision(S::side_of(self.resolver())),
            _ if self.end_reason().is_some() => NodeKind::Terminal,
            _ => NodeKind::Simultaneous,
        }
    }

    fn perspective(&self) -> Player {
        match self.phase {
            Phase::Resolution => S::side_of(self.resolver()),
            _ => Player::FIRST,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end_reason()
            .map(|reason| S::outcome(&self.board, reason))
    }

    fn moves(&self, out: &mut Vec<Self::Move>) {
        self.moves_with(out, &mut Workspace::default());
    }

    fn move_count(&self) -> usize {
        self.move_count_with(&mut Workspace::default())
    }

    fn moves_with(&self, out: &mut Vec<Self::Move>, scratch: &mut Self::Scratch) {
        out.clear();
        if self.phase != Phase::Resolution {
            return;
        }
        out.extend(self.resolved(scratch).iter().map(|&r| Move::Outcome(r)));
    }

    /// The outcomes within `budget`: partial lists where the seats allow
    /// them ([`Seats::PARTIAL_LISTINGS`]), otherwise all of them or none.
    fn moves_within(
        &self,
        out: &mut Vec<Self::Move>,
        scratch: &mut Self::Scratch,
        budget: &ListingBudget<'_>,
    ) -> Listing {
        out.clear();
        if self.phase != Phase::Resolution {
            return Listing::Complete;
        }
        let listing = if S::PARTIAL_LISTINGS {
            self.resolved_within(scratch, budget)
        } else {
            self.resolved_or_given_up(scratch, budget)
        };
        if matches!(listing, Listing::Complete | Listing::Partial) {
            out.extend(scratch.outcomes.iter().map(|&r| Move::Outcome(r)));
        }
        listing
    }

    fn move_count_with(&self, scratch: &mut Self::Scratch) -> usize {
        if self.phase != Phase::Resolution {
            return 0;
        }
        self.resolved(scratch).len()
    }

    /// Plays a resolution outcome; a placement played alone puts just that
    /// stone on the board and leads to the resolution.
    fn play(&self, m: Self::Move) -> Self {
        match m {
            Move::Outcome(r) => {
                let round = self.round.saturating_add(1);
                let phase = if r.looped {
                    Phase::Loop
                } else {
                    Phase::Placement
                };
                SpokesGame {
                    board: r.board,
                    round,
                    phase,
                    hash: self.hash
                        ^ self.board.delta(&r.board)
                        ^ round_key::<S::Board>(self.round)
                        ^ round_key::<S::Board>(round)
                        ^ phase_key::<S::Board>(self.phase)
                        ^ phase_key::<S::Board>(phase),
                }
            }
            Move::Place { .. } => self.after_placement(self.board.place(&[m])),
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.keys() ^ round_key::<S::Board>(self.round) ^ phase_key::<S::Board>(self.phase)
    }
}

impl<S: Seats> Diagram for SpokesGame<S> {
    /// Fitted to 1,053 self-play games with the default network
    /// (`tools/winprob-fit.py`, docs/serve.md): 162.7, 95% 138 to 189.
    const SCORE_SCALE: f64 = 163.0;

    /// A readable diagram: each circle with its node names and contents,
    /// then the round, the phase and the stones left.
    fn diagram(&self) -> String {
        let b = &self.board;
        let mut s = text::board_rows(b, S::Board::DIAGRAM_WIDTH);
        let left = |c| STONES_PER_COLOUR - b.stones_of(c);
        let state = match self.node() {
            NodeKind::Decision(side) => {
                if S::INFO.sides.len() == S::PLAYERS {
                    format!("resolution by {}", S::INFO.side(side))
                } else {
                    format!(
                        "resolution by {} for {}",
                        self.resolver(),
                        S::INFO.side(side)
                    )
                }
            }
            NodeKind::Simultaneous => "placement".to_string(),
            _ => match self.outcome() {
                Some(o) => format!("game over: {}", o.describe(S::INFO.sides)),
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
    /// in its colour, node names and stones (blocks half white, half black;
    /// up to four stones on a node).
    fn svg(&self, opts: &gamut_core::svg::SvgOptions, before: Option<&Self>) -> String {
        let homes = svg::Homes {
            nodes: S::homes(),
            names: S::INFO.sides,
            colours: S::HOME_COLOURS,
            radius: S::HOME_RADIUS,
        };
        let left = |c| (STONES_PER_COLOUR - self.board.stones_of(c)) as usize;
        svg::svg(
            &self.board,
            &self.text(),
            before.map(|q| &q.board),
            opts,
            &homes,
            [left(Colour::White), left(Colour::Black)],
        )
    }

    /// Each outcome's short form, found among the outcomes listed once
    /// (those of `all` where the caller listed them).
    fn short_move_texts(&self, moves: &[Self::Move], all: &[Self::Move]) -> Vec<String> {
        let mut w = Workspace::default();
        let given: Vec<Resolved<S::Board>>;
        let outcomes: &[Resolved<S::Board>] = if self.phase != Phase::Resolution {
            &[]
        } else if all.is_empty() {
            self.resolved(&mut w)
        } else {
            given = all
                .iter()
                .filter_map(|m| match *m {
                    Move::Outcome(r) => Some(r),
                    Move::Place { .. } => None,
                })
                .collect();
            &given
        };
        moves
            .iter()
            .map(|&m| match m {
                Move::Outcome(r) if outcomes.contains(&r) => {
                    short::short_text(&self.board, outcomes, &r)
                }
                _ => self.move_text(m),
            })
            .collect()
    }

    fn move_changes(&self, m: Self::Move) -> Vec<(String, String)> {
        match m {
            Move::Outcome(r) => short::changed_nodes(&self.board, &r.board),
            Move::Place { .. } => Vec::new(),
        }
    }

    fn side_colours(&self) -> Vec<String> {
        S::HOME_COLOURS
            .iter()
            .take(S::INFO.sides.len())
            .map(|c| c.to_string())
            .collect()
    }

    fn move_squares(&self, m: Self::Move) -> Vec<String> {
        match m {
            Move::Place { node, .. } => vec![node.to_string()],
            Move::Outcome(_) => Vec::new(),
        }
    }
}

impl<S: Seats> Notation for SpokesGame<S> {
    fn parse(text: &str) -> Result<Self, ParseError> {
        let (board, round, phase) = text::parse_position(text)?;
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

    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_move_with(text, &mut Workspace::default())
    }

    /// Parses a placement (`wD12`) at a round start, or an outcome (a
    /// nodes field, then ` loop` for a loop, or the short form) at a
    /// resolution node, resolving the node in `scratch` (once for all the
    /// moves of a node).
    fn parse_move_with(
        &self,
        text: &str,
        scratch: &mut Self::Scratch,
    ) -> Result<Self::Move, ParseError> {
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

    fn move_text(&self, m: Self::Move) -> String {
        match m {
            Move::Place { colour, node } => format!("{}{}", colour.letter(), node),
            Move::Outcome(r) => text::outcome_text(&r),
        }
    }

    /// The short outcome form (see [`short`]) at a resolution node; a
    /// placement's text otherwise.
    fn short_move_text(&self, m: Self::Move) -> String {
        // One outcome named from one pass over the outcomes, not by naming
        // them all.
        Diagram::short_move_texts(self, &[m], &[]).swap_remove(0)
    }
}

/// A round's placement is simultaneous: every player chooses where to put
/// a stone of either colour, from the same choices.
impl<S: Seats> SimultaneousRules<SpokesGame<S>> for SpokesGame<S> {
    const PLAYERS: usize = S::PLAYERS;
    const ANONYMOUS: bool = S::ANONYMOUS;

    fn actions(pos: &Self, _player: Player, out: &mut Vec<Move<S::Board>>) {
        out.clear();
        if pos.node() != NodeKind::Simultaneous {
            return;
        }
        let nodes = movegen::placeable_nodes(&pos.board);
        for colour in pos.placeable_colours() {
            out.extend(nodes.iter().map(|node| Move::Place { colour, node }));
        }
    }

    fn side_of(player: Player) -> Player {
        S::side_of(player)
    }

    /// Both placements with two players (the first move alone if one is
    /// not a placement); with more, two placements alone put just those
    /// stones on the board.
    fn play_joint(pos: &Self, first: Move<S::Board>, second: Move<S::Board>) -> Self {
        if S::PLAYERS > 2 {
            return <Self as SimultaneousRules<Self>>::play_joint_all(pos, &[first, second]);
        }
        match (first, second) {
            (Move::Place { .. }, Move::Place { .. }) => {
                pos.after_placement(pos.board.place(&[first, second]))
            }
            _ => pos.play(first),
        }
    }

    /// Places every stone at once (see [`SpokesBoard::place`]).
    fn play_joint_all(pos: &Self, actions: &[Move<S::Board>]) -> Self {
        if S::PLAYERS == 2 {
            assert_eq!(actions.len(), 2, "{} has two players", S::ID);
            return <Self as SimultaneousRules<Self>>::play_joint(pos, actions[0], actions[1]);
        }
        assert_eq!(
            actions.len(),
            S::PLAYERS,
            "{} has {} players",
            S::ID,
            S::PLAYERS
        );
        pos.after_placement(pos.board.place(actions))
    }
}
