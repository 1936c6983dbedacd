//! Zero-sum matrix games solved exactly: the value and both players'
//! optimal mixed strategies, by linear programming (the `microlp` solver).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// The solution of a matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The game's value for the row player.
    pub value: f64,
    /// The row player's optimal mixed strategy (probabilities per row).
    pub row: Vec<f64>,
    /// The column player's optimal mixed strategy (probabilities per column).
    pub col: Vec<f64>,
}

/// A pure strategy as a probability vector.
fn pure(n: usize, i: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[i] = 1.0;
    v
}

/// Solves the game with `rows × cols` payoffs to the row player (row-major
/// in `payoff`), who maximises; the column player minimises.
pub fn solve(payoff: &[f64], rows: usize, cols: usize) -> MatrixSolution {
    assert!(rows > 0 && cols > 0 && payoff.len() == rows * cols);
    let a = |i: usize, j: usize| payoff[i * cols + j];
    // A saddle point (pure equilibrium) needs no linear program.
    let (mut lower, mut best_row) = (f64::NEG_INFINITY, 0);
    for i in 0..rows {
        let worst = (0..cols).map(|j| a(i, j)).fold(f64::INFINITY, f64::min);
        if worst > lower {
            lower = worst;
            best_row = i;
        }
    }
    let (mut upper, mut best_col) = (f64::INFINITY, 0);
    for j in 0..cols {
        let worst = (0..rows).map(|i| a(i, j)).fold(f64::NEG_INFINITY, f64::max);
        if worst < upper {
            upper = worst;
            best_col = j;
        }
    }
    if lower >= upper {
        return MatrixSolution {
            value: lower,
            row: pure(rows, best_row),
            col: pure(cols, best_col),
        };
    }
    // Entries scaled to within ±1 keep the simplex well conditioned.
    let scale = payoff.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    let scaled: Vec<f64> = payoff.iter().map(|a| a / scale).collect();
    match (
        maximin(&scaled, rows, cols, false),
        maximin(&scaled, rows, cols, true),
    ) {
        (Some((value, row)), Some((_, col))) => MatrixSolution {
            value: value * scale,
            row,
            col,
        },
        // The solver gave up on a numerically awkward game: approximate.
        _ => fictitious_play(payoff, rows, cols, FALLBACK_ROUNDS),
    }
}

/// Rounds of fictitious play when the linear program fails.
const FALLBACK_ROUNDS: usize = 20_000;

/// An approximate solution by fictitious play (Brown 1951; Robinson 1951):
/// each player in turn plays a best response to the other's empirical mix
/// so far; the mixes converge to optimal strategies, and the value lies
/// between the row mix's guarantee and the column mix's concession, whose
/// midpoint is returned.
pub fn fictitious_play(payoff: &[f64], rows: usize, cols: usize, rounds: usize) -> MatrixSolution {
    let a = |i: usize, j: usize| payoff[i * cols + j];
    let argmax = |v: &[f64]| (0..v.len()).fold(0, |b, k| if v[k] > v[b] { k } else { b });
    let argmin = |v: &[f64]| (0..v.len()).fold(0, |b, k| if v[k] < v[b] { k } else { b });
    let mut row_count = vec![0usize; rows];
    let mut col_count = vec![0usize; cols];
    // Payoff of each row against the column mix so far, and of each column
    // against the row mix so far (sums, not means).
    let mut row_gain = vec![0.0; rows];
    let mut col_loss = vec![0.0; cols];
    let mut i = 0;
    for _ in 0..rounds.max(1) {
        row_count[i] += 1;
        for (j, l) in col_loss.iter_mut().enumerate() {
            *l += a(i, j);
        }
        let j = argmin(&col_loss);
        col_count[j] += 1;
        for (k, g) in row_gain.iter_mut().enumerate() {
            *g += a(k, j);
        }
        i = argmax(&row_gain);
    }
    let mix = |c: &[usize]| {
        let n: usize = c.iter().sum();
        c.iter().map(|&k| k as f64 / n as f64).collect::<Vec<f64>>()
    };
    let (row, col) = (mix(&row_count), mix(&col_count));
    let guarantee = (0..cols)
        .map(|j| (0..rows).map(|i| row[i] * a(i, j)).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    let concession = (0..rows)
        .map(|i| (0..cols).map(|j| col[j] * a(i, j)).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    MatrixSolution {
        value: (guarantee + concession) / 2.0,
        row,
        col,
    }
}

/// The row player's maximin strategy and value (or, with `transpose`, the
/// column player's minimax strategy, solved as the row player of −Aᵀ);
/// `None` if the solver fails.
fn maximin(payoff: &[f64], rows: usize, cols: usize, transpose: bool) -> Option<(f64, Vec<f64>)> {
    let (n, m) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let entry = |i: usize, j: usize| {
        if transpose {
            -payoff[j * cols + i]
        } else {
            payoff[i * cols + j]
        }
    };
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    let x: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)), ComparisonOp::Eq, 1.0);
    for j in 0..m {
        let terms = x
            .iter()
            .enumerate()
            .map(|(i, &xi)| (xi, entry(i, j)))
            .chain(std::iter::once((v, -1.0)));
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    let solution = lp.solve().ok().and_then(|o| o.into_solution().ok())?;
    let mut p: Vec<f64> = x
        .iter()
        .map(|&xi| solution.var_value(xi).max(0.0))
        .collect();
    let total: f64 = p.iter().sum();
    let value = solution.var_value(v);
    if !(total > 0.0 && value.is_finite()) {
        return None;
    }
    for q in &mut p {
        *q /= total;
    }
    Some((if transpose { -value } else { value }, p))
}

