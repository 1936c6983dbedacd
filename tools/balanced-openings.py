#!/usr/bin/env python3
"""A book of balanced openings for `gamut tournament --openings`.

usage: tools/balanced-openings.py <gamut> <game> [--count N] [--plies R]
       [--depth D] [--max-score S] [--seed K] > book.txt

Walks R random plies from the start (every legal child equally likely,
die outcomes too), searches the position reached D deep and keeps it when
its score (the expected value at a die roll) is within S of zero, until N
positions are kept. Each kept line is the position text, then `;` and the
moves that reach it and the score, which `--openings` ignores. In a game
where the first player wins most pairs of games from random openings
(Empedocles), such a book makes a match's pairs of games tell the engines
apart instead of the colours. A score near zero can also mean a likely
draw: in Empedocles most such positions after random setups end at the
first roll with both sides wiped out (docs/results.md, 2026-11-24, late).
"""

import argparse
import json
import random
import subprocess
import sys


def fail(message):
    """One line on standard error, exit status 2 (bad input)."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def gamut(args, exe):
    try:
        out = subprocess.run([exe, "--quiet", *args], capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {exe}: {e.strerror}")
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or [f"{exe} failed"]
        fail(lines[-1].removeprefix("error: "))
    return out.stdout


def moves_arg(moves):
    return ["--moves", "; ".join(moves)] if moves else []


def children(exe, game, moves):
    return gamut(["moves", game, *moves_arg(moves)], exe).split()


def position(exe, game, moves):
    for line in gamut(["show", game, *moves_arg(moves)], exe).splitlines():
        if line.startswith("position "):
            return line[len("position "):]
    fail("`gamut show` printed no position line")


def score(exe, game, text, depth):
    out = gamut(["analyze", game, "--fen", text, "--depth", str(depth), "--json"], exe)
    last = json.loads(out.strip().splitlines()[-1])
    for key in ("score", "expected"):
        if key in last:
            return last[key]
    fail(f"no score in the analysis of {text}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    p.add_argument("gamut")
    p.add_argument("game")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--plies", type=int, default=8)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--max-score", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    kept, tried, seen = 0, 0, set()
    while kept < a.count:
        moves = []
        while len(moves) < a.plies:
            options = children(a.gamut, a.game, moves)
            if not options:
                break
            moves.append(rng.choice(options))
        if len(moves) < a.plies or not children(a.gamut, a.game, moves):
            continue
        text = position(a.gamut, a.game, moves)
        if text in seen:
            continue
        seen.add(text)
        tried += 1
        s = score(a.gamut, a.game, text, a.depth)
        if abs(s) <= a.max_score:
            kept += 1
            print(f"{text} ; {' '.join(moves)} ; score {s}", flush=True)
    print(f"kept {kept} of {tried} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
