// The evaluation graph and the sides' accuracy, and the game's scoring
// that fills them (the button's, and the background's after a move).
"use strict";

// A node's win probability for the first side: at a chance node the
// outcomes' win probabilities weighed by their probability.
function nodeProbability(n) {
  if (n.outcomes && n.outcomes.length) return n.outcomes.reduce((a, o) => a + o.probability * winProbability(o.score, false), 0);
  return winProbability(n.score, false);
}

function drawGraph() {
  const path = gameThrough(S.current);
  const w = 600, h = 140, pad = 18, left = 34;
  const x = (i) => left + (w - left - pad) * (path.length > 1 ? i / (path.length - 1) : 0);
  const y = (p) => 8 + (h - pad - 8) * (1 - p);
  // Runs of scored plies, each drawn on its own: a ply not scored yet is
  // a gap (neither side's share), never a score.
  const runs = [];
  let marks = "";
  path.forEach((id, i) => {
    const n = S.nodes[id];
    if (n.score === null || n.score === undefined) return;
    const pt = [x(i), y(nodeProbability(n))];
    const run = runs[runs.length - 1];
    if (run && run.last === i - 1) { run.pts.push(pt); run.last = i; } else runs.push({ pts: [pt], last: i });
    const l = label(id);
    if (l) marks += `<circle class="${l[0]}" cx="${pt[0].toFixed(1)}" cy="${pt[1].toFixed(1)}" r="3" fill="currentColor"/>`;
  });
  let ticks = "";
  const step = Math.max(1, Math.ceil(path.length / 12));
  for (let i = 0; i < path.length; i += step) {
    ticks += `<line x1="${x(i)}" x2="${x(i)}" y1="${h - pad}" y2="${h - pad + 4}" stroke="#888"/>` +
      `<text x="${x(i)}" y="${h - 3}" font-size="10" text-anchor="middle">${i}</text>`;
  }
  // The % axis: the first side's chance of winning.
  let axis = "";
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    axis += `<line x1="${left - 4}" x2="${w - pad}" y1="${y(p)}" y2="${y(p)}" stroke="${p === 0.5 ? "#aaa" : "#ddd"}"` +
      (p === 0.5 ? ` stroke-dasharray="4"` : "") + `/>` +
      `<text class="axis" x="${left - 6}" y="${y(p) + 3}" font-size="10" text-anchor="end">${p * 100}%</text>`;
  }
  const cur = path.indexOf(S.current);
  // Each run: the second side's share dark over the run's span, the
  // first side's light under the curve; a lone scored ply a dot.
  const f = (p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`;
  const [light, dark] = shareColours();
  let shares = "", curves = "";
  for (const run of runs) {
    const p = run.pts, a = p[0][0], b = p[p.length - 1][0];
    if (p.length === 1) {
      curves += `<circle class="lone" cx="${a.toFixed(1)}" cy="${p[0][1].toFixed(1)}" r="2.5" fill="#2a7de1"/>`;
      continue;
    }
    shares += `<rect class="share second" x="${a.toFixed(1)}" y="${y(1)}" width="${(b - a).toFixed(1)}" height="${y(0) - y(1)}" fill="${dark}"/>` +
      `<polygon class="share first" points="${a.toFixed(1)},${y(0)} ${p.map(f).join(" ")} ${b.toFixed(1)},${y(0)}" fill="${light}" stroke="none"/>`;
    curves += `<polyline points="${p.map(f).join(" ")}" fill="none" stroke="#2a7de1" stroke-width="1.5"/>`;
  }
  $("graph").innerHTML =
    `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" id="graph-svg">` +
    shares + axis +
    `<line x1="${x(cur)}" x2="${x(cur)}" y1="${y(1)}" y2="${y(0)}" stroke="#2a7de1"/>` +
    curves + marks + ticks + `</svg>`;
  $("graph-svg").onclick = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    const fx = ((e.clientX - r.left) / r.width) * w;
    const i = Math.round(((fx - left) / (w - left - pad)) * (path.length - 1));
    go(path[Math.max(0, Math.min(path.length - 1, i))]);
  };
  drawAccuracy(path);
}

