// gamut's page: the board, analysis, move tree and evaluation graph. The
// server knows the rules: this script only sends lines of moves and draws
// what comes back (legal moves with the squares they touch, pictures,
// analysis), so it is the same for every game.
"use strict";

const $ = (id) => document.getElementById(id);

// The marks of moves by the win probability their side lost (the server
// labels them); see docs/serve.md.
const LABELS = [
  [0.15, "blunder", "??"],
  [0.10, "mistake", "?"],
  [0.05, "inaccuracy", "?!"],
];
// Scores at or beyond this are proven results (the search's threshold).
const PROVEN = 29000;

const S = {
  game: null,      // game id
  setup: "",       // setup text ("" for the default start)
  fen: null,       // start position text (null: the start of the setup)
  nodes: [],       // the move tree: {move, parent, children, score, mover}
  current: 0,      // the node shown
  view: null,      // the server's answer for the node shown
  selection: [],   // squares clicked so far
  geometry: {},    // each square's hit area: {x, y, w, h, round} in the picture's units
  stepped: false,  // the outcome previewed was stepped to (it stays without the pointer)
  cursor: -1,      // the outcome previewed last (where the arrows step on from)
  preview: -1,     // the outcome previewed (index into the moves without squares), or -1
  autoForced: false, // a move was just played: a forced outcome may follow by itself
  lastIteration: null, // the analysis shown (for the best-move arrows)
  pending: [],     // actions chosen so far at a simultaneous node
  analysis: null,  // the EventSource of the running analysis
  scoring: null,   // the EventSource of the game's scoring
  busy: false,     // an engine move is being searched
  token: 0,        // counts renders, so stale answers are dropped
  shown: 0,        // the render whose position is shown
};

function showError(msg) { $("error").textContent = msg || ""; }

function params(extra) {
  const p = new URLSearchParams({ game: S.game });
  if (S.fen !== null) p.set("fen", S.fen); else if (S.setup) p.set("setup", S.setup);
  for (const [k, v] of Object.entries(extra || {})) if (v !== null && v !== undefined) p.set(k, v);
  return p;
}

