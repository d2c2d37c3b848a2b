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
// "next" and "last".

import { busy, rulingLink, say, seatBadge } from "./controls.js";
import { hideHint, showHint, thinking } from "./hint.js";
import { SPEEDS, moveSpeed } from "./prefs.js";
import { hideSummary, showSummary } from "./summary.js";

const $ = (selector) => document.querySelector(selector);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
  }

  /** Open a record (a format-1 "record" document's JSON text) at its deal; false if it cannot be. */
  async open(text) {
    this.stop();
    hideSummary();
    hideHint();
    const answer = await busy(this.transport.openRecord(text));
    if (!answer.ok) {
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
      `A ${answer.players}-player game, ${answer.preset} rules, seed ${answer.seed}: ${answer.moves.length} moves.`;
    this.showStop(answer.stopped);
    await this.go(0);
    return true;
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
    $("#replay-slider").value = ply;
    $("#replay-slider").setAttribute("aria-valuetext", `ply ${ply} of ${this.end}`);
    for (const button of document.querySelectorAll('[data-replay="first"], [data-replay="prev"]')) button.disabled = ply === 0;
    for (const button of document.querySelectorAll('[data-replay="next"], [data-replay="last"]')) button.disabled = ply === this.end;
    if (ply === this.end && this.record.summary) showSummary(this.record.summary);
    else hideSummary();
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
