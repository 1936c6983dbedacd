//! How well an evaluation orders positions as a solved game's table does:
//! on random reachable positions, how often the evaluation's sign agrees
//! with the exact value where the table says the game is decided, and the
//! rank correlation between the evaluation and the exact value (a quick
//! win above a slow one, a draw in between, a slow loss above a quick one).

use super::{Oracle, Value};
use crate::game::{NodeKind, Notation};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The longest random walk from the start that draws a position.
pub const MAX_WALK: u32 = 60;

/// What [`agreement`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// Of those, positions the table says are won or lost.
    pub decided: usize,
    /// Decided positions won by the side to move (the others are lost).
    pub won: usize,
    /// Of those, positions the evaluation scores above 0.
    pub won_right: usize,
    /// Lost positions the evaluation scores below 0.
    pub lost_right: usize,
    /// Spearman's rank correlation between the evaluation and the exact
    /// value over every position (ties ranked by their mean).
    pub rank_correlation: f64,
    /// The same over the decided positions only.
    pub decided_rank_correlation: f64,
}

impl Agreement {
    /// Decided positions lost by the side to move.
    #[must_use]
    pub fn lost(&self) -> usize {
        self.decided - self.won
    }

    /// Decided positions whose evaluation has the sign of the exact value
    /// (positive for a win).
    #[must_use]
    pub fn same_sign(&self) -> usize {
        self.won_right + self.lost_right
    }

    /// The share of decided positions whose sign is right.
    #[must_use]
    pub fn same_sign_share(&self) -> f64 {
        share(self.same_sign(), self.decided)
    }

    /// The mean of the shares right among won and among lost positions:
    /// what the sign agreement would be if wins and losses were equally
    /// common. An evaluation that always says "win" scores 0.5 here,
    /// however few losses the positions hold.
    #[must_use]
    pub fn balanced_share(&self) -> f64 {
        (share(self.won_right, self.won) + share(self.lost_right, self.lost())) / 2.0
    }
}

