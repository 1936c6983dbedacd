// gamut's page: the board, analysis, move tree and evaluation graph. The
// server knows the rules: this script only sends lines of moves and draws
// what comes back (legal moves with the squares they touch, pictures,
// analysis), so it is the same for every game.
"use strict";

const $ = (id) => document.getElementById(id);

// Win-probability losses (for the side that moved) at which a move is
// marked; see docs/serve.md.
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
  pending: [],     // actions chosen so far at a simultaneous node
  analysis: null,  // the EventSource of the running analysis
  scoring: null,   // the EventSource of the game's scoring
  busy: false,     // an engine move is being searched
  token: 0,        // counts renders, so stale answers are dropped
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
  if (child === undefined) {
    child = S.nodes.length;
    S.nodes.push({ move: text, parent: S.current, children: [], score: null, mover: null });
    cur.children.push(child);
  }
  go(child);
}

function go(id) {
  if (id < 0 || id >= S.nodes.length) return;
  S.current = id;
  S.selection = [];
  S.pending = [];
  render();
}

async function render() {
  const token = ++S.token;
  stopAnalysis();
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
  $("board").innerHTML = view.svg.replace(/^<\?xml[^>]*>\s*/, "");
  $("state").textContent = view.state;
  showTable(token);
  $("setup-label").style.display = view.setup ? "" : "none";
  $("setup").title = view.setup || "";
  seatMenu();
  drawChoices();
  drawMoves();
  drawGraph();
  if ($("analyse").checked) startAnalysis();
  maybeEngine(token);
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

function drawChoices() {
  const box = $("choices");
  box.innerHTML = "";
  const v = S.view;
  const moves = choosable();
  if (v.node === "simultaneous") {
    const who = v.players > 2 ? "player " + (S.pending.length + 1) : v.sides[S.pending.length];
    box.append(`${who} chooses in secret (${S.pending.length} of ${v.players} chosen): `);
  }
  const prefix = S.selection;
  const shown = moves.filter((m) =>
    m.squares.length === 0 ||
    (prefix.length > 0 && m.squares.length === prefix.length && prefix.every((s, i) => m.squares[i] === s)));
  if (v.node === "chance") {
    const roll = document.createElement("button");
    roll.textContent = "roll";
    roll.onclick = () => engineMove(S.token, 0);
    box.append(roll);
  }
  for (const m of shown.slice(0, 400)) {
    const b = document.createElement("button");
    b.textContent = m.text + (m.probability !== undefined ? ` (${(m.probability * 100).toFixed(1)}%)` : "");
    b.dataset.move = m.text;
    b.onclick = () => choose(m.text);
    box.append(b);
  }
  if (shown.length > 400) box.append(` … ${shown.length - 400} more`);
  markBoard();
}

// Marks the squares clicked and where the moves that begin with them go.
function markBoard() {
  const svg = $("board");
  svg.querySelectorAll(".selected,.target").forEach((e) => e.classList.remove("selected", "target"));
  const k = S.selection.length;
  const next = new Set();
  for (const m of choosable()) {
    if (m.squares.length > k && S.selection.every((s, i) => m.squares[i] === s)) next.add(m.squares[k]);
  }
  for (const el of svg.querySelectorAll("[data-square]")) {
    const sq = el.getAttribute("data-square");
    if (k > 0 && S.selection.includes(sq) && el.classList.contains("square")) el.classList.add("selected");
    else if (k > 0 && next.has(sq) && el.classList.contains("square")) el.classList.add("target");
  }
}

function clickSquare(sq) {
  const moves = choosable();
  const starts = (prefix) => moves.filter((m) => prefix.every((s, i) => m.squares[i] === s));
  let prefix = S.selection.concat([sq]);
  let found = starts(prefix);
  if (found.length === 0) {
    prefix = [sq];
    found = starts(prefix);
    if (found.length === 0) prefix = [];
  }
  S.selection = prefix;
  const done = found.filter((m) => m.squares.length === prefix.length);
  if (prefix.length && done.length === 1 && found.length === 1) {
    choose(done[0].text);
    return;
  }
  drawChoices();
}

function choose(text) {
  const v = S.view;
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
}

function startAnalysis() {
  stopAnalysis();
  const v = S.view;
  $("lines").innerHTML = "";
  if (!v.analysable || v.node === "terminal") {
    $("info").textContent = v.node === "terminal" ? "game over" : "no analysis for " + v.name;
    return;
  }
  $("info").textContent = "waiting for a search thread…";
  const es = new EventSource("/api/analysis?" + params({ moves: lineTo(S.current).join(";") }));
  S.analysis = es;
  es.onmessage = (e) => {
    const d = JSON.parse(e.data);
    if (d.error) { $("info").textContent = d.error; es.close(); return; }
    if (d.queued !== undefined) return;
    if (d.threads !== undefined) { $("info").textContent = `searching on ${d.threads} thread(s)`; return; }
    if (d.done) { es.close(); $("info").textContent += " (done)"; return; }
    showIteration(d);
  };
  es.onerror = () => es.close();
}

// An event of a game of more than two players: every side's latest
// paranoid search (the side against all the others), its value for that
// side and its mixed strategy, or its best lines at a decision.
function showSides(d) {
  const knps = Math.round(d.nps / 1000);
  $("info").textContent = `depth ${d.depth}  ${knps} kN/s  ${d.nodes} nodes`;
  const first = d.sides[0];
  const p = winProbability(first.value, first.proven);
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
  $("info").textContent = `depth ${d.depth}  ${side}: ${d.score_text}  ${knps} kN/s  ${d.nodes} nodes`;
  const p = winProbability(d.score, d.proven);
  $("bar-fill").style.width = (p * 100).toFixed(1) + "%";
  $("bar-text").textContent = `${side} ${(p * 100).toFixed(0)}%`;
  const ol = $("lines");
  ol.innerHTML = "";
  const lines = d.lines.length ? d.lines : (d.strategies || []).map((s, i) => ({
    score_text: S.view.sides[i] || "player " + (i + 1),
    pv: s.slice(0, 6).map((a) => `${a.text} ${(a.probability * 100).toFixed(0)}%`),
  }));
  for (const l of lines) {
    const li = document.createElement("li");
    li.className = "line";
    li.textContent = `${l.score_text}${l.probability !== undefined ? " @" + (l.probability * 100).toFixed(0) + "%" : ""}: ${l.pv.join(" ")}`;
    ol.append(li);
  }
}

// ---- move list --------------------------------------------------------

function label(id) {
  const n = S.nodes[id];
  const p = S.nodes[n.parent];
  // `labelled`: the side whose loss marks the move (from the scoring).
  if (n.score === null || !p || p.score === null || p.labelled === null || p.labelled === undefined) return null;
  const before = winProbability(p.score, false);
  const after = winProbability(n.score, false);
  const loss = p.labelled === 0 ? before - after : after - before;
  for (const [t, name, mark] of LABELS) if (loss >= t) return [name, mark];
  return null;
}

function moveSpan(id, ply) {
  const s = document.createElement("span");
  s.className = "move" + (id === S.current ? " current" : "");
  const l = label(id);
  if (l) s.classList.add(l[0]);
  s.textContent = (ply % 2 === 1 ? Math.ceil(ply / 2) + ". " : "") + S.nodes[id].move + (l ? l[1] : "");
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
    pts.push(`${x(i).toFixed(1)},${y(winProbability(n.score, false)).toFixed(1)}`);
    const l = label(id);
    if (l) marks += `<circle class="${l[0]}" cx="${x(i).toFixed(1)}" cy="${y(winProbability(n.score, false)).toFixed(1)}" r="3" fill="currentColor"/>`;
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
    if (d.ply === undefined) return;
    const id = path[d.ply];
    S.nodes[id].score = d.score;
    S.nodes[id].labelled = d.labelled;
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
    const r = await getJson("/api/export", { moves: moves.join("; ") });
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
  const want = new URLSearchParams(location.search).get("game");
  if (want && games.some((g) => g.id === want)) $("game").value = want;
  $("game").onchange = () => { $("setup").value = ""; newGame(); };
  $("new").onclick = newGame;
  $("board").addEventListener("click", (e) => {
    const el = e.target.closest("[data-square]");
    if (el) clickSquare(el.getAttribute("data-square"));
  });
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
    const keys = { ArrowLeft: "back", ArrowRight: "forward", ArrowUp: "first", ArrowDown: "last" };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  });
  $("analyse").onchange = () => ($("analyse").checked ? startAnalysis() : stopAnalysis());
  $("engine-seats").onchange = () => maybeEngine(S.token);
  $("limit-kind").onchange = () => { $("limit").value = $("limit-kind").value === "depth" ? 6 : 1000; };
  $("score-game").onclick = scoreGame;
  $("load").onclick = () => load($("load-text").value);
  $("export").onclick = exportGame;
  $("io").addEventListener("toggle", () => { if ($("io").open) showRecords(); });
  newGame();
}

init();
