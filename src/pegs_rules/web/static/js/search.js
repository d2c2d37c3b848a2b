// The page's side of its searching worker (search-worker.js): the seat bots and the hint run
// there, on the TypeScript engine, so that the page keeps answering while they think. The
// worker starts with the first request; requests are answered in order.

export class Search {
  constructor() {
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
  }

  /** The worker's answer to `request` (see search-worker.js): { ok: true, ... } or
   * { ok: false, kind, error }. */
  ask(request) {
    if (this.worker === null) this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, request });
    });
  }

  start() {
    this.worker = new Worker(new URL("js/search-worker.js", document.baseURI), { type: "module" });
    this.worker.onmessage = ({ data }) => {
      const waiting = this.pending.get(data.id);
      this.pending.delete(data.id);
      waiting?.(data.answer);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`the bots' worker stopped: ${event.message || "it failed to load"}`);
    };
  }

  /** The worker is gone: every request waiting is answered so; the next starts a new one. */
  fail(text) {
    for (const resolve of this.pending.values()) resolve({ ok: false, kind: "internal", error: text });
    this.pending.clear();
    this.close();
  }

  close() {
    this.worker?.terminate();
    this.worker = null;
  }
}
