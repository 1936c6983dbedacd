//! The generic searcher, with one entry point: [`run`] searches any
//! position within [`Limits`] and reports each completed iteration to an
//! observer, whatever the kind of the root:
//!
//! - a decision root by iterative deepening over negamax alpha-beta
//!   ([`alphabeta`]) with a shared transposition table ([`tt`]), move
//!   ordering ([`ordering`]) and two ways to use several threads (Lazy SMP
//!   and root splitting), in [`root`];
//! - a chance root (a die to roll) by deepening every outcome's decision
//!   together and averaging their values (see [`score::chance_value`]);
//! - a simultaneous root by solving the matrix game of the joint actions
//!   ([`matrix`]) at each depth.
//!
//! [`search`] and [`search_simultaneous`] are typed views of [`run`] for
//! callers that know the kind of their root.

pub mod alphabeta;
pub mod clock;
pub mod draw;
pub mod evaluation;
pub mod joint_root;
pub mod matrix;
pub mod mcts;
pub mod nnue;
pub mod options;
pub mod ordering;
pub mod params;
pub mod root;
pub mod score;
pub mod sides;
pub mod sides_analysis;
pub mod tt;

pub use clock::Clock;
pub use evaluation::{Eval, Evaluation};
use gamut_core::evaluate::{Evaluate, TermMask};
use gamut_core::game::{NodeKind, NodeRules, Outcome};
use gamut_core::platform::{self, Instant};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;
pub use tt::{Table, TableAllocError};

/// When to stop: whichever limit is reached first. With none, the search
/// runs until it is interrupted (or reaches the deepest ply it can).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration to complete.
    pub depth: Option<u32>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Nodes over all threads.
    pub nodes: Option<u64>,
    /// The side to move's game clock: the search spends a soft budget of
    /// it (no new iteration after) with a hard limit ([`clock::Budget`]).
    pub clock: Option<Clock>,
}

/// How several threads share the work.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parallel {
    /// Every thread searches the whole tree, sharing the table; the
    /// deepest iteration any thread completes counts (see
    /// `root::deepen_decision`).
    #[value(name = "lazysmp")]
    LazySmp,
    /// The root's first move is searched alone, then the other root moves
    /// are spread over the threads with the window it set.
    #[value(name = "rootsplit")]
    RootSplit,
}

/// How to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Threads to search with.
    pub threads: usize,
    /// Which evaluation terms are on.
    pub terms: TermMask,
    /// Which ordering heuristics are on.
    pub ordering: ordering::Ordering,
    /// Whether to extend leaves with captures (the game's hinted moves).
    pub quiescence: bool,
    /// Whether iterations start with a narrow window around the last score.
    pub aspiration: bool,
    /// Whether chance nodes prune with Star1 (else plain expectimax).
    pub star1: bool,
    /// How threads share the work when `threads` > 1.
    pub parallel: Parallel,
    /// Whether simultaneous nodes search every joint action (the full
    /// matrix game) instead of the double oracle's few, within a window.
    pub full_matrix: bool,
    /// Which selective (unsound) prunings and reductions are on.
    pub selective: params::Selective,
    /// The static evaluation: classic terms or a network of the game's.
    pub eval: Evaluation,
    /// How many of the best root moves each iteration searches fully and
    /// reports ([`Iteration::lines`]): MultiPV. Only decision roots have
    /// several lines; a chance or simultaneous root reports its own result
    /// whatever this is. 1 searches exactly as without MultiPV.
    pub multipv: usize,
    /// With several lines: list only the moves scoring at most this far
    /// below the best, each line after the first searched with its window's
    /// lower end there, so that moves below it are refuted rather than
    /// scored (none: every line asked for, each scored fully).
    pub multipv_margin: Option<u32>,
    /// The search's tunable parameters (margins, reductions, windows).
    pub tunables: params::Tunables,
}

impl Config {
    /// The default configuration for game `G` on `threads` threads, with
    /// the game's default evaluation (its built-in network, parsed here, if
    /// it plays one by default).
    #[must_use]
    pub fn for_game<G: Evaluate>(threads: usize) -> Config {
        Config::new::<G>(threads, Evaluation::default_for::<G>())
    }

