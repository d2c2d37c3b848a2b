// A game in the page: shows each update, animating the move that led to it, and sends the
// person's moves. Updates are shown one after another, each once the one before has finished
// moving; the transport hears when one is shown (a local engine paces its bots from there).

import {
  announce,
  busy,
  clearEvents,
  logEvents,
  reveal,
  say,
  sayRefusal,
  showChoice,
  showHands,
  showMoves,
  showStatus,
} from "./controls.js";
import { hideHint, showHint, thinking } from "./hint.js";
import { SPEEDS, moveSpeed, touchOnly } from "./prefs.js";
import { analysisPly, offerAnalysis, stopAnalysis } from "./analysis.js";
import { hideSummary, showSummary } from "./summary.js";

const $ = (selector) => document.querySelector(selector);

export class Game {
  /**
   * @param {object} transport  see transport.js
   * @param {import("./board.js").Board} board
   * @param {{ docs: URL, limits: { move: number }, onReplay: (record: object) => void,
   *           onPlayAgain: () => void }} options
   */
  constructor(transport, board, { docs, limits, onReplay, onPlayAgain }) {
    this.transport = transport;
    this.board = board;
    this.docs = docs;
    this.limits = limits;
    this.onReplay = onReplay;
    this.onPlayAgain = onPlayAgain;
    this.active = false;
    this.update = null;
    this.history = [];
    this.showing = Promise.resolve();
    transport.onUpdate((update) => {
      this.showing = this.showing
        .then(() => busy(this.show(update)))
        .then(() => this.transport.shown?.());
    });
    $("#record-button").addEventListener("click", () => this.saveRecord());
  }

  /** Start a game; false (with a message) if the engine refuses the setup. */
  async start(setup) {
    this.history = [];
    this.update = null;
    clearEvents();
    hideSummary();
    stopAnalysis();
    hideHint();
    $("#history").replaceChildren();
    $("#last-move").hidden = true;
    this.active = true;
    const answer = await busy(this.transport.start(setup));
    if (!answer.ok) {
      this.active = false;
      say(`The game cannot start: ${answer.error}`);
      return false;
    }
    say("");
    return true;
  }

  /** Stop following the game (its bots stop too). */
  leave() {
    if (this.active) this.transport.leave();
    this.active = false;
  }

  async show(update) {
    if (!this.active) return;
    showChoice([], false); // moves offered for the last update are not this one's
    const before = this.update;
    this.update = update;
    const speed = moveSpeed();
    if (speed !== "off" && before && update.public.ply === before.public.ply + 1) {
      await this.board.animate(update.events.events, SPEEDS[speed]);
      if (!this.active) return;
    }
    const status = update.public;
    if (update.last_move) this.addHistory(status.ply, update.last_move);
    showStatus(status, update.seats);
    const mine = update.view;
    showHands(mine ? [{ seat: update.seat, label: `seat ${update.seat}'s hand`, cards: mine.hand }] : []);
    const moves = update.moves ? update.moves.moves : null;
    this.board.show(update.svg, moves);
    this.board.markLast(update.events.events);
    this.showLastMove(update, before);
    hideHint();
    showMoves(moves, {
      onPick: (notation) => this.play(notation),
      onPreview: (move) => this.board.preview(move),
      note: this.waitingFor(update),
    });
    logEvents(update.events, status.ply);
    const said = update.events.events.map((event) => event.text).join("; ");
    if (moves) announce(`${said ? `${said}. ` : ""}Your turn, seat ${update.seat}: ${moves.length} legal moves.`);
    else if (said) announce(said);
    $("#move-input").disabled = !moves;
    $("#move-submit").disabled = !moves;
    $("#hint-button").disabled = !moves;
    // The keyboard's focus is never left on the page itself: on the person's first movable
    // peg on their turn, else on the board while the others play.
    if (this.waitingForFocus() && !(moves && this.board.focusFirst())) {
      this.board.element.focus({ preventScroll: true });
    }
    if (update.next === "over") await this.finish(update);
  }

  /** True when the keyboard's focus is nowhere in particular (the page, the board, a control
   * that went away). */
  waitingForFocus() {
    const focused = document.activeElement;
    return (
      !focused ||
      focused === document.body ||
      this.board.element.contains(focused) ||
      !focused.isConnected ||
      focused.checkVisibility?.() === false
    );
  }

