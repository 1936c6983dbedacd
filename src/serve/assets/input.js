// A person's move entered on the board: the paths of squares clicked,
// the chooser of the moves that end on a square, the move chosen, and the
// pointer's presses and drags.
"use strict";

// Whether the page takes a person's move now: the position shown is the
// one asked for last, and no engine searches for a seat.
function takesInput() {
  return !!S.view && S.shown === S.token && !S.busy;
}

// Says why a click was not taken: the engine's turn.
function refuse() {
  if (S.busy) showError(`the engine is ${S.view.node === "simultaneous" ? "choosing" : "moving"} for ${S.busyFor}: wait for your turn`);
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
