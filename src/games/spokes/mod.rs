//! Spokes (Christopher St. Clair): two players place stones in secret on a
//! polar board; same colours push, opposite colours pull, and the resolver
//! of the round chooses how it all comes to rest.
//!
//! A round is two nodes of the game tree: a simultaneous placement node and
//! a decision node of the resolver whose moves are the resolution outcomes
//! (see `docs/rules/spokes.md`).

pub mod board;
pub mod eval;
pub mod movegen;
pub mod multi;
pub mod resolve;
pub mod score;
pub mod short;
mod svg;
pub mod tables;
pub mod text;

use crate::bits::{splitmix64, zobrist_table};
use crate::game::{
    BenchCase, Diagram, Game, GameInfo, Listing, ListingBudget, NoChance, NodeKind, Notation,
    Outcome, ParseError, Player, SimultaneousRules,
};
use board::{Board, Colour, Node};
pub use multi::{Spokes2v2, Spokes4};
use resolve::{loop_removal, Resolved, Resolver, StateLimitExceeded, DEFAULT_STATE_LIMIT};

/// Which part of a round a position is at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Round start: both players place (or the game is over).
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

/// A Spokes position: the board, the round, and the phase of the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spokes {
    board: Board,
    round: u32,
    phase: Phase,
    hash: u64,
}

/// The outcomes of one resolution, with the number of boards it visited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The outcome moves, sorted.
    pub outcomes: Vec<Move>,
    /// How many boards the resolution graph had.
    pub states: usize,
}

/// One key per node for each of the board's three sets (white, black,
/// doubles): a board's hash is the keys of the members of its sets, so the
/// change between two boards is the keys of the nodes where a set differs.
const SET_KEYS: [u64; 45 * 3] = zobrist_table(0x5b0e5);
const PHASE_KEYS: [u64; 3] = zobrist_table(0x5b0e6);

/// The keys of the members of `set`, the `which`th set of a board.
fn set_keys(set: board::NodeSet, which: usize) -> u64 {
    set.iter()
        .fold(0, |h, n| h ^ SET_KEYS[which * 45 + n.index()])
}

fn round_key(round: u32) -> u64 {
    splitmix64(0x5b0e7 ^ u64::from(round) << 8)
}

fn phase_key(p: Phase) -> u64 {
    PHASE_KEYS[p as usize]
}

/// The hash change from board `a` to board `b`.
fn board_delta(a: &Board, b: &Board) -> u64 {
    set_keys(a.white ^ b.white, 0)
        ^ set_keys(a.black ^ b.black, 1)
        ^ set_keys(a.doubles ^ b.doubles, 2)
}

/// A resolver's work space and the outcomes of the last board it resolved,
/// so that asking again for the same node's moves (listing, then counting)
/// resolves once: Spokes' [`Game::Scratch`], one per thread.
#[derive(Default)]
pub struct Workspace {
    resolver: Resolver,
    /// The board last resolved, and after how many boards its listing
    /// could end (`None`: all its outcomes are in `outcomes`).
    board: Option<(Board, Option<usize>)>,
    outcomes: Vec<Resolved>,
}

impl Spokes {
    /// The position with `board` at `round` and `phase`.
    pub fn from_parts(board: Board, round: u32, phase: Phase) -> Spokes {
        let mut s = Spokes {
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

    /// The resolver of the current round: player 1 in odd rounds.
    pub fn resolver(&self) -> Player {
        if self.round % 2 == 1 {
            Player::FIRST
        } else {
            Player::SECOND
        }
    }

    /// The resolution outcomes here, visiting at most `limit` boards; an
    /// error if more are reachable. Empty except at a resolution node.
    pub fn outcomes_limited(&self, limit: usize) -> Result<Resolution, StateLimitExceeded> {
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
    fn resolved<'w>(&self, w: &'w mut Workspace) -> &'w [Resolved] {
        self.resolved_within(w, &ListingBudget::ALL);
        &w.outcomes
    }

    /// The resolution outcomes within a search's budget, left in
    /// `w.outcomes` (see [`Resolver::outcomes_within`]); a complete or
    /// partial list is kept for the next request of the same board.
    fn resolved_within(&self, w: &mut Workspace, budget: &ListingBudget<'_>) -> Listing {
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

    /// Every outcome move here with its short form (see [`short`]), in
    /// the order of `moves`; empty except at a resolution node.
    pub fn short_texts(&self) -> Vec<(Move, String)> {
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
            Phase::Placement => {
                score::HALVES
                    .rest_end(&self.board)
                    .or(if movegen::can_place(&self.board) {
                        None
                    } else {
                        Some("no placement")
                    })
            }
        }
    }
}

impl Game for Spokes {
    type Move = Move;
    type Chance = NoChance;
    type Simultaneous = Self;
    type Scratch = Workspace;
    const ID: &'static str = "spokes";
    /// Two stones on home nodes.
    const SCORE_SCALE: f64 = 2.0;

