/**
 * Reading and writing moves against a position: {@link parseMove}, {@link formatMove}.
 *
 * The canonical notation is that of `moves.ts` (`7 0:70-h2 2:33-37`, `discard 7`, `pass`).
 * {@link parseMove} also reads shorthands, resolved against the legal moves of the position:
 *
 * - the seat may be left out of a step: `7 70-h2 33-37`, `K s-26`;
 * - the destination may be left out (`8 40`, `K s`: come out) or written `h` for "into home,
 *   wherever that is" (`5 3-h`);
 * - a card alone means its only legal play: `JK`;
 * - a split whose two orders leave the same position, or a swap of two pegs the player may both
 *   move, may be written either way; it reads as the listed move;
 * - words are case-insensitive and may be separated by commas.
 *
 * A shorthand that fits several legal moves throws {@link AmbiguousMoveError}; text that is no
 * move throws {@link NotationError}; a move the rules forbid throws {@link IllegalMoveError}.
 *
 * @module
 */
import { isHome, isTrack, locationName, parseLocation, type Location } from "./board.js";
import { cardOf, cardSymbol, type Rank } from "./cards.js";
import { AmbiguousMoveError, IllegalMoveError, NotationError, PegsError, quoted } from "./errors.js";
import { legalMoves } from "./movegen.js";
import { moveText, parseNotation, PASS, sameMove, type Move, type Play, type Step } from "./moves.js";
import type { GameState } from "./state.js";
import { guarded } from "./validate.js";
import { cardRule, isMove, otherWriting, whyIllegal } from "./verdict.js";

const ANY_HOME = "h";
const MAX_LISTED = 12;

/** One step as written: the seat and destination may be missing, `h` is any home hole. */
interface StepPattern {
  readonly seat: number | null;
  readonly from: Location | typeof ANY_HOME;
  readonly to: Location | typeof ANY_HOME | null;
}

function fits(pattern: Location | typeof ANY_HOME, location: Location): boolean {
  return pattern === ANY_HOME ? isHome(location) : pattern === location;
}

function matches(p: StepPattern, s: Step): boolean {
  return (p.seat === null || p.seat === s.seat) && fits(p.from, s.from) && (p.to === null || fits(p.to, s.to));
}

/** The seat whose peg a seatless step most likely means: the one standing on `from`. */
function owner(state: GameState, from: Location): number {
  if (isTrack(from)) {
    const seat = state.pegs.findIndex((locs) => locs.includes(from));
    return seat >= 0 ? seat : state.turn;
  }
  const mates = [state.turn];
  for (let s = 0; s < state.pegs.length; s++) if (s !== state.turn && s % 2 === state.turn % 2) mates.push(s);
  return mates.find((s) => (state.pegs[s] as readonly Location[]).includes(from)) ?? state.turn;
}

function concrete(state: GameState, p: StepPattern): Step | null {
  if (typeof p.from !== "number" || typeof p.to !== "number") return null;
  return { seat: p.seat ?? owner(state, p.from), from: p.from, to: p.to };
}

/**
 * The legal move of `state` that `text` names, in canonical notation or a shorthand (the
 * reference's page *Contracts*, "Reading and writing moves: shorthands").
 */
export function parseMove(state: GameState, text: string): Move {
  if (typeof text !== "string") throw new NotationError(`a move is written as text, not ${typeof text}`);
  return guarded(state, () => {
    const legal = legalMoves(state);
    let read: Move | [Rank, StepPattern[]];
    try {
      read = parseNotation(text);
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      read = readShorthand(text);
    }
    if (!Array.isArray(read)) {
      const move = read;
      const listed = legal.find((m) => sameMove(m, move));
      if (listed !== undefined) return listed;
      const same = otherWriting(state, move);
      if (same !== undefined) return same.play;
      const why = whyIllegal(state, move);
      throw new IllegalMoveError(why.rule, why.reason);
    }
    const [card, steps] = read;
    let found: Play[] = named(legal, card, steps);
    if (found.length === 0 && steps.length === 2) found = otherOrders(state, legal, card, steps);
    if (found.length === 1) return found[0] as Play;
    if (found.length > 1) throw new AmbiguousMoveError(text, found.map(moveText));
    throw noMatch(state, legal, text, card, steps);
  });
}

function named(legal: readonly Move[], card: Rank, steps: readonly StepPattern[]): Play[] {
  return legal.filter(
    (m): m is Play =>
      m.action === "play" &&
      m.card === card &&
      (steps.length === 0 || m.steps.length === steps.length) &&
      steps.every((p, i) => i >= m.steps.length || matches(p, m.steps[i] as Step)),
  );
}

function otherOrders(state: GameState, legal: readonly Move[], card: Rank, steps: readonly StepPattern[]): Play[] {
  return legal.filter(
    (m): m is Play =>
      m.action === "play" &&
      m.card === card &&
      m.steps.length === 2 &&
      matches(steps[0] as StepPattern, m.steps[1] as Step) &&
      matches(steps[1] as StepPattern, m.steps[0] as Step) &&
      otherWriting(state, { action: "play", card, steps: [m.steps[1] as Step, m.steps[0] as Step] }) !== undefined,
  );
}

