// The move list: the tree's moves described by the engine (short forms,
// turns), numbered by turn, with their labels and variations.
"use strict";

// The marks of moves by the win probability their side lost (the server
// labels them); see docs/serve.md.
const LABELS = [
  [0.15, "blunder", "??"],
  [0.10, "mistake", "?"],
  [0.05, "inaccuracy", "?!"],
];
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
