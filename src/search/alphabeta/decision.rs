//! Decision nodes: the transposition table, move ordering, principal-
//! variation search of the moves, and the selective prunings and
//! reductions (reverse futility, null move, futility, late-move
//! reductions) of [`Selective`](crate::params::Selective).

use super::{cutoff, Worker};
use crate::params::{CAPTURE_KEY, KILLER_KEY, LMR_TABLE, TT_MOVE_KEY};
use crate::score::{self, INFINITY, WIN_THRESHOLD};
use crate::tt::{Bound, Entry};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{Listing, Player};

/// Moves a decision node picks one at a time, before it sorts the rest:
/// most nodes that cut off do so within these, and sort nothing.
const PICKED: usize = 3;

/// Puts the `n`th move of the ordering at `list[n]`, where `list[..n]`
/// holds the first `n`: each of the first [`PICKED`] by picking the best
/// of the rest (the earliest of equal keys, the others keeping their
/// order), then all the others at once by a stable sort. The order is that
/// of a stable sort of the whole list by key, highest first.
fn put_in_order<M>(list: &mut [(i64, u32, M)], n: usize) {
    if n < PICKED {
        let rest = &mut list[n..];
        let mut best = 0;
        for (j, e) in rest.iter().enumerate().skip(1) {
            if e.0 > rest[best].0 {
                best = j;
            }
        }
        rest[..=best].rotate_right(1);
    } else if n == PICKED {
        list[n..].sort_by_key(|e| std::cmp::Reverse(e.0));
    }
}

impl<'a, G: Evaluate> Worker<'a, G> {
    /// Scores the moves of `pos` into `self.scored[ply]`, in the order
    /// they were listed ([`put_in_order`] orders them as the search
    /// reaches them), unless the listing was stopped or given up (then the
    /// list is empty).
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
                CAPTURE_KEY + i64::from(hint)
            } else if o.killers && self.heuristics.is_killer(ply, m) {
                KILLER_KEY
            } else if o.history {
                i64::from(self.heuristics.history(me.index(), &m))
            } else {
                0
            };
            list.push((key, i as u32, m));
        }
        listing
    }

    pub(super) fn decision(
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
                && depth <= self.tunables.rfp_max_depth
                && eval - self.tunables.rfp_margin * depth >= beta
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
                    && depth <= self.tunables.futility_max_depth
                    && eval + self.tunables.futility_margin * depth <= alpha =>
            {
                Some(eval + self.tunables.futility_margin * depth)
            }
            _ => None,
        };
        match self.order_moves(pos, ply, me, entry.and_then(|e| e.move_index)) {
            Listing::Stopped => return 0,
            Listing::GaveUp => return self.static_eval(pos),
            Listing::Complete | Listing::Partial => {}
        }
        let mut moves = std::mem::take(&mut self.scored[ply]);
        if moves.is_empty() {
            self.scored[ply] = moves;
            return self.evaluate(pos);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for n in 0..moves.len() {
            put_in_order(&mut moves, n);
            let (k, index, m) = moves[n];
            // A quiet move: neither the table's, nor a capture or a
            // killer.
            let quiet = k < KILLER_KEY && n > 0;
            if let (Some(bound), true) = (futile, quiet) {
                // Every later move is quiet too (its key is no higher),
                // and would be passed over with the same bound.
                best = best.max(bound);
                break;
            }
            let reduction = if sel.lmr
                && quiet
                && depth >= self.tunables.lmr_min_depth
                && n >= self.tunables.lmr_full_moves as usize
            {
                let r =
                    i32::from(self.lmr[(depth as usize).min(LMR_TABLE - 1)][n.min(LMR_TABLE - 1)]);
                (r - i32::from(pv_node)).clamp(0, depth - 2)
            } else {
                0
            };
            let child = pos.play(m);
            if depth > 1 {
                // The child looks in the table first: fetch its bucket meanwhile.
                self.shared.tt.prefetch(child.hash());
            }
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
            || depth < self.tunables.nmp_min_depth
            || eval < beta
        {
            return None;
        }
        let null = pos.null_move()?;
        let r = self.tunables.nmp_base + depth / self.tunables.nmp_depth_divisor;
        self.after_null[ply + 1] = true;
        let v = self.child_value(&null, depth - 1 - r, beta - 1, beta, ply + 1, me);
        self.after_null[ply + 1] = false;
        if self.stopped() || v < beta {
            return None;
        }
        let v = if v >= WIN_THRESHOLD { beta } else { v };
        if depth < self.tunables.nmp_verify_depth {
            return Some(v);
        }
        self.verifying = true;
        let check = self.decision(pos, depth - r, beta - 1, beta, ply, me);
        self.verifying = false;
        (check >= beta).then_some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Putting the moves in order one at a time gives the order of a
    /// stable sort by key, highest first, with many equal keys too.
    #[test]
    fn moves_put_in_order_follow_a_stable_sort() {
        let mut x = 99u64;
        for len in 0..40 {
            for spread in [1, 3, 100] {
                let list: Vec<(i64, u32, u32)> = (0..len)
                    .map(|i| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((x >> 40) as i64 % spread, i, i)
                    })
                    .collect();
                let mut sorted = list.clone();
                sorted.sort_by_key(|e| std::cmp::Reverse(e.0));
                let mut picked = list;
                for n in 0..picked.len() {
                    put_in_order(&mut picked, n);
                }
                assert_eq!(picked, sorted, "{len} {spread}");
            }
        }
    }
}
