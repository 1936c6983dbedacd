//! Spokes for four players: `spokes4` (each for themselves) and
//! `spokes2v2` (players 1 and 2 against 3 and 4). Four placements at once,
//! up to four stones on a node (crowded nodes), resolvers rotating 1–4.
//!
//! The positions are the two-player game's [`SpokesGame`] with four seats
//! ([`FourSeats`]): a round is a simultaneous placement node where the four
//! players act and a decision node of the resolver (of the resolver's team
//! in `spokes2v2`) whose moves are the resolution outcomes. The nodes,
//! colours and push tables are the two-player game's; the board is this
//! module's.

pub mod board;
pub mod net;
pub mod resolve;

use crate::spokes::board::{Node, NodeSet};
use crate::spokes::resolve::at_rest;
use crate::spokes::score::{Sides, HALVES, QUARTERS};
use crate::spokes::tables::ADJACENT;
use crate::spokes::{Seats, SpokesBoard, SpokesGame};
use board::{Board, Cell};
use gamut_core::bits::zobrist_table;
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::{BenchCase, Game, GameInfo, Outcome, ParseError, Player};
use gamut_core::nnue::BuiltinNetwork;

pub use crate::spokes::movegen::STONES_PER_COLOUR;

/// A move: one player's placement, or a resolution outcome.
pub type Move = crate::spokes::Move<Board>;

/// The resolver's work space and last outcomes: the variants'
/// [`Game::Scratch`], one per thread.
pub type Workspace = crate::spokes::Workspace<Board>;

/// Four seats; `TEAMS`: in two teams (`spokes2v2`), otherwise each for
/// themselves (`spokes4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FourSeats<const TEAMS: bool>;

/// A four-player Spokes position; `TEAMS` is `spokes2v2`, otherwise
/// `spokes4`.
pub type SpokesMulti<const TEAMS: bool> = SpokesGame<FourSeats<TEAMS>>;

/// Four players, each for themselves.
pub type Spokes4 = SpokesMulti<false>;
/// Four players in two teams, 1+2 against 3+4.
pub type Spokes2v2 = SpokesMulti<true>;

const CELL_KEYS: [u64; 45 * 15] = zobrist_table(0x5b4e5);

fn cell_key(n: Node, c: Cell) -> u64 {
    if c == Cell::EMPTY {
        0
    } else {
        CELL_KEYS[n.index() * 15 + c.code()]
    }
}

impl SpokesBoard for Board {
    const PHASE_KEYS: [u64; 3] = zobrist_table(0x5b4e6);
    const ROUND_SEED: u64 = 0x5b4e7;
    const DIAGRAM_WIDTH: usize = 6;

    fn stones_of(&self, c: crate::spokes::board::Colour) -> u32 {
        Board::stones_of(self, c)
    }

    fn empty_nodes(&self) -> NodeSet {
        self.sets().empty
    }

    fn keys(&self) -> u64 {
        self.cells().fold(0, |h, (n, c)| h ^ cell_key(n, c))
    }

    fn delta(&self, b: &Board) -> u64 {
        let mut h = 0;
        for n in board::all_nodes() {
            let (x, y) = (self.get(n), b.get(n));
            if x != y {
                h ^= cell_key(n, x) ^ cell_key(n, y);
            }
        }
        h
    }

    /// On each node every white+black pair makes a block, the rest stay
    /// loose.
    fn place(&self, stones: &[Move]) -> Board {
        let mut board = *self;
        for &m in stones {
            if let Move::Place { colour, node } = m {
                let cell = board.get(node).with_stone(colour);
                board.set(node, cell.expect("at most four stones land on a node"));
            }
        }
        board
    }

    fn rest_error(&self) -> Result<(), ParseError> {
        if at_rest(self) {
            Ok(())
        } else {
            Err(ParseError::new(
                "round start not at rest: single stones are adjacent or a crowded node can still move (add ' resolve' for a position awaiting resolution)",
            ))
        }
    }
}

impl<const TEAMS: bool> Seats for FourSeats<TEAMS> {
    type Board = Board;
    const ID: &'static str = if TEAMS { "spokes2v2" } else { "spokes4" };
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
        score_unit: "centistones (100 a home stone)",
        bench: &[BenchCase {
            position: "[XX]/w1b1/5b1b/4b2w2K[Xw]4/16 5 resolve",
            perft_depth: 1,
            search_depth: 1,
        }],
    };
    const PLAYERS: usize = 4;
    const ANONYMOUS: bool = true;
    /// The variants' resolutions are not cut short: their searchers give
    /// up on long ones instead.
    const PARTIAL_LISTINGS: bool = false;
    const HOME_COLOURS: &'static [&'static str] = &HOME_COLOURS;
    const HOME_RADIUS: f64 = 5.0;

    fn homes() -> &'static [NodeSet] {
        homes(TEAMS)
    }

    fn side_of(p: Player) -> Player {
        if TEAMS {
            Player::nth(p.index() / 2)
        } else {
            p
        }
    }

    fn rest_end(b: &Board) -> Option<&'static str> {
        if TEAMS {
            HALVES.rest_end(b)
        } else {
            QUARTERS.rest_end(b)
        }
    }

    fn outcome(b: &Board, reason: &'static str) -> Outcome {
        if TEAMS {
            HALVES.outcome(b, reason)
        } else {
            QUARTERS.outcome(b, reason)
        }
    }
}

/// The home nodes of each side: the four players, or the two teams (whose
/// homes are the two-player game's).
#[must_use]
pub fn homes(teams: bool) -> &'static [NodeSet] {
    if teams {
        &HALVES.home
    } else {
        &QUARTERS.home
    }
}

/// The evaluation's terms in `mask` for side `me` of `sides`: its stones
/// on its home nodes and next to them, each less the best other side's.
fn leads<const N: usize>(sides: &Sides<N>, b: &Board, me: usize, mask: TermMask) -> i32 {
    let lead = |counts: [u32; N]| {
        let best_other = (0..N).filter(|&i| i != me).map(|i| counts[i]).max();
        counts[me] as i32 - best_other.unwrap_or(0) as i32
    };
    let mut v = 0;
    if mask.has(0) {
        v += HOME_WEIGHT * lead(sides.points(b));
    }
    if mask.has(1) {
        v += APPROACH_WEIGHT * lead(sides.approach_stones(b));
    }
    v
}

/// Every side's stones on its home nodes and on the nodes next to them,
/// for one side: its own less the best of the others'.
impl<const TEAMS: bool> Evaluate for SpokesMulti<TEAMS> {
    const TERMS: &'static [&'static str] = &["home", "approaches"];

    /// The variant's network, `spokes4.net` or `spokes2v2.net`, trained on
    /// `gamut datagen` of the variant (docs/nnue.md). A side's paranoid
    /// search evaluates with it by default, as it scores more than classic
    /// at equal depth and equal time (docs/results.md).
    const NETWORK: Option<BuiltinNetwork<Self>> = Some(BuiltinNetwork::new(
        if TEAMS {
            include_bytes!("spokes2v2.net")
        } else {
            include_bytes!("spokes4.net")
        },
        true,
    ));

    fn evaluate(&self, mask: TermMask) -> i32 {
        self.evaluate_for(self.perspective(), mask)
    }

    fn evaluate_for(&self, side: Player, mask: TermMask) -> i32 {
        let (me, b) = (side.index(), self.board());
        let v = if TEAMS {
            leads(&HALVES, b, me, mask)
        } else {
            leads(&QUARTERS, b, me, mask)
        };
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
        if !(around & self.board().sets().all_singles()).is_empty() {
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