async function getJson(path, extra) {
  const r = await fetch(path + "?" + params(extra));
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// The moves from the root to node `id`.
function lineTo(id) {
  const moves = [];
  for (let n = id; n > 0; n = S.nodes[n].parent) moves.unshift(S.nodes[n].move);
  return moves;
}

// The plies of the game through node `id`: the root, the path to `id`,
// then `id`'s main continuation.
function gameThrough(id) {
  const path = [];
  for (let n = id; n >= 0; n = S.nodes[n].parent) { path.unshift(n); if (n === 0) break; }
  let n = id;
  while (S.nodes[n].children.length) { n = S.nodes[n].children[0]; path.push(n); }
  return path;
}

function resetTree() {
  S.nodes = [{ move: null, parent: -1, children: [], score: null, mover: null }];
  S.current = 0;
}

function addMove(text) {
  const cur = S.nodes[S.current];
  let child = cur.children.find((c) => S.nodes[c].move === text);
  const fresh = child === undefined;
  if (fresh) {
    child = S.nodes.length;
    const m = choosable().find((c) => c.text === text);
    S.nodes.push({ move: text, short: m && m.short, parent: S.current, children: [], score: null, mover: null });
    cur.children.push(child);
  }
  go(child);
  S.autoForced = fresh;
}

function go(id) {
  if (id < 0 || id >= S.nodes.length) return;
  S.current = id;
  S.selection = [];
  S.pending = [];
  S.autoForced = false;
  render();
}

async function render() {
  const token = ++S.token;
  stopAnalysis();
  clearNumbers();
  let view;
  try {
    view = await getJson("/api/position", { moves: lineTo(S.current).join(";") });
  } catch (e) {
    showError(e.message);
    return;
  }
  if (token !== S.token) return;
  showError("");
  S.view = view;
  S.nodes[S.current].mover = view.mover;
  S.preview = -1;
  S.cursor = -1;
  S.stepped = false;
  drawBoard(view.svg);
  $("board").classList.remove("previewing");
  $("preview-caption").textContent = "";
  drawState();
  showTable(token);
  $("setup-label").style.display = view.setup ? "" : "none";
  $("setup").title = view.setup || "";
  seatMenu();
  drawChoices();
  drawMoves();
  drawGraph();
  if ($("analyse").checked) startAnalysis();
  S.shown = token;
  if (playForced()) return;
  maybeEngine(token);
}

// A move the rules force (a Spokes resolution with one outcome) is played
// by itself, right after the move before it was played (not when stepping
// back to it).
function playForced() {
  const v = S.view;
  if (!S.autoForced || v.node !== "decision" || v.moves.length !== 1 || v.moves[0].squares.length) return false;
  if (engineSeats().includes(v.mover)) return false;
  addMove(v.moves[0].text);
  return true;
}

// Clears everything computed for the position shown before (analysis
// lines, bar, arrows, labels, export), at once: one position, one set of
// numbers.
function clearNumbers() {
  $("info").textContent = "";
  $("lines").innerHTML = "";
  $("bar").classList.add("empty");
  $("bar-fill").style.width = "0";
  $("bar-text").textContent = "no evaluation";
  $("export-text").textContent = "";
  $("table-verdict").textContent = "";
  S.lastIteration = null;
  drawArrows();
}

// The state line: whose turn, by name and in its colour.
function drawState() {
  const v = S.view;
  const box = $("state");
  box.innerHTML = "";
  if (v.mover !== null && v.mover !== undefined && v.node === "decision") {
    box.append(swatch(v.mover), " ");
  }
  box.append(v.state);
}

// A small square in side `i`'s colour.
function swatch(i) {
  const s = document.createElement("span");
  s.className = "swatch";
  s.style.background = (S.view.side_colours || [])[i] || "#888";
  s.title = S.view.sides[i];
  return s;
}

// ---- the board ---------------------------------------------------------

// The SVG namespace, read from the game's picture (so that the page names
// no address).
let SVG_NS = null;

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Draws the picture, then over it a layer for marks (never taking a
// click) and on top a layer of hit areas: each square or node is one
// transparent shape as large as its cell (for a node, half the distance
// to its nearest neighbour), named by data-square.
function drawBoard(svgText) {
  const board = $("board");
  board.querySelectorAll("svg").forEach((e) => e.remove());
  const holder = document.createElement("div");
  holder.innerHTML = svgText.replace(/^<\?xml[^>]*>\s*/, "");
  const svg = holder.querySelector("svg");
  board.prepend(svg);
  SVG_NS = svg.namespaceURI;
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
}

// The hit area of `square` on the page, in client coordinates.
function squareRect(square) {
  const el = $("board").querySelector(`.hit[data-square="${CSS.escape(square)}"]`);
  return el ? el.getBoundingClientRect() : null;
}

// The solved table's verdict (Aporia, when the server has its table).
async function showTable(token) {
  $("table-verdict").textContent = "";
  try {
    const t = await getJson("/api/table", { moves: lineTo(S.current).join(";") });
    if (token !== S.token || t.value === null) return;
    $("table-verdict").textContent =
      `solved table: ${t.value}` + (t.best.length ? ` (best: ${t.best.join(" ")})` : "");
  } catch (_) { /* no verdict */ }
}

// The moves to choose from now: decision moves and chance outcomes, or at
// a simultaneous node the actions of the next player to choose.
function choosable() {
  const v = S.view;
  if (!v) return [];
  if (v.node === "simultaneous") return v.actions[S.pending.length] || [];
  return v.moves;
}

// The engine's seats (side indices) as chosen in the menu.
function engineSeats() {
  const s = $("engine-seats").value;
  return s === "" ? [] : s.split(",").map(Number);
}

// The menu of the engine's seats for the game shown: nobody, each side
// (a player, or a team of four-player Spokes), or all of them.
function seatMenu() {
  const v = S.view;
  const menu = $("engine-seats");
  if (menu.dataset.game === S.game) return;
  const kept = menu.value;
  menu.dataset.game = S.game;
  const n = v.sides.length;
  const all = [...Array(n).keys()].join(",");
  const options = [["", "nobody"]];
  if (n === 2 && v.players === 2) options.push(["1", "side 2"], ["0", "side 1"]);
  else v.sides.forEach((name, i) => options.push([String(i), name]));
  options.push([all, (n === 2 ? "both" : "all") + " (watch)"]);
  menu.innerHTML = "";
  for (const [value, text] of options) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    menu.append(o);
  }
  menu.value = options.some(([value]) => value === kept) ? kept : "";
}

// The side of the player choosing next at a simultaneous node.
function pendingSide() {
  return S.view.player_sides[S.pending.length];
}

// The moves whose squares begin with `prefix`, and those that end there.
function startingWith(prefix) {
  return choosable().filter((m) => m.squares.length >= prefix.length && prefix.every((s, i) => m.squares[i] === s));
}
function endingAt(prefix) {
  return startingWith(prefix).filter((m) => m.squares.length === prefix.length && prefix.length > 0);
}

function moveButton(m, label) {
  const b = document.createElement("button");
  b.textContent = label || (m.short || m.text) + (m.probability !== undefined ? ` (${(m.probability * 100).toFixed(1)}%)` : "");
  if (m.short && m.short !== m.text) b.title = m.text;
  b.dataset.move = m.text;
  b.onclick = () => choose(m.text);
  return b;
}

// Below the board: who chooses at a simultaneous node, the moves not made
// on the board (die rolls, a pass, Spokes' resolution outcomes, each
// previewed on the board while the pointer is on it or stepped through),
// and where a path of clicks may stop or go on, the move that stops there.
function drawChoices() {
  const box = $("choices");
  box.innerHTML = "";
  const v = S.view;
  const moves = choosable();
  if (v.node === "simultaneous") {
    const side = pendingSide();
    const who = v.players > 2 ? "player " + (S.pending.length + 1) : v.sides[S.pending.length];
    box.append(swatch(side), ` ${who} chooses in secret (${S.pending.length} of ${v.players} chosen): `);
  }
  if (v.node === "chance") {
    const roll = document.createElement("button");
    roll.textContent = "roll";
    roll.onclick = () => engineMove(S.token, 0);
    box.append(roll);
  }
  const off = moves.filter((m) => m.squares.length === 0);
  if (v.node === "decision" && off.length && off.length === moves.length && off.length > 1) {
    drawOutcomes(box, off);
  } else {
    for (const m of off.slice(0, 400)) box.append(moveButton(m));
    if (off.length > 400) box.append(` … ${off.length - 400} more`);
  }
  if (S.selection.length) {
    const stop = endingAt(S.selection);
    if (stop.length && startingWith(S.selection).length > stop.length) {
      box.append(" stop here (or click the square again): ");
      for (const m of stop) box.append(moveButton(m));
    }
  }
  markBoard();
}

// The outcomes of a resolution: each named by its short form, previewed
// on the board while the pointer is on its button, or stepped through with
// the arrows and played with "play".
function drawOutcomes(box, outcomes) {
  const row = document.createElement("div");
  row.id = "outcomes";
  const prev = document.createElement("button");
  prev.textContent = "◀";
  prev.title = "preview the outcome before";
  prev.id = "outcome-prev";
  const next = document.createElement("button");
  next.textContent = "▶";
  next.title = "preview the next outcome";
  next.id = "outcome-next";
  const play = document.createElement("button");
  play.id = "outcome-play";
  play.textContent = "play";
  play.disabled = S.preview < 0;
  const n = outcomes.length;
  const step = (d) => previewOutcome(S.cursor < 0 ? (d < 0 ? n - 1 : 0) : (S.cursor + d + n) % n, true);
  prev.onclick = () => step(-1);
  next.onclick = () => step(1);
  play.onclick = () => { if (S.preview >= 0) choose(outcomes[S.preview].text); };
  row.append(`${outcomes.length} outcomes: `, prev, next, play);
  const list = document.createElement("div");
  list.id = "outcome-list";
  outcomes.forEach((m, i) => {
    const b = moveButton(m);
    b.classList.add("outcome");
    if (i === S.preview) b.classList.add("previewed");
    b.onmouseenter = () => previewOutcome(i, false);
    b.onmouseleave = () => { if (!S.stepped) previewOutcome(-1, false); };
    list.append(b);
  });
  box.append(row, list);
}

// Shows the board after outcome `i` of the resolution (-1: the board
// itself); `stepped`: chosen with the arrows, so it stays.
async function previewOutcome(i, stepped) {
  const token = S.token;
  const off = choosable().filter((m) => m.squares.length === 0);
  S.preview = i;
  if (i >= 0) S.cursor = i;
  S.stepped = stepped && i >= 0;
  let svg = S.view.svg, caption = "";
  if (i >= 0) {
    const m = off[i];
    try {
      const after = await getJson("/api/position", { moves: lineTo(S.current).concat([m.text]).join(";") });
      if (token !== S.token || S.preview !== i) return;
      svg = after.svg;
      caption = `preview ${i + 1} of ${off.length}: ${m.short || m.text}`;
    } catch (e) { showError(e.message); return; }
  }
  drawBoard(svg);
  $("board").classList.toggle("previewing", i >= 0);
  $("preview-caption").textContent = caption;
  document.querySelectorAll("#outcome-list .outcome").forEach((b, k) => b.classList.toggle("previewed", k === i));
  if ($("outcome-play")) $("outcome-play").disabled = i < 0;
  drawArrows();
}

// Marks the squares clicked, where the moves that begin with them go, and
// a square where a move may stop. Marks never take a click.
function markBoard() {
  const marks = $("board").querySelector("svg .marks");
  if (!marks) return;
  marks.innerHTML = "";
  const k = S.selection.length;
  if (!k) return;
  const next = new Set();
  for (const m of startingWith(S.selection)) if (m.squares.length > k) next.add(m.squares[k]);
  const mark = (sq, cls) => {
    const g = S.geometry[sq];
    if (!g) return;
    const r = Math.min(g.w, g.h) / 2;
    const attrs = cls === "target" ? { r: Math.max(r * 0.28, 5) } : { r: r * 0.85, fill: "none" };
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

// A person's click (or the end of a drag) on `sq`: the next square of a
// move, the last square again to stop there, or a new start.
function clickSquare(sq) {
  hideChooser();
  const sel = S.selection;
  if (sel.length && sq === sel[sel.length - 1]) {
    const stop = endingAt(sel);
    if (stop.length === 1) { choose(stop[0].text); return; }
    if (stop.length > 1) { showChooser(stop, sq); return; }
    S.selection = [];
    drawChoices();
    return;
  }
  let prefix = sel.concat([sq]);
  let found = startingWith(prefix);
  if (found.length === 0) {
    prefix = [sq];
    found = startingWith(prefix);
    if (found.length === 0) prefix = [];
  }
  S.selection = prefix;
  const done = endingAt(prefix);
  if (prefix.length && done.length === found.length) {
    if (done.length === 1) { choose(done[0].text); return; }
    drawChoices();
    showChooser(done, sq);
    return;
  }
  drawChoices();
}

// A small menu at `square` for the moves that end there (a Spokes node
// taking either colour).
function showChooser(moves, square) {
  const box = $("chooser");
  box.innerHTML = "";
  for (const m of moves) box.append(moveButton(m));
  const r = squareRect(square), b = $("board").getBoundingClientRect();
  box.style.display = "block";
  if (r) {
    const left = Math.min(r.left - b.left + r.width / 2, b.width - box.offsetWidth);
    box.style.left = Math.max(0, left) + "px";
    box.style.top = (r.top - b.top + r.height / 2 + 6) + "px";
  }
}

function hideChooser() {
  $("chooser").style.display = "none";
  $("chooser").innerHTML = "";
}

function choose(text) {
  const v = S.view;
  hideChooser();
  S.selection = [];
  if (v.node === "simultaneous") {
    S.pending.push(text);
    fillPending();
    return;
  }
  addMove(text);
}

// At a simultaneous node: the engine's seats choose after the people's
// (so the engine's choice is seen only once everyone's is made), then the
// joint action is played.
async function fillPending() {
  const v = S.view;
  const seats = engineSeats();
  const token = S.token;
  while (S.pending.length < v.players && seats.includes(pendingSide())) {
    const player = S.pending.length;
    try {
      const r = await getJson("/api/engine", { moves: lineTo(S.current).join(";"), player, ...limit() });
      if (token !== S.token) return;
      S.pending.push(r.move);
    } catch (e) {
      showError(e.message);
      return;
    }
  }
  if (S.pending.length === v.players) {
    addMove(S.pending.join(","));
    return;
  }
  drawChoices();
}

// The engine chooses for the player choosing next at a simultaneous node
// (the space key).
async function fillPendingOnce() {
  const v = S.view, token = S.token, player = S.pending.length;
  try {
    const r = await getJson("/api/engine", { moves: lineTo(S.current).join(";"), player, ...limit() });
    if (token !== S.token || S.pending.length !== player) return;
    S.pending.push(r.move);
  } catch (e) { showError(e.message); return; }
  if (S.pending.length === v.players) addMove(S.pending.join(","));
  else drawChoices();
}

function limit() {
  const n = Math.max(1, parseInt($("limit").value, 10) || 1);
  return $("limit-kind").value === "depth" ? { depth: Math.min(n, 64) } : { time: n };
}

// Lets the engine move when it holds the side to move.
function maybeEngine(token) {
  const v = S.view;
  const seats = engineSeats();
  if (!seats.length || S.busy) return;
  if (v.node === "simultaneous") {
    if (seats.includes(pendingSide())) fillPending();
    return;
  }
  if ((v.node === "decision" || v.node === "chance") && seats.includes(v.mover)) engineMove(token, 0);
}

async function engineMove(token, player) {
  S.busy = true;
  try {
    const r = await getJson("/api/engine", { moves: lineTo(S.current).join(";"), player, ...limit() });
    S.busy = false;
    if (token === S.token) addMove(r.move);
  } catch (e) {
    S.busy = false;
    showError(e.message);
  }
}

// ---- analysis -------------------------------------------------------

function winProbability(score, proven) {
  const scale = S.view ? S.view.scale : 200;
  if (proven || Math.abs(score) >= PROVEN) return score > 0 ? 1 : score < 0 ? 0 : 0.5;
  return 1 / (1 + Math.pow(3, -score / scale));
}

function stopAnalysis() {
  if (S.analysis) { S.analysis.close(); S.analysis = null; }
  S.pausedFor = null;
}

function startAnalysis() {
  stopAnalysis();
  const v = S.view;
  $("lines").innerHTML = "";
  if (!v.analysable || v.node === "terminal") {
    $("info").textContent = v.node === "terminal" ? "game over" : "no analysis for " + v.name;
    return;
  }
  if (document.hidden) { $("info").textContent = "analysis paused while the page is hidden"; return; }
  if (S.idle) { $("info").textContent = "analysis paused: the page was idle (move the pointer to resume)"; return; }
  $("info").textContent = "waiting for a search thread…";
  const es = new EventSource("/api/analysis?" + params({ moves: lineTo(S.current).join(";"), multipv: $("multipv").value }));
  S.analysis = es;
  es.onmessage = (e) => {
    const d = JSON.parse(e.data);
    if (d.error) { $("info").textContent = d.error; es.close(); return; }
    if (d.queued !== undefined) {
      if (d.queued >= d.of) {
        $("info").textContent = `waiting for a search thread: ${d.queued} search(es) hold the server's ${d.of}` +
          (d.waiting ? `, ${d.waiting} wait` : "") + " (an engine move or a scoring goes first, analyses take turns)";
      }
      return;
    }
    if (d.paused !== undefined) { S.pausedFor = d.paused; showPaused(); return; }
    if (d.resumed !== undefined) { S.pausedFor = null; if (!S.lastIteration) $("info").textContent = `searching on ${d.resumed} thread(s)`; return; }
    if (d.threads !== undefined) { $("info").textContent = `searching on ${d.threads} thread(s)`; return; }
    if (d.done) { es.close(); $("info").textContent += " (done)"; return; }
    S.pausedFor = null;
    showIteration(d);
  };
  es.onerror = () => es.close();
}

// The analysis yielded its thread to another search: the lines shown stay
// (they are this position's), and the page says what it waits for.
function showPaused() {
  const what = `paused: its thread lent to ${S.pausedFor}, resumes after`;
  const info = $("info");
  info.textContent = info.textContent.replace(/ *\[paused[^\]]*\]$/, "") + ` [${what}]`;
}

// A hidden page, or one without input for IDLE_MS, gives its search thread
// back; it analyses again once shown or used.
const IDLE_MS = 10 * 60 * 1000;
function wireYield() {
  let timer = null;
  const analysing = () => $("analyse").checked && S.view;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      S.idle = true;
      if (analysing() && S.analysis) { stopAnalysis(); $("info").textContent = "analysis paused: the page was idle (move the pointer to resume)"; }
    }, IDLE_MS);
    if (S.idle) { S.idle = false; if (analysing() && !S.analysis) startAnalysis(); }
  };
  for (const ev of ["pointermove", "pointerdown", "keydown", "wheel"]) document.addEventListener(ev, touch, { passive: true });
  document.addEventListener("visibilitychange", () => {
    if (!analysing()) return;
    if (document.hidden) { stopAnalysis(); $("info").textContent = "analysis paused while the page is hidden"; }
    else if (!S.analysis) startAnalysis();
  });
  touch();
}

