// The move tree and line navigation: the lines to a node, moves added,
// a node shown (`go`, `render`), the tree kept in the page's address and
// written as the items a record's tree holds.
"use strict";

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
