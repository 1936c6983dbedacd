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
    let (value, row) = maximin(payoff, rows, cols, false);
    let (_, col) = maximin(payoff, rows, cols, true);
    MatrixSolution { value, row, col }
}

/// The row player's maximin strategy and value (or, with `transpose`, the
/// column player's minimax strategy, solved as the row player of −Aᵀ).
fn maximin(payoff: &[f64], rows: usize, cols: usize, transpose: bool) -> (f64, Vec<f64>) {
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
    let solution = lp
        .solve()
        .ok()
        .and_then(|o| o.into_solution().ok())
        .expect("a matrix game always has a bounded, feasible linear program");
    let mut p: Vec<f64> = x
        .iter()
        .map(|&xi| solution.var_value(xi).max(0.0))
        .collect();
    let total: f64 = p.iter().sum();
    for q in &mut p {
        *q /= total;
    }
    let value = solution.var_value(v);
    (if transpose { -value } else { value }, p)
}

/// The solution of a matrix game whose entries are computed on demand, and
/// how many of them were.
#[derive(Clone, Debug, PartialEq)]
pub struct LazySolution {
    /// The exact solution of the whole game.
    pub solution: MatrixSolution,
    /// How many entries were computed (of `rows × cols`).
    pub evaluated: usize,
}

/// Solves a `rows × cols` game whose entry (i, j) costs a search to compute,
/// by the double oracle (McMahan, Gordon and Blum 2003; Bošanský et al.
/// 2016): solve the game restricted to a few actions, add each player's best
/// response to the other's restricted strategy, and stop when neither best
/// response improves on the restricted value — then the restricted
/// equilibrium is an equilibrium of the whole game. A best response needs
/// only the entries against the opponent's support, so most entries of a
/// game with small supports are never computed. `entry` may return `None`
/// to abandon the solve (a search stopped by its clock).
pub fn solve_lazy(
    rows: usize,
    cols: usize,
    mut entry: impl FnMut(usize, usize) -> Option<f64>,
) -> Option<LazySolution> {
    assert!(rows > 0 && cols > 0);
    let mut cache: Vec<Option<f64>> = vec![None; rows * cols];
    let mut evaluated = 0;
    let mut get = |i: usize, j: usize| -> Option<f64> {
        if let Some(v) = cache[i * cols + j] {
            return Some(v);
        }
        let v = entry(i, j)?;
        cache[i * cols + j] = Some(v);
        evaluated += 1;
        Some(v)
    };
    let mut r_set = vec![0usize];
    let mut c_set = vec![0usize];
    loop {
        let mut sub = Vec::with_capacity(r_set.len() * c_set.len());
        for &i in &r_set {
            for &j in &c_set {
                sub.push(get(i, j)?);
            }
        }
        let s = solve(&sub, r_set.len(), c_set.len());
        let eps = 1e-9 * (1.0 + s.value.abs());
        // The row player's best response to the column strategy.
        let (mut best_row, mut best_u) = (0, f64::NEG_INFINITY);
        for i in 0..rows {
            let mut u = 0.0;
            for (k, &j) in c_set.iter().enumerate() {
                if s.col[k] > 0.0 {
                    u += s.col[k] * get(i, j)?;
                }
            }
            if u > best_u {
                best_u = u;
                best_row = i;
            }
        }
        // The column player's best response to the row strategy.
        let (mut best_col, mut best_w) = (0, f64::INFINITY);
        for j in 0..cols {
            let mut w = 0.0;
            for (k, &i) in r_set.iter().enumerate() {
                if s.row[k] > 0.0 {
                    w += s.row[k] * get(i, j)?;
                }
            }
            if w < best_w {
                best_w = w;
                best_col = j;
            }
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
            return Some(LazySolution {
                solution: MatrixSolution {
                    value: s.value,
                    row,
                    col,
                },
                evaluated,
            });
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

    #[test]
    fn the_double_oracle_solves_exactly_and_skips_entries() {
        let mut seed = 99u64;
        let mut next = || {
            seed = crate::bits::splitmix64(seed);
            (seed % 41) as f64 - 20.0
        };
        let mut skipped = 0;
        for (rows, cols) in [(1, 1), (2, 3), (5, 5), (8, 6), (12, 12)] {
            for _ in 0..20 {
                let p: Vec<f64> = (0..rows * cols).map(|_| next()).collect();
                let full = solve(&p, rows, cols);
                let lazy = solve_lazy(rows, cols, |i, j| Some(p[i * cols + j])).unwrap();
                assert!(close(lazy.solution.value, full.value), "{p:?}");
                let s = &lazy.solution;
                assert!(close(guarantee(&p, rows, cols, &s.row), s.value));
                assert!(close(concession(&p, rows, cols, &s.col), s.value));
                skipped += rows * cols - lazy.evaluated;
            }
        }
        assert!(skipped > 0, "the oracle never skipped an entry");
        // A stopped search abandons the solve.
        assert_eq!(solve_lazy(2, 2, |_, _| None), None);
    }

    #[test]
    fn random_games_match_support_enumeration() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = crate::bits::splitmix64(seed);
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
