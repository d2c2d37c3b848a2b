// The local transport: the rules engine in this page, in a Web Worker (worker.js).
// See transport.js for the interface.

import { Listeners } from "./transport.js";

export class LocalTransport {
  /**
   * @param {{ wheel: string, pyodide?: string, download?: object, botDelay?: number }} options
   *   wheel: URL of the pegs_rules wheel; pyodide: URL of the Pyodide runtime folder;
   *   download: the size in bytes of each file the engine loads, by URL (for the progress);
   *   engine: a digest of the runtime and the wheel (config.json): the worker keeps a
   *   snapshot of the engine started, good for that engine only;
   *   botDelay: milliseconds between two bot moves (so a person can follow them).
   */
  constructor({ wheel, pyodide = "pyodide/", download = {}, engine = "", botDelay = 400 }) {
    if (!wheel) throw new Error("config.json names no wheel: rebuild with pegs web build");
    this.kind = "local";
    this.can = { setup: true, study: true, replay: true, hint: true };
    this.updates = new Listeners();
    this.notices = new Listeners();
    this.pending = new Map();
    this.nextId = 1;
    const url = new URL("worker.js", import.meta.url);
    url.searchParams.set("wheel", new URL(wheel, document.baseURI).href);
    url.searchParams.set("pyodide", new URL(pyodide, document.baseURI).href);
    const sizes = Object.entries(download).map(([file, size]) => [new URL(file, document.baseURI).href, size]);
    url.searchParams.set("download", JSON.stringify(Object.fromEntries(sizes)));
    url.searchParams.set("engine", engine);
    url.searchParams.set("site", new URL(".", document.baseURI).href);
    this.worker = new Worker(url, { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`The engine stopped: ${event.message || "the worker failed to load"}`);
    };
    this.botDelay = botDelay;
  }

  set botDelay(ms) {
    this.worker.postMessage({ pace: ms });
  }

  onUpdate(listener) {
    this.updates.add(listener);
  }

  onNotice(listener) {
    this.notices.add(listener);
  }

  connect() {
    return this.request({ op: "hello" });
  }

  start(setup) {
    return this.request({ op: "new_game", ...setup });
  }

  play(text) {
    return this.request({ op: "play", move: text });
  }

  leave() {
    return this.request({ op: "leave" });
  }

  record() {
    return this.request({ op: "record" });
  }

  study(text) {
    return this.request({ op: "study", position: text });
  }

  explain(text) {
    return this.request({ op: "explain", move: text });
  }

  openRecord(text) {
    return this.request({ op: "open_record", record: text });
  }

  replayPly(ply) {
    return this.request({ op: "replay_ply", ply });
  }

  hint(on) {
    return this.request({ op: "hint", on });
  }

  summary() {
    return this.request({ op: "summary" });
  }

  /** The page has shown the last update: the next bot moves after the pause. */
  shown() {
    this.worker.postMessage({ shown: true });
  }

  close() {
    this.worker.terminate();
  }

  request(request) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }

  receive(data) {
    if (data.notice) {
      if (data.notice.fatal) this.fail(data.notice.text);
      else this.notices.emit(data.notice);
      return;
    }
    const answer = data.answer || data.push;
    if (answer.ok && answer.type === "update") this.updates.emit(answer);
    const waiting = this.pending.get(data.id);
    if (waiting) {
      this.pending.delete(data.id);
      waiting.resolve(answer);
    }
  }

  fail(text) {
    this.notices.emit({ level: "error", text, fatal: true });
    for (const { reject } of this.pending.values()) reject(new Error(text));
    this.pending.clear();
  }
}
