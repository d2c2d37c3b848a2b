// The local transport: the rules engine in this page, in a Web Worker (worker.js).
// See transport.js for the interface.

import { Listeners } from "./transport.js";

export class LocalTransport {
  /**
   * @param {{ engine: { worker: Worker, early: object[] } | null, botDelay?: number }} options
   *   engine: the worker start.js started as the page began to load, with the messages it
   *   sent before this transport listened (null: the page names no engine);
   *   botDelay: milliseconds between two bot moves (so a person can follow them).
   */
  constructor({ engine, botDelay = 400 }) {
    if (!engine) throw new Error("this page names no rules engine: rebuild it with pegs web build");
    this.kind = "local";
    this.can = { setup: true, study: true, replay: true, hint: true };
    this.updates = new Listeners();
    this.notices = new Listeners();
    this.pending = new Map();
    this.nextId = 1;
    this.stopped = null; // why the engine stopped, once it has
    this.worker = engine.worker;
    this.early = engine.early;
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

  /** Listen to the engine from here on (after what it said meanwhile), and say hello. */
  connect() {
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`The engine stopped: ${event.message || "the worker failed to load"}`);
    };
    for (const { data, failed } of this.early.splice(0)) {
      if (failed) this.fail(`The engine stopped: ${failed}`);
      else this.receive(data);
    }
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
    if (this.stopped) return Promise.reject(new Error(this.stopped));
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
    this.stopped = text;
    this.notices.emit({ level: "error", text, fatal: true });
    for (const { reject } of this.pending.values()) reject(new Error(text));
    this.pending.clear();
  }
}
