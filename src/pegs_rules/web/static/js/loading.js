// The header's engine line: that the engine is loading, what the person asked for meanwhile,
// then that it is ready, or what went wrong; later, news from the transport (a server lost and
// found again).
//
// The sentence (#engine-status, a polite live region) changes only when there is something new
// to say, so a screen reader hears it once. The line keeps its height whatever it says
// (style.css), so nothing below it moves while the engine loads.

const $ = (selector) => document.querySelector(selector);

export class EngineStatus {
  constructor() {
    this.sentence = $("#engine-status");
    this.step = "Loading the rules engine";
    this.level = "info";
    this.loading = true;
    this.waiting = ""; // what the person asked for meanwhile, done once the engine is ready
  }

  /** A transport's notice (see transport.js): news once the engine is ready, or while a remote
   * one connects. */
  notice({ level = "info", text, fatal }) {
    if (fatal) this.error(`${text} Reload the page to try again.`);
    else this.finish(text, level);
  }

  /** The person asked for something the engine must do (`words` say what happens then). */
  queue(words) {
    this.waiting = words;
    this.show();
  }

  /** The engine is ready: `text` says which. */
  ready(text) {
    this.finish(text, "info");
    document.body.dataset.engine = "ready";
  }

  error(text) {
    this.finish(text, "error");
  }

  finish(text, level) {
    this.loading = false;
    this.waiting = "";
    this.step = text;
    this.level = level;
    this.show();
  }

  show() {
    const words = this.loading ? `${this.step}…${this.waiting ? ` ${this.waiting}` : ""}` : this.step;
    if (this.sentence.textContent !== words) this.sentence.textContent = words;
    this.sentence.className = `engine-status ${this.level}`;
  }
}
