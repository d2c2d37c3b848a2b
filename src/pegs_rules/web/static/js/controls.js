// The panel beside the board: status, hand, legal moves, typed moves, events, messages.
// Every mode (a game, rules-lawyer study, the record viewer) draws into the same elements,
// so a driver finds one list of [data-move] buttons, one [data-ply], [data-turn] and
// [data-winner].

import { placeName } from "./board.js";
import { listed } from "./prefs.js";

const MAX_EVENTS = 40;

const $ = (selector) => document.querySelector(selector);

let waiting = 0;

/** Mark the page busy (aria-busy on <main>) until `promise` settles; its value. */
export async function busy(promise) {
  waiting += 1;
  $("main").setAttribute("aria-busy", "true");
  try {
    return await promise;
  } finally {
    waiting -= 1;
    if (!waiting) $("main").setAttribute("aria-busy", "false");
  }
}

function teamSeats(players, team) {
  return Array.from({ length: players }, (_, seat) => seat).filter((seat) => seat % 2 === team);
}

/** The status line: ply, seat to act, winner (the data-ply/-turn/-winner contract). */
export function showStatus(status, seats = null) {
  const ply = $("[data-ply]");
  ply.dataset.ply = status.ply;
  ply.textContent = status.ply;
  const turn = $("[data-turn]");
  turn.dataset.turn = status.winner === null ? status.turn : "";
  const who = seats ? ` (${seats[status.turn]})` : "";
  turn.textContent = status.winner === null ? `seat ${status.turn}${who}, team ${status.team}` : "nobody";
  const winner = $("[data-winner]");
  winner.dataset.winner = status.winner ?? "";
  const banner = $("#winner-banner");
  if (status.winner === null) {
    winner.textContent = "none yet";
    banner.hidden = true;
  } else {
    const mates = listed(teamSeats(status.players, status.winner));
    winner.textContent = `team ${status.winner}`;
    banner.textContent = `Team ${status.winner} (seats ${mates}) wins after ${status.ply} turns.`;
    banner.hidden = false;
  }
  $("#table-facts").textContent =
    `${status.players} players, rules ${status.preset}; draw pile ${status.draw_pile_size}, ` +
    `discard pile top ${status.discard_top ?? "none"}; cards held: ` +
    status.hand_sizes.map((n, seat) => `seat ${seat} ${n}`).join(", ");
}

/** A seat's colour with its number on it, as its pegs are drawn (decoration: the words
 * beside it say which seat). */
export function seatBadge(seat) {
  const badge = document.createElement("span");
  badge.className = `seat-badge seat-${seat}`;
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = seat;
  return badge;
}

/** Cards as small chips. */
export function showCards(element, cards) {
  element.replaceChildren(
    ...cards.map((card) => {
      const chip = document.createElement("span");
      chip.className = "card";
      chip.textContent = card;
      return chip;
    }),
  );
  if (!cards.length) element.textContent = "no cards";
}

/** The hands shown: a player's own (game) or every seat's (study). */
export function showHands(hands) {
  const list = $("#hands");
  list.replaceChildren(
    ...hands.map(({ seat, label, cards }) => {
      const row = document.createElement("div");
      row.className = "hand";
      const name = document.createElement("span");
      name.className = "hand-label";
      name.append(seatBadge(seat), ` ${label}`);
      const chips = document.createElement("span");
      showCards(chips, cards);
      row.append(name, chips);
      return row;
    }),
  );
}

/** A move in words, for a screen reader: "K: seat 0's peg from start to hole 8". */
export function moveWords(move) {
  if (move.action === "pass") return "pass: no cards to play";
  if (move.action === "discard") return `discard a ${move.card}, moving no peg`;
  const steps = move.steps.map((step) => `seat ${step.seat}'s peg from ${placeName(step.from)} to ${placeName(step.to)}`);
  return `${move.card}: ${steps.join(", then ")}`;
}

/** The legal moves as buttons; each carries data-move="<notation>". `marks` names moves
 * to single out: { [notation]: words } ("played next in the record", "the hint"). */