/// The solution of a matrix game whose entries are computed on demand, and
/// how many of them were.
#[derive(Clone, Debug, PartialEq)]
pub struct LazySolution {
    /// The exact solution of the whole game.
    pub solution: MatrixSolution,
    /// How many entries were computed (of `rows × cols`).
    pub evaluated: usize,
    /// Each row's payoff against the column player's strategy (the value
    /// at most: equal for the rows of the support).
    pub row_payoffs: Vec<f64>,
    /// Each column's payoff against the row player's strategy (the value
    /// at least).
    pub col_payoffs: Vec<f64>,
}

/// What a lazy solve established: the solution, or a bound on the value
/// that lies outside the window it was asked about.
#[derive(Clone, Debug, PartialEq)]
pub enum LazyOutcome {
    /// The exact solution.
    Solved(LazySolution),
    /// The value is at most this, which is at most the window's lower end;
    /// with the row player's best response and the column player's most
    /// likely action that prove it.
    AtMost(f64, (usize, usize)),
    /// The value is at least this, which is at least the window's upper
    /// end; with the row player's most likely action and the column
    /// player's best response that prove it.
    AtLeast(f64, (usize, usize)),
}

impl LazyOutcome {
    /// The row and the column most worth starting from next time: the
    /// most likely actions of the solution, or those that proved the bound.
    #[must_use]
    pub fn likely(&self) -> (usize, usize) {
        let argmax = |p: &[f64]| (0..p.len()).fold(0, |b, k| if p[k] > p[b] { k } else { b });
        match self {
            LazyOutcome::Solved(s) => (argmax(&s.solution.row), argmax(&s.solution.col)),
            LazyOutcome::AtMost(_, rc) | LazyOutcome::AtLeast(_, rc) => *rc,
        }
    }
}

/// How to solve a game lazily: its size, where the oracle starts, and the
/// window of values worth distinguishing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LazyGame {
    /// Number of row actions.
    pub rows: usize,
    /// Number of column actions.
    pub cols: usize,
    /// The row and column the restricted game starts with (the best guess
    /// of each player's action, e.g. from a shallower search).
    pub start: (usize, usize),
    /// Values at or below `alpha` need not be told apart.
    pub alpha: f64,
    /// Values at or above `beta` need not be told apart.
    pub beta: f64,
    /// Compute every entry first (the full matrix game) instead of growing
    /// a restricted game.
    pub full: bool,
}

impl LazyGame {
    /// A `rows × cols` game solved exactly from its first row and column.
    #[must_use]
    pub fn new(rows: usize, cols: usize) -> LazyGame {
        LazyGame {
            rows,
            cols,
            start: (0, 0),
            alpha: f64::NEG_INFINITY,
            beta: f64::INFINITY,
            full: false,
        }
    }
}

/// The action of largest probability in a strategy given as (action,
/// probability) pairs.
fn most_likely(strategy: &[(usize, f64)]) -> usize {
    strategy
        .iter()
        .fold(
            (0, f64::NEG_INFINITY),
            |b, &(a, q)| if q > b.1 { (a, q) } else { b },
        )
        .0
}

