// gamut's page: the board, analysis, move tree and evaluation graph. The
// engine knows the rules: this script only sends lines of moves and draws
// what comes back (legal moves with the squares they touch, pictures,
// analysis), so it is the same for every game. It asks through
// `transport` (transport.js) alone: `gamut serve` over HTTP, or on the
// static site the engine's Web Workers.
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

// The page's state: the one object the script keeps what it knows in.
const S = {
  game: null,      // game id
  setup: "",       // setup text ("" for the default start)
  fen: null,       // start position text (null: the start of the setup)
  nodes: [],       // the move tree: {move, short, parent, children, score, mover,
                   // kind and by (the node kind and mover of the position the
                   // move was made in), text (the position, once shown)}
  tree: 0,         // counts new trees, so stale fills of a tree are dropped
  current: 0,      // the node shown
  view: null,      // the server's answer for the node shown
  selection: [],   // squares clicked so far
  geometry: {},    // each square's hit area: {x, y, w, h, round} in the picture's units
  svgNs: null,     // the SVG namespace, read from the game's picture (so that
                   // the page names no address)
  svgShown: null,  // the picture drawn last (redrawn when the board turns round)
  stepped: false,  // the outcome previewed was stepped to (it stays without the pointer)
  cursor: -1,      // the outcome previewed last (where the arrows step on from)
  preview: -1,     // the outcome previewed (index into the moves without squares), or -1
  autoForced: false, // a move was just played: a forced outcome may follow by itself
  outcomes: null,  // a resolution of too many outcomes to list: {fix: [[square, content]…]
                   // (what the outcomes must leave there), from (the page's first),
                   // data (the server's answer), asked (counts requests)}
  lastIteration: null, // the analysis shown (for the best-move arrows)
  infoNote: "",    // what the analysis' scores include (the info line's tooltip)
  shownDepth: 0,   // the deepest iteration of the analysis shown
  analysisKey: null, // the line and lines count analysed (its lines stay when resumed)
  resumeDepth: 0,  // a resumed analysis shows only iterations deeper than this
  pausedFor: null, // the search the analysis lent its thread to, while it waits
  idle: false,     // the page was idle: its analysis gave its thread back
  pending: [],     // actions chosen so far at a simultaneous node
  analysis: null,  // the stream of the running analysis (transport.stream)
  scoring: null,   // the stream of the game's scoring
  scoringIds: null, // the nodes the running scoring scores, in its order
  scoreTimer: null, // the background scoring's wait after a move (scoreSoon)
  describing: false, // describeTree asks about the tree's moves
  busy: false,     // the engine searches for a seat: the board takes no click meanwhile
  busyFor: "",     // for whom it searches ("player 2"), said under the board
  busyJob: null,   // that search's request: {id, abort}
  token: 0,        // counts renders, so stale answers are dropped
  shown: 0,        // the render whose position is shown
  record: null,    // the record exported last (for the copy button)
};

function showError(msg) { $("error").textContent = msg || ""; }

function params(extra) {
  const p = new URLSearchParams({ game: S.game });
  if (S.fen !== null) p.set("fen", S.fen); else if (S.setup) p.set("setup", S.setup);
  for (const [k, v] of Object.entries(extra || {})) if (v !== null && v !== undefined) p.set(k, v);
  return p;
}

function getJson(route, extra) {
  return transport.getJson(route, params(extra));
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
  S.tree += 1;
  if (S.scoring) { S.scoring.close(); S.scoring = null; }
}

// Appends `texts` as the main line from the root, and shows move `ply`
// of it (the last by default).
function lineFromTexts(texts, ply) {
  resetTree();
  const ids = [0];
  for (const m of texts) {
    const id = S.nodes.length;
    S.nodes.push({ move: m, parent: ids[ids.length - 1], children: [], score: null, mover: null });
    S.nodes[ids[ids.length - 1]].children.push(id);
    ids.push(id);
  }
  S.current = ids[ply === undefined || ply === null || ply < 0 || ply >= ids.length ? ids.length - 1 : ply];
}