// An event of a game of more than two players: every side's latest
// paranoid search (the side against all the others), its value for that
// side and its mixed strategy, or its best lines at a decision.
function showSides(d) {
  const knps = Math.round(d.nps / 1000);
  $("info").textContent = `depth ${d.depth}  ${knps} kN/s  ${d.nodes} nodes`;
  const first = d.sides[0];
  const p = winProbability(first.value, first.proven);
  $("bar").classList.remove("empty");
  $("bar-fill").style.width = (p * 100).toFixed(1) + "%";
  $("bar-text").textContent = `${first.name} against the others ${(p * 100).toFixed(0)}%`;
  const ol = $("lines");
  ol.innerHTML = "";
  for (const s of d.sides) {
    const li = document.createElement("li");
    li.className = "line side";
    li.dataset.side = s.side;
    const what = s.strategy.length
      ? s.strategy.slice(0, 6).map((a) => `${a.text} ${(a.probability * 100).toFixed(0)}%`).join(" ")
      : s.lines.map((l) => `${l.score_text}: ${l.pv.join(" ")}`).join(" | ");
    li.textContent = `${s.name} (depth ${s.depth}) value ${s.value_text}: ${what}`;
    ol.append(li);
  }
}

function showIteration(d) {
  if (d.sides) { showSides(d); return; }
  const side = S.view.sides[0];
  const knps = Math.round(d.nps / 1000);
  // A chance root: the expectation over the outcomes, each outcome's own
  // value and win probability in its line.
  const chance = d.lines.length && d.lines[0].probability !== undefined;
  const unit = S.view.unit ? ` ${S.view.unit}` : "";
  $("info").textContent = `depth ${d.depth}  ${side}: ${d.score_text}${d.proven ? "" : unit}  ${knps} kN/s  ${d.nodes} nodes`;
  $("info").title = S.view.unit_note || "";
  const p = chance
    ? d.lines.reduce((a, l) => a + l.probability * winProbability(l.score, false), 0)
    : winProbability(d.score, d.proven);
  $("bar").classList.remove("empty");
  $("bar-fill").style.width = (p * 100).toFixed(1) + "%";
  $("bar-text").textContent = `${side} ${(p * 100).toFixed(0)}%` + (chance ? " expected over the roll" : "");
  const ol = $("lines");
  ol.innerHTML = "";
  const lines = d.lines.length ? d.lines : (d.strategies || []).map((s, i) => ({
    score_text: S.view.sides[i] || "player " + (i + 1),
    pv: s.slice(0, 6).map((a) => `${a.text} ${(a.probability * 100).toFixed(0)}%`),
  }));
  for (const l of lines) {
    const li = document.createElement("li");
    li.className = "line";
    li.textContent = l.probability !== undefined
      ? `${l.pv[0]} (chance ${(l.probability * 100).toFixed(0)}%): ${l.score_text}, ${side} ${(winProbability(l.score, false) * 100).toFixed(0)}%: ${l.pv.slice(1).join(" ")}`
      : `${l.score_text}: ${l.pv.join(" ")}`;
    ol.append(li);
  }
  S.lastIteration = d;
  drawArrows();
}

