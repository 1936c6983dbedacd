//! The generic searcher: iterative deepening over negamax alpha-beta
//! ([`alphabeta`]), a shared transposition table ([`tt`]), move ordering
//! ([`ordering`]), exact matrix games for simultaneous nodes ([`matrix`]),
//! and two ways to use several threads (Lazy SMP and root splitting).

pub mod alphabeta;
pub mod matrix;
pub mod ordering;
pub mod score;
pub mod simultaneous;
pub mod tt;

use crate::game::{Evaluate, NodeKind, TermMask};
use alphabeta::Worker;
use rayon::prelude::*;
use score::{INFINITY, WIN_THRESHOLD};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
pub use tt::Table;

/// When to stop: whichever limit is reached first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration to complete.
    pub depth: Option<u32>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Nodes over all threads.
    pub nodes: Option<u64>,
}

/// How several threads share the work.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// Every thread searches the whole tree, sharing the table; the main
    /// thread's result counts.
    LazySmp,
    /// The root's first move is searched alone, then the other root moves
    /// are spread over the threads with the window it set.
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
}

impl Config {
    /// The default configuration for game `G` on `threads` threads.
    pub fn for_game<G: Evaluate>(threads: usize) -> Config {
        Config {
            threads: threads.max(1),
            terms: TermMask::ALL,
            ordering: ordering::Ordering::default(),
            quiescence: G::QUIESCENCE,
            aspiration: true,
            star1: true,
            parallel: Parallel::LazySmp,
            full_matrix: false,
        }
    }
}

/// What every search thread shares: the table, the stop flag, the node count
/// and the limits.
pub struct Shared<'t> {
    tt: &'t Table,
    stop: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    time: Option<Duration>,
    max_nodes: Option<u64>,
}

impl<'t> Shared<'t> {
    fn new(tt: &'t Table, limits: &Limits) -> Self {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            time: limits.time,
            max_nodes: limits.nodes,
        }
    }

    /// Raises the stop flag if `nodes` or the elapsed time passed a limit.
    fn check_limits(&self, nodes: u64) {
        if self.max_nodes.is_some_and(|m| nodes >= m)
            || self.time.is_some_and(|t| self.start.elapsed() >= t)
        {
            self.stop.store(true, Relaxed);
        }
    }
}

/// One completed iteration, as `gamut analyze` reports it.
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
}

/// The result of a search.
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

/// Searches decision node `pos` within `limits`, calling `report` after
/// every completed iteration. Panics if `pos` is not a decision node with
/// at least one move (callers check).
pub fn search<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    mut report: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    assert!(matches!(pos.node(), NodeKind::Decision(_)));
    tt.new_search();
    let shared = Shared::new(tt, limits);
    let result = if config.threads > 1 && config.parallel == Parallel::LazySmp {
        std::thread::scope(|s| {
            for id in 1..config.threads {
                let shared = &shared;
                s.spawn(move || {
                    let mut w = Worker::<G>::new(shared, config);
                    iterate(&mut w, pos, limits, config, id, &mut |_| {});
                });
            }
            let mut w = Worker::<G>::new(&shared, config);
            let r = iterate(&mut w, pos, limits, config, 0, &mut report);
            shared.stop.store(true, Relaxed);
            r
        })
    } else {
        let mut w = Worker::<G>::new(&shared, config);
        iterate(&mut w, pos, limits, config, 0, &mut report)
    };
    SearchResult {
        nodes: shared.nodes.load(Relaxed),
        ..result
    }
}

/// A root move with the score of its last search.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    pv: Vec<M>,
}

