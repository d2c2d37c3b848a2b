// Rules-lawyer mode: paste a position, see every legal move, ask about any move.
//
// The verdict names the ruling and links to its page; a legal move can be stepped
// through event by event, with the board before, during and after it.

import { busy, reveal, rulingLink, say, showChoice, showHands, showMoves, showStatus } from "./controls.js";

const $ = (selector) => document.querySelector(selector);
const ONE_COLUMN = "(max-width: 760px)"; // style.css: the board above the panel

export const EXAMPLE = `# A position in the position text format (see the docs' spec format page).
players: 4
turn: 0
pegs 0: 70 h2 30
pegs 1: 21 26
pegs 2: 33 h3
pegs 3: 3 60
hand 0: 7 K 8
`;

export class Lawyer {
  /**
   * @param {object} transport  see transport.js
   * @param {import("./board.js").Board} board
   * @param {{ docs: URL, limits: { position: number, move: number } }} options
   */
  constructor(transport, board, { docs, limits }) {
    this.transport = transport;
    this.board = board;
    this.docs = docs;
    this.limits = limits;
    this.study = null;
    this.marks = {};
    this.note = null;
    this.afterShow = null;
    this.frames = [];
    this.frame = 0;
    $("#position-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.load($("[data-position-input]").value);
    });
    // A huge paste would stall the text box itself: refuse it before it lands there.
    $("[data-position-input]").addEventListener("paste", (event) => {
      const text = event.clipboardData?.getData("text") ?? "";
      if (text.length > this.limits.position) {
        event.preventDefault();
        say(this.tooLong(text.length));
      }
    });
    $("#frame-prev").addEventListener("click", () => this.showFrame(this.frame - 1));
    $("#frame-next").addEventListener("click", () => this.showFrame(this.frame + 1));
    $("#frame-back").addEventListener("click", () => this.showPosition());
  }

  /** Study the position `text` (position text or a state's JSON). */
  async load(text) {
    $("[data-position-input]").value = text.length > this.limits.position ? "" : text;
    this.clearVerdict();
    if (text.length > this.limits.position) {
      say(this.tooLong(text.length));
      return false;
    }
    const answer = await busy(this.transport.study(text));
    if (!answer.ok) {
      say(`This position cannot be read: ${answer.error}`);
      return false;
    }
    say("");
    this.showStudy(answer);
    return true;
  }

  /**
   * Study a position the engine has already made the studied one (a "study" answer).
   * `marks` single out moves of the list ({ notation: words }), `note` replaces the list's
   * note, and `afterShow` runs each time the position's board is drawn.
   */
  showStudy(answer, { marks = {}, note = null, afterShow = null } = {}) {
    if (this.study !== answer) showChoice([], false); // moves offered for another position
    this.study = answer;
    this.marks = marks;
    this.note = note;
    this.afterShow = afterShow;
    this.showPosition();
  }

  /** Study nothing (the record viewer has no record to show): nothing is left to ask about. */
  forget() {
    this.study = null;
    this.clearVerdict();
  }

  tooLong(length) {
    return (
      `That text is ${length.toLocaleString("en")} characters long; a position is at most ` +
      `${this.limits.position.toLocaleString("en")}. Paste one position, in the position text format or as a state's JSON.`
    );
  }

  showPosition() {
    const study = this.study;
    if (!study) return;
    this.clearVerdict();
    showStatus(study.public);
    const held = study.hands.map((cards, seat) => ({ seat, label: `seat ${seat}`, cards }));
    const holding = held.filter(({ cards }) => cards.length);
    showHands(holding.length ? holding : held);
    this.board.show(study.svg, study.moves.moves);
    this.afterShow?.();
    $("#hint-button").disabled = !study.moves.moves.length;
    showMoves(study.moves.moves, {
      onPick: (notation) => this.explain(notation),
      onPreview: (move) => this.board.preview(move),
      marks: this.marks,
      note:
        this.note ??
        (study.moves.moves.length
          ? `Every legal move of seat ${study.public.turn}; pick one, or a peg on the board, to see what it does.`
          : "No legal move: the game is over."),
    });
  }

  /** Ask about a move of the studied position, in notation. */
  async explain(text) {
    if (!this.study) {
      say("Load a position first.");
      return;
    }
    if (text.length > this.limits.move) {
      say(`A move is at most ${this.limits.move} characters long.`);
      return;
    }
    const answer = await busy(this.transport.explain(text));
    if (!answer.ok) {
      const listed = answer.candidates ? ` It could be: ${answer.candidates.join(", ")}.` : "";
      say(`${answer.error}${listed}`);
      return;
    }
    say("");
    this.showVerdict(answer);
    this.showFrames(answer.frames, answer.events ? answer.events.events : []);
    reveal($("#verdict"));
    // One column (a phone): the board, its steps above it, rather than the verdict below.
    if (answer.verdict.legal && matchMedia(ONE_COLUMN).matches) $("#frames").scrollIntoView({ block: "start" });
  }

  /** Boards to step through ({ caption, events, svg }), with the events they show. */
  showFrames(frames, events) {
    this.frames = frames;
    this.frameEvents = events;
    this.showFrame(0);
  }

  showVerdict(answer) {
    const box = $("#verdict");
    const { legal, rule, reason } = answer.verdict;
    box.hidden = false;
    box.dataset.verdict = legal ? "legal" : "illegal";
    box.dataset.rule = rule ?? "";
    const head = document.createElement("p");
    head.className = "verdict-head";
    head.id = "verdict-head";
    head.textContent = `${answer.move ?? "That move"}: ${legal ? "legal" : "illegal"}`;
    const why = document.createElement("p");
    why.textContent = reason;
    box.replaceChildren(head, why);
    if (rule) {
      const ruling = document.createElement("p");
      ruling.append("Ruling ", rulingLink(this.docs, rule), `: ${answer.summary}`);
      box.append(ruling);
    }
  }

  clearVerdict() {
    $("#verdict").hidden = true;
    $("#frames").hidden = $("#frame-events").hidden = true;
  }

  showFrame(index) {
    const frames = this.frames;
    this.frame = Math.max(0, Math.min(index, frames.length - 1));
    const frame = frames[this.frame];
    this.board.show(frame.svg);
    $("#frames").hidden = $("#frame-events").hidden = false;
    $("#frame-caption").textContent =
      frames.length > 1 ? `Board ${this.frame + 1} of ${frames.length}: ${frame.caption}` : "The move on the board";
    $("#frame-prev").hidden = $("#frame-next").hidden = frames.length < 2;
    $("#frame-prev").disabled = this.frame === 0;
    $("#frame-next").disabled = this.frame === frames.length - 1;
    const list = $("#frame-events");
    list.replaceChildren(
      ...this.frameEvents.map((event, i) => {
        const item = document.createElement("li");
        item.textContent = event.text;
        if (frame.events.includes(i)) item.setAttribute("aria-current", "step");
        return item;
      }),
    );
  }
}