// Arrows on the board for the first move of each of the analysis' best
// lines (the best the darkest), through every square of the move.
const ARROW_COLOURS = ["#1d5fb8", "#3f8f3a", "#b86a1d", "#7a3fa0", "#777"];
function drawArrows() {
  const layer = $("board").querySelector("svg .arrows");
  if (!layer) return;
  layer.innerHTML = "";
  const d = S.lastIteration;
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

// ---- move list --------------------------------------------------------

// A move's label, as the scoring gave it: by the win probability its side
// lost against the best move, both scored by the same search (so moves of
// equal value score alike, and the bonus for having the move does not
// count); none for a forced move.
function label(id) {
  const mark = S.nodes[id].label;
  const found = LABELS.find(([, , m]) => m === mark);
  return found ? [found[1], found[2]] : null;
}

// A node's win probability for the first side: at a chance node the
// outcomes' win probabilities weighed by their probability.
function nodeProbability(n) {
  if (n.outcomes && n.outcomes.length) return n.outcomes.reduce((a, o) => a + o.probability * winProbability(o.score, false), 0);
  return winProbability(n.score, false);
}

function moveSpan(id, ply) {
  const s = document.createElement("span");
  s.className = "move" + (id === S.current ? " current" : "");
  const l = label(id);
  if (l) s.classList.add(l[0]);
  const n = S.nodes[id];
  s.textContent = (ply % 2 === 1 ? Math.ceil(ply / 2) + ". " : "") + (n.short || n.move) + (l ? l[1] : "");
  if (n.short) s.title = n.move;
  s.dataset.node = id;
  s.onclick = () => go(id);
  return s;
}

// Writes the line from node `id` on: its main moves, each other child in
// brackets as a variation.
function writeLine(box, id, ply) {
  let n = id;
  while (S.nodes[n].children.length) {
    const kids = S.nodes[n].children;
    box.append(moveSpan(kids[0], ply + 1), " ");
    for (const v of kids.slice(1)) {
      const span = document.createElement("span");
      span.className = "variation";
      span.append("( ", moveSpan(v, ply + 1), " ");
      writeLine(span, v, ply + 1);
      span.append(") ");
      box.append(span);
    }
    n = kids[0];
    ply += 1;
  }
}

function drawMoves() {
  const box = $("moves");
  box.innerHTML = "";
  writeLine(box, 0, 0);
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// ---- evaluation graph -------------------------------------------------

function drawGraph() {
  const path = gameThrough(S.current);
  const w = 600, h = 140, pad = 18;
  const x = (i) => pad + (w - 2 * pad) * (path.length > 1 ? i / (path.length - 1) : 0);
  const y = (p) => 4 + (h - pad - 4) * (1 - p);
  let pts = [];
  let marks = "";
  path.forEach((id, i) => {
    const n = S.nodes[id];
    if (n.score === null) return;
    pts.push(`${x(i).toFixed(1)},${y(nodeProbability(n)).toFixed(1)}`);
    const l = label(id);
    if (l) marks += `<circle class="${l[0]}" cx="${x(i).toFixed(1)}" cy="${y(nodeProbability(n)).toFixed(1)}" r="3" fill="currentColor"/>`;
  });
  let ticks = "";
  const step = Math.max(1, Math.ceil(path.length / 12));
  for (let i = 0; i < path.length; i += step) {
    ticks += `<line x1="${x(i)}" x2="${x(i)}" y1="${h - pad}" y2="${h - pad + 4}" stroke="#888"/>` +
      `<text x="${x(i)}" y="${h - 3}" font-size="10" text-anchor="middle">${i}</text>`;
  }
  const cur = path.indexOf(S.current);
  $("graph").innerHTML =
    `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" id="graph-svg">` +
    `<rect x="${pad}" y="4" width="${w - 2 * pad}" height="${h - pad - 4}" fill="#eee"/>` +
    `<line x1="${pad}" x2="${w - pad}" y1="${y(0.5)}" y2="${y(0.5)}" stroke="#aaa" stroke-dasharray="4"/>` +
    `<line x1="${x(cur)}" x2="${x(cur)}" y1="4" y2="${h - pad}" stroke="#2a7de1"/>` +
    `<polyline points="${pts.join(" ")}" fill="none" stroke="#222" stroke-width="1.5"/>` +
    marks + ticks + `</svg>`;
  $("graph-svg").onclick = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    const fx = ((e.clientX - r.left) / r.width) * w;
    const i = Math.round(((fx - pad) / (w - 2 * pad)) * (path.length - 1));
    go(path[Math.max(0, Math.min(path.length - 1, i))]);
  };
}

function scoreGame() {
  if (S.scoring) S.scoring.close();
  const path = gameThrough(S.current);
  const moves = path.slice(1).map((id) => S.nodes[id].move);
  $("graph-info").textContent = "scoring…";
  const es = new EventSource("/api/scores?" + params({ moves: moves.join(";"), ...limitForScores() }));
  S.scoring = es;
  es.onmessage = (e) => {
    const d = JSON.parse(e.data);
    if (d.error) { $("graph-info").textContent = d.error; es.close(); return; }
    if (d.done) { $("graph-info").textContent = "scored" + graphSide(); es.close(); return; }
    if (d.queued !== undefined) { if (d.queued >= d.of) $("graph-info").textContent = "scoring: waiting for a search thread (an engine move goes first; analyses yield)"; return; }
    if (d.paused !== undefined) { $("graph-info").textContent += ` [paused: its thread lent to ${d.paused}]`; return; }
    if (d.ply === undefined) return;
    const id = path[d.ply];
    S.nodes[id].score = d.score;
    S.nodes[id].outcomes = d.outcomes;
    if (d.ply + 1 < path.length) S.nodes[path[d.ply + 1]].label = d.label;
    if (d.mover !== undefined && d.mover !== null) S.nodes[id].mover = d.mover;
    $("graph-info").textContent = `scored ${d.ply + 1} of ${path.length}` + graphSide();
    drawGraph();
    drawMoves();
  };
  es.onerror = () => es.close();
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

// ---- load, save, records -----------------------------------------------

async function load(text) {
  text = text.trim();
  try {
    await getJson("/api/position", { fen: text });
    S.fen = text;
    resetTree();
    render();
    return;
  } catch (_) { /* not a position: try a move list */ }
  try {
    await getJson("/api/position", { moves: text });
    resetTree();
    for (const m of text.split(";").map((t) => t.trim())) {
      const id = S.nodes.length;
      S.nodes.push({ move: m, parent: S.current, children: [], score: null, mover: null });
      S.nodes[S.current].children.push(id);
      S.current = id;
    }
    render();
  } catch (e) {
    showError("neither a position nor moves here: " + e.message);
  }
}

async function exportGame() {
  const moves = gameThrough(S.current).slice(1).map((id) => S.nodes[id].move);
  const start = S.view ? S.view.start : "";
  const q = (s) => '"' + s.replace(/(["\\$`])/g, "\\$1") + '"';
  const show =
    `gamut show ${S.game} --fen ${q(start)}` + (moves.length ? ` --moves ${q(moves.join("; "))}` : "");
  try {
    // The game as a record: save it as a .jsonl file for 'gamut replay'.
    const token = S.token;
    const r = await getJson("/api/export", { moves: moves.join("; ") });
    if (token !== S.token) return;
    $("export-text").textContent =
      `${show}\n\n# ${r.file} (gamut replay ${r.file} --game 1):\n${r.record}`;
  } catch (e) {
    $("export-text").textContent = show;
    showError("no record: " + e.message);
  }
}

async function showRecords() {
  const box = $("records");
  box.innerHTML = "";
  let files;
  try {
    const r = await fetch("/api/records");
    files = await r.json();
    if (!r.ok) { box.textContent = files.error; return; }
  } catch (e) { box.textContent = e.message; return; }
  box.append("records: ");
  for (const f of files) {
    const b = document.createElement("button");
    b.textContent = f;
    b.className = "record-file";
    b.onclick = () => openRecord(f);
    box.append(b);
  }
}

async function openRecord(file) {
  const box = $("records");
  const r = await fetch("/api/record?" + new URLSearchParams({ file }));
  const games = await r.json();
  if (!r.ok) { showError(games.error); return; }
  box.innerHTML = "";
  const back = document.createElement("button");
  back.textContent = "← files";
  back.onclick = showRecords;
  box.append(back, ` ${file}: `);
  for (const g of games) {
    const b = document.createElement("button");
    b.className = "record-game";
    b.textContent = `#${g.number} ${g.game} ${(g.engines || []).join("–")} ${g.result || ""}`;
    b.onclick = () => {
      S.game = g.game;
      $("game").value = g.game;
      S.setup = "";
      S.fen = g.opening;
      $("engine-seats").value = "";
      load(g.moves.join(";"));
    };
    box.append(b);
  }
}

// ---- wiring -------------------------------------------------------------

function newGame() {
  S.game = $("game").value;
  S.setup = $("setup").value.trim();
  S.fen = null;
  resetTree();
  render();
}

async function init() {
  const games = await (await fetch("/api/games")).json();
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.id;
    o.textContent = g.name + (g.id.startsWith("spokes") && g.id !== "spokes" ? ` (${g.id})` : "");
    $("game").append(o);
  }
  const url = new URLSearchParams(location.search);
  const want = url.get("game");
  if (want && games.some((g) => g.id === want)) $("game").value = want;
  if (url.get("setup")) $("setup").value = url.get("setup");
  $("game").onchange = () => { $("setup").value = ""; newGame(); };
  $("new").onclick = newGame;
  wirePointer();
  wireYield();
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(S.nodes[S.current].parent);
  $("forward").onclick = () => { const k = S.nodes[S.current].children; if (k.length) go(k[0]); };
  $("last").onclick = () => { const p = gameThrough(S.current); go(p[p.length - 1]); };
  $("takeback").onclick = () => {
    const id = S.current;
    if (id === 0) return;
    const parent = S.nodes[id].parent;
    S.nodes[parent].children = S.nodes[parent].children.filter((c) => c !== id);
    go(parent);
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowLeft: "back", ArrowRight: "forward", ArrowUp: "first", ArrowDown: "last",
      Home: "first", End: "last", f: "flip", " ": "engine-move", Escape: null,
    };
    if (!(e.key in keys)) return;
    e.preventDefault();
    if (keys[e.key] === null) { hideChooser(); S.selection = []; drawChoices(); return; }
    $(keys[e.key]).click();
  });
  $("flip").onclick = () => {
    $("board").classList.toggle("flipped");
    hideChooser();
  };
  $("engine-move").onclick = () => {
    const v = S.view;
    if (!v || S.busy) return;
    if (v.node === "simultaneous") { fillPendingOnce(); return; }
    if (v.node === "decision" || v.node === "chance") engineMove(S.token, 0);
  };
  $("analyse").onchange = () => {
    stopAnalysis();
    clearNumbers();
    if ($("analyse").checked) startAnalysis();
  };
  $("multipv").onchange = () => { if ($("analyse").checked) { stopAnalysis(); clearNumbers(); startAnalysis(); } };
  $("engine-seats").onchange = () => maybeEngine(S.token);
  $("limit-kind").onchange = () => { $("limit").value = $("limit-kind").value === "depth" ? 6 : 1000; };
  $("score-game").onclick = scoreGame;
  $("load").onclick = () => load($("load-text").value);
  $("export").onclick = exportGame;
  $("io").addEventListener("toggle", () => { if ($("io").open) showRecords(); });
  if (url.get("fen") || url.get("moves")) {
    S.game = $("game").value;
    S.setup = $("setup").value.trim();
    S.fen = url.get("fen");
    resetTree();
    for (const m of (url.get("moves") || "").split(";").map((t) => t.trim()).filter(Boolean)) {
      const id = S.nodes.length;
      S.nodes.push({ move: m, parent: S.current, children: [], score: null, mover: null });
      S.nodes[S.current].children.push(id);
      S.current = id;
    }
    render();
    return;
  }
  newGame();
}

// The square under a pointer event: its hit area (marks and arrows take
// no pointer).
function squareAt(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const hit = el && el.closest("#board svg [data-square]");
  return hit ? hit.getAttribute("data-square") : null;
}

// Clicks and drags on the board: pressing on a square clicks it, and
// letting go on another square clicks that one too, so a move is made by
// clicking its squares one after another or by dragging from one to the
// next. Pressing the last square clicked again and letting go there stops
// a move that could go on (Apart's hops).
function wirePointer() {
  let down = null;
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const sq = squareAt(e);
    if (sq === null) { if (!e.target.closest("#chooser")) hideChooser(); return; }
    e.preventDefault();
    const sel = S.selection;
    down = { sq, again: sel.length > 0 && sel[sel.length - 1] === sq };
    if (!down.again) clickSquare(sq);
  });
  board.addEventListener("pointerup", (e) => {
    const d = down;
    down = null;
    if (!d) return;
    const sq = squareAt(e);
    if (sq === null) return;
    if (sq !== d.sq || d.again) clickSquare(sq);
  });
  board.addEventListener("pointercancel", () => { down = null; });
}

init();
