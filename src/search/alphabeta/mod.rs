//! One search thread: negamax alpha-beta with principal-variation search
//! over every kind of node. This module holds the thread's state, the
//! principal-variation search of a child and the dispatch by node kind;
//! each kind's search is in its own module:
//!
//! - [`decision`]: a player to move, with the transposition table, move
//!   ordering and the selective prunings and reductions;
//! - [`quiescence`]: the captures searched beyond the horizon;
//! - [`chance`]: expectimax with Star1 pruning;
//! - [`simultaneous`]: the matrix game of the joint actions, solved by the
//!   double oracle.

mod chance;
mod decision;
mod quiescence;
mod simultaneous;

pub use simultaneous::matrix_start;

use super::nnue::Evaluator;
use super::ordering::Heuristics;
use super::params::{self, Tunables, LMR_TABLE};
use super::score::{self, outcome_score};
use super::tt::{Bound, Entry};
use super::{Config, Shared};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{Listing, ListingBudget, NodeKind, Player};
use rustc_hash::FxHashMap;
use simultaneous::NarrowKey;
use std::sync::atomic::Ordering::Relaxed;

/// The deepest a line may go (main search plus quiescence).
pub const MAX_PLY: usize = 128;

/// The score a table entry settles for a node searched `depth` deep with
/// window (`alpha`, `beta`) `ply` plies below the root: an exact score, or
/// a bound outside the window, from a search at least as deep.
fn cutoff(e: Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if i32::from(e.depth) < depth {
        return None;
    }
    let s = score::from_tt(e.score, ply);
    let settled = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    settled.then_some(s)
}

/// Slots of a worker's cache of static values (a power of two).
const EVAL_CACHE_SLOTS: usize = 1 << 15;

/// A search thread's own state; the table and the clock are shared.
pub struct Worker<'a, G: Evaluate> {
    shared: &'a Shared<'a>,
    config: &'a Config,
    heuristics: Heuristics<G::Move>,
    scored: Vec<Vec<(i64, u32, G::Move)>>,
    scratch: Vec<G::Move>,
    /// The game's work space for listing moves.
    game_scratch: G::Scratch,
    outcomes: Vec<Vec<G::Move>>,
    chance_values: Vec<Vec<(f64, i32)>>,
    actions: Vec<[Vec<G::Move>; 2]>,
    /// Per ply, the joint action that last decided a simultaneous node
    /// there: where a sibling's double oracle starts when the table has
    /// nothing for it.
    matrix_killers: Vec<Option<(G::Move, G::Move)>>,
    /// Each player's actions at the root's matrix game, by rank (0 is the
    /// best against the other's strategy) after the last completed
    /// iteration: the order in which [`narrow`](Self::narrow) keeps
    /// actions below the root.
    root_ranks: [FxHashMap<G::Move, u32>; 2],
    /// [`narrow`](Self::narrow)'s sort keys (rank, history, hint, index),
    /// kept between nodes.
    narrow_keys: Vec<NarrowKey>,
    pv: Vec<Vec<G::Move>>,
    /// The search's tunable parameters, copied from the configuration.
    tunables: Tunables,
    /// The late-move reduction per depth and move number, from
    /// `tunables`.
    lmr: Vec<[u8; LMR_TABLE]>,
    /// Per ply, whether the node there was reached by a null move (no
    /// second null move follows one).
    after_null: Vec<bool>,
    /// Whether a null-move cutoff is being verified (null moves off below).
    verifying: bool,
    /// Static values of recently evaluated positions, by hash: a leaf
    /// reached again by another move order is not evaluated again.
    eval_cache: Vec<(u64, i32)>,
    /// The network's accumulators of the last position evaluated.
    evaluator: Evaluator,
    /// The depth of the root iteration this worker is in (0 outside
    /// iterative deepening at a decision root); it ends as stopped once
    /// another thread completes that depth.
    iteration: u32,
    /// Nodes this worker visited since it last reported to `shared`.
    pending_nodes: u64,
    /// Nodes this worker visited in all.
    pub nodes: u64,
    /// Entries of the matrix games solved so far, and how many of them the
    /// double oracle had to search.
    pub matrix_entries: u64,
    /// See `matrix_entries`.
    pub matrix_evaluated: u64,
}

impl<'a, G: Evaluate> Worker<'a, G> {
    /// A worker on the shared table and clock.
    pub fn new(shared: &'a Shared<'a>, config: &'a Config) -> Self {
        Worker {
            shared,
            config,
            heuristics: Heuristics::new(),
            scored: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scratch: Vec::new(),
            game_scratch: G::Scratch::default(),
            outcomes: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            chance_values: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            actions: (0..=MAX_PLY).map(|_| Default::default()).collect(),
            matrix_killers: vec![None; MAX_PLY + 1],
            root_ranks: Default::default(),
            narrow_keys: Vec::new(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tunables: config.tunables,
            lmr: config.tunables.lmr_table(),
            after_null: vec![false; MAX_PLY + 2],
            verifying: false,
            eval_cache: vec![(0, 0); EVAL_CACHE_SLOTS],
            evaluator: Evaluator::default(),
            iteration: 0,
            pending_nodes: 0,
            nodes: 0,
            matrix_entries: 0,
            matrix_evaluated: 0,
        }
    }

    /// The table, clock and limits this worker shares.
    pub fn shared(&self) -> &'a Shared<'a> {
        self.shared
    }

    /// How this worker searches.
    pub fn config(&self) -> &'a Config {
        self.config
    }