/// `part / whole`, 0 for an empty whole.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `count` distinct non-terminal positions reached by random walks from the
/// start of up to [`MAX_WALK`] plies, drawn from `seed`.
#[must_use]
pub fn random_positions<G: Notation>(count: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut attempts = 0usize;
    while out.len() < count && attempts < count.saturating_mul(20) {
        attempts += 1;
        let mut pos = G::start();
        for _ in 0..rng.gen_range(0..=MAX_WALK) {
            if !matches!(pos.node(), NodeKind::Decision(_)) {
                break;
            }
            pos.moves(&mut moves);
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        if matches!(pos.node(), NodeKind::Decision(_)) && seen.insert(pos.text()) {
            out.push(pos);
        }
    }
    out
}

/// What [`unseen`] kept of the positions, and what it left out.
#[derive(Clone, Debug)]
pub struct Unseen<G> {
    /// The positions none of the seen ones stands for, in their order.
    pub kept: Vec<G>,
    /// Positions left out because a seen position has the same text.
    pub same_text: usize,
    /// Positions left out because a seen position has the same table
    /// state ([`Oracle::state`]) under another text.
    pub same_state: usize,
    /// The distinct texts of the seen positions.
    pub seen_texts: usize,
    /// The distinct table states of the seen positions (0 where the table
    /// numbers no states).
    pub seen_states: usize,
}

/// `positions` without those that some text of `seen` stands for: the
/// same text, or where the table numbers its states, the same state.
pub fn unseen<G: Notation>(
    positions: Vec<G>,
    seen: impl IntoIterator<Item = String>,
    table: &dyn Oracle,
) -> Result<Unseen<G>, String> {
    let texts: rustc_hash::FxHashSet<String> = seen.into_iter().collect();
    let mut states = rustc_hash::FxHashSet::default();
    for text in &texts {
        if let Some(s) = table.state(text)? {
            states.insert(s);
        }
    }
    let (mut same_text, mut same_state) = (0, 0);
    let mut kept = Vec::with_capacity(positions.len());
    for pos in positions {
        let text = pos.text();
        if texts.contains(&text) {
            same_text += 1;
        } else if table.state(&text)?.is_some_and(|s| states.contains(&s)) {
            same_state += 1;
        } else {
            kept.push(pos);
        }
    }
    Ok(Unseen {
        kept,
        same_text,
        same_state,
        seen_texts: texts.len(),
        seen_states: states.len(),
    })
}

/// Whether table state `state` is one of those about one in `k` that
/// training data leaves out so that they stay unseen (`solve
/// --training-data --hold-out k`): picked by a hash of the state's number,
/// since state numbers follow the board's layout and a plain remainder
/// would pick boards alike.
#[must_use]
pub fn held_out(state: u64, k: u64) -> bool {
    (state.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32).is_multiple_of(k)
}

/// The order of exact values from the side to move's view: a loss in `d`
/// ranks below a loss in `d + 1`, which ranks below a draw, which ranks
/// below a win in `d + 1`, below a win in `d`.
#[must_use]
pub fn rank_key(v: Value) -> i64 {
    match v {
        Value::Win(d) => 1_000_000 - i64::from(d),
        Value::Draw => 0,
        Value::Loss(d) => -1_000_000 + i64::from(d),
    }
}

/// The ranks of `xs` (1 for the smallest), ties given their mean rank.
pub fn ranks<T: PartialOrd + Copy>(xs: &[T]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].partial_cmp(&xs[b]).expect("comparable"));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation of two equally long series (0 when either
/// is constant).
pub fn spearman<A: PartialOrd + Copy, B: PartialOrd + Copy>(a: &[A], b: &[B]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    if va == 0.0 || vb == 0.0 {
        0.0
    } else {
        cov / (va * vb).sqrt()
    }
}

/// Compares `evaluate` (side to move's view) with the table on
/// `positions`, which the table knows by their text.
pub fn agreement<G: Notation>(
    positions: &[G],
    table: &dyn Oracle,
    evaluate: impl Fn(&G) -> i32,
) -> Result<Agreement, String> {
    let (mut keys, mut evals) = (Vec::new(), Vec::new());
    let (mut decided_keys, mut decided_evals) = (Vec::new(), Vec::new());
    let (mut won, mut won_right, mut lost_right) = (0, 0, 0);
    for pos in positions {
        let value = table.probe(&pos.text())?.value;
        let e = evaluate(pos);
        let key = rank_key(value);
        if value != Value::Draw {
            decided_keys.push(key);
            decided_evals.push(e);
            if key > 0 {
                won += 1;
                won_right += usize::from(e > 0);
            } else {
                lost_right += usize::from(e < 0);
            }
        }
        keys.push(key);
        evals.push(e);
    }
    Ok(Agreement {
        positions: positions.len(),
        decided: decided_keys.len(),
        won,
        won_right,
        lost_right,
        rank_correlation: spearman(&evals, &keys),
        decided_rank_correlation: spearman(&decided_evals, &decided_keys),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_their_mean_rank() {
        assert_eq!(ranks(&[30, 10, 20, 10]), vec![4.0, 1.5, 3.0, 1.5]);
    }

    #[test]
    fn spearman_is_one_for_the_same_order_and_minus_one_reversed() {
        let a = [1, 5, 2, 9, 7];
        let b = [10.0, 50.0, 20.0, 90.0, 70.0];
        assert!((spearman(&a, &b) - 1.0).abs() < 1e-12);
        let c = [-1, -5, -2, -9, -7];
        assert!((spearman(&a, &c) + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&a, &[3, 3, 3, 3, 3]), 0.0);
    }

    #[test]
    fn quick_wins_rank_above_slow_ones_and_draws_between() {
        let order = [
            Value::Loss(0),
            Value::Loss(4),
            Value::Draw,
            Value::Win(7),
            Value::Win(1),
        ];
        assert!(order.windows(2).all(|w| rank_key(w[0]) < rank_key(w[1])));
    }
}
