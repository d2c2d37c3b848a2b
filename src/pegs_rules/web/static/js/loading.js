// The header's engine line: what the engine is doing at every moment until it is ready,
// what the person asked for meanwhile, then that it is ready, or what went wrong; and again
// while Python loads in the background for the hint or a searching bot (downloading, so many
// MB of so many; each step of starting, with its seconds counting), until it is ready too.
//
// The sentence (#engine-status, a polite live region) changes only when the engine moves on
// to another step, so a screen reader hears each step once; the figures beside the bar
// (#engine-detail) change all the time and are not announced. The line keeps its height
// whatever it says (style.css), so nothing below it moves while the engine loads.

const $ = (selector) => document.querySelector(selector);

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

export class EngineStatus {
  constructor() {
    this.sentence = $("#engine-status");
    this.detail = $("#engine-detail");
    this.bar = $("#engine-progress");
    this.step = "Loading the rules engine";
    this.level = "info";
    this.loading = true;
    this.waiting = ""; // what the person asked for meanwhile, done once the engine is ready
    this.clock = null;
  }

  /** A transport's notice (see transport.js): a step of loading, or news later on. */
  notice({ level = "info", text, phase, progress, fatal }) {
    if (fatal) {
      this.error(`${text} Reload the page to try again.`);
      return;
    }
    if (phase === "done" || level === "error") {
      this.finish(text, level); // Python, loaded in the background (or not): the engine is ready
      return;
    }
    if (phase && !this.loading) {
      this.loading = true; // Python loads in the background: the bar shows again
      document.body.dataset.engine = "python";
    }
    if (phase === "download" && progress) {
      this.bar.max = progress.total;
      if (progress.loaded < progress.total) this.bar.value = progress.loaded;
      else this.bar.removeAttribute("value"); // all in: never a full bar that stands still
      this.detail.textContent = `${megabytes(progress.loaded)} of ${megabytes(progress.total)} MB`;
    } else if (phase === "start") {
      this.bar.removeAttribute("value"); // indeterminate: it moves while Python starts
      const since = performance.now();
      const tick = () => {
        this.detail.textContent = `${Math.floor((performance.now() - since) / 1000)} s`;
      };
      tick();
      this.stopClock();
      this.clock = setInterval(tick, 1000);
    }
    this.step = text;
    this.level = level;
    this.show();
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
    this.stopClock();
    if (document.body.dataset.engine === "python") document.body.dataset.engine = "ready";
    this.loading = false;
    this.waiting = "";
    this.detail.textContent = "";
    this.step = text;
    this.level = level;
    this.show();
  }

  show() {
    const words = this.loading ? `${this.step}…${this.waiting ? ` ${this.waiting}` : ""}` : this.step;
    if (this.sentence.textContent !== words) this.sentence.textContent = words;
    this.sentence.className = `engine-status ${this.level}`;
  }

  stopClock() {
    clearInterval(this.clock);
    this.clock = null;
  }
}
