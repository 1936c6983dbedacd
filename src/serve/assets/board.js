// The board's drawing: the game's picture with a layer of hit areas over
// it, turned round, its writing kept readable, and the marks (squares
// clicked, targets, placements), the analysis' arrows and a mixed
// strategy's weights drawn on it.
"use strict";

function svgEl(tag, attrs) {
  const e = document.createElementNS(S.svgNs, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Draws the picture, then over it a layer for marks (never taking a
// click) and on top a layer of hit areas: each square or node is one
// transparent shape as large as its cell (for a node, half the distance
// to its nearest neighbour), named by data-square.
function drawBoard(svgText) {
  S.svgShown = svgText;
  const board = $("board");
  board.querySelectorAll("svg").forEach((e) => e.remove());
  const holder = document.createElement("div");
  holder.innerHTML = svgText.replace(/^<\?xml[^>]*>\s*/, "");
  const svg = holder.querySelector("svg");
  board.prepend(svg);
  S.svgNs = svg.namespaceURI;
  const box = svg.viewBox.baseVal;
  if (box && box.width > 0 && box.height > 0) document.documentElement.style.setProperty("--aspect", box.width / box.height);
  const shapes = new Map();
  for (const el of svg.querySelectorAll(".square[data-square]")) {
    const b = el.getBBox();
    shapes.set(el.getAttribute("data-square"), {
      cx: b.x + b.width / 2, cy: b.y + b.height / 2, w: b.width, h: b.height,
      round: el.tagName.toLowerCase() === "circle",
    });
  }
  const list = [...shapes.entries()];
  S.geometry = {};
  const marks = svgEl("g", { class: "marks" });
  const arrows = svgEl("g", { class: "arrows" });
  const hits = svgEl("g", { class: "hits" });
  for (const [name, g] of list) {
    let d = Infinity;
    for (const [other, h] of list) {
      if (other !== name) d = Math.min(d, Math.hypot(h.cx - g.cx, h.cy - g.cy));
    }
    if (!isFinite(d)) d = Math.max(g.w, g.h);
    let el;
    if (g.round) {
      const r = Math.max(g.w / 2, d / 2);
      el = svgEl("circle", { cx: g.cx, cy: g.cy, r });
      S.geometry[name] = { x: g.cx, y: g.cy, w: 2 * r, h: 2 * r, round: true };
    } else {
      // A cell's own rectangle, grown to the spacing of the grid where it
      // is drawn smaller (Aporia's inset squares).
      const w = Math.max(g.w, Math.min(d, 2 * g.w)), h = Math.max(g.h, Math.min(d, 2 * g.h));
      el = svgEl("rect", { x: g.cx - w / 2, y: g.cy - h / 2, width: w, height: h });
      S.geometry[name] = { x: g.cx, y: g.cy, w, h, round: false };
    }
    el.setAttribute("class", "hit");
    el.setAttribute("data-square", name);
    el.setAttribute("fill", "#000");
    el.setAttribute("fill-opacity", "0");
    hits.append(el);
  }
  svg.append(marks, arrows, hits);
  if (board.classList.contains("flipped")) flipBoard(svg);
  fitText();
}

// The smallest writing on the board, in pixels on the page: a picture
// drawn small (a phone) has its names grown to it.
const MIN_TEXT_PX = 10;

// Grows each writing of the board's picture that the page draws smaller
// than MIN_TEXT_PX back to it (its own size kept where it is larger).
function fitText() {
  const svg = $("board").querySelector("svg");
  const m = svg && svg.getScreenCTM();
  const scale = m ? Math.hypot(m.a, m.b) : 0;
  if (!scale) return;
  for (const t of svg.querySelectorAll("text")) {
    if (t.dataset.size === undefined) t.dataset.size = parseFloat(getComputedStyle(t).fontSize) || 0;
    const size = Number(t.dataset.size);
    t.style.fontSize = size && size * scale < MIN_TEXT_PX ? `${MIN_TEXT_PX / scale}px` : "";
  }
}

// Turns the board of picture `svg` round, not what is written around it:
// everything drawn within the squares' extent (squares, stones, the marks
// and hit areas) goes into a group turned half round the board's middle,
// its writing turned back upright, a node's name with its node; the file
// and rank names (`.coordinate`, not a square's name) outside it stay
// beside the same edge, each moved to where its row went; the rest
// (legends, the background) stays.
function flipBoard(svg) {
  const cells = [...svg.querySelectorAll(".square[data-square]")];
  const names = new Set(cells.map((e) => e.getAttribute("data-square")));
  const squares = cells.map((e) => e.getBBox());
  if (!squares.length) return;
  const x0 = Math.min(...squares.map((b) => b.x)), y0 = Math.min(...squares.map((b) => b.y));
  const x1 = Math.max(...squares.map((b) => b.x + b.width)), y1 = Math.max(...squares.map((b) => b.y + b.height));
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const slack = 0.08 * Math.max(x1 - x0, y1 - y0);
  const group = svgEl("g", { class: "flip-board", transform: `rotate(180 ${cx} ${cy})` });
  let placed = false;
  for (const el of [...svg.children]) {
    if (typeof el.getBBox !== "function") continue;
    const b = el.getBBox();
    const mx = b.x + b.width / 2, my = b.y + b.height / 2;
    const beside = mx < x0 || mx > x1, over = my < y0 || my > y1;
    // A node's own name (Spokes') goes round with it; a file's or a
    // rank's stays beside its edge.
    const rowName = el.classList.contains("coordinate") && !names.has(el.textContent.trim());
    if (rowName && (beside || over)) {
      el.setAttribute("transform", beside ? `translate(0 ${2 * (cy - my)})` : `translate(${2 * (cx - mx)} 0)`);
      continue;
    }
    const within = el.matches(".marks, .arrows, .hits, .coordinate") ||
      (b.x >= x0 - slack && b.y >= y0 - slack && b.x + b.width <= x1 + slack && b.y + b.height <= y1 + slack);
    if (within) {
      if (!placed) { el.before(group); placed = true; }
      group.append(el);
    }
  }
}

// Keeps the page's measures that the board's size depends on (see
// style.css): the header's height, and the height of the controls that
// go under the board on a narrow screen.
function wireFit() {
  const root = document.documentElement.style;
  const header = document.querySelector("header");
  const fit = () => {
    root.setProperty("--header", header.offsetHeight + "px");
    root.setProperty("--below", $("controls").offsetHeight + "px");
  };
  new ResizeObserver(fit).observe(header);
  new ResizeObserver(fit).observe($("controls"));
  new ResizeObserver(fitText).observe($("board"));
  fit();
}

// The hit area of `square` on the page, in client coordinates.
function squareRect(square) {
  const el = $("board").querySelector(`.hit[data-square="${CSS.escape(square)}"]`);
  return el ? el.getBoundingClientRect() : null;
}

// Marks the squares clicked, where the moves that begin with them go, and
// a square where a move may stop. Marks never take a click.
function markBoard() {
  const marks = $("board").querySelector("svg .marks");
  if (!marks) return;
  marks.innerHTML = "";
  const d = paged() && S.outcomes.data;
  if (d) {
    for (const e of d.squares) {
      const g = S.geometry[e.square];
      if (!g) continue;
      const c = svgEl("circle", { cx: g.x, cy: g.y, r: Math.min(g.w, g.h) * 0.3, fill: "none" });
      c.setAttribute("class", "mark narrow");
      c.setAttribute("data-square", e.square);
      marks.append(c);
    }
  }
  const k = S.selection.length;
  if (!k) { markPlacements(marks); return; }
  const next = new Set();
  for (const m of startingWith(S.selection)) if (m.squares.length > k) next.add(m.squares[k]);
  const mark = (sq, cls) => {
    const g = S.geometry[sq];
    if (!g) return;
    const r = Math.min(g.w, g.h) / 2;
    const attrs = cls === "target" ? { r: Math.max(r * 0.4, 6) } : { r: r * 0.85, fill: "none" };
    const c = svgEl("circle", { cx: g.x, cy: g.y, ...attrs });
    c.setAttribute("class", "mark " + cls);
    c.setAttribute("data-square", sq);
    marks.append(c);
  };
  S.selection.forEach((sq) => mark(sq, "selected"));
  for (const sq of next) mark(sq, "target");
  const stop = endingAt(S.selection);
  if (stop.length && next.size) mark(S.selection[k - 1], "stop");
}

// Where moves made on one square (placements, `@d3`) stand beside moves
// of several squares (Empedocles' actions), each such square is marked
// before any click, so that the squares a piece may be placed on are
// seen without trying them.
function markPlacements(marks) {
  const v = S.view;
  if (!v || v.node !== "decision" || S.busy || S.preview >= 0) return;
  const moves = choosable();
  if (!moves.some((m) => m.squares.length > 1)) return;
  for (const m of moves) {
    if (m.squares.length !== 1) continue;
    const g = S.geometry[m.squares[0]];
    if (!g) continue;
    const c = svgEl("circle", { cx: g.x, cy: g.y, r: Math.min(g.w, g.h) * 0.22 });
    c.setAttribute("class", "mark placement");
    c.setAttribute("data-square", m.squares[0]);
    c.setAttribute("data-move", m.text);
    const t = svgEl("title", {});
    t.textContent = `${m.text}: a placement here`;
    c.append(t);
    marks.append(c);
  }
}

// Arrows on the board for the first move of each of the analysis' best
// lines (the best the darkest), through every square of the move.
const ARROW_COLOURS = ["#1d5fb8", "#3f8f3a", "#b86a1d", "#7a3fa0", "#777"];
function drawArrows() {
  const layer = $("board").querySelector("svg .arrows");
  if (!layer) return;
  layer.innerHTML = "";
  const d = S.lastIteration;
  if (d && S.preview < 0 && S.view && S.view.node === "simultaneous") drawWeights(layer, d);
  if (!d || !d.lines || S.preview >= 0 || !S.view || S.view.node !== "decision") return;
  d.lines.slice(0, 5).forEach((l, k) => {
    const m = l.pv.length && S.view.moves.find((x) => x.text === l.pv[0]);
    if (!m || m.squares.length === 0) return;
    const pts = m.squares.map((sq) => S.geometry[sq]).filter(Boolean);
    if (!pts.length) return;
    const size = Math.min(pts[0].w, pts[0].h);
    const width = Math.max(size * (k === 0 ? 0.14 : 0.09), 3);
    const colour = ARROW_COLOURS[k];
    const g = svgEl("g", { class: "best-move", "data-rank": k + 1, "data-move": m.text, opacity: k === 0 ? 0.8 : 0.6 });
    if (pts.length === 1) {
      g.append(svgEl("circle", { cx: pts[0].x, cy: pts[0].y, r: size * 0.4, fill: "none", stroke: colour, "stroke-width": width }));
    } else {
      const last = pts[pts.length - 1], prev = pts[pts.length - 2];
      const len = Math.hypot(last.x - prev.x, last.y - prev.y) || 1;
      const ux = (last.x - prev.x) / len, uy = (last.y - prev.y) / len;
      const head = width * 2.6;
      const base = { x: last.x - ux * head, y: last.y - uy * head };
      const line = pts.slice(0, -1).map((p) => `${p.x},${p.y}`).concat([`${base.x},${base.y}`]).join(" ");
      g.append(svgEl("polyline", { points: line, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" }));
      const px = -uy * head * 0.7, py = ux * head * 0.7;
      g.append(svgEl("polygon", { points: `${last.x},${last.y} ${base.x + px},${base.y + py} ${base.x - px},${base.y - py}`, fill: colour }));
    }
    layer.append(g);
  });
}

// The mixed strategy of the player choosing next at a simultaneous node,
// as the analysis `d` gives it: each action's weight (its probability;
// a team's joint actions summed over its partner's part), or an empty
// map where the analysis has none for that player yet.
function strategyOf(d) {
  const v = S.view, p = S.pending.length, weights = new Map();
  const add = (text, w) => weights.set(text, (weights.get(text) || 0) + w);
  if (d.strategies && d.strategies[p]) {
    for (const a of d.strategies[p]) add(a.text, a.probability);
  } else if (d.sides) {
    const side = v.player_sides[p];
    const s = d.sides.find((x) => x.side === side);
    // A side's joint action names its players' actions in order, `+`
    // between them.
    const k = v.player_sides.slice(0, p).filter((x) => x === side).length;
    for (const a of (s && s.strategy) || []) add(a.text.split("+")[k], a.probability);
  }
  return weights;
}

// Draws the mixed strategy of the player choosing next on the board: on
// each node its strategy places on, a disc as large as the node's weight
// (its actions' summed) and each action's weight written (`w 40%`), so
// that the analysis' strategy is read where it is played.
function drawWeights(layer, d) {
  const weights = strategyOf(d);
  const byNode = new Map();
  for (const a of choosable()) {
    const w = weights.get(a.text) || 0;
    if (w < 0.005 || a.squares.length !== 1) continue;
    const sq = a.squares[0];
    if (!byNode.has(sq)) byNode.set(sq, []);
    byNode.get(sq).push([a, w]);
  }
  for (const [sq, list] of byNode) {
    const g = S.geometry[sq];
    if (!g) continue;
    const size = Math.min(g.w, g.h);
    const total = list.reduce((t, [, w]) => t + w, 0);
    const group = svgEl("g", { class: "weights", "data-square": sq });
    group.append(svgEl("circle", { class: "weight-disc", cx: g.x, cy: g.y, r: size * 0.45 * Math.sqrt(total), fill: "#2a7de1", "fill-opacity": 0.35 }));
    list.forEach(([a, w], i) => {
      const t = svgEl("text", {
        class: "weight", x: g.x, y: g.y + size * 0.3 * (i - (list.length - 1) / 2) + size * 0.1,
        "text-anchor": "middle", "font-size": size * 0.28, "font-weight": "bold", fill: "#0b3a7a",
        stroke: "#fff", "stroke-width": size * 0.05, "paint-order": "stroke",
        "data-move": a.text, "data-weight": w.toFixed(4),
      });
      const what = a.text.replace(sq, "");
      t.textContent = `${what ? what + " " : ""}${(w * 100).toFixed(0)}%`;
      group.append(t);
    });
    layer.append(group);
  }
}
