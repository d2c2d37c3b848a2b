// The record viewer: a game record stepped through ply by ply, to see what happened on a
// turn and argue whether it was legal.
//
// Ply p is the position after p moves (ply 0: the deal). Each ply shows its board with the
// move that led there marked (animated when stepping forward), that move's events, every
// hand, and the rules-lawyer mode on the position: every legal move (the record's next one
// marked), and any move typed explained. A record with an illegal move stops at the ply
// before it, and says which ruling forbids it, as `pegs replay` does.
//
// Driver contract: [data-replay-ply] holds the ply shown, [data-replay-end] the last ply
// (the record's length, once loaded), and the buttons carry data-replay="first", "prev",
// "next" and "last". The keys ← and → step back and forward, Home and End go to the deal and
// the end. <body data-record> is "open" while a record is shown and "none" before one is, or
// after one fails to open: then the page hides what needs a record and disables the steps.

import { analysisPly, offerAnalysis, setViewer, stopAnalysis } from "./analysis.js";
import { announce, busy, rulingLink, say, seatBadge } from "./controls.js";
import { hideHint, showHint, thinking } from "./hint.js";
import { SPEEDS, moveSpeed } from "./prefs.js";
import { hideSummary, showSummary } from "./summary.js";

const $ = (selector) => document.querySelector(selector);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The keys that step through a record, and the button each presses. */
const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

/** "A 4-player game", "An 8-player game" (4, 6 or 8 players: board.sides). */
function aGameOf(players) {
  return `${players === 8 ? "An" : "A"} ${players}-player game`;
}

export class Viewer {
  /**
   * @param {object} transport  see transport.js (can.replay)
   * @param {import("./board.js").Board} board
   * @param {import("./lawyer.js").Lawyer} lawyer  the rules-lawyer mode, for each ply
   * @param {{ docs: URL }} options
   */
  constructor(transport, board, lawyer, { docs }) {
    this.transport = transport;
    this.board = board;
    this.lawyer = lawyer;
    this.docs = docs;
    this.record = null;
    this.current = null;
    this.ply = 0; // the ply shown
    this.wanted = 0; // the ply last asked for (a few quick clicks on "next" add up)
    this.end = 0;
    this.token = 0;
    this.asking = false; // a ply is being asked for
    this.later = null; // the ply asked for meanwhile
    this.playing = false;
    this.pause = 600;
    const steps = { first: () => 0, prev: () => this.wanted - 1, next: () => this.wanted + 1, last: () => this.end };
    for (const button of document.querySelectorAll("[data-replay]")) {
      const where = steps[button.dataset.replay];
      button.addEventListener("click", () => {
        this.stop();
        this.go(where(), button.dataset.replay === "next");
      });
    }
    $("#replay-slider").addEventListener("input", (event) => {
      this.stop();
      this.go(Number(event.target.value));
    });
    $("#autoplay").addEventListener("click", () => (this.playing ? this.stop() : this.autoplay()));
    setViewer((ply) => this.go(ply));
  }

  /** Open a record (a format-1 "record" document's JSON text) at its deal; false if it cannot be. */
  async open(text) {
    this.stop();
    hideSummary();
    hideHint();
    const answer = await busy(this.transport.openRecord(text));
    if (!answer.ok) {
      this.clear();
      say(`This record cannot be opened: ${answer.error}`);
      return false;
    }
    say("");
    this.record = answer;
    this.end = answer.end;
    this.ply = this.wanted = 0;
    const end = $("[data-replay-end]");
    end.textContent = answer.end;
    end.dataset.replayEnd = answer.end;
    $("#replay-slider").max = answer.end;
    $("#replay-title-line").textContent =
      `${aGameOf(answer.players)}, ${answer.preset} rules, seed ${answer.seed}: ${answer.moves.length} moves.`;
    this.showStop(answer.stopped);
    if (answer.stopped) stopAnalysis();
    else offerAnalysis(text);
    await this.go(0);
    return true;
  }

  /** No record: nothing of the last one (or of another screen) is left to click. */
  clear() {
    this.stop();
    this.record = this.current = null;
    this.ply = this.wanted = this.end = 0;
    this.token += 1;
    document.body.dataset.record = "none";
    for (const button of document.querySelectorAll("[data-replay], #autoplay")) button.disabled = true;
    const slider = $("#replay-slider");
    slider.disabled = true;
    slider.max = slider.value = 0;
    for (const name of ["replay-ply", "replay-end"]) {
      const element = $(`[data-${name}]`);
      element.textContent = "0";
      element.setAttribute(`data-${name}`, "0");
    }
    $("#replay-title-line").textContent = "";
    this.showStop(null);
    hideSummary();
    stopAnalysis();
    hideHint();
    this.lawyer.forget();
    this.board.placeholder();
    announce("No record is open: open one with the file picker, or drop it on this page.");
  }

  showStop(stopped) {
    const box = $("#replay-stopped");
    box.hidden = !stopped;
    if (!stopped) {
      delete box.dataset.rule;
      return;
    }
    const { turn, move, verdict, summary } = stopped;
    box.dataset.rule = verdict.rule;
    box.replaceChildren(
      `The replay stops at ply ${turn - 1}: move ${turn} of the record, ${move}, cannot be made. `,
      `${verdict.reason} (ruling `,
      rulingLink(this.docs, verdict.rule),
      `: ${summary ?? ""})`,
    );
  }

