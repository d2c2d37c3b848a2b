// The local transport: the rules engine in this page, in a Web Worker (worker.js).
// See transport.js for the interface.

import { Listeners } from "./transport.js";

export class LocalTransport {
  /**
   * @param {{ wheel: string, pyodide?: string, botDelay?: number }} options
   *   wheel: URL of the pegs_rules wheel; pyodide: URL of the Pyodide runtime folder;
   *   botDelay: milliseconds between two bot moves (so a person can follow them).
   */
  constructor({ wheel, pyodide = "pyodide/", botDelay = 400 }) {
    if (!wheel) throw new Error("config.json names no wheel: rebuild with pegs web build");
    this.kind = "local";
    this.can = { setup: true, study: true };
    this.updates = new Listeners();
    this.notices = new Listeners();
    this.pending = new Map();
    this.nextId = 1;
    const url = new URL("worker.js", import.meta.url);
    url.searchParams.set("wheel", new URL(wheel, document.baseURI).href);
    url.searchParams.set("pyodide", new URL(pyodide, document.baseURI).href);
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
