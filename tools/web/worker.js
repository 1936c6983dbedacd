// The engine's Web Worker: loads the WebAssembly module and answers the
// page's requests one at a time, so that a search never blocks the page.
//
// A request is {id, op, args}; op is one of the questions the module
// answers (games, position, play, perft, analyse, bench) and args its
// arguments by name. Each analysis line comes as {id, line}, the answer as
// {id, result} or {id, error} (one line). The worker says {ready: true}
// once the module is loaded, or {failed: "<why>"}. A search in progress
// cannot be interrupted: the page ends the worker and starts another.
import init, * as gamut from "./gamut_web.js";

const json = (text) => JSON.parse(text);

const ops = {
  games: () => json(gamut.games()),
  position: (a) => json(gamut.position(a.game, a.from || "", a.moves || "")),
  play: (a) => json(gamut.play(a.game, a.from || "", a.moves || "", a.move)),
  perft: (a) => gamut.perft(a.game, a.from || "", a.moves || "", a.depth),
  analyse: (a, id) =>
    json(
      gamut.analyse(a.game, a.from || "", a.moves || "", a.depth || 0, a.nodes || 0,
        a.time || 0, a.multipv || 1, (line) => postMessage({ id, line: json(line) })),
    ),
  bench: (a) => json(gamut.bench(a.game)),
};

const loaded = init().then(
  () => postMessage({ ready: true }),
  (e) => postMessage({ failed: String(e) }),
);

onmessage = async (event) => {
  await loaded;
  const { id, op, args } = event.data;
  try {
    if (!(op in ops)) throw new Error(`no such question '${op}'`);
    postMessage({ id, result: ops[op](args || {}, id) });
  } catch (e) {
    postMessage({ id, error: String(e.message || e) });
  }
};
