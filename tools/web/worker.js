// The engine's Web Worker on the static site: loads the WebAssembly module
// and answers the board's transport (transport.js, WorkerTransport) on its
// one thread, so that a search never blocks the page.
//
// A question is {id, route, query}: a route of gamut serve's JSON API and
// its URL query. Each event of a stream (/api/analysis, /api/scores) comes
// as {id, event}, then the answer as {id, result} or {id, error} (one
// line). A search in progress cannot be interrupted: the page ends the
// worker.
import init, { api } from "./gamut_web.js";

const loaded = init();

onmessage = async (message) => {
  const { id, route, query } = message.data;
  try {
    await loaded;
    const answer = api(route, query, (event) => {
      postMessage({ id, event: JSON.parse(event) });
      return true;
    });
    postMessage({ id, result: JSON.parse(answer) });
  } catch (e) {
    postMessage({ id, error: String((e && e.message) || e) });
  }
};
