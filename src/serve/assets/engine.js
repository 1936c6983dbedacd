// The engine's seats: the menu of them, and its moves and secret
// choices for them, searched through `transport.engine` while the board
// waits.
"use strict";

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

// The side of the player choosing next at a simultaneous node.
function pendingSide() {
  return S.view.player_sides[S.pending.length];
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