  /** Show ply `ply`; `animate`: slide the move's pegs first, when it is the next ply. While
   * the engine answers, only the last ply asked for meanwhile is asked next (a slider drag). */
  async go(ply, animate = false) {
    if (!this.record) return;
    const target = Math.max(0, Math.min(this.end, ply));
    this.wanted = target;
    const token = ++this.token;
    if (this.asking) {
      this.later = { target, animate };
      return;
    }
    this.asking = true;
    let answer;
    try {
      answer = await busy(this.transport.replayPly(target));
    } finally {
      this.asking = false;
    }
    if (this.later) {
      const { target: next, animate: slide } = this.later;
      this.later = null;
      await this.go(next, slide);
      return;
    }
    if (token !== this.token) return; // a later step was asked for meanwhile
    if (!answer.ok) {
      say(answer.error);
      return;
    }
    const speed = moveSpeed();
    if (animate && speed !== "off" && target === this.ply + 1) {
      await busy(this.board.animate(answer.events.events, SPEEDS[speed]));
      if (token !== this.token) return;
    }
    this.ply = target;
    this.showPly(answer);
  }

  showPly(answer) {
    this.current = answer;
    document.body.dataset.record = "open";
    const { ply, move, seat, events, next_move: next } = answer;
    hideHint();
    this.lawyer.showStudy(answer.study, {
      marks: next ? { [next]: "played next in the record" } : {},
      note: next
        ? `Every legal move of seat ${answer.study.public.turn} here; the record's next move is marked. Pick one, or type any move, to ask about it.`
        : null,
      afterShow: () => this.board.markLast(events.events),
    });
    const title = $("#replay-move-title");
    if (ply === 0) title.replaceChildren(`The deal: seat ${answer.study.public.turn} plays first`);
    else title.replaceChildren(`Move ${ply}: `, seatBadge(seat), ` seat ${seat} played ${move}`);
    $("#replay-events").replaceChildren(
      ...events.events.map((event) => {
        const item = document.createElement("li");
        item.className = event.event;
        item.textContent = event.text;
        return item;
      }),
    );
    const stopped = this.record.stopped;
    $("#replay-next").textContent = next
      ? stopped && ply === this.end
        ? `Next in the record: move ${ply + 1}, ${next}, which cannot be made (see above).`
        : `Next in the record: move ${ply + 1}, ${next}.`
      : "The record ends here.";
    const slider = $("#replay-slider");
    slider.disabled = false;
    slider.value = ply;
    slider.setAttribute("aria-valuetext", `ply ${ply} of ${this.end}`);
    for (const button of document.querySelectorAll('[data-replay="first"], [data-replay="prev"]')) button.disabled = ply === 0;
    for (const button of document.querySelectorAll('[data-replay="next"], [data-replay="last"]')) button.disabled = ply === this.end;
    $("#autoplay").disabled = false;
    const summary = ply === this.end ? this.record.summary : null;
    if (summary) showSummary(summary);
    else hideSummary();
    const what = ply === 0 ? "the deal" : `seat ${seat} played ${move}`;
    const over = summary?.winner != null ? ` The game is over: team ${summary.winner} wins.` : "";
    announce(`Ply ${ply} of ${this.end}: ${what}.${over}`);
    analysisPly(ply);
    const where = $("[data-replay-ply]");
    where.textContent = ply;
    where.dataset.replayPly = ply;
  }

  /** Step forward on a timer until the end, or until anything else is asked for. */
  async autoplay() {
    this.playing = true;
    const button = $("#autoplay");
    button.setAttribute("aria-pressed", "true");
    button.textContent = "Pause";
    while (this.playing && this.ply < this.end) {
      await this.go(this.ply + 1, true);
      if (this.playing && this.ply < this.end) await sleep(this.pause);
    }
    this.stop();
  }

  /** A key pressed on the viewer's screen: true if it stepped (see KEYS). Keys typed into a
   * field, or pressed with a modifier, are left alone, as are those the board takes. */
  key(event) {
    const step = KEYS[event.key];
    if (!step || !this.record || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    if (event.target.closest?.("input, textarea, select, [contenteditable], [data-pick]")) return false;
    const button = document.querySelector(`[data-replay="${step}"]`);
    if (!button.disabled) button.click();
    return true;
  }

  stop() {
    this.playing = false;
    const button = $("#autoplay");
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Autoplay";
  }

  /** What the search bot would play for the seat to act at this ply, beside the record's move. */
  async hint() {
    const current = this.current;
    if (!current) return;
    this.stop();
    thinking();
    const answer = await busy(this.transport.hint("study"));
    if (this.current !== current) return;
    if (!answer.ok) {
      hideHint();
      say(answer.error);
      return;
    }
    const next = current.next_move;
    const compare = document.createElement("p");
    compare.textContent =
      next === null ? "" : next === answer.move ? `The record's next move is the same.` : `The record's next move is ${next}.`;
    this.lawyer.showFrames(answer.frames, answer.events.events);
    showHint(answer, compare);
  }
}