/// Iterative deepening for one thread. Thread `id` 0 reports; helper
/// threads of Lazy SMP start one ply deeper on odd ids to spread the work.
fn iterate<G: Evaluate>(
    w: &mut Worker<G>,
    pos: &G,
    limits: &Limits,
    config: &Config,
    id: usize,
    report: &mut dyn FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let mut moves = Vec::new();
    pos.moves(&mut moves);
    assert!(!moves.is_empty(), "search needs a position with moves");
    // Captures first before the first iteration sets the order.
    let mut root: Vec<RootMove<G::Move>> = moves
        .iter()
        .map(|&m| RootMove {
            mv: m,
            score: -INFINITY,
            pv: vec![m],
        })
        .collect();
    root.sort_by_key(|r| -(pos.move_hint(r.mv) as i64));
    let mut best = SearchResult {
        best: root[0].mv,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![root[0].mv],
    };
    let max_depth = limits.depth.unwrap_or(alphabeta::MAX_PLY as u32 - 1);
    let mut depth = 1 + (id as u32 & 1);
    while depth <= max_depth {
        let mut delta = 40;
        let (mut alpha, mut beta) = if config.aspiration && depth >= 4 {
            (best.score - delta, best.score + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let (score, complete) = search_root(w, pos, &mut root, depth, alpha, beta, config);
            if !complete {
                // Stopped: keep the partial iteration's move only if its
                // first move was searched fully and another did better.
                if root[0].score > -INFINITY
                    && root[0].score > best.score
                    && root[0].mv != best.best
                {
                    best.best = root[0].mv;
                    best.pv = root[0].pv.clone();
                }
                w.flush_nodes();
                return best;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
                delta *= 2;
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
                delta *= 2;
            } else {
                break;
            }
        }
        w.flush_nodes();
        best = SearchResult {
            best: root[0].mv,
            score: root[0].score,
            depth,
            nodes: 0,
            pv: root[0].pv.clone(),
        };
        let shared = w.shared();
        if id == 0 {
            report(&Iteration {
                depth,
                score: best.score,
                nodes: shared.nodes.load(Relaxed),
                time: shared.start.elapsed(),
                hashfull: shared.tt.hashfull(),
                pv: best.pv.clone(),
            });
        }
        // A proven result within the horizon will not change.
        if best.score.abs() > WIN_THRESHOLD
            && score::Score(best.score)
                .plies_to_end()
                .unwrap()
                .unsigned_abs()
                <= depth
        {
            break;
        }
        if let Some(t) = limits.time {
            if shared.start.elapsed() * 2 > t {
                break;
            }
        }
        depth += 1;
    }
    best
}

/// Searches the root moves at `depth` with window (`alpha`, `beta`),
/// scoring each and moving the best to the front. Returns the best score and
/// whether the iteration completed (it did not if the search was stopped).
fn search_root<G: Evaluate>(
    w: &mut Worker<G>,
    pos: &G,
    root: &mut [RootMove<G::Move>],
    depth: u32,
    mut alpha: i32,
    beta: i32,
    config: &Config,
) -> (i32, bool) {
    let me = pos.perspective();
    let d = depth as i32 - 1;
    for r in root.iter_mut() {
        r.score = -INFINITY;
    }
    let mut best = -INFINITY;
    let split = config.threads > 1 && config.parallel == Parallel::RootSplit;
    for n in 0..root.len() {
        if split && n == 1 {
            return split_rest(w, pos, root, d, best, alpha, beta, config);
        }
        let m = root[n].mv;
        let child = pos.play(m);
        let v = if n == 0 {
            w.root_child(&child, d, alpha, beta, me)
        } else {
            let v = w.root_child(&child, d, alpha, alpha + 1, me);
            if v > alpha && v < beta {
                w.root_child(&child, d, alpha, beta, me)
            } else {
                v
            }
        };
        if w.stopped() {
            sort_root(root);
            return (best, false);
        }
        root[n].score = if v > alpha || n == 0 { v } else { -INFINITY };
        if v > alpha || n == 0 {
            root[n].pv = std::iter::once(m).chain(w.child_pv()).collect();
        }
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    sort_root(root);
    (best, true)
}

/// Puts the best-scored root move first, keeping the others in order.
fn sort_root<M>(root: &mut [RootMove<M>]) {
    root.sort_by_key(|r| std::cmp::Reverse(r.score));
}

/// Root splitting: the moves after the first, searched in parallel with a
/// shared, rising alpha.
#[allow(clippy::too_many_arguments)]
fn split_rest<G: Evaluate>(
    w: &mut Worker<G>,
    pos: &G,
    root: &mut [RootMove<G::Move>],
    d: i32,
    best: i32,
    alpha: i32,
    beta: i32,
    config: &Config,
) -> (i32, bool) {
    let me = pos.perspective();
    let shared_alpha = AtomicI32::new(alpha);
    let shared = w.shared();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .expect("a rayon pool of the requested size");
    let results: Vec<(usize, i32, Vec<G::Move>)> = pool.install(|| {
        (1..root.len())
            .into_par_iter()
            .map_init(
                || Worker::<G>::new(shared, config),
                |worker, n| {
                    let m = root[n].mv;
                    let child = pos.play(m);
                    let a = shared_alpha.load(Relaxed);
                    let mut v = worker.root_child(&child, d, a, a + 1, me);
                    if v > a && v < beta {
                        v = worker.root_child(&child, d, a, beta, me);
                    }
                    worker.flush_nodes();
                    if v > a {
                        shared_alpha.fetch_max(v, Relaxed);
                        let pv = std::iter::once(m).chain(worker.child_pv()).collect();
                        (n, v, pv)
                    } else {
                        (n, -INFINITY, Vec::new())
                    }
                },
            )
            .collect()
    });
    let stopped = w.stopped();
    let mut best = best;
    for (n, v, pv) in results {
        if v > -INFINITY && !stopped {
            root[n].score = v;
            root[n].pv = pv;
            best = best.max(v);
        }
    }
    sort_root(root);
    (best, !stopped)
}

#[cfg(test)]
mod tests;

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
    /// Entries of all matrix games solved (at the root and below).
    pub entries: u64,
    /// How many of those entries the double oracle searched.
    pub evaluated: u64,
    /// Each player's actions with their probabilities, most likely first;
    /// actions of probability zero are left out.
    pub strategies: [Vec<(M, f64)>; 2],
}

/// Searches simultaneous node `pos` by iterative deepening: at each depth
/// every joint action's continuation is searched and the matrix game of
/// their values is solved exactly. `report` is called after each completed
/// depth. Panics if `pos` is not a simultaneous node with actions for both.
pub fn search_simultaneous<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    mut report: impl FnMut(&MixedResult<G::Move>),
) -> MixedResult<G::Move> {
    assert_eq!(pos.node(), NodeKind::Simultaneous);
    tt.new_search();
    let shared = Shared::new(tt, limits);
    let mut solver = simultaneous::RootSolver::<G>::new(&shared, config);
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
            nodes: shared.nodes.load(Relaxed),
            entries,
            evaluated,
            strategies: [pick(&rows, &s.solution.row), pick(&cols, &s.solution.col)],
        };
        report(&r);
        best = Some(r);
        if let Some(t) = limits.time {
            if shared.start.elapsed() * 2 > t {
                break;
            }
        }
    }
    let mut best = best.unwrap_or_else(|| {
        // Not even depth 1 finished: play uniformly at random.
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        pos.actions(crate::game::Player::FIRST, &mut rows);
        pos.actions(crate::game::Player::SECOND, &mut cols);
        let uniform = |v: &[G::Move]| v.iter().map(|&m| (m, 1.0 / v.len() as f64)).collect();
        MixedResult {
            value: 0.0,
            depth: 0,
            nodes: 0,
            entries: 0,
            evaluated: 0,
            strategies: [uniform(&rows), uniform(&cols)],
        }
    });
    best.nodes = shared.nodes.load(Relaxed);
    best
}