function noMatch(
  state: GameState,
  legal: readonly Move[],
  text: string,
  card: Rank,
  steps: readonly StepPattern[],
): IllegalMoveError {
  if (state.winner !== null || !(state.hands[state.turn] as readonly Rank[]).includes(card)) {
    const why = whyIllegal(state, { action: "play", card, steps: [] });
    return new IllegalMoveError(why.rule, why.reason);
  }
  const written = steps.map((p) => concrete(state, p));
  if (steps.length && written.every((s) => s !== null)) {
    const why = whyIllegal(state, { action: "play", card, steps: written });
    return new IllegalMoveError(why.rule, why.reason);
  }
  const plays = legal.filter((m) => m.action === "play" && m.card === card).map(moveText);
  const symbol = cardSymbol(card);
  if (plays.length === 0) return new IllegalMoveError(cardRule(card), `seat ${state.turn}'s ${symbol} has no legal play`);
  const listed = plays.slice(0, MAX_LISTED).join(", ") + (plays.length > MAX_LISTED ? ", ..." : "");
  return new IllegalMoveError(cardRule(card), `no legal play matches ${quoted(text)}; the ${symbol} can play ${listed}`);
}

function readShorthand(text: string): Move | [Rank, StepPattern[]] {
  const words = text.replaceAll(",", " ").split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new NotationError("no move given: write a card and its steps, 'discard CARD' or 'pass'");
  const head = (words[0] as string).toLowerCase();
  if (head === "pass") {
    if (words.length > 1) throw new NotationError(`'pass' takes nothing after it: ${quoted(text)}`);
    return PASS;
  }
  if (head === "discard") {
    if (words.length !== 2) throw new NotationError(`write a discard as 'discard CARD', not ${quoted(text)}`);
    return { action: "discard", card: readCard(words[1] as string, text) };
  }
  const card = readCard(words[0] as string, text);
  if (words.length > 3) throw new NotationError(`a play has one or two steps, not ${words.length - 1}: ${quoted(text)}`);
  return [card, words.slice(1).map((word) => readStep(word, text))];
}

function readCard(word: string, text: string): Rank {
  const card = cardOf(word);
  if (card === undefined) {
    throw new NotationError(
      `${quoted(word)} is not a card (A 2..10 J Q K JK) in ${quoted(text)}; write a card and its steps, 'discard CARD' or 'pass'`,
    );
  }
  return card;
}

function readStep(word: string, text: string): StepPattern {
  let seat: number | null = null;
  let rest = word;
  const colon = word.indexOf(":");
  if (colon >= 0) {
    const head = word.slice(0, colon);
    if (!/^[0-9]{1,3}$/.test(head)) throw new NotationError(`bad seat ${quoted(head)} in step ${quoted(word)} of ${quoted(text)}`);
    seat = Number(head);
    rest = word.slice(colon + 1);
  }
  const dash = rest.indexOf("-");
  return {
    seat,
    from: readLocation(dash < 0 ? rest : rest.slice(0, dash), word, text),
    to: dash < 0 ? null : readLocation(rest.slice(dash + 1), word, text),
  };
}

function readLocation(word: string, step: string, text: string): Location | typeof ANY_HOME {
  const lower = word.toLowerCase();
  if (lower === ANY_HOME) return ANY_HOME;
  const location = /^[0-9]{7,}$/.test(lower) ? undefined : parseLocation(lower);
  if (location === undefined || lower.trim() !== lower || lower === "") {
    throw new NotationError(
      `bad location ${quoted(lower)} in step ${quoted(step)} of ${quoted(text)}: write a hole number, ` +
        "s (start), h1..h5 (home) or h (any home hole); a step is [seat:]from-to, for example 0:12-17 or 12-17",
    );
  }
  return location;
}

/** Options of {@link formatMove}. */
export interface FormatOptions {
  /** The shortest shorthand that names the move unambiguously in the position. */
  readonly short?: boolean;
}

/**
 * `move`, a legal move of `state`, as text {@link parseMove} reads back: the canonical notation,
 * or with `short` the shortest shorthand that names it unambiguously. An illegal move throws
 * {@link IllegalMoveError}.
 */
export function formatMove(state: GameState, move: Move, options: FormatOptions = {}): string {
  return guarded(state, () => {
    const legal = legalMoves(state);
    if (!isMove(move) || !legal.some((m) => sameMove(m, move))) {
      const why = whyIllegal(state, move);
      throw new IllegalMoveError(why.rule, why.reason);
    }
    const text = moveText(move);
    if (!options.short || move.action !== "play") return text;
    const plays = legal.filter((m) => m.action === "play" && m.card === move.card);
    for (const candidate of shorthands(move)) {
      if (namesSeveral(plays, candidate)) continue;
      try {
        if (sameMove(parseMove(state, candidate), move)) return candidate;
      } catch (error) {
        if (!(error instanceof PegsError)) throw error;
      }
    }
    return text;
  });
}

/** Whether `text` is a shorthand (not a full notation) that two or more of `plays` fit. */
function namesSeveral(plays: readonly Move[], text: string): boolean {
  try {
    parseNotation(text);
    return false;
  } catch {
    // a shorthand, read below
  }
  let read: Move | [Rank, StepPattern[]];
  try {
    read = readShorthand(text);
  } catch {
    return false;
  }
  if (!Array.isArray(read)) return false;
  const [card, steps] = read;
  let count = 0;
  for (const m of plays) {
    if (named([m], card, steps).length && ++count === 2) return true;
  }
  return false;
}

/** Ways of writing `play`, shortest first, the canonical text among the last. */
function shorthands(play: Play): string[] {
  const options = play.steps.map((s) => {
    const a = locationName(s.from);
    const b = locationName(s.to);
    return [a, `${a}-${b}`, `${s.seat}:${a}`, `${s.seat}:${a}-${b}`];
  });
  const symbol = cardSymbol(play.card);
  let texts: string[][] = [[]];
  for (const words of options) texts = texts.flatMap((prefix) => words.map((w) => [...prefix, w]));
  const all = [symbol, ...texts.map((words) => [symbol, ...words].join(" "))];
  return all.map((t, i) => [t, i] as const).sort((x, y) => x[0].length - y[0].length || x[1] - y[1]).map(([t]) => t);
}