    /// Game `G`'s default configuration on `threads` threads with the
    /// evaluation `eval`, which a caller that chooses its own evaluation
    /// hands over rather than having the default one parsed and dropped.
    #[must_use]
    pub fn new<G: Evaluate>(threads: usize, eval: Evaluation) -> Config {
        let (selective, tunables) = params::game_defaults::<G>();
        Config {
            threads: threads.max(1),
            terms: TermMask::ALL,
            ordering: ordering::Ordering::default(),
            quiescence: G::QUIESCENCE,
            aspiration: true,
            star1: true,
            parallel: Parallel::LazySmp,
            full_matrix: false,
            selective,
            eval,
            multipv: params::DEFAULT_MULTIPV,
            multipv_margin: None,
            tunables,
        }
    }

    /// The static value of `pos` by this configuration's evaluation, for
    /// one position outside a search (a search thread keeps its network's
    /// accumulators between positions).
    pub fn evaluate<G: Evaluate>(&self, pos: &G) -> i32 {
        self.eval.value_once(pos, self.terms)
    }

    /// This configuration with every unsound pruning and reduction off, so
    /// that a depth-limited search returns the minimax (expectimax) value.
    #[must_use]
    pub fn exact(self) -> Config {
        Config {
            selective: params::Selective::NONE,
            ..self
        }
    }
}

/// What every search thread shares: the table, the stop flag, the node count
/// and the limits.
pub struct Shared<'t> {
    tt: &'t Table,
    stop: AtomicBool,
    /// The deepest iteration any thread has completed: a thread still in
    /// an iteration at this depth or shallower abandons it.
    completed: AtomicU32,
    interrupt: Option<&'t AtomicBool>,
    nodes: AtomicU64,
    start: Instant,
    time: Option<Duration>,
    /// Under a clock: start no new iteration after this ...
    soft: Option<Duration>,
    /// ... scaled by this, per mille, as the main thread's time
    /// management decides ([`root::TimeManager`]).
    soft_scale: AtomicU32,
    max_nodes: Option<u64>,
}

impl<'t> Shared<'t> {
    fn new(tt: &'t Table, limits: &Limits, interrupt: Option<&'t AtomicBool>) -> Self {
        let budget = limits.clock.map(|c| c.budget());
        Shared {
            tt,
            stop: AtomicBool::new(false),
            completed: AtomicU32::new(0),
            interrupt,
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            time: min_of(limits.time, budget.map(|b| b.hard)),
            soft: budget.map(|b| b.soft),
            soft_scale: AtomicU32::new(1000),
            max_nodes: limits.nodes,
        }
    }

    /// Raises the stop flag if `nodes` or the elapsed time passed a limit,
    /// or the search was interrupted from outside.
    fn check_limits(&self, nodes: u64) {
        if self.max_nodes.is_some_and(|m| nodes >= m)
            || self.time.is_some_and(|t| self.start.elapsed() >= t)
            || self.interrupt.is_some_and(|i| i.load(Relaxed))
        {
            self.stop.store(true, Relaxed);
        }
    }

    /// Whether the soft budget of a clock is spent: iterative deepening
    /// starts no new iteration then.
    fn past_soft_budget(&self) -> bool {
        let scale = f64::from(self.soft_scale.load(Relaxed)) / 1000.0;
        self.soft
            .is_some_and(|t| self.start.elapsed() >= t.mul_f64(scale))
    }

    /// Scales the soft budget of a clock by `scale` (from the budget the
    /// clock gave; the hard limit is unchanged).
    fn scale_soft_budget(&self, scale: f64) {
        self.soft_scale
            .store((scale * 1000.0).round() as u32, Relaxed);
    }

