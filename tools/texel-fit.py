#!/usr/bin/env python3
"""Fits evaluation weights to game results (Texel's method).

usage: tools/texel-fit.py <data.tsv> [--anchor TERM]

<data.tsv> comes from `cargo run --release -p gamut-eval-terms --
<records.jsonl>...`: a header (`result` and the term names), then per
position the result for the side to move (1, 0.5, 0) and each term's value
alone under the current weights.

The fit is a logistic regression of the result on the term values:
P(win) = 1 / (1 + exp(-sum_i c_i * x_i)), by Newton's method on the log
loss (a draw counts as half a win and half a loss). The multipliers
c_i / c_anchor say how each term's weights should change relative to the
anchor term's (default: the first term), which stays as it is, so that the
evaluation keeps its scale (search margins are in evaluation points).
Prints per term the multiplier with a 95% interval (from the inverse
Hessian, by the delta method), and the log loss before (all multipliers
1, the best common scale) and after.
"""
import math
import sys


def read(path):
    with open(path) as f:
        names = f.readline().rstrip("\n").split("\t")[1:]
        ys, xs = [], []
        for line in f:
            parts = line.split("\t")
            ys.append(float(parts[0]))
            xs.append([float(v) for v in parts[1:]])
    return names, ys, xs


def loss_grad_hess(w, ys, xs):
    """Mean log loss, its gradient and Hessian at coefficients w."""
    k = len(w)
    loss = 0.0
    g = [0.0] * k
    h = [[0.0] * k for _ in range(k)]
    for y, x in zip(ys, xs):
        z = sum(wi * xi for wi, xi in zip(w, x))
        z = max(-40.0, min(40.0, z))
        p = 1.0 / (1.0 + math.exp(-z))
        eps = 1e-12
        loss -= y * math.log(p + eps) + (1 - y) * math.log(1 - p + eps)
        d = p - y
        v = p * (1 - p)
        for i in range(k):
            g[i] += d * x[i]
            vx = v * x[i]
            for j in range(i, k):
                h[i][j] += vx * x[j]
    n = len(ys)
    for i in range(k):
        g[i] /= n
        for j in range(i, k):
            h[i][j] /= n
            h[j][i] = h[i][j]
    return loss / n, g, h


def solve(a, b):
    """Solves a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-18:
            raise ValueError("singular: a term is constant or two terms move together")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def inverse(a):
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def newton(w, ys, xs, steps=30):
    loss = None
    for _ in range(steps):
        loss, g, h = loss_grad_hess(w, ys, xs)
        step = solve(h, g)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-12:
            break
    loss, g, h = loss_grad_hess(w, ys, xs)
    return w, loss, h


def main():
    args = sys.argv[1:]
    anchor = None
    if "--anchor" in args:
        i = args.index("--anchor")
        if i + 1 >= len(args):
            sys.exit("--anchor needs a term name")
        anchor = args[i + 1]
        del args[i : i + 2]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    names, ys, xs = read(args[0])
    if not ys:
        sys.exit("no positions in the data")
    # Terms that are zero throughout cannot be fitted: left as they are.
    live = [i for i in range(len(names)) if any(x[i] != 0 for x in xs)]
    a = names.index(anchor) if anchor else live[0]
    if a not in live:
        sys.exit(f"anchor term {names[a]} is zero in every position")
    xl = [[x[i] for i in live] for x in xs]
    # Before: the current weights with the best common scale.
    totals = [[sum(x)] for x in xl]
    (scale,), before, _ = newton([0.001], ys, totals)
    w, after, h = newton([scale] * len(live), ys, xl)
    cov = inverse(h)
    n = len(ys)
    ai = live.index(a)
    wins = sum(1 for y in ys if y == 1.0)
    draws = sum(1 for y in ys if y == 0.5)
    print(f"positions {n} (side to move won {wins}, drew {draws}, lost {n - wins - draws})")
    print(f"log loss  current weights {before:.5f} (scale {scale:.6f}), fitted {after:.5f}")
    print(f"{'term':<14} {'multiplier':>10}   95% interval")
    for k, i in enumerate(live):
        r = w[k] / w[ai]
        # Delta method for the ratio w_k / w_a; the covariance is of the mean
        # loss, so divide by n.
        if k == ai:
            lo = hi = 1.0
        else:
            dk, da = 1 / w[ai], -w[k] / w[ai] ** 2
            var = (dk * dk * cov[k][k] + 2 * dk * da * cov[k][ai] + da * da * cov[ai][ai]) / n
            sd = math.sqrt(max(var, 0.0))
            lo, hi = r - 1.96 * sd, r + 1.96 * sd
        print(f"{names[i]:<14} {r:>10.3f}   [{lo:.3f}, {hi:.3f}]")
    for i in range(len(names)):
        if i not in live:
            print(f"{names[i]:<14} {'(zero)':>10}")


if __name__ == "__main__":
    main()