/// The entries of a lazily solved game computed so far.
struct Known {
    cols: usize,
    cache: Vec<Option<f64>>,
    evaluated: usize,
    wanted: Vec<(usize, usize)>,
}

impl Known {
    /// Computes the entries of `cells` (distinct) not yet known, in one
    /// batch; `None` if `entries` gave up.
    fn fetch(
        &mut self,
        cells: impl Iterator<Item = (usize, usize)>,
        entries: &mut impl FnMut(&[(usize, usize)]) -> Option<Vec<f64>>,
    ) -> Option<()> {
        self.wanted.clear();
        for (i, j) in cells {
            if self.cache[i * self.cols + j].is_none() {
                self.wanted.push((i, j));
            }
        }
        if self.wanted.is_empty() {
            return Some(());
        }
        let values = entries(&self.wanted)?;
        for (&(i, j), v) in self.wanted.iter().zip(values) {
            self.cache[i * self.cols + j] = Some(v);
        }
        self.evaluated += self.wanted.len();
        Some(())
    }

    /// A computed entry.
    fn at(&self, i: usize, j: usize) -> f64 {
        self.cache[i * self.cols + j].expect("entry computed before use")
    }
}

/// Solves game `g` whose entry (i, j) costs a search to compute, by the
/// double oracle (McMahan, Gordon and Blum 2003; Bošanský et al. 2016):
/// solve the game restricted to a few actions, add each player's best
/// response to the other's restricted strategy, and stop when neither best
/// response improves on the restricted value — then the restricted
/// equilibrium is an equilibrium of the whole game. A best response needs
/// only the entries against the opponent's support, so most entries of a
/// game with small supports are never computed.
///
/// Each round also bounds the value: the row player's best response to the
/// column strategy is an upper bound, the column player's best response to
/// the row strategy a lower bound. As soon as one leaves the window
/// (`alpha`, `beta`) the solve stops with that bound (the double-oracle
/// alpha-beta of Bošanský et al.).
///
/// `entries` computes a batch of entries (row, column) in order, or returns
/// `None` to abandon the solve (a search stopped by its clock); batches let
/// the caller compute them in parallel.
pub fn solve_lazy(
    g: &LazyGame,
    mut entries: impl FnMut(&[(usize, usize)]) -> Option<Vec<f64>>,
) -> Option<LazyOutcome> {
    let (rows, cols) = (g.rows, g.cols);
    assert!(rows > 0 && cols > 0 && g.start.0 < rows && g.start.1 < cols);
    let mut known = Known {
        cols,
        cache: vec![None; rows * cols],
        evaluated: 0,
        wanted: Vec::new(),
    };
    let (mut r_set, mut c_set) = if g.full {
        ((0..rows).collect(), (0..cols).collect())
    } else {
        (vec![g.start.0], vec![g.start.1])
    };
    let (alpha, beta) = if g.full {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        (g.alpha, g.beta)
    };
    loop {
        known.fetch(
            r_set
                .iter()
                .flat_map(|&i| c_set.iter().map(move |&j| (i, j))),
            &mut entries,
        )?;
        let at = |i: usize, j: usize| known.at(i, j);
        let sub: Vec<f64> = r_set
            .iter()
            .flat_map(|&i| c_set.iter().map(move |&j| (i, j)))
            .map(|(i, j)| at(i, j))
            .collect();
        let s = solve(&sub, r_set.len(), c_set.len());
        let eps = 1e-9 * (1.0 + s.value.abs());
        let y: Vec<(usize, f64)> = c_set
            .iter()
            .zip(&s.col)
            .filter(|(_, &q)| q > 0.0)
            .map(|(&j, &q)| (j, q))
            .collect();
        let x: Vec<(usize, f64)> = r_set
            .iter()
            .zip(&s.row)
            .filter(|(_, &q)| q > 0.0)
            .map(|(&i, &q)| (i, q))
            .collect();
        // The row player's best response to the column strategy.
        known.fetch(
            (0..rows).flat_map(|i| y.iter().map(move |&(j, _)| (i, j))),
            &mut entries,
        )?;
        let at = |i: usize, j: usize| known.at(i, j);
        let row_payoffs: Vec<f64> = (0..rows)
            .map(|i| y.iter().map(|&(j, q)| q * at(i, j)).sum())
            .collect();
        let (mut best_row, mut best_u) = (0, f64::NEG_INFINITY);
        for (i, &u) in row_payoffs.iter().enumerate() {
            if u > best_u {
                best_u = u;
                best_row = i;
            }
        }
        if best_u <= alpha {
            return Some(LazyOutcome::AtMost(best_u, (best_row, most_likely(&y))));
        }
        // The column player's best response to the row strategy.
        known.fetch(
            x.iter().flat_map(|&(i, _)| (0..cols).map(move |j| (i, j))),
            &mut entries,
        )?;
        let at = |i: usize, j: usize| known.at(i, j);
        let col_payoffs: Vec<f64> = (0..cols)
            .map(|j| x.iter().map(|&(i, q)| q * at(i, j)).sum())
            .collect();
        let (mut best_col, mut best_w) = (0, f64::INFINITY);
        for (j, &w) in col_payoffs.iter().enumerate() {
            if w < best_w {
                best_w = w;
                best_col = j;
            }
        }
        if best_w >= beta {
            return Some(LazyOutcome::AtLeast(best_w, (most_likely(&x), best_col)));
        }
        let grow_rows = best_u > s.value + eps && !r_set.contains(&best_row);
        let grow_cols = best_w < s.value - eps && !c_set.contains(&best_col);
        if !grow_rows && !grow_cols {
            let mut row = vec![0.0; rows];
            for (k, &i) in r_set.iter().enumerate() {
                row[i] = s.row[k];
            }
            let mut col = vec![0.0; cols];
            for (k, &j) in c_set.iter().enumerate() {
                col[j] = s.col[k];
            }
            return Some(LazyOutcome::Solved(LazySolution {
                solution: MatrixSolution {
                    value: s.value,
                    row,
                    col,
                },
                evaluated: known.evaluated,
                row_payoffs,
                col_payoffs,
            }));
        }
        if grow_rows {
            r_set.push(best_row);
        }
        if grow_cols {
            c_set.push(best_col);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// The row player's guaranteed payoff with strategy `x`.
    fn guarantee(payoff: &[f64], rows: usize, cols: usize, x: &[f64]) -> f64 {
        (0..cols)
            .map(|j| (0..rows).map(|i| x[i] * payoff[i * cols + j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    }

    /// The most the column player concedes with strategy `y`.
    fn concession(payoff: &[f64], rows: usize, cols: usize, y: &[f64]) -> f64 {
        (0..rows)
            .map(|i| (0..cols).map(|j| y[j] * payoff[i * cols + j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn matching_pennies_is_a_fair_coin() {
        let s = solve(&[1.0, -1.0, -1.0, 1.0], 2, 2);
        assert!(close(s.value, 0.0));
        assert!(close(s.row[0], 0.5) && close(s.col[1], 0.5));
    }

    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let p = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = solve(&p, 3, 3);
        assert!(close(s.value, 0.0));
        for q in s.row.iter().chain(&s.col) {
            assert!(close(*q, 1.0 / 3.0));
        }
    }

    #[test]
    fn a_saddle_point_is_played_pure() {
        // Row 1 dominates row 0; column 0 dominates column 1 for the minimiser.
        let s = solve(&[1.0, 4.0, 3.0, 5.0], 2, 2);
        assert!(close(s.value, 3.0));
        assert_eq!(s.row, vec![0.0, 1.0]);
        assert_eq!(s.col, vec![1.0, 0.0]);
    }

    #[test]
    fn dominated_rows_get_no_weight() {
        // Row 2 is dominated by row 0; the rest is a 2×2 mixed game
        // [[3,-1],[-1,1]] of value 1/3 with x = (1/3, 2/3).
        let p = [3.0, -1.0, -1.0, 1.0, 2.0, -2.0];
        let s = solve(&p, 3, 2);
        assert!(close(s.value, 1.0 / 3.0), "{}", s.value);
        assert!(close(s.row[2], 0.0));
        assert!(close(s.row[0], 1.0 / 3.0));
        assert!(close(s.col[0], 1.0 / 3.0));
    }

    /// The value of a game by brute force over the row player's supports:
    /// for every square subset of rows and columns, the equalising strategy
    /// (solved by Gaussian elimination) if it exists and is optimal.
    fn brute_value(payoff: &[f64], rows: usize, cols: usize) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for rs in 1u32..(1 << rows) {
            for cs in 1u32..(1 << cols) {
                let ri: Vec<usize> = (0..rows).filter(|i| rs >> i & 1 == 1).collect();
                let ci: Vec<usize> = (0..cols).filter(|j| cs >> j & 1 == 1).collect();
                if ri.len() != ci.len() {
                    continue;
                }
                let k = ri.len();
                // Unknowns x_0..x_{k-1}, v: Σ x_r A[r][c] - v = 0 for c in ci; Σ x = 1.
                let mut m = vec![vec![0.0; k + 2]; k + 1];
                for (e, &c) in ci.iter().enumerate() {
                    for (t, &r) in ri.iter().enumerate() {
                        m[e][t] = payoff[r * cols + c];
                    }
                    m[e][k] = -1.0;
                }
                m[k][..k].fill(1.0);
                m[k][k + 1] = 1.0;
                if let Some(sol) = gauss(m) {
                    let mut x = vec![0.0; rows];
                    for (t, &r) in ri.iter().enumerate() {
                        x[r] = sol[t];
                    }
                    if x.iter().all(|&q| q >= -1e-9) {
                        best = best.max(guarantee(payoff, rows, cols, &x));
                    }
                }
            }
        }
        best
    }

    fn gauss(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
        let n = m.len();
        for c in 0..n {
            let p = (c..n).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
            if m[p][c].abs() < 1e-12 {
                return None;
            }
            m.swap(c, p);
            let pivot = m[c].clone();
            for (r, row) in m.iter_mut().enumerate() {
                if r != c {
                    let f = row[c] / pivot[c];
                    for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                        *x -= f * p;
                    }
                }
            }
        }
        Some((0..n).map(|r| m[r][n] / m[r][r]).collect())
    }

    /// Lazy solves of `p` one entry at a time.
    fn solve_each(p: &[f64], g: &LazyGame) -> Option<LazyOutcome> {
        solve_lazy(g, |cells| {
            Some(cells.iter().map(|&(i, j)| p[i * g.cols + j]).collect())
        })
    }

    #[test]
    fn the_double_oracle_solves_exactly_and_skips_entries() {
        let mut seed = 99u64;
        let mut next = || {
            seed = gamut_core::bits::splitmix64(seed);
            (seed % 41) as f64 - 20.0
        };
        let mut skipped = 0;
        for (rows, cols) in [(1, 1), (2, 3), (5, 5), (8, 6), (12, 12)] {
            for k in 0..20 {
                let p: Vec<f64> = (0..rows * cols).map(|_| next()).collect();
                let full = solve(&p, rows, cols);
                let mut g = LazyGame::new(rows, cols);
                g.start = (k % rows, k % cols);
                let Some(LazyOutcome::Solved(lazy)) = solve_each(&p, &g) else {
                    panic!("a full window always solves");
                };
                assert!(close(lazy.solution.value, full.value), "{p:?}");
                let s = &lazy.solution;
                assert!(close(guarantee(&p, rows, cols, &s.row), s.value));
                assert!(close(concession(&p, rows, cols, &s.col), s.value));
                skipped += rows * cols - lazy.evaluated;
                // Each action's payoff against the other's strategy, from
                // the whole matrix: at most (rows) or at least (columns)
                // the value.
                for i in 0..rows {
                    let u: f64 = (0..cols).map(|j| s.col[j] * p[i * cols + j]).sum();
                    assert!(close(lazy.row_payoffs[i], u) && u <= s.value + 1e-6);
                }
                for j in 0..cols {
                    let w: f64 = (0..rows).map(|i| s.row[i] * p[i * cols + j]).sum();
                    assert!(close(lazy.col_payoffs[j], w) && w >= s.value - 1e-6);
                }
                // The full-matrix switch computes every entry.
                g.full = true;
                let Some(LazyOutcome::Solved(all)) = solve_each(&p, &g) else {
                    panic!("the full matrix always solves");
                };
                assert_eq!(all.evaluated, rows * cols);
                assert!(close(all.solution.value, full.value));
            }
        }
        assert!(skipped > 0, "the oracle never skipped an entry");
        // A stopped search abandons the solve.
        assert_eq!(solve_lazy(&LazyGame::new(2, 2), |_| None), None);
    }

    #[test]
    fn a_window_gives_a_bound_beyond_it_or_the_value_within_it() {
        let mut seed = 7u64;
        let mut next = || {
            seed = gamut_core::bits::splitmix64(seed);
            (seed % 41) as f64 - 20.0
        };
        let mut bounded = 0;
        for _ in 0..300 {
            let (rows, cols) = (6, 7);
            let p: Vec<f64> = (0..rows * cols).map(|_| next()).collect();
            let v = solve(&p, rows, cols).value;
            let a = next() / 2.0;
            let g = LazyGame {
                alpha: a,
                beta: a + 3.0,
                ..LazyGame::new(rows, cols)
            };
            match solve_each(&p, &g).unwrap() {
                LazyOutcome::Solved(s) => assert!(close(s.solution.value, v)),
                LazyOutcome::AtMost(u, _) => {
                    assert!(u <= g.alpha && v <= u + 1e-9, "{v} {u}");
                    bounded += 1;
                }
                LazyOutcome::AtLeast(w, _) => {
                    assert!(w >= g.beta && v >= w - 1e-9, "{v} {w}");
                    bounded += 1;
                }
            }
        }
        assert!(bounded > 0, "no window was ever decided early");
    }

    #[test]
    fn awkward_games_are_still_solved() {
        // Entries over twenty-four orders of magnitude.
        let p = [1e12, -1e-12, -3e11, 2e-12, 5.0, -7e11, 1e-12, 4e11, -2.0];
        let s = solve(&p, 3, 3);
        let tol = 1e-6 * 1e12;
        assert!((guarantee(&p, 3, 3, &s.row) - s.value).abs() < tol);
        assert!((concession(&p, 3, 3, &s.col) - s.value).abs() < tol);
        // The fallback when the solver fails: fictitious play approaches
        // the value and optimal strategies.
        let rps = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let f = fictitious_play(&rps, 3, 3, 20_000);
        assert!(f.value.abs() < 0.01, "{}", f.value);
        assert!(guarantee(&rps, 3, 3, &f.row) > -0.01);
        assert!(concession(&rps, 3, 3, &f.col) < 0.01);
        let g = fictitious_play(&[3.0, -1.0, -1.0, 1.0, 2.0, -2.0], 3, 2, 20_000);
        assert!((g.value - 1.0 / 3.0).abs() < 0.01, "{}", g.value);
    }

    /// Whatever the linear program gives (an optimum, a failure to solve,
    /// entries at the ends of the float range), `solve` returns mixed
    /// strategies and a value within the payoffs' range, and never panics.
    #[test]
    fn extreme_games_never_abort_the_solve() {
        let big = f64::MAX;
        let tiny = f64::MIN_POSITIVE;
        let games: [(&[f64], usize, usize); 6] = [
            (&[big, -big, -big, big], 2, 2),
            (&[big, -big, 0.0, -big, big, 0.0], 2, 3),
            (&[tiny, -tiny, -tiny, tiny], 2, 2),
            (
                &[
                    1e300, -1e-300, -1e300, 1e-300, 1.0, -1.0, 0.5, 1e300, -1e300,
                ],
                3,
                3,
            ),
            (&[big, -tiny, -big, tiny, 1.0, -big, tiny, big, -1.0], 3, 3),
            (&[0.0; 16], 4, 4),
        ];
        for (p, rows, cols) in games {
            for s in [solve(p, rows, cols), fictitious_play(p, rows, cols, 1000)] {
                let lo = p.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = p.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                assert!(s.value >= lo && s.value <= hi, "{p:?}: value {}", s.value);
                for mix in [&s.row, &s.col] {
                    assert!(
                        mix.iter().all(|q| (0.0..=1.0).contains(q)),
                        "{p:?}: {mix:?}"
                    );
                    assert!(close(mix.iter().sum(), 1.0), "{p:?}: {mix:?}");
                }
            }
        }
    }

    #[test]
    fn random_games_match_support_enumeration() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = gamut_core::bits::splitmix64(seed);
            (seed % 21) as f64 - 10.0
        };
        for rows in 1..=4 {
            for cols in 1..=4 {
                for _ in 0..20 {
                    let p: Vec<f64> = (0..rows * cols).map(|_| next()).collect();
                    let s = solve(&p, rows, cols);
                    let brute = brute_value(&p, rows, cols);
                    assert!(close(s.value, brute), "{p:?}: {} vs {brute}", s.value);
                    // Both strategies are optimal: each guarantees the value.
                    assert!(close(guarantee(&p, rows, cols, &s.row), s.value));
                    assert!(close(concession(&p, rows, cols, &s.col), s.value));
                    assert!(close(s.row.iter().sum(), 1.0) && close(s.col.iter().sum(), 1.0));
                }
            }
        }
    }
}
