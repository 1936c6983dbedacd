// The analysis panel: the streamed analysis' lines and info line, the
// bar, the solved table's verdict, and the analysis paused while the page
// is hidden or idle.
"use strict";

// Scores at or beyond this are proven results (the search's threshold).
const PROVEN = 29000;

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
