//! Iterative deepening at the root: the root moves kept in order between
//! iterations, aspiration windows, the threads that share a search (Lazy SMP
//! or root splitting), and chance roots, whose outcomes are deepened
//! together.

use super::alphabeta::{Worker, MAX_PLY};
use super::params;
use super::score::{self, chance_value, outcome_score, INFINITY, WIN_THRESHOLD};
use super::{
    ChanceIteration, Config, Iteration, Limits, Line, OutcomePlan, Parallel, SearchResult, Shared,
};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{NodeKind, NodeRules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::Mutex;

/// A root move with the score and principal variation of its last search.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    pv: Vec<M>,
}

/// A decision root's moves, best first, deepened one iteration at a time.
struct RootMoves<'p, G: Evaluate> {
    pos: &'p G,
    moves: Vec<RootMove<G::Move>>,
    /// The result of the last completed iteration (or of a stopped one
    /// that found a better move).
    best: SearchResult<G::Move>,
    /// The best lines of the last completed iteration, best first (one
    /// unless several were asked for; see [`Config::multipv`]).
    lines: Vec<RootMove<G::Move>>,
    /// Whether the moves after the first are searched last to first.
    from_last: bool,
}

impl<'p, G: Evaluate> RootMoves<'p, G> {
    /// The moves of `pos`, captures first until the first iteration orders
    /// them. Panics if `pos` has no moves.
    fn new(pos: &'p G) -> Self {
        let mut list = Vec::new();
        pos.moves(&mut list);
        Self::of(pos, &list)
    }

    /// Root `pos` with its moves `list`, as [`RootMoves::new`] orders
    /// them. Panics if `list` is empty.
    fn of(pos: &'p G, list: &[G::Move]) -> Self {
        assert!(!list.is_empty(), "search needs a position with moves");
        let mut moves: Vec<RootMove<G::Move>> = list
            .iter()
            .map(|&m| RootMove {
                mv: m,
                score: -INFINITY,
                pv: vec![m],
            })
            .collect();
        moves.sort_by_key(|r| -i64::from(pos.move_hint(r.mv)));
        let first = moves[0].mv;
        RootMoves {
            pos,
            moves,
            best: SearchResult {
                best: first,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![first],
            },
            lines: Vec::new(),
            from_last: false,
        }
    }

    /// Completes the iteration at `depth` for the best `multipv` root moves
    /// (at least one, at most all), one line after the other: line `k`
    /// searches the moves not chosen by lines 1 to `k - 1`, as Stockfish
    /// does. Each line starts from an aspiration window around its last
    /// score and widens it until the score falls inside. Returns false if
    /// the search was stopped first; a stopped iteration's best move is
    /// kept when at least one move was searched, since the previous best
    /// move is always searched first.
    fn deepen(
        &mut self,
        w: &mut Worker<'_, G>,
        depth: u32,
        config: &Config,
        multipv: usize,
        pool: Option<&rayon::ThreadPool>,
    ) -> bool {
        let mut count = multipv.clamp(1, self.moves.len());
        for k in 0..count {
            // The first line's window is centred on the last best score;
            // the others on their own line's last score, if there was one.
            let last = if k == 0 {
                Some(self.best.score)
            } else {
                self.lines.get(k).map(|l| l.score)
            };
            let complete = match (k, config.multipv_margin) {
                (1.., Some(margin)) => {
                    // Only the moves at or above the floor are lines.
                    let floor = self.moves[0].score.saturating_sub_unsigned(margin);
                    let alpha = floor.saturating_sub(1).max(-INFINITY);
                    let (score, complete) = self.search(w, depth, alpha, INFINITY, k, pool);
                    if complete && score < floor {
                        count = k;
                        break;
                    }
                    complete
                }
                _ => self.deepen_line(w, depth, config, k, last, pool),
            };
            if !complete {
                let first = &self.moves[0];
                if first.score > -INFINITY && first.mv != self.best.best {
                    self.best.best = first.mv;
                    self.best.score = first.score;
                    self.best.pv = first.pv.clone();
                }
                w.flush_nodes();
                return false;
            }
        }
        w.flush_nodes();
        // A later line may score above an earlier one (the table's bounds
        // and windows differ between them): the lines are reported best
        // first.
        sort(&mut self.moves[..count]);
        let first = &self.moves[0];
        self.best = SearchResult {
            best: first.mv,
            score: first.score,
            depth,
            nodes: 0,
            pv: first.pv.clone(),
        };
        self.lines = self.moves[..count].to_vec();
        true
    }