  showLastMove(update, before) {
    const line = $("#last-move");
    line.hidden = !update.last_move;
    if (!update.last_move) return;
    const who = before ? `seat ${before.public.turn} played ` : "";
    line.textContent = `Last move (marked on the board): ${who}${update.last_move}`;
  }

  waitingFor(update) {
    const { turn, winner } = update.public;
    if (update.next === "over") return `The game is over: team ${winner} wins.`;
    if (update.moves) {
      const keys = touchOnly() ? "" : " (the arrow keys go from one to the next)";
      return `Seat ${update.seat}, your move: pick a ringed peg${keys}, a move below, or type one.`;
    }
    return `Seat ${turn} (${update.seats[turn]}) is to act…`;
  }

  /** The end of the game: its summary, with the record, a replay and another game offered. */
  async finish(update) {
    const { can } = this.transport;
    const actions = {
      download: () => this.saveRecord(),
      replay: can.replay ? () => this.replay() : null,
      again: this.transport.again ? () => this.transport.again() : can.setup ? () => this.onPlayAgain() : null,
    };
    let summary = null;
    if (this.transport.summary) {
      const answer = await this.transport.summary();
      if (answer.ok) summary = answer;
    }
    if (!summary) {
      const { winner, ply, players, preset } = update.public;
      const winners = Array.from({ length: players }, (_, seat) => seat).filter((seat) => seat % 2 === winner);
      summary = { winner, winners, turns: ply, players, preset, seats: [] };
    }
    if (!this.active) return;
    showSummary(summary, { kinds: update.seats, actions });
    reveal($("#summary"));
    const record = can.replay ? await this.record() : null;
    if (record && this.active) {
      analysisPly(null);
      offerAnalysis(JSON.stringify(record), { before: () => this.onReplay(record) });
    }
  }

  addHistory(ply, notation) {
    this.history.push(notation);
    const item = document.createElement("li");
    item.textContent = notation;
    item.value = ply;
    $("#history").append(item);
  }

  /** Send the person's move (notation); a refusal is shown with its ruling. */
  async play(text) {
    if (!this.update?.moves) return;
    if (!text.trim()) {
      say("Type a move in notation, for example 7 0:70-h2 2:33-37, or pick one from the list.");
      return;
    }
    if (text.length > this.limits.move) {
      say(`A move is at most ${this.limits.move} characters long.`);
      return;
    }
    const answer = await busy(this.transport.play(text));
    if (answer.ok) {
      say("");
      $("#move-input").value = "";
      this.board.element.focus({ preventScroll: true });
      return;
    }
    this.board.reset();
    if (answer.kind === "ambiguous") say(`${answer.error}. Write the whole move, or pick it from the list.`);
    else sayRefusal(answer, this.docs);
  }

  /** What the search bot would play for the person: drawn on the board, marked in the list. */
  async hint() {
    const update = this.update;
    if (!update?.moves) return;
    thinking();
    const answer = await busy(this.transport.hint("game"));
    if (this.update !== update) return; // the game moved on meanwhile
    if (!answer.ok) {
      hideHint();
      say(answer.error);
      return;
    }
    const moves = update.moves.moves;
    this.board.show(answer.frames[0].svg, moves);
    this.board.markLast(update.events.events);
    showMoves(moves, {
      onPick: (notation) => this.play(notation),
      onPreview: (move) => this.board.preview(move),
      note: this.waitingFor(update),
      marks: { [answer.move]: "the strong player's move" },
    });
    const play = document.createElement("button");
    play.type = "button";
    play.id = "hint-play";
    play.textContent = "Play it";
    play.addEventListener("click", () => this.play(answer.move));
    showHint(answer, play);
  }

  async record() {
    const answer = await this.transport.record();
    if (!answer.ok) {
      say(answer.error);
      return null;
    }
    const { ok, ...record } = answer;
    return record;
  }

  async replay() {
    const record = await this.record();
    if (record) this.onReplay(record);
  }

  async saveRecord() {
    const record = await this.record();
    if (!record) return;
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `pegs-game-${record.seed}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }
}