    /// The principal variation below the root move searched last.
    pub fn child_pv(&self) -> impl Iterator<Item = G::Move> + '_ {
        self.pv[1].iter().copied()
    }

    /// The value for `me` of `child`, a child of the root, searched `depth`
    /// plies deep by principal-variation search (see [`Worker::pvs`]).
    pub fn root_child(
        &mut self,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        me: Player,
        first: bool,
    ) -> i32 {
        self.pvs(child, depth, alpha, beta, 1, me, first)
    }

    /// Whether the search has been told to stop, or the iteration this
    /// worker is in was completed by another thread.
    pub fn stopped(&self) -> bool {
        self.shared.stopped_at(self.iteration)
    }

    /// Starts an iteration at `depth` at a decision root; see
    /// [`stopped`](Self::stopped).
    pub fn begin_iteration(&mut self, depth: u32) {
        self.iteration = depth;
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.pending_nodes += 1;
        // Often enough for games whose nodes are costly (a Spokes node may
        // resolve a hundred boards) to stop within a few milliseconds.
        if self.pending_nodes >= params::NODES_PER_CHECK {
            self.flush_nodes();
        }
    }

    /// Adds this worker's uncounted nodes to the shared total and checks
    /// the limits.
    pub fn flush_nodes(&mut self) {
        let total = self.shared.nodes.fetch_add(self.pending_nodes, Relaxed) + self.pending_nodes;
        self.pending_nodes = 0;
        self.shared.check_limits(total);
    }

    /// The value of `child` for `me`, searched with window (`alpha`, `beta`)
    /// from `me`'s point of view.
    fn child_value(
        &mut self,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        me: Player,
    ) -> i32 {
        if child.perspective() == me {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    /// Principal-variation search of one child: the first move with the
    /// full window; a later move with a null window first, searched again
    /// with the full window only if it lands inside it.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        me: Player,
        first: bool,
    ) -> i32 {
        self.reduced_pvs(child, depth, 0, alpha, beta, ply, me, first)
    }

    /// [`Worker::pvs`] where a later move is first searched `reduction`
    /// plies less deep with a null window; one that beats alpha there is
    /// searched again at full depth.
    #[allow(clippy::too_many_arguments)]
    fn reduced_pvs(
        &mut self,
        child: &G,
        depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        me: Player,
        first: bool,
    ) -> i32 {
        if first {
            return self.child_value(child, depth, alpha, beta, ply, me);
        }
        if reduction > 0 {
            let v = self.child_value(child, depth - reduction, alpha, alpha + 1, ply, me);
            if v <= alpha || self.stopped() {
                return v;
            }
        }
        let v = self.child_value(child, depth, alpha, alpha + 1, ply, me);
        if v > alpha && v < beta && !self.stopped() {
            self.child_value(child, depth, alpha, beta, ply, me)
        } else {
            v
        }
    }

    /// The value of `pos` for `pos.perspective()`, searched `depth` plies
    /// deep (decision plies; chance and simultaneous nodes use none) with
    /// window (`alpha`, `beta`), `ply` plies below the root.
    pub fn negamax(&mut self, pos: &G, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        self.pv[ply].clear();
        if self.stopped() {
            return 0;
        }
        match pos.node() {
            NodeKind::Terminal => {
                let o = pos.outcome().expect("a terminal position has an outcome");
                outcome_score(&o, pos.perspective(), ply)
            }
            _ if ply >= MAX_PLY => self.evaluate(pos),
            NodeKind::Chance => self.chance(pos, depth, alpha, beta, ply),
            // A round of secret choices at the horizon is valued statically:
            // solving its matrix game would search a whole round more.
            NodeKind::Simultaneous if depth <= 0 => self.evaluate(pos),
            NodeKind::Simultaneous => self.simultaneous(pos, depth, alpha, beta, ply),
            NodeKind::Decision(me) => {
                if depth <= 0 {
                    self.quiescence(pos, alpha, beta, ply, me)
                } else {
                    self.decision(pos, depth, alpha, beta, ply, me)
                }
            }
        }
    }

    /// Lists the moves of `pos` into `out` within the search's budget:
    /// stopped with the search, and below the root, where
    /// [`Selective::partial`](params::Selective::partial) allows, partial
    /// or given up (a leaf).
    fn list_moves(&mut self, pos: &G, out: &mut Vec<G::Move>, ply: usize) -> Listing {
        let shared = self.shared;
        let iteration = self.iteration;
        let stop = || {
            shared.check_limits(shared.nodes());
            shared.stopped_at(iteration)
        };
        let selective = self.config.selective.partial && ply > 0;
        let budget = ListingBudget {
            partial_after: selective.then_some(params::PARTIAL_LISTING_WORK),
            give_up_after: selective.then_some(params::GIVE_UP_LISTING_WORK),
            stop: &stop,
        };
        pos.moves_within(out, &mut self.game_scratch, &budget)
    }

    /// The static value of `pos` by the configured evaluation.
    pub fn evaluate(&mut self, pos: &G) -> i32 {
        self.config
            .eval
            .value(pos, self.config.terms, &mut self.evaluator)
    }

    /// The static value of decision node `pos`, from the cache when it
    /// holds `pos`'s hash. A slot holding hash 0 counts as empty (a
    /// position with hash 0 is evaluated every time).
    fn static_eval(&mut self, pos: &G) -> i32 {
        let key = pos.hash();
        let index = key as usize & (EVAL_CACHE_SLOTS - 1);
        let slot = self.eval_cache[index];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let v = self.evaluate(pos);
        self.eval_cache[index] = (key, v);
        v
    }
}