export function showMoves(moves, { onPick, onPreview, note, marks = {} }) {
  const list = $("#moves");
  const items = (moves || []).map((move) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move.notation;
    button.textContent = move.notation;
    const mark = marks[move.notation];
    if (mark) {
      button.dataset.mark = mark;
      button.classList.add("marked");
    }
    button.setAttribute("aria-label", `${move.notation}: ${moveWords(move)}${mark ? `; ${mark}` : ""}`);
    button.addEventListener("click", () => onPick(move.notation));
    button.addEventListener("mouseenter", () => onPreview(move));
    button.addEventListener("focus", () => onPreview(move));
    button.addEventListener("mouseleave", () => onPreview(null));
    button.addEventListener("blur", () => onPreview(null));
    item.append(button);
    return item;
  });
  list.replaceChildren(...items);
  $("#moves-count").textContent = moves ? `(${moves.length})` : "";
  $("#moves-note").textContent = note;
}

/** Moves to pick from when the board's choice fits several (or nothing: hidden). */
export function showChoice(moves, more, onPick) {
  const box = $("#choice");
  box.hidden = !moves.length;
  if (!moves.length) {
    box.replaceChildren(); // none of its buttons is left to press
    return;
  }
  const buttons = moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.notation;
    button.addEventListener("click", () => onPick(move.notation));
    return button;
  });
  const text = document.createElement("p");
  text.textContent = more
    ? "This part can end the move, or be the first part of a split: pick a move, or choose the next part on the board."
    : "These moves fit your choice: pick one.";
  box.replaceChildren(text, ...buttons);
  buttons[0].focus();
}

/** Add the events of one move (a format-1 "events" document) to the log, newest first. */
export function logEvents(events, ply) {
  if (!events.events.length) return;
  const log = $("#events");
  const item = document.createElement("li");
  const when = document.createElement("span");
  when.className = "event-ply";
  when.textContent = `Ply ${ply}: `;
  item.append(when);
  events.events.forEach((event, i) => {
    const part = document.createElement("span");
    part.className = `event ${event.event}`;
    part.textContent = `${i ? "; " : ""}${event.text}`;
    item.append(part);
  });
  log.prepend(item);
  while (log.children.length > MAX_EVENTS) log.lastElementChild.remove();
}

export function clearEvents() {
  $("#events").replaceChildren();
}

/** A message for the person (an alert region: read out when it appears), brought into view. */
export function say(text, level = "error") {
  const box = $("#message");
  box.textContent = text;
  box.className = `message ${level}`;
  box.hidden = !text;
  if (text) reveal(box, { focus: false });
}

/**
 * Bring an answer the person asked for into view (scrolling as little as shows it) and, with
 * `focus`, move the keyboard's focus to it, so that a screen reader reads it and Tab goes on
 * from there.
 */
export function reveal(element, { focus = true } = {}) {
  element.scrollIntoView({ block: "nearest" });
  if (!focus) return;
  if (!element.hasAttribute("tabindex")) element.tabIndex = -1;
  element.focus({ preventScroll: true });
}

/** Say what the board is waiting for, under the board (a polite live region). */
export function announce(text) {
  $("#announce").textContent = text;
}

/** A link to a ruling's page in the docs. */
export function rulingLink(docs, rule) {
  const link = document.createElement("a");
  link.href = new URL(`rules/${rule}.html#${rule}`, docs).href;
  link.textContent = rule;
  link.target = "_blank";
  link.rel = "noopener";
  link.dataset.ruling = rule;
  return link;
}

/** A refused move: the sentence, and the ruling (linked) when the rules forbid it. */
export function sayRefusal(answer, docs) {
  say(answer.error);
  if (answer.kind === "illegal" && answer.verdict) {
    const box = $("#message");
    box.replaceChildren(
      document.createTextNode("Illegal: "),
      document.createTextNode(answer.verdict.reason),
      document.createTextNode(" (ruling "),
      rulingLink(docs, answer.verdict.rule),
      document.createTextNode(")"),
    );
    box.dataset.rule = answer.verdict.rule;
  } else {
    delete $("#message").dataset.rule;
  }
}