    /// Searches the moves from the `k`th on at `depth` until the best of
    /// them has a score inside the window, which starts around `last` (the
    /// line's score at the last iteration) when aspiration applies.
    /// Returns false if the search was stopped first.
    fn deepen_line(
        &mut self,
        w: &mut Worker<'_, G>,
        depth: u32,
        config: &Config,
        k: usize,
        last: Option<i32>,
        pool: Option<&rayon::ThreadPool>,
    ) -> bool {
        let t = &config.tunables;
        let mut delta = t.aspiration_delta;
        let (mut alpha, mut beta) = match last {
            Some(last) if config.aspiration && depth as i32 >= t.aspiration_min_depth => {
                (last - delta, last + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let (score, complete) = self.search(w, depth, alpha, beta, k, pool);
            if !complete {
                return false;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
                delta *= 2;
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
                delta *= 2;
            } else {
                return true;
            }
        }
    }

    /// Takes another thread's deeper iteration as this thread's last one,
    /// its best move first.
    fn adopt(&mut self, it: &Iteration<G::Move>) {
        if it.depth <= self.best.depth {
            return;
        }
        // Each line's move is put at its rank, the first line's being the
        // best move.
        for (k, line) in it.lines.iter().enumerate() {
            let mv = line.pv[0];
            if let Some(i) = self.moves[k..].iter().position(|r| r.mv == mv) {
                self.moves[k..=k + i].rotate_right(1);
                self.moves[k].score = line.score;
                self.moves[k].pv = line.pv.clone();
            }
        }
        self.best = result_of(it);
        self.lines = it
            .lines
            .iter()
            .map(|l| RootMove {
                mv: l.pv[0],
                score: l.score,
                pv: l.pv.clone(),
            })
            .collect();
    }

    /// The last completed iteration's lines, as reported.
    fn report_lines(&self) -> Vec<Line<G::Move>> {
        self.lines
            .iter()
            .map(|l| Line {
                score: l.score,
                pv: l.pv.clone(),
            })
            .collect()
    }

    /// Whether the last completed iteration proved a result within its
    /// horizon, which deeper iterations cannot change, for every line.
    fn proven(&self) -> bool {
        let depth = self.best.depth;
        let proven = |s: i32| {
            s.abs() > WIN_THRESHOLD
                && score::Score(s)
                    .plies_to_end()
                    .is_some_and(|n| n.unsigned_abs() <= depth)
        };
        proven(self.best.score) && self.lines.iter().skip(1).all(|l| proven(l.score))
    }

    /// Searches the root moves from the `k`th on (those not chosen by an
    /// earlier line of this iteration) at `depth` with window (`alpha`,
    /// `beta`), scoring each and moving the best of them to the `k`th
    /// place. Returns the best score and whether the iteration completed.
    fn search(
        &mut self,
        w: &mut Worker<'_, G>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        k: usize,
        pool: Option<&rayon::ThreadPool>,
    ) -> (i32, bool) {
        let pos = self.pos;
        let me = pos.perspective();
        let d = depth as i32 - 1;
        for r in self.moves[k..].iter_mut() {
            r.score = -INFINITY;
        }
        let mut best = -INFINITY;
        let len = self.moves.len() - k;
        for i in 0..len {
            // A helper searches the moves after the first from the last, so
            // that two threads on one iteration meet in the middle, each
            // finding the other's refutations in the table.
            let n = k + if self.from_last && i > 0 { len - i } else { i };
            if let (Some(pool), true) = (pool, n == k + 1) {
                return self.split_rest(w, pool, d, best, alpha, beta, k);
            }
            let m = self.moves[n].mv;
            let v = w.root_child(&pos.play(m), d, alpha, beta, me, n == k);
            if w.stopped() {
                sort(&mut self.moves[k..]);
                return (best, false);
            }
            if v > alpha || n == k {
                self.moves[n].score = v;
                self.moves[n].pv = std::iter::once(m).chain(w.child_pv()).collect();
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
        sort(&mut self.moves[k..]);
        (best, true)
    }

    /// Root splitting: the moves after the `k`th, searched on `pool` with a
    /// shared, rising alpha.
    #[allow(clippy::too_many_arguments)]
    fn split_rest(
        &mut self,
        w: &Worker<'_, G>,
        pool: &rayon::ThreadPool,
        d: i32,
        best: i32,
        alpha: i32,
        beta: i32,
        k: usize,
    ) -> (i32, bool) {
        let pos = self.pos;
        let me = pos.perspective();
        let shared_alpha = AtomicI32::new(alpha);
        let shared = w.shared();
        let config = w.config();
        let moves = &self.moves;
        let results: Vec<(usize, i32, Vec<G::Move>)> = pool.install(|| {
            (k + 1..moves.len())
                .into_par_iter()
                .map_init(
                    || Worker::<G>::new(shared, config),
                    |worker, n| {
                        let m = moves[n].mv;
                        let a = shared_alpha.load(Relaxed);
                        let v = worker.root_child(&pos.play(m), d, a, beta, me, false);
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
                self.moves[n].score = v;
                self.moves[n].pv = pv;
                best = best.max(v);
            }
        }
        sort(&mut self.moves[k..]);
        (best, !stopped)
    }
}

/// Puts the best-scored root move first, keeping the others in order.
fn sort<M>(moves: &mut [RootMove<M>]) {
    moves.sort_by_key(|r| std::cmp::Reverse(r.score));
}

/// The deepest iteration `limits` allow.
fn max_depth(limits: &Limits) -> u32 {
    limits.depth.unwrap_or(MAX_PLY as u32 - 1)
}

/// Runs `main` on this thread and `helper` on `helpers` more threads
/// (numbered from 1), each with its own worker on `shared`; the helpers are
/// told to stop when `main` returns.
fn on_threads<G: Evaluate, R>(
    shared: &Shared<'_>,
    config: &Config,
    helpers: usize,
    helper: impl Fn(&mut Worker<'_, G>, usize) + Sync,
    main: impl FnOnce(&mut Worker<'_, G>) -> R,
) -> R {
    std::thread::scope(|s| {
        for id in 1..=helpers {
            let helper = &helper;
            s.spawn(move || helper(&mut Worker::new(shared, config), id));
        }
        let r = main(&mut Worker::new(shared, config));
        shared.stop.store(true, Relaxed);
        r
    })
}

/// Iterative deepening at decision root `pos` on every thread of `config`,
/// reporting each iteration completed (by whichever thread completes it
/// first). The root's moves are listed once, on this thread: `None` if that
/// listing was stopped by the thread's stop check
/// ([`gamut_core::game::with_thread_stop`]) before it gave any move.
pub fn decision<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    shared: &Shared<'_>,
    report: &mut dyn FnMut(&Iteration<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let mut list = Vec::new();
    pos.moves(&mut list);
    if list.is_empty() && gamut_core::game::thread_stop() {
        return None;
    }
    let list = &list[..];
    let pool = (config.threads > 1 && config.parallel == Parallel::RootSplit)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads)
                .build()
                .ok()
        })
        .flatten();
    let helpers = if config.parallel == Parallel::LazySmp {
        config.threads.saturating_sub(1)
    } else {
        0
    };
    let deepest = Mutex::new(None);
    let result = on_threads(
        shared,
        config,
        helpers,
        |w, id| {
            deepen_decision(w, pos, list, limits, id, None, &deepest, &mut |_| {});
        },
        |w| deepen_decision(w, pos, list, limits, 0, pool.as_ref(), &deepest, report),
    );
    Some(SearchResult {
        nodes: shared.nodes(),
        ..result
    })
}

/// The deepest iteration completed by any thread.
type Deepest<M> = Mutex<Option<Iteration<M>>>;

/// The result an iteration stands for: its principal variation starts
/// with the best move.
fn result_of<M: Copy>(it: &Iteration<M>) -> SearchResult<M> {
    SearchResult {
        best: it.pv[0],
        score: it.score,
        depth: it.depth,
        nodes: it.nodes,
        pv: it.pv.clone(),
    }
}

/// One thread's iterative deepening at a decision root. A thread that
/// completes an iteration deeper than any other publishes it in `deepest`;
/// the others abandon that depth and go on from the next one. Lazy SMP
/// helpers with odd ids stay one ply ahead of the deepest completed
/// iteration and search the root moves after the first last to first, so
/// that the table holds the next iteration's refutations before the main
/// thread needs them. Thread `id` 0 reports the published iterations and
/// returns the deepest result.
#[allow(clippy::too_many_arguments)]
fn deepen_decision<G: Evaluate>(
    w: &mut Worker<'_, G>,
    pos: &G,
    list: &[G::Move],
    limits: &Limits,
    id: usize,
    pool: Option<&rayon::ThreadPool>,
    deepest: &Deepest<G::Move>,
    report: &mut dyn FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let mut root = RootMoves::of(pos, list);
    root.from_last = id % 2 == 1;
    let shared = w.shared();
    let config = w.config();
    let lock = || deepest.lock().unwrap_or_else(|e| e.into_inner());
    let mut reported = 0;
    let mut time = TimeManager::default();
    // The main thread reports what has been published since it last did,
    // and scales the soft budget of a clock by what it saw.
    let mut report_new = || {
        if id == 0 {
            if let Some(iteration) = lock().as_ref().filter(|it| it.depth > reported) {
                reported = iteration.depth;
                report(iteration);
                shared.scale_soft_budget(time.scale(iteration));
            }
        }
    };
    let ahead = id as u32 & 1;
    let mut depth = 1 + ahead;
    loop {
        let completed = shared.completed.load(Relaxed);
        if completed >= max_depth(limits) || (completed > 0 && shared.past_soft_budget()) {
            shared.stop.store(true, Relaxed);
        }
        if shared.stopped() {
            break;
        }
        if completed + ahead >= depth {
            if let Some(it) = lock().as_ref() {
                root.adopt(it);
            }
            depth = (completed + 1 + ahead).min(max_depth(limits));
        }
        w.begin_iteration(depth);
        if root.deepen(w, depth, config, config.multipv, pool) {
            let mut slot = lock();
            if slot.as_ref().is_none_or(|it| it.depth < depth) {
                *slot = Some(Iteration {
                    depth,
                    score: root.best.score,
                    nodes: shared.nodes(),
                    time: shared.start.elapsed(),
                    hashfull: shared.tt.hashfull(),
                    pv: root.best.pv.clone(),
                    lines: root.report_lines(),
                });
                shared.completed.fetch_max(depth, Relaxed);
            }
            if root.proven() {
                shared.stop.store(true, Relaxed);
            }
            depth += 1;
        }
        report_new();
    }
    report_new();
    w.begin_iteration(0);
    // A thread's own result may be a stopped iteration's better move than
    // the last one completed; a result of another thread at least as deep
    // wins (it was completed, and it is the one reported).
    let (result, lines) = match lock().as_ref() {
        Some(it) if it.depth >= root.best.depth => (result_of(it), it.lines.clone()),
        _ => (root.best.clone(), root.report_lines()),
    };
    // The main thread's answer is always the last iteration it reported.
    if id == 0 && result.depth > reported {
        report(&Iteration {
            depth: result.depth,
            score: result.score,
            nodes: shared.nodes(),
            time: shared.start.elapsed(),
            hashfull: shared.tt.hashfull(),
            pv: result.pv.clone(),
            lines: with_first_line(lines, &result),
        });
    }
    result
}

/// `lines` with its first line replaced by `result`'s, when a stopped
/// iteration found a better move than the last completed one.
fn with_first_line<M: Copy + PartialEq>(
    mut lines: Vec<Line<M>>,
    result: &SearchResult<M>,
) -> Vec<Line<M>> {
    let first = Line {
        score: result.score,
        pv: result.pv.clone(),
    };
    lines.retain(|l| l.pv.first() != Some(&result.best));
    lines.insert(0, first);
    lines
}

/// Time management under a clock, from the iterations the main thread
/// reports: once the best move has stayed the same for
/// [`TM_STABLE_ITERATIONS`](params::TM_STABLE_ITERATIONS) iterations the
/// soft budget shrinks, an iteration that changed it stretches the budget,
/// and so does a score that dropped since the last iteration.
pub(super) struct TimeManager<M> {
    best: Option<M>,
    /// Completed iterations in a row with the same best move, after the
    /// first.
    stable: u32,
    score: Option<i32>,
}

impl<M> Default for TimeManager<M> {
    fn default() -> Self {
        TimeManager {
            best: None,
            stable: 0,
            score: None,
        }
    }
}

impl<M: Copy + PartialEq> TimeManager<M> {
    /// The factor on the soft budget after iteration `it`.
    pub(super) fn scale(&mut self, it: &Iteration<M>) -> f64 {
        let best = it.pv[0];
        let changed = self.best.is_some_and(|b| b != best);
        self.stable = if self.best == Some(best) {
            self.stable + 1
        } else {
            0
        };
        let mut scale = if changed {
            params::TM_UNSTABLE_SCALE
        } else if self.stable >= params::TM_STABLE_ITERATIONS {
            params::TM_STABLE_SCALE
        } else {
            1.0
        };
        if self
            .score
            .is_some_and(|s| it.score < s - params::TM_DROP_MARGIN)
        {
            scale *= params::TM_DROP_SCALE;
        }
        self.best = Some(best);
        self.score = Some(it.score);
        scale
    }
}

/// Iterative deepening at chance root `pos`: at each depth every outcome's
/// decision is searched to that depth and the outcomes' values are averaged
/// by [`chance_value`], so every iteration's expected value is in the unit
/// of decision scores. Several threads share the work as Lazy SMP.
pub fn chance<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    shared: &Shared<'_>,
    report: &mut dyn FnMut(&ChanceIteration<G::Move>),
) -> ChanceIteration<G::Move> {
    let helpers = config.threads.saturating_sub(1);
    let result = on_threads(
        shared,
        config,
        helpers,
        |w, id| {
            deepen_chance(w, pos, limits, config, id, &mut |_| {});
        },
        |w| deepen_chance(w, pos, limits, config, 0, report),
    );
    ChanceIteration {
        nodes: shared.nodes(),
        time: shared.start.elapsed(),
        ..result
    }
}

/// One thread's iterative deepening at a chance root; see [`chance`].
fn deepen_chance<G: Evaluate>(
    w: &mut Worker<'_, G>,
    pos: &G,
    limits: &Limits,
    config: &Config,
    id: usize,
    report: &mut dyn FnMut(&ChanceIteration<G::Move>),
) -> ChanceIteration<G::Move> {
    let me = pos.perspective();
    let shared = w.shared();
    let mut outcomes = Vec::new();
    pos.moves(&mut outcomes);
    let children: Vec<G> = outcomes.iter().map(|&m| pos.play(m)).collect();
    let mut roots: Vec<Option<RootMoves<'_, G>>> = children
        .iter()
        .map(|c| matches!(c.node(), NodeKind::Decision(_)).then(|| RootMoves::new(c)))
        .collect();
    let mut last: Option<ChanceIteration<G::Move>> = None;
    let mut depth = 1 + (id as u32 & 1);
    'deepening: while depth <= max_depth(limits) {
        let mut plans = Vec::with_capacity(outcomes.len());
        for (i, &m) in outcomes.iter().enumerate() {
            let child = &children[i];
            let (value, pv) = match &mut roots[i] {
                Some(root) => {
                    // One line per outcome: MultiPV is for decision roots.
                    if !root.deepen(w, depth, config, 1, None) {
                        break 'deepening;
                    }
                    (root.best.score, root.best.pv.clone())
                }
                None => {
                    let v = match child.outcome() {
                        Some(o) => outcome_score(&o, child.perspective(), 1),
                        None => w.negamax(child, depth as i32, -INFINITY, INFINITY, 1),
                    };
                    if w.stopped() {
                        break 'deepening;
                    }
                    (v, Vec::new())
                }
            };
            let score = if child.perspective() == me {
                value
            } else {
                -value
            };
            plans.push(OutcomePlan {
                outcome: m,
                probability: pos.probability(m),
                score,
                pv,
            });
        }
        let expected = chance_value(plans.iter().map(|p| (p.probability, p.score)));
        let it = ChanceIteration {
            depth,
            expected,
            nodes: shared.nodes(),
            time: shared.start.elapsed(),
            outcomes: plans,
        };
        if id == 0 {
            report(&it);
        }
        let proven = roots.iter().all(|r| r.as_ref().is_none_or(|r| r.proven()));
        last = Some(it);
        if proven {
            break;
        }
        depth += 1;
    }
    last.unwrap_or_else(|| ChanceIteration {
        depth: 0,
        expected: 0,
        nodes: 0,
        time: shared.start.elapsed(),
        outcomes: outcomes
            .iter()
            .zip(&roots)
            .map(|(&m, r)| OutcomePlan {
                outcome: m,
                probability: pos.probability(m),
                score: 0,
                pv: r.as_ref().map(|r| r.best.pv.clone()).unwrap_or_default(),
            })
            .collect(),
    })
}
