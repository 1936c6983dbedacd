// The board's one way of asking the engine (its other scripts ask nothing
// else): a transport with three calls over the routes of the JSON API
// (docs/serve.md),
//
//   getJson(route, params)          a promise of the route's answer
//   stream(route, params, onEvent, onEnd)
//                                   the events of /api/analysis or
//                                   /api/scores in order (each parsed),
//                                   then onEnd() once the stream ends by
//                                   itself; the handle's close() stops it
//                                   (`closed` says whether it ended)
//   engine(params)                  {promise, abort()}: /api/engine's move
//
// and `has(route)`, whether the route is answered here. `params` is
// anything URLSearchParams reads. Two transports answer them alike:
// `gamut serve` over HTTP, and the static site's Web Workers running the
// engine's WebAssembly module (tools/web/worker.js), one question each at
// a time on one thread, so that a search never blocks the page. The page
// says which it is: <html data-transport="worker"> (tools/web/build.sh
// writes it), else HTTP.
"use strict";

// `gamut serve`: every route over HTTP, a stream as server-sent events.
class HttpTransport {
  has(_route) { return true; }

  async getJson(route, params) {
    const r = await fetch(route + "?" + new URLSearchParams(params));
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  stream(route, params, onEvent, onEnd) {
    const es = new EventSource(route + "?" + new URLSearchParams(params));
    const handle = {
      closed: false,
      close() { handle.closed = true; es.close(); },
    };
    es.onmessage = (e) => { if (!handle.closed) onEvent(JSON.parse(e.data)); };
    es.onerror = () => {
      if (handle.closed) return;
      handle.close();
      if (onEnd) onEnd();
    };
    return handle;
  }

  engine(params) {
    const abort = new AbortController();
    const promise = fetch("/api/engine?" + new URLSearchParams(params), { signal: abort.signal }).then(async (r) => {
      const body = await r.json();
      if (!r.ok) throw new Error(body.error || r.statusText);
      return body;
    });
    return { promise, abort: () => abort.abort() };
  }
}

// The routes that need the server's files (its records folder, a solved
// table, its searches' count): not answered by the static site.
const SERVER_ONLY = ["/api/records", "/api/record", "/api/table", "/api/status"];

// The static site: the WebAssembly engine in module Web Workers
// (worker.js). Quick answers (a position, outcomes, an export) come from
// one worker kept for them; each stream and each engine move has a worker
// of its own, ended (terminated, its search with it) when the page stops
// it, since a search on the worker's one thread cannot be interrupted
// otherwise.
class WorkerTransport {
  constructor(url) {
    this.url = url;
    this.quick = null;
    this.next = 1;
  }

  has(route) { return !SERVER_ONLY.includes(route); }

  // A new worker asking `route` with `params`: `onEvent` gets each
  // event, `onDone` the answer or the refusal (an Error).
  ask(worker, route, params, onEvent, onDone) {
    const id = this.next++;
    worker.pending.set(id, { onEvent, onDone });
    worker.postMessage({ id, route, query: String(new URLSearchParams(params)) });
  }

  spawn() {
    const w = new Worker(this.url, { type: "module" });
    w.pending = new Map();
    w.onmessage = (e) => {
      const m = e.data;
      const p = w.pending.get(m.id);
      if (!p) return;
      if ("event" in m) { if (p.onEvent) p.onEvent(m.event); return; }
      w.pending.delete(m.id);
      p.onDone("error" in m ? new Error(m.error) : null, m.result);
    };
    w.onerror = (e) => {
      e.preventDefault();
      const why = new Error(e.message || "the engine's worker failed");
      for (const p of w.pending.values()) p.onDone(why);
      w.pending.clear();
      if (this.quick === w) this.quick = null;
    };
    return w;
  }

  getJson(route, params) {
    if (!this.has(route)) return Promise.reject(new Error(`${route} needs gamut serve`));
    if (!this.quick) this.quick = this.spawn();
    return new Promise((resolve, reject) => {
      this.ask(this.quick, route, params, null, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }

  stream(route, params, onEvent, onEnd) {
    const w = this.spawn();
    const handle = {
      closed: false,
      close() { if (!handle.closed) { handle.closed = true; w.terminate(); } },
    };
    this.ask(w, route, params, (d) => { if (!handle.closed) onEvent(d); }, (err) => {
      if (handle.closed) return;
      if (err) onEvent({ error: err.message });
      handle.close();
      if (onEnd) onEnd();
    });
    return handle;
  }

  engine(params) {
    const w = this.spawn();
    let reject = null;
    const promise = new Promise((res, rej) => {
      reject = rej;
      this.ask(w, "/api/engine", params, null, (err, result) => {
        w.terminate();
        if (err) rej(err); else res(result);
      });
    });
    const abort = () => {
      w.terminate();
      const e = new Error("the engine's search was stopped");
      e.name = "AbortError";
      reject(e);
    };
    return { promise, abort };
  }
}

// The page's transport.
const transport = document.documentElement.dataset.transport === "worker"
  ? new WorkerTransport("worker.js")
  : new HttpTransport();