    /// Whether the search has been told to stop.
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Whether an iteration at `depth` (0: not an iteration of a decision
    /// root) should end: the search was stopped, or another thread has
    /// completed that depth already.
    fn stopped_at(&self, depth: u32) -> bool {
        self.stopped() || (depth > 0 && self.completed.load(Relaxed) >= depth)
    }

    /// Nodes so far over all threads.
    fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// The smaller of two optional limits.
fn min_of(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// One completed iteration at a decision root.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M> {
    /// The depth completed.
    pub depth: u32,
    /// The score for the side to move.
    pub score: i32,
    /// Nodes so far, over all threads.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// Per mille of the table written in this search.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<M>,
    /// The best lines, best first, as many as [`Config::multipv`] asks
    /// (fewer if the root has fewer moves): line `k` (rank `k + 1`) is the
    /// best line whose first move is not that of an earlier line. The
    /// first is `score` and `pv`; all were searched to `depth`.
    pub lines: Vec<Line<M>>,
}

/// One of the best lines of an iteration at a decision root (MultiPV).
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// Its score for the side to move.
    pub score: i32,
    /// Its moves, from the root move on.
    pub pv: Vec<M>,
}

/// The result of a search at a decision root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// Its score for the side to move.
    pub score: i32,
    /// The last depth completed (0 if none was).
    pub depth: u32,
    /// Nodes over all threads.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
}

/// One chance outcome of a chance root with the best plan after it.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomePlan<M> {
    /// The outcome (a die class).
    pub outcome: M,
    /// Its probability.
    pub probability: f64,
    /// Its value for the player at the chance root.
    pub score: i32,
    /// The principal variation after the outcome (empty when the outcome
    /// ends the game).
    pub pv: Vec<M>,
}

/// One completed iteration at a chance root: every outcome searched to the
/// same depth, and their expected value.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceIteration<M> {
    /// The depth completed (decision plies after the outcome).
    pub depth: u32,
    /// The expected value for the player at the chance root, in the same
    /// unit as decision scores (see [`score::chance_value`]).
    pub expected: i32,
    /// Nodes so far, over all threads.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// Each outcome with its probability, value and plan.
    pub outcomes: Vec<OutcomePlan<M>>,
}

/// The result of searching a simultaneous node: the matrix game's value and
/// both players' optimal mixed strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct MixedResult<M> {
    /// The value for the first player.
    pub value: f64,
    /// The last depth completed (0 if none was).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// Entries of all matrix games solved (at the root and below).
    pub entries: u64,
    /// How many of those entries the double oracle searched.
    pub evaluated: u64,
    /// Each player's actions with their probabilities, most likely first;
    /// actions of probability zero are left out.
    pub strategies: [Vec<(M, f64)>; 2],
}

/// A completed iteration, as the observer of [`run`] receives it.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a, M> {
    /// At a decision root.
    Decision(&'a Iteration<M>),
    /// At a chance root.
    Chance(&'a ChanceIteration<M>),
    /// At a simultaneous root.
    Simultaneous(&'a MixedResult<M>),
}

/// What a search found, by the kind of its root.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict<M> {
    /// The game is over at the root: nothing to search.
    Over(Outcome),
    /// A decision root: the move to play.
    Decision(SearchResult<M>),
    /// A chance root: the plan for every outcome (the last completed
    /// iteration, or depth 0 with each outcome's first move if none was).
    Chance(ChanceIteration<M>),
    /// A simultaneous root: both players' mixed strategies.
    Simultaneous(MixedResult<M>),
    /// A decision root whose moves were not listed: the thread's stop check
    /// ([`gamut_core::game::with_thread_stop`]) ended the listing first
    /// (only a Spokes resolution is long enough to be stopped).
    Stopped,
}

/// Searches `pos` within `limits`, calling `observe` after every completed
/// iteration, until a limit is reached, the result is proven, or
/// `interrupt` (if given) becomes true; the search then ends within about a
/// millisecond and returns the best it knows. This is the one entry point
/// of the searcher: every command and engine goes through it.
pub fn run<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    interrupt: Option<&AtomicBool>,
    observe: &mut dyn FnMut(Progress<'_, G::Move>),
) -> Verdict<G::Move> {
    // The threads this build can start (one in a browser).
    let clamped;
    let config = if platform::threads(config.threads) == config.threads {
        config
    } else {
        clamped = Config {
            threads: platform::threads(config.threads),
            ..config.clone()
        };
        &clamped
    };
    tt.new_search();
    let shared = Shared::new(tt, limits, interrupt);
    match pos.node() {
        NodeKind::Terminal => {
            Verdict::Over(pos.outcome().expect("a terminal position has an outcome"))
        }
        NodeKind::Decision(_) => {
            let mut report = |it: &Iteration<G::Move>| observe(Progress::Decision(it));
            root::decision(pos, limits, config, &shared, &mut report)
                .map_or(Verdict::Stopped, Verdict::Decision)
        }
        NodeKind::Chance => {
            let mut report = |it: &ChanceIteration<G::Move>| observe(Progress::Chance(it));
            Verdict::Chance(root::chance(pos, limits, config, &shared, &mut report))
        }
        NodeKind::Simultaneous => {
            let mut report = |r: &MixedResult<G::Move>| observe(Progress::Simultaneous(r));
            Verdict::Simultaneous(simultaneous_root(pos, limits, config, &shared, &mut report))
        }
    }
}

/// [`run`] at a decision root, reporting each iteration. Panics if `pos` is
/// not a decision node with at least one move (callers check).
pub fn search<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    mut report: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let mut observe = |p: Progress<'_, G::Move>| {
        if let Progress::Decision(it) = p {
            report(it)
        }
    };
    match run(pos, limits, config, tt, None, &mut observe) {
        Verdict::Decision(r) => r,
        _ => panic!("search needs a decision node"),
    }
}

