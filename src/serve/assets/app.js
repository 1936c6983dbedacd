// gamut's page: the board, analysis, move tree and evaluation graph. The
// engine knows the rules: the page's scripts only send lines of moves and
// draw what comes back (legal moves with the squares they touch,
// pictures, analysis), so they are the same for every game. They ask
// through `transport` (transport.js) alone: `gamut serve` over HTTP, or
// on the static site the engine's Web Workers.
//
// The scripts, in index.html's order: state.js (the shared state `S`,
// `$`, the questions) first, tree.js (the move tree, a node shown),
// board.js (the board's drawing), input.js (a move entered on the board),
// choices.js (the moves beside the board), engine.js (the engine's
// seats), analysis.js (the analysis panel), moves.js (the move list),
// graph.js (the evaluation graph and the scoring), records.js (load,
// save, records), and last this one, which wires the controls and opens
// the board once every other script's functions are declared.
"use strict";

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

init();
