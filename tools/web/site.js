// gamut's static board: the position, its moves entered by pointer (the
// squares of a move clicked in turn, or the move's button), engine moves
// and a streamed analysis, every question answered by the WebAssembly
// engine in a Web Worker (transport.js): no server of gamut's.
import { EngineWorker } from "./transport.js";

const $ = (id) => document.getElementById(id);
const engine = new EngineWorker("worker.js");
// What the page shows: the game, its line of moves, the position, the
// squares clicked so far, and when the page opened and its first
// analysis line came (performance.now(), for measurements and checks).
const S = { game: null, moves: [], pos: null, picked: [], busy: 0, opened: performance.now(), firstLine: null };
window.gamut = { S, engine, play, engineMove, analyse };

function fail(e) {
  $("error").textContent = String(e.message || e);
}

async function ask(op, args, onLine) {
  $("error").textContent = "";
  S.busy++;
  try {
    return await engine.ask(op, { game: S.game, moves: S.moves.join(";"), ...args }, onLine);
  } finally {
    S.busy--;
  }
}

async function show() {
  S.pos = await ask("position", {});
  S.picked = [];
  draw();
}

function draw() {
  const pos = S.pos;
  $("board").innerHTML = pos.svg;
  $("state").textContent = pos.state;
  $("moves").textContent = S.moves.join(" ");
  const choices = $("choices");
  choices.textContent = "";
  if (pos.node === "simultaneous") {
    const selects = pos.actions.map((acts) => {
      const sel = document.createElement("select");
      for (const a of acts) sel.append(new Option(a, a));
      choices.append(sel);
      return sel;
    });
    const go = document.createElement("button");
    go.textContent = "play";
    go.className = "joint";
    go.onclick = () => play(selects.map((s) => s.value).join(",")).catch(fail);
    choices.append(go);
  } else {
    for (const m of candidates()) {
      const b = document.createElement("button");
      b.textContent = m.text;
      b.className = "move";
      b.onclick = () => play(m.text).catch(fail);
      choices.append(b);
    }
  }
  for (const sq of S.picked) {
    const el = $("board").querySelector(`[data-square="${CSS.escape(sq)}"]`);
    if (el) el.classList.add("picked");
  }
}

// The moves whose squares begin with the squares clicked so far.
function candidates() {
  const p = S.picked;
  return S.pos.moves.filter((m) => p.every((sq, i) => m.squares[i] === sq));
}

function click(event) {
  const el = event.target.closest("[data-square]");
  if (!el || !S.pos) return;
  S.picked.push(el.getAttribute("data-square"));
  let left = candidates();
  if (left.length === 0) {
    S.picked = [el.getAttribute("data-square")];
    left = candidates();
    if (left.length === 0) S.picked = [];
  }
  const whole = left.filter((m) => m.squares.length === S.picked.length);
  if (left.length === 1 || (whole.length === 1 && left.length === whole.length)) {
    play(left[0].text).catch(fail);
  } else {
    draw();
  }
}

async function play(step) {
  const r = await ask("play", { move: step });
  S.moves.push(r.move);
  S.pos = r.position;
  S.picked = [];
  draw();
}

async function engineMove() {
  const r = await ask("analyse", { time: Number($("movetime").value) || 1000, multipv: 1 });
  await play(r.best);
  return r;
}

function lineText(l) {
  return `depth ${l.depth} score ${l.score} nodes ${l.nodes} nps ${l.nps} ${l.pv.join(" ")}`;
}

async function analyse() {
  const list = $("lines");
  list.textContent = "";
  const r = await ask("analyse", { time: Number($("time").value) || 3000, multipv: Number($("multipv").value) },
    (line) => {
      if (S.firstLine === null) S.firstLine = performance.now();
      const li = document.createElement("li");
      li.className = "line";
      li.textContent = lineText(line);
      list.prepend(li);
    });
  const li = document.createElement("li");
  li.className = "verdict";
  li.textContent = `best ${r.best} score ${r.score} depth ${r.depth} nodes ${r.nodes} nps ${r.nps}`;
  list.prepend(li);
  return r;
}

async function newGame() {
  S.game = $("game").value;
  S.moves = [];
  $("lines").textContent = "";
  await show();
}

async function main() {
  const games = await engine.ask("games", {});
  for (const g of games) $("game").append(new Option(g.name, g.id));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) $("game").value = wanted;
  $("game").onchange = () => newGame().catch(fail);
  $("new").onclick = () => newGame().catch(fail);
  $("board").addEventListener("click", click);
  $("back").onclick = () => { S.moves.pop(); show().catch(fail); };
  $("engine-move").onclick = () => engineMove().catch(fail);
  $("analyse").onclick = () => analyse().catch(fail);
  $("stop").onclick = () => engine.stop();
  await newGame();
  // The page opens analysing its position.
  await analyse();
}

main().catch(fail);