    const INFO: GameInfo = GameInfo {
        name: "Spokes",
        sides: &["player 1", "player 2"],
        setup: None,
        ply_limit: 1000,
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

    fn start() -> Self {
        Spokes::from_parts(Board::EMPTY, 1, Phase::Placement)
    }

    fn node(&self) -> NodeKind {
        match self.phase {
            Phase::Resolution => NodeKind::Decision(self.resolver()),
            _ if self.end_reason().is_some() => NodeKind::Terminal,
            _ => NodeKind::Simultaneous,
        }
    }

    fn perspective(&self) -> Player {
        match self.phase {
            Phase::Resolution => self.resolver(),
            _ => Player::FIRST,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end_reason()
            .map(|reason| score::HALVES.outcome(&self.board, reason))
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
        let listing = self.resolved_within(scratch, budget);
        if matches!(listing, Listing::Complete | Listing::Partial) {
            out.extend(scratch.outcomes.iter().map(|&r| Move::Outcome(r)));
        }
        listing
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
                Spokes {
                    board: r.board,
                    round,
                    phase,
                    hash: self.hash
                        ^ board_delta(&self.board, &r.board)
                        ^ round_key(self.round)
                        ^ round_key(round)
                        ^ phase_key(self.phase)
                        ^ phase_key(phase),
                }
            }
            Move::Place { colour, node } => {
                let mut board = self.board;
                *board.colour_mut(colour) |= node.bit();
                self.after_placement(board)
            }
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let b = &self.board;
        set_keys(b.white, 0)
            ^ set_keys(b.black, 1)
            ^ set_keys(b.doubles, 2)
            ^ round_key(self.round)
            ^ phase_key(self.phase)
    }
}

impl Diagram for Spokes {
    fn diagram(&self) -> String {
        text::diagram(self)
    }

    /// An SVG picture of the board: circles, spokes, node names and stones
    /// (blocks half white, half black; doubles ringed twice).
    fn svg(&self, opts: &crate::svg::SvgOptions, before: Option<&Self>) -> String {
        let homes = svg::Homes {
            nodes: &score::HOME,
            colours: &["#7a1f1f", "#7a1f1f"],
            radius: 3.0,
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

impl Notation for Spokes {
    fn parse(text: &str) -> Result<Self, ParseError> {
        text::parse_position(text)
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
    /// resolution node, resolving the node in `scratch` (once for all the
    /// moves of a node).
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

    /// The short outcome form (see [`short`]) at a resolution node; a
    /// placement's text otherwise.
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

/// A round's placement is simultaneous: both players choose where to put
/// a stone of either colour.
impl SimultaneousRules<Spokes> for Spokes {
    fn actions(pos: &Spokes, _player: Player, out: &mut Vec<Move>) {
        out.clear();
        if pos.node() != NodeKind::Simultaneous {
            return;
        }
        let nodes = movegen::placeable_nodes(&pos.board);
        for colour in movegen::placeable_colours(&pos.board) {
            out.extend(nodes.iter().map(|node| Move::Place { colour, node }));
        }
    }

    fn play_joint(pos: &Spokes, first: Move, second: Move) -> Spokes {
        match (first, second) {
            (
                Move::Place {
                    colour: c1,
                    node: n1,
                },
                Move::Place {
                    colour: c2,
                    node: n2,
                },
            ) => pos.after_placement(movegen::place(&pos.board, (c1, n1), (c2, n2))),
            _ => pos.play(first),
        }
    }
}

impl Spokes {
    /// The resolution node after stones were placed, giving `board`.
    fn after_placement(&self, board: Board) -> Spokes {
        Spokes {
            board,
            round: self.round,
            phase: Phase::Resolution,
            hash: self.hash
                ^ board_delta(&self.board, &board)
                ^ phase_key(self.phase)
                ^ phase_key(Phase::Resolution),
        }
    }
}
