// A game in the page: shows each update and sends the person's moves.

import { announce, busy, clearEvents, logEvents, say, sayRefusal, showHands, showMoves, showStatus } from "./controls.js";

const $ = (selector) => document.querySelector(selector);

export class Game {
  /**
   * @param {object} transport  see transport.js
   * @param {import("./board.js").Board} board
   * @param {{ docs: URL, limits: { move: number } }} options
   */
  constructor(transport, board, { docs, limits }) {
    this.transport = transport;
    this.board = board;
    this.docs = docs;
    this.limits = limits;
    this.active = false;
    this.history = [];
    transport.onUpdate((update) => this.show(update));
    $("#record-button").addEventListener("click", () => this.saveRecord());
  }

  /** Start a game; false (with a message) if the engine refuses the setup. */
  async start(setup) {
    this.history = [];
    clearEvents();
    $("#history").replaceChildren();
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

  show(update) {
    if (!this.active) return;
    this.update = update;
    const status = update.public;
    if (update.last_move) this.addHistory(status.ply, update.last_move);
    showStatus(status, update.seats);
    const mine = update.view;
    showHands(mine ? [{ label: `seat ${update.seat}'s hand`, cards: mine.hand }] : []);
    const moves = update.moves ? update.moves.moves : null;
    this.board.show(update.svg, moves);
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
  }

  waitingFor(update) {
    const { turn, winner } = update.public;
    if (update.next === "over") return `The game is over: team ${winner} wins.`;
    if (update.moves) return `Seat ${update.seat}, your move: pick a highlighted peg, a move below, or type one.`;
    return `Seat ${turn} (${update.seats[turn]}) is to act…`;
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
      this.board.element.focus();
      return;
    }
    this.board.reset();
    if (answer.kind === "ambiguous") say(`${answer.error}. Write the whole move, or pick it from the list.`);
    else sayRefusal(answer, this.docs);
  }

  async saveRecord() {
    const answer = await this.transport.record();
    if (!answer.ok) {
      say(answer.error);
      return;
    }
    const { ok, ...record } = answer;
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `pegs-game-${record.seed}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }
}
