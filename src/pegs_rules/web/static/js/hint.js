// "What would a strong player do?": the engine's search bot plays the seat to act, seeing
// only that seat's cards, and the page shows its move on the board and in words.

import { reveal } from "./controls.js";

const $ = (selector) => document.querySelector(selector);

/**
 * Show a hint (the engine's "hint" answer) in #hint; `extra` is a node to add (a button to
 * play the move, or how the record's move compares).
 */
export function showHint(hint, extra = null) {
  const box = $("#hint");
  box.hidden = false;
  box.dataset.hint = hint.move;
  const head = document.createElement("p");
  const move = document.createElement("span");
  move.className = "hint-move";
  move.textContent = hint.move;
  head.append(`A strong player (the ${hint.bot} bot, seeing only seat ${hint.seat}'s cards) would play `, move, ".");
  const what = document.createElement("p");
  what.className = "facts";
  what.textContent = hint.events.events.map((event) => event.text).join("; ");
  box.replaceChildren(head, what, ...(extra ? [extra] : []));
  reveal(box);
}

export function hideHint() {
  const box = $("#hint");
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.hint;
}

/** Say that a hint is on its way (the search takes a moment). */
export function thinking() {
  const box = $("#hint");
  box.hidden = false;
  box.textContent = "Thinking…";
  reveal(box, { focus: false });
}