// Plays move `text` at the node shown (`short`: its short form where the
// server gave it with the move, an engine's).
function addMove(text, short) {
  const cur = S.nodes[S.current];
  let child = cur.children.find((c) => S.nodes[c].move === text);
  const fresh = child === undefined;
  if (fresh) {
    child = S.nodes.length;
    const m = choosable().find((c) => c.text === text);
    S.nodes.push({
      move: text, short: (m && m.short) || (short !== text ? short : undefined), parent: S.current, children: [], score: null, mover: null,
      kind: S.view.node, by: S.view.mover,
    });
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
  stopThinking(null);
  stopAnalysis();
  clearNumbers();
  let view;
  // A position slow to come (a large resolution's outcomes are listed
  // first) says so after half a second, with the seconds waited.
  const asked = Date.now();
  const waiting = setInterval(() => {
    if (token !== S.token) { clearInterval(waiting); return; }
    $("state").textContent = `loading the position… ${Math.floor((Date.now() - asked) / 1000)} s`;
  }, 500);
  try {
    view = await getJson("/api/position", { moves: lineTo(S.current).join(";") });
  } catch (e) {
    showError(e.message);
    return;
  } finally {
    clearInterval(waiting);
  }
  if (token !== S.token) return;
  showError("");
  S.view = view;
  S.nodes[S.current].mover = view.mover;
  S.nodes[S.current].text = view.text;
  describeChildren(S.current, view);
  keepInUrl();
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
  S.outcomes = paged() ? { fix: [], from: 0, data: null, asked: 0 } : null;
  drawChoices();
  if (S.outcomes) fetchOutcomes();
  drawMoves();
  drawGraph();
  if ($("analyse").checked) startAnalysis();
  S.shown = token;
  describeTree();
  scoreSoon();
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
  $("bar").title = "";
  $("bar").style.backgroundColor = "";
  $("bar-fill").style.width = "0";
  $("bar-text").textContent = "no evaluation";
  if ($("export-tree")) URL.revokeObjectURL($("export-tree").href);
  $("export-text").textContent = "";
  $("copy").disabled = true;
  S.record = null;
  S.lastIteration = null;
  S.infoNote = "";
  S.shownDepth = 0;
  S.analysisKey = null;
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

// A small square in side `i`'s colour; nothing where the sides own no
// colour (Aporia's players).
function swatch(i) {
  const colour = (S.view.side_colours || [])[i];
  if (!colour) return document.createTextNode("");
  const s = document.createElement("span");
  s.className = "swatch";
  s.style.background = colour;
  s.title = S.view.sides[i];
  return s;
}

// The colours of the first side's share and of the others' (the graph,
// the bar): the sides' own where the picture gives each of two sides one,
// else light and dark.
function shareColours() {
  const v = S.view, c = (v && v.side_colours) || [];
  return v && v.sides.length === 2 && c.length === 2 ? [c[0], c[1]] : [c[0] || "#f4f1e8", "#555"];
}

// The bar in the sides' colours.
function paintBar() {
  const [first, others] = shareColours();
  $("bar-fill").style.background = first;
  $("bar").style.backgroundColor = others;
}

// ---- the board ---------------------------------------------------------

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

// Under the bar, the solved table's verdict for the side to move (`win
// in 3`, `draw`, `loss in 2`: Aporia, when the server has its table); in
// a game with a solver but no table, that its search's scale is flat
// (the bar then stays near 50% where nothing is proven).
async function showTable(token) {
  const box = $("table-verdict");
  box.textContent = "";
  box.className = "";
  if (!transport.has("/api/table")) return;
  try {
    const t = await getJson("/api/table", { moves: lineTo(S.current).join(";") });
    if (token !== S.token) return;
    const v = S.view;
    if (t.value !== null) {
      const who = v.mover !== null && v.mover !== undefined ? `${v.sides[v.mover]}, to move` : "the side to move";
      box.textContent = `solved table: ${t.value} for ${who}` + (t.best.length ? ` (best: ${t.best.join(" ")})` : "");
      box.className = "verdict";
    } else if (t.solver) {
      box.textContent = `search scale flat: a score of ${v.scale.toLocaleString("en")} is 75%, so the bar stays near 50% ` +
        `unless a result is proven (no solved table: gamut solve ${S.game}, then serve --table)`;
      box.className = "flat";
    }
    box.title = box.textContent;
  } catch (_) { /* no verdict */ }
}

// The moves to choose from now: decision moves and chance outcomes, or at
// a simultaneous node the actions of the next player to choose.
function choosable() {
  const v = S.view;
  if (!v) return [];
  if (v.node === "simultaneous") return v.actions[S.pending.length] || [];
  if (paged()) return S.outcomes && S.outcomes.data ? S.outcomes.data.moves : [];
  return v.moves;
}

// Whether the position's moves are too many outcomes of a choice off the
// board to come with it (a four-player Spokes resolution can have tens of
// thousands): they are then chosen on the board, node by node, and listed
// a page at a time (`/api/outcomes`).
function paged() {
  const v = S.view;
  return !!v && v.node === "decision" && v.moves.length === 0 && v.outcome_count > 0;
}

// Whether the outcomes to choose from are in (always, where they came
// with the position).
function outcomesReady() {
  return !paged() || (!!S.outcomes && !!S.outcomes.data && !S.outcomes.loading);
}

// Asks the server for the outcomes that leave what was chosen on the
// board, the page from `S.outcomes.from` on, then draws them; after a
// node was chosen the board previews the first of them.
async function fetchOutcomes() {
  const token = S.token, o = S.outcomes;
  const ask = ++o.asked;
  o.loading = true;
  try {
    const d = await getJson("/api/outcomes", {
      moves: lineTo(S.current).join(";"),
      fix: o.fix.map(([sq, c]) => `${sq}:${c}`).join(","),
      from: o.from,
    });
    if (token !== S.token || S.outcomes !== o || ask !== o.asked) return;
    o.data = d;
  } catch (e) {
    if (token === S.token) showError(e.message);
  } finally {
    if (ask === o.asked) o.loading = false;
  }
  if (token !== S.token || S.outcomes !== o || ask !== o.asked) return;
  S.preview = -1;
  S.cursor = -1;
  S.stepped = false;
  drawChoices();
  if (o.fix.length && o.data && o.data.moves.length) previewOutcome(0, true);
  else previewOutcome(-1, false);
}

// Keeps only the outcomes that leave `content` on `square` (`=`: as
// placed), or with `content` null drops that choice.
function narrow(square, content) {
  const o = S.outcomes;
  if (!o) return;
  o.fix = o.fix.filter(([sq]) => sq !== square);
  if (content !== null) o.fix.push([square, content]);
  o.from = 0;
  fetchOutcomes();
}

// A node's content in words for the chooser: `=` as placed, `.` empty,
// else as the position text writes it.
function contentName(c) {
  return c === "=" ? "as placed" : c === "." ? "empty" : c;
}

// The chooser at `square` of what the outcomes still possible leave there,
// each with how many outcomes do.
function showContents(square) {
  const d = S.outcomes && S.outcomes.data;
  const entry = d && d.squares.find((e) => e.square === square);
  if (!entry) return false;
  const box = $("chooser");
  box.innerHTML = "";
  box.append(`${square}: `);
  for (const c of entry.contents) {
    const b = document.createElement("button");
    b.className = "content";
    b.dataset.square = square;
    b.dataset.content = c.content;
    b.textContent = `${contentName(c.content)} (${c.count.toLocaleString("en")})`;
    b.title = `keep the ${c.count} outcomes that leave ${contentName(c.content)} on ${square}`;
    b.onclick = () => { hideChooser(); narrow(square, c.content); };
    box.append(b);
  }
  placeChooser(square);
  return true;
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

// Player `i`'s name at a simultaneous node: its side's, or where a side
// has several players (`spokes2v2`'s teams) the player's own.
function chooserName(i) {
  const v = S.view;
  return v.players > 2 ? "player " + (i + 1) : v.sides[i];
}

// Whether the page takes a person's move now: the position shown is the
// one asked for last, and no engine searches for a seat.
function takesInput() {
  return !!S.view && S.shown === S.token && !S.busy;
}

// Says why a click was not taken: the engine's turn.
function refuse() {
  if (S.busy) showError(`the engine is ${S.view.node === "simultaneous" ? "choosing" : "moving"} for ${S.busyFor}: wait for your turn`);
}

// The side of the player choosing next at a simultaneous node.
function pendingSide() {
  return S.view.player_sides[S.pending.length];
}

// The squares of move `m` entered from `start`: its own, or where the
// server lets it be begun from another square (`from`: the other stones
// of an Epaminondas phalanx) and `start` is one of those, that square
// for its first.
function pathOf(m, start) {
  return m.from && m.from.includes(start) ? [start].concat(m.squares.slice(1)) : m.squares;
}

// The moves whose squares begin with `prefix`, and those that end there.
// A move of the square clicked first goes before a move begun from it
// along the same squares (`a2` then `a3` moves the stone on a2, not the
// phalanx behind it).
function startingWith(prefix) {
  const found = choosable().filter((m) => {
    const path = pathOf(m, prefix[0]);
    return path.length >= prefix.length && prefix.every((s, i) => path[i] === s);
  });
  if (prefix.length < 2) return found;
  const own = (m) => m.squares[0] === prefix[0];
  return found.filter((m) => own(m) || !found.some((o) => own(o) && o.squares.length === m.squares.length));
}
function endingAt(prefix) {
  return startingWith(prefix).filter((m) => m.squares.length === prefix.length && prefix.length > 0);
}

// A die's outcome is named as the rules name it (`transmutation, then
// one action (1–2)`), with its chance, and says in its tooltip what it
// does.
function moveButton(m, label) {
  const b = document.createElement("button");
  const chance = m.probability !== undefined ? ` (${(m.probability * 100).toFixed(1)}%)` : "";
  b.textContent = label || (m.name ? `${m.name}${chance.replace(" (", ", ").replace(")", "")}` : (m.short || m.text) + chance);
  if (m.short && m.short !== m.text) b.title = m.text;
  if (m.does) b.title = `${m.text}: ${m.does}`;
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
  // A line of its own for what is not a block (the box lays its
  // children out one under the other, an outcome list taking the rest).
  const line = () => {
    const l = document.createElement("div");
    l.className = "choice-line";
    box.append(l);
    return l;
  };
  if (S.busy) {
    // The engine searches for one of its seats: the page says so, and
    // the board and the buttons take nothing meanwhile.
    const wait = document.createElement("span");
    wait.id = "thinking";
    wait.textContent = (v.node === "chance" ? "rolling the die…" : `engine ${v.node === "simultaneous" ? "choosing" : "moving"} for ${S.busyFor}…`) +
      (v.node === "simultaneous" ? ` (${S.pending.length} of ${v.players} chosen)` : "");
    line().append(wait);
    markBoard();
    drawArrows();
    return;
  }
  if (v.node === "simultaneous") {
    const side = pendingSide();
    line().append(swatch(side), ` ${chooserName(S.pending.length)} chooses in secret (${S.pending.length} of ${v.players} chosen): `);
  }
  if (v.rolled) {
    // What the die's outcome just rolled did (a transmutation's dead).
    const l = line();
    l.id = "rolled";
    l.textContent = v.rolled;
  }
  const off = moves.filter((m) => m.squares.length === 0);
  if (paged()) {
    drawNarrowing(box);
    if (S.outcomes.data) drawOutcomes(box, off);
  } else if (v.node === "decision" && off.length && off.length === moves.length && off.length > 1) {
    drawOutcomes(box, off);
  } else if (off.length || v.node === "chance") {
    const l = line();
    if (v.node === "chance") {
      const roll = document.createElement("button");
      roll.textContent = "roll";
      roll.onclick = () => engineMove(S.token, 0);
      l.append(roll);
    }
    for (const m of off.slice(0, 400)) l.append(moveButton(m));
    if (off.length > 400) l.append(` … ${off.length - 400} more`);
  }
  if (S.selection.length) {
    const stop = endingAt(S.selection);
    if (stop.length && startingWith(S.selection).length > stop.length) {
      const l = line();
      l.append(" stop here (or click the square again): ");
      for (const m of stop) l.append(moveButton(m));
    }
  }
  markBoard();
  drawArrows();
}

// Above the outcomes of a resolution too large to list: how many there
// are and how many leave what was chosen on the board, each choice (a
// button drops it), and the page of them listed with buttons to the
// pages before and after.
function drawNarrowing(box) {
  const o = S.outcomes, d = o.data, v = S.view;
  const head = document.createElement("div");
  head.id = "narrowing";
  const n = (k) => k.toLocaleString("en");
  if (!d) {
    head.textContent = `${n(v.outcome_count)} outcomes: listing them…`;
    box.append(head);
    return;
  }
  head.append(`${n(d.total)} outcomes`);
  if (o.fix.length) {
    head.append(`, ${n(d.count)} leave `);
    for (const [sq, c] of o.fix) {
      const b = document.createElement("button");
      b.className = "unfix";
      b.dataset.square = sq;
      b.textContent = `${contentName(c)} on ${sq} ×`;
      b.title = `drop this choice`;
      b.onclick = () => narrow(sq, null);
      head.append(b);
    }
    const clear = document.createElement("button");
    clear.id = "outcome-clear";
    clear.textContent = "clear";
    clear.onclick = () => { o.fix = []; o.from = 0; fetchOutcomes(); };
    head.append(clear);
  }
  if (d.squares.length) head.append(". Click a ringed node to choose what the resolution leaves there.");
  box.append(head);
  if (d.count > d.moves.length || d.from > 0) {
    const pages = document.createElement("div");
    pages.id = "outcome-pages";
    const earlier = document.createElement("button");
    earlier.id = "outcome-earlier";
    earlier.textContent = "◀◀";
    earlier.title = "the outcomes before";
    earlier.disabled = d.from === 0;
    earlier.onclick = () => { o.from = Math.max(0, d.from - PAGE); fetchOutcomes(); };
    const later = document.createElement("button");
    later.id = "outcome-later";
    later.textContent = "▶▶";
    later.title = "the outcomes after";
    later.disabled = d.from + d.moves.length >= d.count;
    later.onclick = () => { o.from = d.from + PAGE; fetchOutcomes(); };
    pages.append(`listed ${n(d.from + 1)}–${n(d.from + d.moves.length)} of ${n(d.count)} `, earlier, later);
    box.append(pages);
  }
}

// The outcomes a page lists at a time (the server's page).
const PAGE = 60;

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
  if (!n) return;
  const step = (d) => previewOutcome(S.cursor < 0 ? (d < 0 ? n - 1 : 0) : (S.cursor + d + n) % n, true);
  prev.onclick = () => step(-1);
  next.onclick = () => step(1);
  play.onclick = () => { if (S.preview >= 0) choose(outcomes[S.preview].text); };
  row.append(paged() ? "" : `${outcomes.length} outcomes: `, prev, next, play);
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
      const d = paged() ? S.outcomes.data : null;
      caption = `preview ${d ? d.from + i + 1 : i + 1} of ${(d ? d.count : off.length).toLocaleString("en")}: ${m.short || m.text}`;
    } catch (e) { showError(e.message); return; }
  }
  drawBoard(svg);
  markBoard();
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

// A person's click (or the end of a drag) on `sq`: the next square of a
// move, the last square again to stop there, or a new start.
function clickSquare(sq) {
  hideChooser();
  if (!takesInput()) { refuse(); return; }
  if (paged()) { showContents(sq); return; }
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
  placeChooser(square);
}

// Opens the chooser at `square`: beside the square as drawn (on its
// right, or its left where the board has no room there), level with it,
// so that it covers neither the square nor what is above and below it.
function placeChooser(square) {
  const box = $("chooser");
  const b = $("board").getBoundingClientRect();
  const drawn = $("board").querySelector(`svg .square[data-square="${CSS.escape(square)}"]`);
  const r = drawn ? drawn.getBoundingClientRect() : squareRect(square);
  box.style.display = "block";
  if (r) {
    const gap = 4, w = box.offsetWidth, h = box.offsetHeight;
    const right = r.right - b.left + gap, left = r.left - b.left - gap - w;
    const x = right + w <= b.width || left < 0 ? Math.min(right, b.width - w) : left;
    box.style.left = Math.max(0, x) + "px";
    box.style.top = Math.max(0, Math.min(r.top - b.top + r.height / 2 - h / 2, b.height - h)) + "px";
  }
}

function hideChooser() {
  $("chooser").style.display = "none";
  $("chooser").innerHTML = "";
}

function choose(text) {
  const v = S.view;
  hideChooser();
  if (!takesInput()) { refuse(); return; }
  S.selection = [];
  if (v.node === "simultaneous") {
    S.pending.push(text);
    fillPending();
    return;
  }
  addMove(text);
}

// At a simultaneous node: the engine's seats choose, each when its
// player is the next to choose (the people's choices are never shown to
// it), then the joint action is played. A person's click waits for the
// engine (the page says for whom it chooses).
async function fillPending() {
  const v = S.view;
  const seats = engineSeats();
  if (S.busy || v.node !== "simultaneous") return;
  while (S.pending.length < v.players && seats.includes(pendingSide())) {
    if (!(await chooseFor(S.pending.length))) return;
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
  const v = S.view;
  if (S.busy || !(await chooseFor(S.pending.length))) return;
  if (S.pending.length === v.players) addMove(S.pending.join(","));
  else fillPending();
}

// The engine's action for `player`, the player choosing next at the
// simultaneous node shown, added to the actions chosen; false where the
// position changed meanwhile or the search failed.
async function chooseFor(player) {
  const token = S.token;
  const found = await think(chooserName(player), { player });
  if (found === null || token !== S.token || S.pending.length !== player) return false;
  S.pending.push(found.move);
  return true;
}

// Asks the engine's move (`extra`: the player at a simultaneous node) at
// the position shown, saying meanwhile for whom it searches: {move,
// short}, or null where the position changed, the search was dropped or
// failed.
async function think(who, extra) {
  const token = S.token;
  const id = (S.busyJob ? S.busyJob.id : 0) + 1;
  const search = transport.engine(params({ moves: lineTo(S.current).join(";"), ...extra, ...limit() }));
  S.busy = true;
  S.busyFor = who;
  S.busyJob = { id, abort: search.abort };
  drawChoices();
  let move = null;
  try {
    const body = await search.promise;
    move = { move: body.move, short: body.short };
  } catch (e) {
    if (S.busyJob && S.busyJob.id === id && e.name !== "AbortError") showError(e.message);
  }
  if (!S.busyJob || S.busyJob.id !== id) return null;
  stopThinking(id);
  if (token !== S.token) return null;
  drawChoices();
  return move;
}

// Ends the engine's search `id` (null: whichever runs), its request
// dropped.
function stopThinking(id) {
  const job = S.busyJob;
  if (!job || (id !== null && job.id !== id)) return;
  if (id === null) job.abort();
  S.busyJob = { id: job.id, abort: job.abort, done: true };
  S.busy = false;
  S.busyFor = "";
}

function limit() {
  const n = Math.max(1, parseInt($("limit").value, 10) || 1);
  return $("limit-kind").value === "depth" ? { depth: Math.min(n, 64) } : { time: n };
}

// Lets the engine move when it holds the side to move.
function maybeEngine(token) {
  const v = S.view;
  const seats = engineSeats();
  if (!seats.length || S.busy || token !== S.token) return;
  if (v.node === "simultaneous") {
    if (seats.includes(pendingSide())) fillPending();
    return;
  }
  if ((v.node === "decision" || v.node === "chance") && seats.includes(v.mover)) engineMove(token, 0);
}

async function engineMove(token, player) {
  if (S.busy || token !== S.token) return;
  const v = S.view;
  const found = await think(v.node === "chance" ? "the die" : v.sides[v.mover] || "the side to move", { player });
  if (found !== null && token === S.token) addMove(found.move, found.short);
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
  // The lines shown stay when the same position is analysed again after
  // a pause (a hidden or idle page): the new search's iterations show
  // only once deeper than them.
  const key = lineTo(S.current).join(";") + "|" + $("multipv").value;
  const keep = S.analysisKey === key && S.shownDepth > 0;
  stopAnalysis();
  const v = S.view;
  if (!keep) { $("lines").innerHTML = ""; S.shownDepth = 0; }
  S.analysisKey = key;
  S.resumeDepth = keep ? S.shownDepth : 0;
  if (!v.analysable || v.node === "terminal") {
    $("info").textContent = v.node === "terminal" ? "game over" : "no analysis for " + v.name;
    return;
  }
  if (document.hidden) { pausedInfo("analysis paused while the page is hidden"); return; }
  if (S.idle) { pausedInfo("analysis paused: the page was idle (move the pointer to resume)"); return; }
  if (keep) pausedInfo(`resumed: the lines of depth ${S.shownDepth} stay until the search passes them`);
  else $("info").textContent = "waiting for a search thread…";
  const es = transport.stream("/api/analysis", params({ moves: lineTo(S.current).join(";"), multipv: $("multipv").value }), (d) => {
    if (d.error) { $("info").textContent = d.error; es.close(); return; }
    if (d.queued !== undefined) {
      if (d.queued >= d.of) {
        const what = `waiting for a search thread: ${d.queued} search(es) hold the server's ${d.of}` +
          (d.waiting ? `, ${d.waiting} wait` : "") + " (an engine move or a scoring goes first, analyses take turns)";
        if (S.shownDepth) pausedInfo(what); else $("info").textContent = what;
      }
      return;
    }
    if (d.paused !== undefined) { S.pausedFor = d.paused; showPaused(); return; }
    if (d.resumed !== undefined) { S.pausedFor = null; if (!S.shownDepth) searching(es, d.resumed); return; }
    if (d.threads !== undefined) { if (!S.shownDepth) searching(es, d.threads); return; }
    if (d.done) { es.close(); $("info").textContent += " (done)"; return; }
    S.pausedFor = null;
    if (d.depth <= S.resumeDepth) return;
    S.resumeDepth = 0;
    S.shownDepth = Math.max(S.shownDepth, d.depth);
    showIteration(d);
  });
  S.analysis = es;
}

// Until the search `es` finishes its first depth, the analysis' line
// says on how many threads it searches and for how long so far, each
// second.
function searching(es, threads) {
  const since = Date.now();
  const say = () => {
    if (S.analysis !== es || S.shownDepth || S.pausedFor) return false;
    const secs = Math.floor((Date.now() - since) / 1000);
    $("info").textContent = `searching on ${threads} thread(s)` + (secs ? `, ${secs} s so far, no depth finished yet` : "");
    return true;
  };
  say();
  const timer = setInterval(() => { if (!say()) clearInterval(timer); }, 1000);
}

// The bar's tooltip: what its share is, how a score becomes it (the
// game's fitted scale: a score of one scale for the side is 75%, 0 is
// 50%, an even game) and what the scores include.
function explainBar(whose, p) {
  const v = S.view;
  const unit = v.unit ? ` ${v.unit}` : "";
  $("bar").title = `${whose} chance of winning, ${(p * 100).toFixed(0)}%: the score for it read on the game's fitted scale ` +
    `(a score of ${v.scale}${unit} is 75%, 0 is 50%: an even game, ${-v.scale} is 25%)` + (v.unit_note ? `. ${v.unit_note}` : "");
}

// The analysis yielded its thread to another search: the lines shown stay
// (they are this position's), and the page says what it waits for.
function showPaused() {
  const what = `paused: its thread lent to ${S.pausedFor}, resumes after`;
  const info = $("info");
  info.textContent = info.textContent.replace(/ *\[paused[^\]]*\]$/, "") + ` [${what}]`;
}

// Says why the analysis stopped or started again: in place of the
// numbers where none are shown, else after them (they stay).
function pausedInfo(what) {
  const info = $("info");
  if (!S.shownDepth) { info.textContent = what; return; }
  info.textContent = info.textContent.replace(/ *\[[^\]]*\]$/, "") + ` [${what}]`;
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
      if (analysing() && S.analysis) { stopAnalysis(); pausedInfo("analysis paused: the page was idle (move the pointer to resume)"); }
    }, IDLE_MS);
    if (S.idle) { S.idle = false; if (analysing() && !S.analysis) startAnalysis(); }
  };
  for (const ev of ["pointermove", "pointerdown", "keydown", "wheel"]) document.addEventListener(ev, touch, { passive: true });
  document.addEventListener("visibilitychange", () => {
    if (!analysing()) return;
    if (document.hidden) { stopAnalysis(); pausedInfo("analysis paused while the page is hidden"); }
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
  paintBar();
  $("bar-fill").style.width = (p * 100).toFixed(1) + "%";
  $("bar-text").textContent = `${first.name} against the others ${(p * 100).toFixed(0)}%`;
  explainBar(`${first.name}'s (against all the others)`, p);
  const ol = $("lines");
  ol.innerHTML = "";
  for (const s of d.sides) {
    const li = document.createElement("li");
    li.className = "line side";
    li.dataset.side = s.side;
    const what = s.strategy.length
      ? s.strategy.slice(0, 6).map((a) => `${a.text} ${(a.probability * 100).toFixed(0)}%`).join(" ")
      : s.lines.map((l) => `${l.score_text}: ${(l.pv_short || l.pv).join(" ")}`).join(" | ");
    li.textContent = `${s.name} (depth ${s.depth}) value ${s.value_text}: ${what}`;
    ol.append(li);
  }
  S.lastIteration = d;
  drawArrows();
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
  S.infoNote = S.view.unit_note || "";
  const p = chance
    ? d.lines.reduce((a, l) => a + l.probability * winProbability(l.score, false), 0)
    : winProbability(d.score, d.proven);
  $("bar").classList.remove("empty");
  paintBar();
  $("bar-fill").style.width = (p * 100).toFixed(1) + "%";
  $("bar-text").textContent = `${side} ${(p * 100).toFixed(0)}%` + (chance ? " expected over the roll" : "");
  explainBar(`${side}'s`, p);
  const ol = $("lines");
  ol.innerHTML = "";
  const lines = d.lines.length ? d.lines : (d.strategies || []).map((s, i) => ({
    score_text: S.view.sides[i] || "player " + (i + 1),
    pv: s.slice(0, 6).map((a) => `${a.text} ${(a.probability * 100).toFixed(0)}%`),
  }));
  for (const l of lines) {
    const li = document.createElement("li");
    li.className = "line";
    // Moves by their short forms, as the buttons and the move list name
    // them.
    const pv = (l.pv_short || l.pv).slice();
    const named = l.probability !== undefined && S.view.moves.find((m) => m.text === l.pv[0] && m.name);
    if (named) pv[0] = named.name;
    li.textContent = l.probability !== undefined
      ? `${pv[0]} (chance ${(l.probability * 100).toFixed(0)}%): ${l.score_text}, ${side} ${(winProbability(l.score, false) * 100).toFixed(0)}%: ${pv.slice(1).join(" ")}`
      : `${l.score_text}: ${pv.join(" ")}`;
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

// ---- move list --------------------------------------------------------

// A move's label, as the scoring gave it: by the win probability its side
// lost against the best move, both scored by the same search (so moves of
// equal value score alike, and the bonus for having the move does not
// count); none for a forced move.
function label(id) {
  // The background's low-budget scores label nothing: its losses are
  // noise as often as mistakes (`score the game` refines them).
  if (!S.nodes[id].labelRefined) return null;
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

// Fills in what the move list needs of the children of node `id` (the
// kind of node they were played at, its mover, their short forms) from
// `view`, the answer for the position at `id`.
function describeChildren(id, view) {
  const paged = view.node === "decision" && !(view.moves || []).length && view.outcome_count > 0;
  for (const c of S.nodes[id].children) {
    const n = S.nodes[c];
    if (n.kind === undefined) { n.kind = view.node; n.by = view.mover; }
    const named = (view.moves || []).find((x) => x.text === n.move && x.name);
    if (named) { n.name = named.name; n.does = named.does; }
    if (n.short === undefined) {
      const m = (view.moves || []).find((x) => x.text === n.move);
      n.short = m && m.short;
      // Outcomes too many to come with the position: the server names
      // the one played.
      if (!m && paged) shortOf(c);
    }
  }
}

// Asks the server for the short form of node `id`'s move, then redraws
// the move list.
async function shortOf(id) {
  const n = S.nodes[id], tree = S.tree;
  n.short = null;
  try {
    const r = await getJson("/api/position", { moves: lineTo(n.parent).join(";"), short_of: n.move });
    if (tree !== S.tree) return;
    n.short = r.short_of;
    drawMoves();
  } catch (_) { /* the canonical text stays */ }
}

// Asks the server, one position after another, about the moves of the
// tree not yet described (a line loaded, opened from a URL or a record),
// then redraws the move list.
async function describeTree() {
  if (S.describing) return;
  S.describing = true;
  const tree = S.tree;
  try {
    for (;;) {
      const id = S.nodes.findIndex((n, i) => i > 0 && n.kind === undefined);
      if (id < 0 || tree !== S.tree) break;
      const parent = S.nodes[id].parent;
      let view;
      try {
        view = await getJson("/api/position", { moves: lineTo(parent).join(";") });
      } catch (_) { break; }
      if (tree !== S.tree) break;
      describeChildren(parent, view);
      if (S.nodes[parent].text === undefined) S.nodes[parent].text = view.text;
      if (S.nodes[id].kind === undefined) S.nodes[id].kind = null;
    }
  } finally {
    S.describing = false;
  }
  if (tree === S.tree) drawMoves();
  else describeTree();
}

// Where node `id` stands in the game's turns: `group` is the side whose
// turn it is (a die roll belongs to the turn it opens), or "round" for a
// round of secret choices and its resolution; `start` whether the node
// opens a turn, `n` the turn's number. Sides that alternate are numbered
// as in chess (side 1 opens turn n, side 2 plays n…); rounds one by one.
function turnOf(id) {
  const n = S.nodes[id];
  const prev = n.parent > 0 ? turnOf(n.parent) : null;
  const round = n.kind === "simultaneous";
  const group = round ? "round" : prev && prev.group === "round" ? "round" : n.by;
  if (n.kind === undefined || n.kind === null || group === null || group === undefined) {
    return { group: "?", start: true, n: prev ? prev.n : 1 };
  }
  if (prev && !round && prev.group === group) return { group, start: false, n: prev.n };
  let num = 1;
  if (prev) num = group === 0 || group === "round" ? prev.n + 1 : prev.n;
  return { group, start: true, n: num };
}

// The number written before a move that opens a turn: `3.` for the
// first side's turn or a round; where a line of moves is taken up again
// (`opening`: a variation's first move, or the move after a nested one)
// also `3…` for the second side's and `3. …` inside the first side's.
function turnLabel(t, opening) {
  if (t.group === "?") return "";
  if (t.group === 0 || t.group === "round") return t.start || !opening ? `${t.n}.` : `${t.n}. …`;
  return opening ? `${t.n}…` : "";
}

function moveSpan(id) {
  const s = document.createElement("span");
  const n = S.nodes[id];
  s.className = "move" + (id === S.current ? " current" : "");
  s.dataset.node = id;
  s.onclick = () => go(id);
  if (n.kind === "chance") {
    // A die roll: an annotation of the turn it opens.
    s.classList.add("die");
    s.textContent = "roll " + (n.short || n.move);
    s.title = "the die: " + n.move + (n.name ? `, ${n.name}: ${n.does}` : "");
    return s;
  }
  const l = label(id);
  if (l) s.classList.add(l[0]);
  s.textContent = (n.short || n.move) + (l ? l[1] : "");
  if (n.short && n.short !== n.move) s.title = n.move;
  return s;
}

function numberSpan(text) {
  const s = document.createElement("span");
  s.className = "num";
  s.textContent = text;
  return s;
}

// Writes the line from node `id` on, inline (a variation): a number where
// a turn opens, before the first move and after a nested variation, and
// the alternatives to each later move in brackets right after it.
function writeLine(box, id) {
  let number = true;
  for (let n = id; ; ) {
    const t = turnOf(n);
    if (t.start || number) {
      const l = turnLabel(t, number);
      if (l) box.append(numberSpan(l), " ");
    }
    box.append(moveSpan(n), " ");
    number = false;
    if (n !== id) {
      for (const v of S.nodes[S.nodes[n].parent].children.slice(1)) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append("( ");
        writeLine(span, v);
        span.append(") ");
        box.append(span);
        number = true;
      }
    }
    const kids = S.nodes[n].children;
    if (!kids.length) break;
    n = kids[0];
  }
}

// Whether the game's sides take turns one after the other (two sides, no
// rounds of secret choices): then the main line is set in a column per
// side.
function alternating() {
  const v = S.view;
  return !!v && v.sides.length === 2 && v.node !== "simultaneous" &&
    !S.nodes.some((n) => n.kind === "simultaneous");
}

// The move list: the main line in rows of one turn number (a column per
// side where the sides alternate, one row per round where they choose in
// secret), each variation after the move it is an alternative to, written
// inline as in chess (`2… c3-b4`).
function drawMoves() {
  const box = $("moves");
  box.innerHTML = "";
  const columns = alternating();
  box.classList.toggle("columns", columns);
  let row = null;
  const newRow = (num, wide) => {
    row = { el: document.createElement("div"), cells: [], num, open: true };
    row.el.className = "row" + (wide ? " wide" : "");
    row.el.append(numberSpan(num ? num + (wide || !columns ? "." : "") : ""));
    const k = wide || !columns ? 1 : 2;
    for (let i = 0; i < k; i++) {
      const c = document.createElement("span");
      c.className = "cell";
      row.cells.push(c);
      row.el.append(c);
    }
    box.append(row.el);
  };
  for (let n = S.nodes[0].children[0]; n !== undefined; n = S.nodes[n].children[0]) {
    const t = turnOf(n);
    const side = columns && (t.group === 0 || t.group === 1) ? t.group : null;
    if (!row || t.start || !row.open) {
      if (side === 1 && row && row.open && row.num === t.n && row.cells.length === 2 && !row.cells[1].childNodes.length) {
        // The second side's turn in the row its first side opened.
      } else if (side !== null) {
        newRow(t.n, false);
        if (side === 1) row.cells[0].append(numberSpan("…"));
      } else {
        newRow(t.group === "?" ? "" : t.n, true);
      }
    }
    const cell = side === 1 ? row.cells[1] : row.cells[0];
    if (!t.start && !cell.childNodes.length) cell.append(numberSpan("…"), " ");
    cell.append(moveSpan(n), " ");
    const alts = S.nodes[S.nodes[n].parent].children.slice(1);
    if (alts.length) {
      const box2 = document.createElement("div");
      box2.className = "variations";
      for (const v of alts) {
        const span = document.createElement("div");
        span.className = "variation";
        writeLine(span, v);
        box2.append(span);
      }
      box.append(box2);
      row.open = false;
    }
  }
  // The move shown is scrolled into the list's view (the list only: the
  // page stays where it is).
  const cur = box.querySelector(".current");
  if (cur) {
    const b = box.getBoundingClientRect(), c = cur.getBoundingClientRect();
    if (c.top < b.top) box.scrollTop -= b.top - c.top;
    else if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom;
  }
}

// ---- evaluation graph -------------------------------------------------

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

// ---- load, save, records -----------------------------------------------

// Keeps the game, its start, the line through the move shown (its main
// continuation included) and which of its moves is shown in the page's
// address, the whole tree where it has variations (`tree`), and whether
// the analysis is on, so that the address opens the same board.
function keepInUrl() {
  const p = params();
  const path = gameThrough(S.current);
  const moves = path.slice(1).map((id) => S.nodes[id].move);
  if (moves.length) p.set("moves", moves.join(";"));
  const at = path.indexOf(S.current);
  if (at < path.length - 1) p.set("ply", at);
  if (S.nodes.some((n) => n.children.length > 1)) p.set("tree", treeItems(0).join(";"));
  if ($("analyse").checked) p.set("analyse", "1");
  history.replaceState(null, "", "?" + p.toString());
}

// The tree under node `id` as a list of items, as PGN writes variations:
// each move's main continuation in turn, and after a move each of its
// alternatives as `(`, its line, `)` (no move's text is a bracket).
function treeItems(id) {
  const out = [];
  for (let n = id; ;) {
    const kids = S.nodes[n].children;
    if (!kids.length) return out;
    out.push(S.nodes[kids[0]].move);
    for (const alt of kids.slice(1)) out.push("(", S.nodes[alt].move, ...treeItems(alt), ")");
    n = kids[0];
  }
}

// The child of node `parent` played by `text`, made where there is none.
function childBy(parent, text) {
  const found = S.nodes[parent].children.find((c) => S.nodes[c].move === text);
  if (found !== undefined) return found;
  const id = S.nodes.length;
  S.nodes.push({ move: text, parent, children: [], score: null, mover: null });
  S.nodes[parent].children.push(id);
  return id;
}

// A new tree of the items `treeItems` writes.
function treeFromItems(items) {
  resetTree();
  let at = 0, last = 0;
  const stack = [];
  for (const item of items) {
    if (item === "(") { stack.push([at, last]); at = S.nodes[last].parent; }
    else if (item === ")") { if (stack.length) [at, last] = stack.pop(); }
    else { last = at = childBy(at, item); }
  }
}


// Opens `text` on the board: a position (`kind` "fen") or a line of
// moves ("moves"); without `kind` (the load box) whichever it is, tried
// first as moves where it holds a `;`.
async function load(text, kind) {
  text = text.trim();
  const kinds = kind ? [kind] : text.includes(";") ? ["moves", "fen"] : ["fen", "moves"];
  let error = null;
  for (const k of kinds) {
    try {
      await getJson("/api/position", { [k]: text });
    } catch (e) {
      if (k === "moves" || !error) error = e;
      continue;
    }
    if (k === "fen") {
      S.fen = text;
      resetTree();
    } else {
      lineFromTexts(text.split(";").map((t) => t.trim()).filter(Boolean));
    }
    render();
    return;
  }
  showError((kind ? "the record's moves do not replay: " : "neither a position nor moves here: ") + error.message);
}

// The lines of the tree, from the root to each move that ends one: the
// main line first, then the variations in the order the move list gives
// them.
function treeLines() {
  const out = [];
  const walk = (id, line) => {
    const kids = S.nodes[id].children;
    if (!kids.length) { out.push(line); return; }
    for (const k of kids) walk(k, line.concat([S.nodes[k].move]));
  };
  walk(0, []);
  return out;
}

// The whole tree as a file of its own, `<game>-tree.json`: one JSON
// object with the game, its start (`opening`, as a record names it), the
// main line (`moves`, as a record has them) and the tree (`tree`, the
// items `treeItems` writes: each alternative to a move after it as `(`,
// its line, `)`), which `open a record` reads back.
function treeFile() {
  const [moves] = treeLines();
  return JSON.stringify({ game: S.game, opening: S.view ? S.view.start : null, moves, tree: treeItems(0) }) + "\n";
}

// The game as a record that `gamut replay` reads: its main line, from
// the start to its end whatever move is shown, downloaded as a .jsonl
// file, shown with the `gamut show` command of the same line, and kept
// for the copy button; after it the `gamut show` command of each
// variation's line. Where the tree has variations, a link beside it
// downloads the whole tree (`treeFile`).
async function exportGame() {
  const [moves, ...variations] = treeLines();
  const start = S.view ? S.view.start : "";
  const q = (s) => '"' + s.replace(/(["\\$`])/g, "\\$1") + '"';
  const showOf = (line) =>
    `gamut show ${S.game} --fen ${q(start)}` + (line.length ? ` --moves ${q(line.join("; "))}` : "");
  const show = showOf(moves) + variations.map((v, k) => `\n# variation ${k + 1}:\n${showOf(v)}`).join("");
  S.record = null;
  $("copy").disabled = true;
  try {
    const token = S.token;
    const r = await getJson("/api/export", { moves: moves.join("; ") });
    if (token !== S.token) return;
    S.record = r.record + "\n";
    $("copy").disabled = false;
    $("export-text").textContent =
      `${show}\n\n# ${r.file}, the main line (gamut replay ${r.file} --game 1):\n${r.record}`;
    if (variations.length) {
      // The whole tree, a file of its own (a records file holds one line
      // of play): a link, so that one click downloads one file.
      const tree = document.createElement("a");
      tree.id = "export-tree";
      tree.href = URL.createObjectURL(new Blob([treeFile()], { type: "application/json" }));
      tree.download = `${S.game}-tree.json`;
      tree.textContent = `${S.game}-tree.json`;
      tree.title = "the main line and every variation, for open a record";
      $("export-text").prepend("# the whole tree, main line and variations: ", tree, "\n");
    }
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([S.record], { type: "application/x-ndjson" }));
    a.download = r.file;
    a.id = "download";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) {
    $("export-text").textContent = show;
    showError("no record: " + e.message);
  }
}

// Copies the record exported last.
async function copyRecord() {
  if (!S.record) return;
  try {
    await navigator.clipboard.writeText(S.record);
  } catch (_) {
    const t = document.createElement("textarea");
    t.value = S.record;
    document.body.append(t);
    t.select();
    document.execCommand("copy");
    t.remove();
  }
  $("copy").textContent = "copied";
  setTimeout(() => { $("copy").textContent = "copy"; }, 1500);
}

// A record file of this computer (chosen or dropped on the page): its
// games listed as a records file of the server's folder is, or the game
// opened at once when it holds one.
function openFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const games = [];
    for (const line of String(reader.result).split("\n")) {
      if (!line.trim()) continue;
      try {
        const g = JSON.parse(line);
        if (g && g.game && Array.isArray(g.tree)) { openTree(g); return; }
        if (g && g.game && Array.isArray(g.moves)) games.push(g);
      } catch (_) { /* not a record line */ }
    }
    if (!games.length) { showError(`${file.name}: no game record in it`); return; }
    $("io").open = true;
    if (games.length === 1) openGame(games[0]);
    listGames(file.name, games, false);
  };
  reader.onerror = () => showError(`${file.name}: ${reader.error}`);
  reader.readAsText(file);
}

// Opens a tree exported by `treeFile` on the board: its main line and
// variations, the main line's end shown.
function openTree(g) {
  S.game = g.game;
  $("game").value = g.game;
  S.setup = "";
  S.fen = g.opening || null;
  $("engine-seats").value = "";
  treeFromItems(g.tree.map(String));
  const path = gameThrough(0);
  S.current = path[path.length - 1];
  render();
}

// Opens one game of a record on the board.
function openGame(g) {
  S.game = g.game;
  $("game").value = g.game;
  S.setup = "";
  S.fen = g.opening || null;
  $("engine-seats").value = "";
  load(g.moves.join(";"), "moves");
}

async function showRecords() {
  const box = $("records");
  box.innerHTML = "";
  let files;
  try {
    files = await transport.getJson("/api/records", {});
  } catch (e) { box.textContent = e.message; return; }
  if (!files.length) { box.textContent = "records: none on the server (gamut serve --records-dir DIR lists a folder's)"; return; }
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
  let games;
  try {
    games = await transport.getJson("/api/record", { file });
  } catch (e) { showError(e.message); return; }
  listGames(file, games, true);
}

// The games of records file `file`, a button each; `served`: the file is
// in the server's folder (a way back to its list).
function listGames(file, games, served) {
  const box = $("records");
  box.innerHTML = "";
  if (served) {
    const back = document.createElement("button");
    back.textContent = "← files";
    back.onclick = showRecords;
    box.append(back);
  }
  box.append(` ${file}: `);
  games.forEach((g, i) => {
    const b = document.createElement("button");
    b.className = "record-game";
    b.textContent = `#${g.number || i + 1} ${g.game} ${(g.engines || []).join("–")} ${g.result || ""}`;
    b.onclick = () => openGame(g);
    box.append(b);
  });
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
  const games = await transport.getJson("/api/games", {});
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.id;
    o.textContent = g.label;
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
  wireFit();
  // The status lines are cut to one line: each says the whole in its
  // tooltip (the analysis' with what its scores include).
  for (const id of ["info", "graph-info", "error"]) {
    const el = $(id);
    new MutationObserver(() => {
      el.title = el.textContent + (id === "info" && S.infoNote ? "\n" + S.infoNote : "");
    }).observe(el, { childList: true, characterData: true, subtree: true });
  }
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
  // The keys act on the game whatever control was used last; only a
  // text being edited keeps them.
  document.addEventListener("keydown", (e) => {
    if (editing(e.target)) return;
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
    if (S.svgShown) { drawBoard(S.svgShown); markBoard(); drawArrows(); }
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
    keepInUrl();
    if ($("analyse").checked) startAnalysis();
  };
  $("multipv").onchange = () => { if ($("analyse").checked) { stopAnalysis(); clearNumbers(); startAnalysis(); } };
  $("engine-seats").onchange = () => maybeEngine(S.token);
  $("limit-kind").onchange = () => { $("limit").value = $("limit-kind").value === "depth" ? 6 : 1000; };
  $("score-game").onclick = scoreGame;
  $("load").onclick = () => load($("load-text").value);
  $("export").onclick = exportGame;
  $("copy").onclick = copyRecord;
  $("record-file").onchange = () => { const f = $("record-file").files[0]; if (f) openFile(f); };
  // A record dropped anywhere on the page opens.
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) openFile(f);
  });
  // The records of the server's folder, where a server answers them.
  if (transport.has("/api/records")) $("io").addEventListener("toggle", () => { if ($("io").open) showRecords(); });
  if (url.get("analyse") === "1") $("analyse").checked = true;
  if (url.get("fen") || url.get("moves")) {
    S.game = $("game").value;
    S.setup = $("setup").value.trim();
    S.fen = url.get("fen");
    const ply = url.get("ply");
    const items = (text) => (text || "").split(";").map((t) => t.trim()).filter(Boolean);
    const moves = items(url.get("moves"));
    lineFromTexts(moves, ply === null ? null : parseInt(ply, 10));
    if (url.get("tree")) {
      // The whole tree, then the move shown found in it along `moves`.
      treeFromItems(items(url.get("tree")));
      const ids = [0];
      for (const m of moves) ids.push(childBy(ids[ids.length - 1], m));
      const k = ply === null ? ids.length - 1 : parseInt(ply, 10);
      S.current = ids[k >= 0 && k < ids.length ? k : ids.length - 1];
    }
    render();
    return;
  }
  newGame();
}

// Whether `el` is a text being edited (a text field, a number, the
// load box): the keys are its own there.
function editing(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable || el.tagName === "TEXTAREA") return true;
  return el.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(el.type);
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
    // A click on the board gives the keys back to the game (from a text
    // field too).
    if (document.activeElement !== board && !e.target.closest("#chooser")) board.focus({ preventScroll: true });
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
