// The controls of the move beside the board: the state line, and the
// moves not made on the board (die rolls, a pass, a resolution's
// outcomes: listed, a page at a time where they are many, narrowed node
// by node, previewed on the board).
"use strict";

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
