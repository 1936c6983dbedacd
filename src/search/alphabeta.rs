//! One search thread: negamax alpha-beta with principal-variation search,
//! the transposition table, move ordering and quiescence at decision nodes,
//! and expectimax at chance nodes.

use super::matrix::{solve_lazy, LazyGame, LazyOutcome, LazySolution};
use super::ordering::{Heuristics, CAPTURE_KEY, KILLER_KEY, TT_MOVE_KEY};
use super::params::{self, LMR_TABLE};
use super::score::{self, chance_value, outcome_score, INFINITY, WIN_THRESHOLD};
use super::tt::{Bound, Entry};
use super::{Config, Shared};
use crate::game::{Evaluate, Listing, ListingBudget, NodeKind, Player, EVAL_LIMIT};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::sync::atomic::Ordering::Relaxed;

/// The deepest a line may go (main search plus quiescence).
pub const MAX_PLY: usize = 128;

/// The score a table entry settles for a node searched `depth` deep with
/// window (`alpha`, `beta`) `ply` plies below the root: an exact score, or
/// a bound outside the window, from a search at least as deep.
fn cutoff(e: Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if (e.depth as i32) < depth {
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
    /// The late-move reduction per depth and move number.
    lmr: Vec<[u8; LMR_TABLE]>,
    /// Per ply, whether the node there was reached by a null move (no
    /// second null move follows one).
    after_null: Vec<bool>,
    /// Whether a null-move cutoff is being verified (null moves off below).
    verifying: bool,
    /// Static values of recently evaluated positions, by hash: a leaf
    /// reached again by another move order is not evaluated again.
    eval_cache: Vec<(u64, i32)>,
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
            lmr: params::lmr_table(),
            after_null: vec![false; MAX_PLY + 2],
            verifying: false,
            eval_cache: vec![(0, 0); EVAL_CACHE_SLOTS],
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
        if self.pending_nodes >= 256 {
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
            _ if ply >= MAX_PLY => self.config.evaluate(pos),
            NodeKind::Chance => self.chance(pos, depth, alpha, beta, ply),
            // A round of secret choices at the horizon is valued statically:
            // solving its matrix game would search a whole round more.
            NodeKind::Simultaneous if depth <= 0 => self.config.evaluate(pos),
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

    /// Orders the moves of `pos` into `self.scored[ply]`, unless the listing
    /// was stopped or given up (then the list is empty).
    fn order_moves(&mut self, pos: &G, ply: usize, me: Player, tt_move: Option<u16>) -> Listing {
        let mut moves = std::mem::take(&mut self.scratch);
        let listing = self.list_moves(pos, &mut moves, ply);
        self.scratch = moves;
        if matches!(listing, Listing::Stopped | Listing::GaveUp) {
            self.scored[ply].clear();
            return listing;
        }
        let list = &mut self.scored[ply];
        list.clear();
        let o = self.config.ordering;
        for (i, &m) in self.scratch.iter().enumerate() {
            let hint = pos.move_hint(m);
            let key = if o.tt_move && tt_move == Some(i as u16) {
                TT_MOVE_KEY
            } else if o.captures && hint > 0 {
                CAPTURE_KEY + hint as i64
            } else if o.killers && self.heuristics.is_killer(ply, m) {
                KILLER_KEY
            } else if o.history {
                self.heuristics.history(me.index(), &m) as i64
            } else {
                0
            };
            // Ties keep generation order: a stable sort below.
            list.push((key, i as u32, m));
        }
        list.sort_by_key(|e| std::cmp::Reverse(e.0));
        listing
    }

    fn decision(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        me: Player,
    ) -> i32 {
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        let settled = entry.filter(|_| ply > 0);
        if let Some(s) = settled.and_then(|e| cutoff(e, depth, alpha, beta, ply)) {
            return s;
        }
        let sel = self.config.selective;
        let pv_node = beta - alpha > 1;
        // Static value for the pruning decisions near the leaves and for
        // null moves; none at the root, on the principal variation or in
        // lines already decided.
        let quiet_eval = (ply > 0
            && !pv_node
            && alpha.abs() < WIN_THRESHOLD
            && beta.abs() < WIN_THRESHOLD
            && (sel.rfp || sel.nmp || sel.futility))
            .then(|| self.static_eval(pos));
        if let Some(eval) = quiet_eval {
            if sel.rfp
                && depth <= params::RFP_MAX_DEPTH
                && eval - params::RFP_MARGIN * depth >= beta
            {
                return eval;
            }
            if let Some(v) = self.null_move_cutoff(pos, depth, beta, ply, me, eval) {
                return v;
            }
        }
        let futile = match quiet_eval {
            Some(eval)
                if sel.futility
                    && depth <= params::FUTILITY_MAX_DEPTH
                    && eval + params::FUTILITY_MARGIN * depth <= alpha =>
            {
                Some(eval + params::FUTILITY_MARGIN * depth)
            }
            _ => None,
        };
        match self.order_moves(pos, ply, me, entry.and_then(|e| e.move_index)) {
            Listing::Stopped => return 0,
            Listing::GaveUp => return self.static_eval(pos),
            Listing::Complete | Listing::Partial => {}
        }
        let moves = std::mem::take(&mut self.scored[ply]);
        if moves.is_empty() {
            self.scored[ply] = moves;
            return self.config.evaluate(pos);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for (n, &(k, index, m)) in moves.iter().enumerate() {
            // A quiet move: neither the table's, nor a capture or a
            // killer.
            let quiet = k < KILLER_KEY && n > 0;
            if let (Some(bound), true) = (futile, quiet) {
                best = best.max(bound);
                continue;
            }
            let reduction = if sel.lmr
                && quiet
                && depth >= params::LMR_MIN_DEPTH
                && n >= params::LMR_FULL_MOVES
            {
                let r = self.lmr[(depth as usize).min(LMR_TABLE - 1)][n.min(LMR_TABLE - 1)] as i32;
                (r - i32::from(pv_node)).clamp(0, depth - 2)
            } else {
                0
            };
            let child = pos.play(m);
            let v = self.reduced_pvs(
                &child,
                depth - 1,
                reduction,
                alpha,
                beta,
                ply + 1,
                me,
                n == 0,
            );
            if self.stopped() {
                self.scored[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some((index, m));
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        if k < CAPTURE_KEY || k == TT_MOVE_KEY && pos.move_hint(m) <= 0 {
                            self.heuristics.cutoff(ply, me.index(), m, depth as u32);
                        }
                        break;
                    }
                }
            }
        }
        self.scored[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_index = best_move.and_then(|(i, _)| u16::try_from(i).ok());
        self.shared.tt.store(
            key,
            Entry {
                move_index,
                score: score::to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// The static value of decision node `pos`, from the cache when it
    /// holds `pos`'s hash. A slot holding hash 0 counts as empty (a
    /// position with hash 0 is evaluated every time).
    fn static_eval(&mut self, pos: &G) -> i32 {
        let key = pos.hash();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SLOTS - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let v = self.config.evaluate(pos);
        *slot = (key, v);
        v
    }

    /// Null-move pruning: if the side to move could pass and still reach
    /// `beta` in a search `depth` reduced by the null move's reduction, the
    /// node fails high with that bound (confirmed at large depths by a
    /// reduced search of the real moves with null moves off). `None` when
    /// the conditions do not hold or the null move did not cut off.
    fn null_move_cutoff(
        &mut self,
        pos: &G,
        depth: i32,
        beta: i32,
        ply: usize,
        me: Player,
        eval: i32,
    ) -> Option<i32> {
        if !self.config.selective.nmp
            || self.verifying
            || self.after_null[ply]
            || depth < params::NMP_MIN_DEPTH
            || eval < beta
        {
            return None;
        }
        let null = pos.null_move()?;
        let r = params::NMP_BASE + depth / params::NMP_DEPTH_DIVISOR;
        self.after_null[ply + 1] = true;
        let v = self.child_value(&null, depth - 1 - r, beta - 1, beta, ply + 1, me);
        self.after_null[ply + 1] = false;
        if self.stopped() || v < beta {
            return None;
        }
        let v = if v >= WIN_THRESHOLD { beta } else { v };
        if depth < params::NMP_VERIFY_DEPTH {
            return Some(v);
        }
        self.verifying = true;
        let check = self.decision(pos, depth - r, beta - 1, beta, ply, me);
        self.verifying = false;
        (check >= beta).then_some(v)
    }

    /// Captures (moves with a positive hint) only, on top of the static
    /// evaluation, until the position is quiet.
    fn quiescence(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, me: Player) -> i32 {
        let stand = self.static_eval(pos);
        if !self.config.quiescence || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.scratch);
        let listing = self.list_moves(pos, &mut moves, ply);
        self.scratch = moves;
        if matches!(listing, Listing::Stopped | Listing::GaveUp) {
            return stand;
        }
        let mut noisy = std::mem::take(&mut self.scored[ply]);
        noisy.clear();
        noisy.extend(
            self.scratch
                .iter()
                .map(|&m| (pos.move_hint(m) as i64, 0, m))
                .filter(|&(h, _, _)| h > 0),
        );
        noisy.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut best = stand;
        for &(_, _, m) in &noisy {
            let child = pos.play(m);
            let v = self.child_value(&child, 0, alpha, beta, ply + 1, me);
            if self.stopped() {
                break;
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
        self.scored[ply] = noisy;
        best
    }

    /// Expectimax: the outcomes' values combined by
    /// [`chance_value`](score::chance_value) (the probability-weighted mean,
    /// with proven results counting ±[`EVAL_LIMIT`]). With `Config::star1`
    /// and a window inside ±`EVAL_LIMIT`, Ballard's Star1 pruning: each
    /// outcome is searched with the window that could still move the mean
    /// across (`alpha`, `beta`), and the node fails low or high as soon as
    /// the outcomes searched so far decide it.
    fn chance(&mut self, pos: &G, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let me = pos.perspective();
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        let mut values = std::mem::take(&mut self.chance_values[ply]);
        pos.moves_with(&mut outcomes, &mut self.game_scratch);
        values.clear();
        let limit = EVAL_LIMIT as f64;
        let star1 = self.config.star1 && alpha > -EVAL_LIMIT && beta < EVAL_LIMIT;
        let mut sum = 0.0;
        let mut rest = 1.0;
        let mut cut = None;
        for &m in &outcomes {
            let p = pos.probability(m);
            rest -= p;
            let child = pos.play(m);
            let v = if star1 {
                // The mean stays at most alpha if this outcome's (clamped)
                // value is at most `a`, and reaches beta if it is at least
                // `b`, whatever the outcomes still to come.
                let a = (alpha as f64 - sum - rest * limit) / p;
                let b = (beta as f64 - sum + rest * limit) / p;
                if a >= limit {
                    cut = Some(alpha);
                    break;
                }
                if b <= -limit {
                    cut = Some(beta);
                    break;
                }
                let lo = -(EVAL_LIMIT as i64) - 1;
                let hi = EVAL_LIMIT as i64 + 1;
                let ca = (a.floor() as i64 - 1).clamp(lo, hi) as i32;
                let cb = (b.ceil() as i64 + 1).clamp(lo, hi) as i32;
                let v = self.child_value(&child, depth, ca, cb, ply + 1, me);
                let c = score::chance_clamp(v) as f64;
                if c <= a {
                    cut = Some(alpha);
                } else if c >= b {
                    cut = Some(beta);
                }
                v
            } else {
                self.child_value(&child, depth, -INFINITY, INFINITY, ply + 1, me)
            };
            if self.stopped() {
                cut = Some(0);
            }
            if cut.is_some() {
                break;
            }
            sum += p * score::chance_clamp(v) as f64;
            values.push((p, v));
        }
        let value = cut.unwrap_or_else(|| chance_value(values.iter().copied()));
        self.outcomes[ply] = outcomes;
        self.chance_values[ply] = values;
        value
    }

    /// A simultaneous node: the value of the matrix game whose entries are
    /// the joint actions' values, solved by the double oracle, which
    /// searches only the entries it needs and stops as soon as the value is
    /// known to lie outside (`alpha`, `beta`) (then the result is a bound,
    /// as at a decision node). The table keeps the value and each player's
    /// most likely action, where the next search of the node starts.
    fn simultaneous(&mut self, pos: &G, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        if let Some(s) = entry.and_then(|e| cutoff(e, depth, alpha, beta, ply)) {
            return s;
        }
        let [mut rows, mut cols] = std::mem::take(&mut self.actions[ply]);
        pos.actions(Player::FIRST, &mut rows);
        pos.actions(Player::SECOND, &mut cols);
        if self.config.selective.narrow {
            self.narrow(pos, Player::FIRST, &mut rows);
            self.narrow(pos, Player::SECOND, &mut cols);
        }
        if rows.is_empty() || cols.is_empty() {
            self.actions[ply] = [rows, cols];
            return self.config.evaluate(pos);
        }
        let start = match (entry.and_then(|e| e.move_index), self.matrix_killers[ply]) {
            (None, Some((a, b))) => {
                let i = rows.iter().position(|&m| m == a).unwrap_or(0);
                let j = cols.iter().position(|&m| m == b).unwrap_or(0);
                (i, j)
            }
            (index, _) => matrix_start(index, rows.len(), cols.len()),
        };
        let game = LazyGame {
            start,
            alpha: alpha as f64,
            beta: beta as f64,
            full: self.config.full_matrix,
            ..LazyGame::new(rows.len(), cols.len())
        };
        let outcome = solve_lazy(&game, |cells| {
            cells
                .iter()
                .map(|&(i, j)| self.cell(pos, rows[i], cols[j], depth, ply))
                .collect()
        });
        let v = match &outcome {
            Some(o) => {
                let (i, j) = o.likely();
                self.matrix_killers[ply] = Some((rows[i], cols[j]));
                if self.config.selective.narrow {
                    self.credit_support(o, &rows, &cols, depth);
                }
                self.store_matrix(key, depth, ply, &game, o)
            }
            None => 0,
        };
        self.actions[ply] = [rows, cols];
        v
    }

    /// Keeps [`SIMULTANEOUS_WIDTH`](params::SIMULTANEOUS_WIDTH) actions of
    /// `player` in `actions`, in generation order: first those that ranked
    /// best at the root's matrix game (ties, and actions the root did not
    /// have: those most often in the support of solved matrix games, then
    /// the game's action hint, then the generation order), then the last
    /// [`URGENT_WIDTH`](params::URGENT_WIDTH) places to the remaining
    /// actions with the largest action hint (the position has changed
    /// since the root, and the hint sees what the change made urgent).
    /// Below a root that is not a matrix game, or before its first
    /// iteration, all are kept.
    pub(super) fn narrow(&mut self, pos: &G, player: Player, actions: &mut Vec<G::Move>) {
        let width = params::SIMULTANEOUS_WIDTH;
        let ranks = &self.root_ranks[player.index()];
        if actions.len() <= width || ranks.is_empty() {
            return;
        }
        let keys = &mut self.narrow_keys;
        keys.clear();
        keys.extend(actions.iter().enumerate().map(|(i, m)| {
            let rank = ranks.get(m).copied().unwrap_or(u32::MAX);
            let h = self.heuristics.history(player.index(), m);
            (rank, Reverse(h), Reverse(pos.action_hint(player, *m)), i)
        }));
        let ranked = width - params::URGENT_WIDTH;
        keys.select_nth_unstable(ranked - 1);
        keys[ranked..].select_nth_unstable_by_key(params::URGENT_WIDTH - 1, |k| (k.2, k.0, k.3));
        keys.truncate(width);
        // The kept indices in ascending order: each is at least its place
        // in the list, so the actions move down in place.
        keys.sort_unstable_by_key(|k| k.3);
        for (to, k) in keys.iter().enumerate() {
            actions[to] = actions[k.3];
        }
        actions.truncate(width);
    }

    /// Ranks the actions of the root's matrix game (`rows` and `cols`) by
    /// their payoffs against the other player's strategy in `solution`.
    pub fn rank_root_actions(
        &mut self,
        solution: &LazySolution,
        rows: &[G::Move],
        cols: &[G::Move],
    ) {
        self.root_ranks[0] = ranks(rows, |i| -solution.row_payoffs[i]);
        self.root_ranks[1] = ranks(cols, |j| solution.col_payoffs[j]);
    }

    /// Credits the actions that decided matrix game `outcome` (searched
    /// `depth` deep): the supports of a solution, the proving pair of a
    /// bound; [`narrow`](Self::narrow) keeps them first.
    pub fn credit_support(
        &mut self,
        outcome: &LazyOutcome,
        rows: &[G::Move],
        cols: &[G::Move],
        depth: i32,
    ) {
        let amount = (depth * depth).max(1) as u32;
        match outcome {
            LazyOutcome::Solved(s) => {
                for (i, &p) in s.solution.row.iter().enumerate() {
                    if p > 0.0 {
                        self.heuristics.credit(0, rows[i], amount);
                    }
                }
                for (j, &p) in s.solution.col.iter().enumerate() {
                    if p > 0.0 {
                        self.heuristics.credit(1, cols[j], amount);
                    }
                }
            }
            LazyOutcome::AtMost(_, (i, j)) | LazyOutcome::AtLeast(_, (i, j)) => {
                self.heuristics.credit(0, rows[*i], amount);
                self.heuristics.credit(1, cols[*j], amount);
            }
        }
    }

    /// The value for the first player of joint action (`first`, `second`)
    /// at simultaneous node `pos`, searched exactly `depth` deep; `None` if
    /// the search was stopped.
    pub fn cell(
        &mut self,
        pos: &G,
        first: G::Move,
        second: G::Move,
        depth: i32,
        ply: usize,
    ) -> Option<f64> {
        let child = pos.play_joint(first, second);
        let v = self.child_value(&child, depth, -INFINITY, INFINITY, ply + 1, Player::FIRST);
        self.matrix_evaluated += 1;
        (!self.stopped()).then_some(v as f64)
    }

    /// Records what the solve of matrix game `game` at the simultaneous node
    /// with hash `key` found, in the table and the counters, and returns its
    /// value (or bound) as a score.
    pub fn store_matrix(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        game: &LazyGame,
        outcome: &LazyOutcome,
    ) -> i32 {
        self.matrix_entries += (game.rows * game.cols) as u64;
        let (value, bound) = match outcome {
            LazyOutcome::Solved(s) => (s.solution.value, Bound::Exact),
            LazyOutcome::AtMost(u, _) => (*u, Bound::Upper),
            LazyOutcome::AtLeast(w, _) => (*w, Bound::Lower),
        };
        let (i, j) = outcome.likely();
        let move_index = (i < 255 && j < 256).then_some((i << 8 | j) as u16);
        let v = (value.round() as i32).clamp(-INFINITY, INFINITY);
        self.shared.tt.store(
            key,
            Entry {
                move_index,
                score: score::to_tt(v, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        v
    }
}

/// How [`Worker::narrow`] orders an action: its root rank, then its history
/// and its hint (higher first), then its index in the list.
type NarrowKey = (u32, Reverse<i32>, Reverse<i32>, usize);

/// Each of `actions` with its rank by `key` (the smallest key ranks 0).
fn ranks<M: Copy + Eq + std::hash::Hash>(
    actions: &[M],
    key: impl Fn(usize) -> f64,
) -> FxHashMap<M, u32> {
    let mut order: Vec<usize> = (0..actions.len()).collect();
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
    order
        .iter()
        .enumerate()
        .map(|(r, &i)| (actions[i], r as u32))
        .collect()
}

/// Where the double oracle starts in a `rows × cols` game: the actions the
/// table remembers as most likely (`move_index`, row and column packed as
/// `row << 8 | column`), else the first of each.
pub fn matrix_start(move_index: Option<u16>, rows: usize, cols: usize) -> (usize, usize) {
    match move_index {
        Some(m) if ((m >> 8) as usize) < rows && ((m & 0xff) as usize) < cols => {
            ((m >> 8) as usize, (m & 0xff) as usize)
        }
        _ => (0, 0),
    }
}
