//! Quiescence: beyond the horizon, captures ([`Evaluate::is_capture`])
//! only, on top of the static evaluation, until the position is quiet.

use super::Worker;
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{Listing, Player};

impl<'a, G: Evaluate> Worker<'a, G> {
    /// Captures ([`Evaluate::is_capture`]) only, on top of the static
    /// evaluation, until the position is quiet.
    pub(super) fn quiescence(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        me: Player,
    ) -> i32 {
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
                .filter(|&&m| pos.is_capture(m))
                .map(|&m| (i64::from(pos.move_hint(m)), 0, m)),
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
}
