// Python for WebAssembly in this page, for what only the Python library has: the hint and the
// searching bots. Nothing of it loads until the first request: then its Web Worker (worker.js)
// downloads Pyodide and the pegs_rules wheel and starts them, in the background, saying what
// it is doing as transport notices (phase "download", "start", then "done"); requests wait
// for it and are answered in order.

export class Python {
  /**
   * @param {{ wheel: string, pyodide: string, download: object }} config  where Python's files
   *   are, and the bytes of each (config.json)
   * @param {(notice: object) => void} notify  where its notices go
   */
  constructor(config, notify) {
    this.config = config;
    this.notify = notify;
    this.worker = null;
    this.ready = false;
    this.pending = new Map();
    this.nextId = 1;
  }

  /** The bridge's answer to `request` (pegs_rules.web.bridge), once Python has started. */
  ask(request) {
    if (this.worker === null) this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, request });
    });
  }

  start() {
    const base = document.baseURI;
    const url = new URL("js/worker.js", base);
    url.searchParams.set("wheel", new URL(this.config.wheel, base).href);
    url.searchParams.set("pyodide", new URL(this.config.pyodide, base).href);
    const sizes = Object.entries(this.config.download).map(([file, size]) => [new URL(file, base).href, size]);
    url.searchParams.set("download", JSON.stringify(Object.fromEntries(sizes)));
    this.worker = new Worker(url, { type: "module" });
    this.worker.onmessage = ({ data }) => {
      if (data.notice) {
        if (data.notice.phase === "done") this.ready = true;
        this.notify(data.notice);
        return;
      }
      const waiting = this.pending.get(data.id);
      this.pending.delete(data.id);
      waiting?.(data.answer);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`Python could not start: ${event.message || "its worker failed to load"}`);
    };
  }

  /** Python is gone: every request waiting is answered so, and later ones start it anew. */
  fail(text) {
    this.notify({ level: "error", text });
    for (const resolve of this.pending.values()) resolve({ ok: false, kind: "internal", error: text });
    this.pending.clear();
    this.close();
  }

  close() {
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
  }
}
