/**
 * Moves: what a player may do on a turn, and their canonical notation.
 *
 * A move is a {@link Play} (a card and the steps it makes), a {@link Discard} (`turn.discard`)
 * or a {@link Pass} (an empty hand, `turn.pass`). Notation:
 *
 * - a play is the card then its steps, each `seat:from-to`: `K 1:s-26`, `5 0:12-17`,
 *   `8 0:8-0`, `7 0:70-h2 2:33-37` (a split, parts in the order carried out), `JK 0:s-40`;
 * - a discard is `discard 7`; a pass is `pass`.
 *
 * Pegs knocked away by a landing are consequences, not steps, and are not written.
 *
 * @module
 */
import { locationName, parseLocation, type Location } from "./board.js";
import { cardOf, cardSymbol, isRank, type Rank } from "./cards.js";
import { NotationError } from "./errors.js";
import { quoted } from "./errors.js";
import { repr } from "./text.js";

/** One peg of colour `seat` moving from `from` to `to`. */
export interface Step {
  readonly seat: number;
  readonly from: Location;
  readonly to: Location;
}

/** Play `card` and carry out its `steps` in order (one, or two for a split or a swap). */
export interface Play {
  readonly action: "play";
  readonly card: Rank;
  readonly steps: readonly Step[];
}

/** Discard `card` without moving (`turn.discard`). */
export interface Discard {
  readonly action: "discard";
  readonly card: Rank;
}

/** Pass: only for a player holding no cards (`turn.pass`). */
export interface Pass {
  readonly action: "pass";
}

/** Any move. */
export type Move = Play | Discard | Pass;

/** A step; {@link NotationError} unless seat and locations are whole numbers. */
export function step(seat: number, from: Location, to: Location): Step {
  return checkedStep({ seat, from, to });
}

/** A play of `card` with one or two `steps`; {@link NotationError} for anything else. */
export function play(card: Rank, ...steps: Step[]): Play {
  return checkedMove({ action: "play", card, steps }) as Play;
}

/** A discard of `card`; {@link NotationError} unless it is a card. */
export function discard(card: Rank): Discard {
  return checkedMove({ action: "discard", card }) as Discard;
}

/** Why `value` is not a step (`{seat, from, to}`, whole numbers), or `undefined` if it is one. */
function stepProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `not a step: ${repr(value)}`;
  const { seat, from, to } = value as Record<string, unknown>;
  for (const [name, field] of [["seat", seat], ["from", from], ["to", to]] as const) {
    if (!Number.isSafeInteger(field)) return `a step's ${name} is a whole number, not ${repr(field)}`;
  }
  return undefined;
}

/** Why `value` is not a move (a play, a discard or the pass), or `undefined` if it is one. */
export function moveProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `not a move: ${repr(value)}`;
  const { action, card, steps } = value as Record<string, unknown>;
  if (action === "pass") return undefined;
  if (action !== "play" && action !== "discard") return `a move's action is "play", "discard" or "pass", not ${repr(action)}`;
  if (!isRank(card)) return `not a card: ${repr(card)} (cards are 1..14)`;
  if (action === "discard") return undefined;
  if (!Array.isArray(steps) || steps.length < 1 || steps.length > 2) {
    return `a play has one or two steps, not ${repr(steps)}`;
  }
  return stepProblem(steps[0]) ?? (steps.length > 1 ? stepProblem(steps[1]) : undefined);
}

/** `move`, or a {@link NotationError} saying why it is not one. */
export function checkedMove(move: unknown): Move {
  const problem = moveProblem(move);
  if (problem !== undefined) throw new NotationError(problem);
  return move as Move;
}

function checkedStep(value: unknown): Step {
  const problem = stepProblem(value);
  if (problem !== undefined) throw new NotationError(problem);
  return value as Step;
}

/** The pass. */
export const PASS: Pass = Object.freeze({ action: "pass" });

/** A step in notation: `seat:from-to`. */
export function stepText(s: Step): string {
  checkedStep(s);
  return `${s.seat}:${locationName(s.from)}-${locationName(s.to)}`;
}

/** A move in canonical notation. */
export function moveText(move: Move): string {
  checkedMove(move);
  switch (move.action) {
    case "pass":
      return "pass";
    case "discard":
      return `discard ${cardSymbol(move.card)}`;
    case "play": {
      let text = cardSymbol(move.card);
      for (const s of move.steps) text += ` ${stepText(s)}`;
      return text;
    }
  }
}

/** Whether two moves are the same move (same card, same steps in the same order). */
export function sameMove(a: Move, b: Move): boolean {
  if (checkedMove(a).action !== checkedMove(b).action) return false;
  if (a.action === "pass") return true;
  if (a.card !== (b as Discard | Play).card) return false;
  if (a.action === "discard") return true;
  const other = (b as Play).steps;
  if (a.steps.length !== other.length) return false;
  return a.steps.every((s, i) => {
    const t = other[i] as Step;
    return s.seat === t.seat && s.from === t.from && s.to === t.to;
  });
}

/**
 * The move written in canonical notation (exactly: no shorthands, see {@link parseMove} for
 * those). Throws {@link NotationError}.
 */
export function parseNotation(text: string): Move {
  if (typeof text !== "string") {
    throw new NotationError(`a move is written as text, not ${typeof text}`);
  }
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 1 && words[0] === "pass") return PASS;
  const fail = (): never => {
    throw new NotationError(
      `not a move: ${quoted(text)} (write a card and its steps, 'discard CARD' or 'pass')`,
    );
  };
  if (words.length === 2 && words[0] === "discard") {
    const card = cardOf(words[1] as string);
    return card === undefined ? fail() : discard(card);
  }
  const card = words.length ? cardOf(words[0] as string) : undefined;
  if (card === undefined) return fail();
  if (words.length < 2 || words.length > 3) {
    throw new NotationError(`a play has one or two steps, not ${words.length - 1}: ${quoted(text)}`);
  }
  return { action: "play", card, steps: words.slice(1).map((word) => readStep(word, text)) };
}

function readStep(word: string, text: string): Step {
  const colon = word.indexOf(":");
  const dash = word.indexOf("-", colon + 1);
  const seat = word.slice(0, colon);
  const from = colon < 0 || dash < 0 ? undefined : parseLocation(word.slice(colon + 1, dash));
  const to = dash < 0 ? undefined : parseLocation(word.slice(dash + 1));
  if (colon < 1 || !/^[0-9]+$/.test(seat) || from === undefined || to === undefined) {
    throw new NotationError(
      `bad step ${quoted(word)} in ${quoted(text)}: write steps as seat:from-to`,
    );
  }
  return { seat: Number(seat), from, to };
}
