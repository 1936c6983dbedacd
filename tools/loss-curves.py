#!/usr/bin/env python3
"""Draws training curves as one SVG picture: loss per epoch, training
(dashed) and validation (solid), one colour per run.

    tools/loss-curves.py OUT.svg LABEL=CURVE.csv [LABEL=CURVE.csv ...]

Each CSV is what `gamut-train --curve` writes (`epoch,train,validation,
seconds`). Losses are drawn on one axis per run, scaled to that run's own
range, so runs of different games sit side by side as small panels.
Standard library only.
"""
import csv
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
PANEL_W, PANEL_H, PAD = 320, 220, 48


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no epochs")
    return [(int(r["epoch"]), float(r["train"]), float(r["validation"])) for r in rows]


def panel(x0, label, rows, colour):
    epochs = [e for e, _, _ in rows]
    values = [v for _, t, w in rows for v in (t, w)]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    lo, hi = lo - 0.05 * span, hi + 0.05 * span
    first, last = min(epochs), max(epochs)

    def x(e):
        return x0 + PAD + (e - first) / max(last - first, 1) * (PANEL_W - 1.5 * PAD)

    def y(v):
        return PAD / 2 + (hi - v) / (hi - lo) * (PANEL_H - 1.5 * PAD)

    out = [
        f'<text x="{x0 + PANEL_W / 2}" y="16" text-anchor="middle" font-weight="bold">{label}</text>',
        f'<line x1="{x(first)}" y1="{y(lo)}" x2="{x(last)}" y2="{y(lo)}" stroke="#888"/>',
        f'<line x1="{x(first)}" y1="{y(lo)}" x2="{x(first)}" y2="{y(hi)}" stroke="#888"/>',
    ]
    for v in (lo, (lo + hi) / 2, hi):
        out.append(
            f'<text x="{x(first) - 4}" y="{y(v) + 4}" text-anchor="end" font-size="10">{v:.4f}</text>'
        )
    for e in epochs:
        out.append(
            f'<text x="{x(e)}" y="{y(lo) + 14}" text-anchor="middle" font-size="10">{e}</text>'
        )
    out.append(
        f'<text x="{x0 + PANEL_W / 2}" y="{PANEL_H - 4}" text-anchor="middle" font-size="11">epoch</text>'
    )
    best = min(rows, key=lambda r: r[2])
    for column, dash in ((1, ' stroke-dasharray="5,4"'), (2, "")):
        points = " ".join(f"{x(r[0]):.1f},{y(r[column]):.1f}" for r in rows)
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>'
        )
    out.append(f'<circle cx="{x(best[0])}" cy="{y(best[2])}" r="4" fill="{colour}"/>')
    return out


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[2:]):
        sys.exit("usage: tools/loss-curves.py OUT.svg LABEL=CURVE.csv [...]")
    runs = [a.split("=", 1) for a in sys.argv[2:]]
    width = PANEL_W * len(runs)
    body = []
    for i, (label, path) in enumerate(runs):
        body += panel(i * PANEL_W, label, read(path), COLOURS[i % len(COLOURS)])
    body.append(
        f'<text x="8" y="{PANEL_H + 14}" font-size="11">dashed: training loss; solid: validation loss; '
        "dot: lowest validation loss</text>"
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{PANEL_H + 22}" '
        f'font-family="sans-serif" font-size="12">\n'
        f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )
    with open(sys.argv[1], "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
