//! Simultaneous nodes: the matrix game of the joint actions, solved by the
//! double oracle within the window, narrowed below a matrix root to the
//! actions that did best there.

use super::{cutoff, Worker};
use crate::matrix::{solve_lazy, LazyGame, LazyOutcome, LazySolution};
use crate::params;
use crate::score::{self, INFINITY};
use crate::tt::{Bound, Entry};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{NodeRules, Player};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;

impl<'a, G: Evaluate> Worker<'a, G> {
    /// A simultaneous node: the value of the matrix game whose entries are
    /// the joint actions' values, solved by the double oracle, which
    /// searches only the entries it needs and stops as soon as the value is
    /// known to lie outside (`alpha`, `beta`) (then the result is a bound,
    /// as at a decision node). The table keeps the value and each player's
    /// most likely action, where the next search of the node starts.
    pub(super) fn simultaneous(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
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
            return self.evaluate(pos);
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
            alpha: f64::from(alpha),
            beta: f64::from(beta),
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
    pub(crate) fn narrow(&mut self, pos: &G, player: Player, actions: &mut Vec<G::Move>) {
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
        (!self.stopped()).then_some(f64::from(v))
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
pub(super) type NarrowKey = (u32, Reverse<i32>, Reverse<i32>, usize);

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
#[must_use]
pub fn matrix_start(move_index: Option<u16>, rows: usize, cols: usize) -> (usize, usize) {
    match move_index {
        Some(m) if ((m >> 8) as usize) < rows && ((m & 0xff) as usize) < cols => {
            ((m >> 8) as usize, (m & 0xff) as usize)
        }
        _ => (0, 0),
    }
}
