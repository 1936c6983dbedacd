#!/usr/bin/env python3
"""Fits a game's win-probability scale to self-play data.

usage: tools/winprob-fit.py <data.dat>... [--bootstrap N]

<data.dat> are `gamut datagen` files (format in docs/datagen.md): per
position the search's score from the side to move's view, and the game's
winner. The page of `gamut serve` shows a score s for the first side as
the win probability

    P(first side wins) = 1 / (1 + 3^(-s / scale))

so that at s = scale the first side wins three games in four. This script
finds the scale that maximises the likelihood of the recorded results
(a draw counts as half a win and half a loss), by Newton's method on the
log loss in k = ln 3 / scale. Positions whose score is at the evaluation's
limit (|s| >= 10,000: proven results and clamped evaluations) are left
out: the page shows those as 0 or 1. The 95% interval comes from
resampling whole games (--bootstrap N, default 200), as positions of one
game share its result.

Prints the games, positions, the fitted scale with its interval, the log
loss at the fit and at the scale given by --compare (if any), and the
observed results of the first side in score bins beside the curve's
mean there.
"""
import math
import random
import struct
import sys
import zlib

LIMIT = 10_000


def read(path):
    """The games of a datagen file: per game a list of (score for the first
    side, result for the first side)."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:8] != b"GAMUTPOS":
        sys.exit(f"error: {path} is not a datagen file")
    (version,) = struct.unpack("<H", d[8:10])
    if version not in (1, 2):
        sys.exit(f"error: {path}: version {version}, not 1 or 2")
    n = d[10]
    game = d[11 : 11 + n].decode()
    i = 11 + n
    games = []
    while i < len(d):
        if version == 2:
            # length, its CRC-32, the body, the body's CRC-32
            (length, length_check) = struct.unpack("<II", d[i : i + 8])
            if zlib.crc32(d[i : i + 4]) != length_check:
                sys.exit(f"error: {path}: bad length at byte {i}")
            body = d[i + 8 : i + 8 + length]
            (check,) = struct.unpack("<I", d[i + 8 + length : i + 12 + length])
            if len(body) < length or zlib.crc32(body) != check:
                sys.exit(f"error: {path}: bad game at byte {i}")
            i += 8
        (count,) = struct.unpack("<H", d[i : i + 2])
        winner = d[i + 2]
        i += 3
        result = {0: 1.0, 1: 0.0, 2: 0.5}[winner]
        kept = []
        for _ in range(count):
            side = d[i]
            (score,) = struct.unpack("<h", d[i + 1 : i + 3])
            (tl,) = struct.unpack("<H", d[i + 3 : i + 5])
            i += 5 + tl
            if abs(score) >= LIMIT:
                continue
            kept.append((score if side == 0 else -score, result))
        if version == 2:
            i += 4
        games.append(kept)
    return game, games


def prob(k, s):
    """P = 1 / (1 + exp(-k s)), its exponent kept within +-40 (so a fit to
    results the scores' signs separate, where k grows without bound, still
    evaluates)."""
    z = max(-40.0, min(40.0, k * s))
    return 1.0 / (1.0 + math.exp(-z))


def loss(k, data):
    """Mean log loss of P = 1 / (1 + exp(-k s))."""
    total = 0.0
    for s, y in data:
        p = prob(k, s)
        total -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
    return total / len(data)


def fit(data):
    """The k of the least log loss, by Newton's method."""
    k = 1e-3
    for _ in range(100):
        g = h = 0.0
        for s, y in data:
            p = prob(k, s)
            g += (p - y) * s
            h += p * (1 - p) * s * s
        step = g / h
        k -= step
        k = max(k, 1e-9)
        if abs(step) < 1e-12:
            break
    return k


def main():
    args = sys.argv[1:]
    boot = 200
    compare = None
    paths = []
    while args:
        a = args.pop(0)
        if a == "--bootstrap":
            boot = int(args.pop(0))
        elif a == "--compare":
            compare = float(args.pop(0))
        else:
            paths.append(a)
    if not paths:
        sys.exit(__doc__.strip().splitlines()[2])
    games = []
    name = None
    for p in paths:
        name, g = read(p)
        games += g
    data = [x for g in games for x in g]
    k = fit(data)
    scale = math.log(3) / k
    rng = random.Random(1)
    scales = []
    for _ in range(boot):
        sample = [x for _ in games for x in games[rng.randrange(len(games))]]
        scales.append(math.log(3) / fit(sample))
    scales.sort()
    lo = scales[int(0.025 * len(scales))] if scales else float("nan")
    hi = scales[int(0.975 * len(scales)) - 1] if scales else float("nan")
    print(f"game {name} games {len(games)} positions {len(data)}")
    print(f"scale {scale:.1f} (95% {lo:.1f} to {hi:.1f}, {boot} resamples of the games)")
    print(f"log loss {loss(k, data):.4f} at the fit, {math.log(2):.4f} at p = 1/2")
    if compare is not None:
        print(f"log loss {loss(math.log(3) / compare, data):.4f} at scale {compare:g}")
    edges = [-10_000, -400, -200, -100, -50, 0, 50, 100, 200, 400, 10_000]
    print("score bin | positions | first side's results | the curve's mean over the bin")
    for a, b in zip(edges, edges[1:]):
        xs = [(s, y) for s, y in data if a <= s < b]
        if not xs:
            continue
        won = sum(y for _, y in xs) / len(xs)
        curve = sum(prob(k, s) for s, _ in xs) / len(xs)
        print(f"[{a}, {b}) | {len(xs)} | {won:.3f} | {curve:.3f}")


if __name__ == "__main__":
    main()
