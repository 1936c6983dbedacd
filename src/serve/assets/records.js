// Load, save, records: a position or line loaded, the game exported as a
// record (and the whole tree as a file), a record file opened, the
// server's records listed.
"use strict";

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
