//! Chance nodes: expectimax over the outcomes, with Ballard's Star1
//! pruning inside a window.

use super::Worker;
use crate::score::{self, chance_value, INFINITY};
use gamut_core::evaluate::{Evaluate, EVAL_LIMIT};
use gamut_core::game::NodeRules;

impl<'a, G: Evaluate> Worker<'a, G> {
    /// Expectimax: the outcomes' values combined by
    /// [`chance_value`](score::chance_value) (the probability-weighted mean,
    /// with proven results counting ±[`EVAL_LIMIT`]). With `Config::star1`
    /// and a window inside ±`EVAL_LIMIT`, Ballard's Star1 pruning: each
    /// outcome is searched with the window that could still move the mean
    /// across (`alpha`, `beta`), and the node fails low or high as soon as
    /// the outcomes searched so far decide it.
    pub(super) fn chance(&mut self, pos: &G, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let me = pos.perspective();
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        let mut values = std::mem::take(&mut self.chance_values[ply]);
        pos.moves_with(&mut outcomes, &mut self.game_scratch);
        values.clear();
        let limit = f64::from(EVAL_LIMIT);
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
                let a = (f64::from(alpha) - sum - rest * limit) / p;
                let b = (f64::from(beta) - sum + rest * limit) / p;
                if a >= limit {
                    cut = Some(alpha);
                    break;
                }
                if b <= -limit {
                    cut = Some(beta);
                    break;
                }
                let lo = -i64::from(EVAL_LIMIT) - 1;
                let hi = i64::from(EVAL_LIMIT) + 1;
                let ca = (a.floor() as i64 - 1).clamp(lo, hi) as i32;
                let cb = (b.ceil() as i64 + 1).clamp(lo, hi) as i32;
                let v = self.child_value(&child, depth, ca, cb, ply + 1, me);
                let c = f64::from(score::chance_clamp(v));
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
            sum += p * f64::from(score::chance_clamp(v));
            values.push((p, v));
        }
        let value = cut.unwrap_or_else(|| chance_value(values.iter().copied()));
        self.outcomes[ply] = outcomes;
        self.chance_values[ply] = values;
        value
    }
}
