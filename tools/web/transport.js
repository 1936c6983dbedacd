// The page's one way of asking the engine: a transport whose `ask(op,
// args, onLine)` returns a promise of the answer and calls `onLine` with
// each analysis line as it comes. `EngineWorker` asks the WebAssembly
// engine in a Web Worker (the static site); a transport to `gamut serve`
// answers the same questions over HTTP.
export class EngineWorker {
  constructor(url = "worker.js") {
    this.url = url;
    this.start();
  }

  // A new worker; `ready` resolves once its module is loaded.
  start() {
    this.worker = new Worker(this.url, { type: "module" });
    this.pending = new Map();
    this.next = 1;
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => {
        const m = event.data;
        if (m.ready) return resolve();
        if (m.failed) return reject(new Error(m.failed));
        const p = this.pending.get(m.id);
        if (!p) return;
        if ("line" in m) return p.onLine && p.onLine(m.line);
        this.pending.delete(m.id);
        if ("error" in m) p.reject(new Error(m.error));
        else p.resolve(m.result);
      };
      this.worker.onerror = (e) => reject(new Error(e.message || "the engine's worker failed"));
    });
  }

  // Asks `op` with `args`; `onLine` receives each analysis line.
  async ask(op, args, onLine) {
    await this.ready;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onLine });
      this.worker.postMessage({ id, op, args });
    });
  }

  // Ends every question in progress (a search cannot be interrupted
  // otherwise): the worker is ended, its questions refused, and a new
  // worker started.
  stop() {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error("stopped"));
    this.start();
  }
}