/// [`run`] at a simultaneous root, reporting each depth. Panics if `pos` is
/// not a simultaneous node with actions for both players.
pub fn search_simultaneous<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    mut report: impl FnMut(&MixedResult<G::Move>),
) -> MixedResult<G::Move> {
    let mut observe = |p: Progress<'_, G::Move>| {
        if let Progress::Simultaneous(r) = p {
            report(r)
        }
    };
    match run(pos, limits, config, tt, None, &mut observe) {
        Verdict::Simultaneous(r) => r,
        _ => panic!("search_simultaneous needs a simultaneous node"),
    }
}

/// Iterative deepening at a simultaneous root: at each depth every joint
/// action's continuation is searched and the matrix game of their values is
/// solved exactly. A stopped depth falls back to the last completed one.
fn simultaneous_root<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    shared: &Shared<'_>,
    report: &mut dyn FnMut(&MixedResult<G::Move>),
) -> MixedResult<G::Move> {
    let mut solver = joint_root::RootSolver::<G>::new(shared, config);
    let mut best: Option<MixedResult<G::Move>> = None;
    let max_depth = limits.depth.unwrap_or(alphabeta::MAX_PLY as u32 - 1);
    for depth in 1..=max_depth {
        let (solution, [rows, cols]) = solver.solve(pos, depth as i32);
        let Some(s) = solution else {
            break;
        };
        let (entries, evaluated) = solver.matrix_counts();
        let pick = |acts: &[G::Move], p: &[f64]| {
            let mut v: Vec<(G::Move, f64)> = acts
                .iter()
                .zip(p)
                .filter(|(_, &q)| q > 1e-9)
                .map(|(&m, &q)| (m, q))
                .collect();
            v.sort_by(|x, y| y.1.total_cmp(&x.1));
            v
        };
        let r = MixedResult {
            value: s.solution.value,
            depth,
            nodes: shared.nodes(),
            time: shared.start.elapsed(),
            entries,
            evaluated,
            strategies: [pick(&rows, &s.solution.row), pick(&cols, &s.solution.col)],
        };
        report(&r);
        best = Some(r);
        if shared.stopped() || shared.past_soft_budget() {
            break;
        }
    }
    let mut best = best.unwrap_or_else(|| {
        // Not even depth 1 finished: play uniformly at random.
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        pos.actions(gamut_core::game::Player::FIRST, &mut rows);
        pos.actions(gamut_core::game::Player::SECOND, &mut cols);
        let uniform = |v: &[G::Move]| v.iter().map(|&m| (m, 1.0 / v.len() as f64)).collect();
        MixedResult {
            value: 0.0,
            depth: 0,
            nodes: 0,
            time: shared.start.elapsed(),
            entries: 0,
            evaluated: 0,
            strategies: [uniform(&rows), uniform(&cols)],
        }
    });
    best.nodes = shared.nodes();
    best
}

#[cfg(test)]
mod tests;