// Each side's accuracy over the scored moves of `path`, as lichess
// reckons it: a move's accuracy falls with the win probability its side
// lost (103.1668·e^(−0.04354·loss in %) − 3.1669), and a side's is the
// mean of its moves' weighted by how much the game swung around them, and
// their harmonic mean, averaged. Two-sided games only.
function drawAccuracy(path) {
  const box = $("accuracy");
  box.innerHTML = "";
  const v = S.view;
  if (!v || v.sides.length !== 2) return;
  // Only `score the game`'s scores count, as for the labels: the
  // background's 60 ms ones are noise as often as not.
  const wins = path.map((id) => {
    const n = S.nodes[id];
    return n.refined && n.score !== null ? nodeProbability(n) : null;
  });
  const moves = [[], []];
  for (let i = 1; i < path.length; i++) {
    const n = S.nodes[path[i]];
    // The side that moved and what it lost, as its label measures it.
    const side = n.lossSide;
    if (!n.labelRefined || (side !== 0 && side !== 1) || typeof n.loss !== "number" || n.kind === "chance") continue;
    const loss = Math.max(0, n.loss) * 100;
    const acc = Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * loss) - 3.1669));
    moves[side].push({ i, acc });
  }
  const known = wins.filter((p) => p !== null);
  const window = Math.max(2, Math.min(8, Math.floor(known.length / 10)));
  const swing = (i) => {
    const around = wins.slice(Math.max(0, i - window), i + 1).filter((p) => p !== null).map((p) => p * 100);
    if (around.length < 2) return 0.5;
    const mean = around.reduce((a, b) => a + b, 0) / around.length;
    const sd = Math.sqrt(around.reduce((a, b) => a + (b - mean) ** 2, 0) / around.length);
    return Math.max(0.5, Math.min(12, sd));
  };
  v.sides.forEach((name, side) => {
    const list = moves[side];
    const span = document.createElement("span");
    span.className = "side-accuracy";
    span.dataset.side = side;
    span.append(swatch(side), ` ${name}: `);
    if (!list.length) {
      span.append("accuracy —");
    } else {
      const weights = list.map((m) => swing(m.i));
      const weighted = list.reduce((a, m, k) => a + m.acc * weights[k], 0) / weights.reduce((a, b) => a + b, 0);
      const harmonic = list.length / list.reduce((a, m) => a + 1 / Math.max(m.acc, 1), 0);
      const acc = (weighted + harmonic) / 2;
      span.append(`accuracy ${acc.toFixed(0)}% (${list.length} move${list.length === 1 ? "" : "s"})`);
      span.dataset.accuracy = acc.toFixed(1);
    }
    box.append(span);
  });
}

// Scores the plies `ids` (a line of the tree, each after the one before)
// with `/api/scores`, the first from the position of `ids[0]` (the game's
// start, or a node already shown), and redraws the graph and the move
// list as the scores come. `background`: the low-budget scoring after a
// move, which says less and gives way to the button's.
function scoreLine(ids, limits, background) {
  if (S.scoring) S.scoring.close();
  const first = S.nodes[ids[0]];
  const start = ids[0] === 0 ? params() : new URLSearchParams({ game: S.game, fen: first.text });
  const moves = ids.slice(1).map((id) => S.nodes[id].move);
  start.set("moves", moves.join(";"));
  for (const [k, v] of Object.entries(limits)) start.set(k, v);
  const info = (t) => { if (!background || S.scoringIds === ids) $("graph-info").textContent = t; };
  info(background ? "scoring the new moves…" : "scoring…");
  const tree = S.tree;
  const es = transport.stream("/api/scores", start, (d) => {
    if (tree !== S.tree) { es.close(); return; }
    if (d.error) { info(d.error); es.close(); return; }
    if (d.done) {
      info((background ? "scored at 60 ms a move (moves are labelled once the game is scored)" : "scored") + graphSide());
      es.close();
      S.scoring = null;
      scoreSoon();
      return;
    }
    if (d.queued !== undefined) { if (d.queued >= d.of) info("scoring: waiting for a search thread (an engine move goes first; analyses yield)"); return; }
    if (d.paused !== undefined) { info($("graph-info").textContent + ` [paused: its thread lent to ${d.paused}]`); return; }
    if (d.ply === undefined) return;
    const id = ids[d.ply];
    if (id === undefined) return;
    // A low-budget score never replaces a refined one, and labels only a
    // move whose label was not refined yet (labels are shown refined only).
    const n = S.nodes[id];
    if (!background || !n.refined) {
      n.score = d.score;
      n.outcomes = d.outcomes;
      n.refined = !background;
    }
    if (d.ply > 0 || ids[0] === 0) n.labelled = d.labelled;
    const next = S.nodes[ids[d.ply + 1]];
    if (next && (!background || !next.labelRefined)) {
      next.label = d.label;
      next.loss = d.loss;
      next.lossSide = d.labelled;
      next.labelRefined = !background;
    }
    if (d.mover !== undefined && d.mover !== null) S.nodes[id].mover = d.mover;
    info(`scored ${d.ply + 1} of ${ids.length}` + graphSide());
    drawGraph();
    drawMoves();
  }, () => { if (S.scoring === es) S.scoring = null; });
  S.scoring = es;
  S.scoringIds = ids;
}

function scoreGame() {
  scoreLine(gameThrough(S.current), limitForScores(), false);
}

// After a move, the moves of the game not yet scored are scored in the
// background at a low budget (from the last scored position before them),
// unless a scoring runs.
function scoreSoon() {
  clearTimeout(S.scoreTimer);
  S.scoreTimer = setTimeout(() => {
    if (S.scoring || !$("auto-score").checked) return;
    const path = gameThrough(S.current);
    const k = path.findIndex((id) => S.nodes[id].score === null);
    if (k < 0) return;
    // From the last scored node before the first unscored one whose
    // position is known (a move's label needs its position before).
    let from = k;
    while (from > 0 && (S.nodes[path[from]].score === null || S.nodes[path[from]].text === undefined)) from--;
    scoreLine(path.slice(from), { time: 60 }, true);
  }, 400);
}

// Whose value the graph draws, in games of more than two players: the
// first side's paranoid value (it against all the others).
function graphSide() {
  const v = S.view;
  return v && v.players > 2 ? ` (${v.sides[0]} against all the others)` : "";
}

function limitForScores() {
  return $("limit-kind").value === "depth" ? limit() : { time: 200 };
}
