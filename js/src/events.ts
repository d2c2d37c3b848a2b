/**
 * What a move did, in order: {@link applyWithEvents}. A frontend animates a turn from its
 * events without comparing states:
 *
 * 1. `card_played`, `card_discarded` or `passed`;
 * 2. for a play, each peg's movement: `peg_moved` for a step of the move, `peg_displaced` for a
 *    peg knocked away by a landing (`move.landing`), each part of a split in turn (a split given
 *    in its other order, or a swap written from its other peg, is reported in its listed form);
 * 3. `cards_drawn` for the cards drawn, split in two around `reshuffled` when the draw pile ran
 *    out (`turn.reshuffle`);
 * 4. `game_over` when the move won the game (`game.end`).
 *
 * Drawn cards are secret: {@link redact} hides those another seat drew.
 *
 * @module
 */
import { locationName, START, type Location } from "./board.js";
import { isArrayOf, wholeIn } from "./args.js";
import { cardSymbol, countCards, formatCards, isRank, RANKS, type Rank } from "./cards.js";
import { PegsError } from "./errors.js";
import { repr } from "./text.js";
import { geometryFor } from "./workboard.js";
import { stepOf } from "./movegen.js";
import type { Move, Step } from "./moves.js";
import type { GameState } from "./state.js";
import { carryOut, checked } from "./turn.js";
import { guarded } from "./validate.js";

/** `seat` played `card`. */
export interface CardPlayed { readonly event: "card_played"; readonly seat: number; readonly card: Rank }
/** `seat` discarded `card` without moving (`turn.discard`). */
export interface CardDiscarded { readonly event: "card_discarded"; readonly seat: number; readonly card: Rank }
/** `seat` held no cards and passed (`turn.pass`). */
export interface Passed { readonly event: "passed"; readonly seat: number }
/** A peg of `seat`'s colour moved from `from` to `to`: a step of the move. */
export interface PegMoved { readonly event: "peg_moved"; readonly seat: number; readonly from: Location; readonly to: Location }
/** A peg of `seat`'s colour was knocked from `from` to `to`: its start or its in-spot. */
export interface PegDisplaced {
  readonly event: "peg_displaced";
  readonly seat: number;
  readonly from: Location;
  readonly to: Location;
}
/** `seat` drew `count` cards: `cards`, or `null` once hidden by {@link redact}. */
export interface CardsDrawn {
  readonly event: "cards_drawn";
  readonly seat: number;
  readonly count: number;
  readonly cards: readonly Rank[] | null;
}
/** The discard pile (`cards` cards) became a new draw pile: reshuffle `number`. */
export interface Reshuffled { readonly event: "reshuffled"; readonly cards: number; readonly number: number }
/** Team `winner` has every peg home and wins (`game.end`). */
export interface GameOver { readonly event: "game_over"; readonly winner: number }

/** Anything {@link applyWithEvents} reports. */
export type GameEvent = CardPlayed | CardDiscarded | Passed | PegMoved | PegDisplaced | CardsDrawn | Reshuffled | GameOver;

/** The fields each kind of event has besides `event`, each with what it holds. */
const FIELDS: Readonly<Record<string, readonly (readonly [string, (value: unknown) => boolean])[]>> = {
  card_played: [["seat", isCount], ["card", isRank]],
  card_discarded: [["seat", isCount], ["card", isRank]],
  passed: [["seat", isCount]],
  peg_moved: [["seat", isCount], ["from", Number.isSafeInteger], ["to", Number.isSafeInteger]],
  peg_displaced: [["seat", isCount], ["from", Number.isSafeInteger], ["to", Number.isSafeInteger]],
  cards_drawn: [["seat", isCount], ["count", isCount], ["cards", (v) => v === null || isArrayOf(v, isRank)]],
  reshuffled: [["cards", isCount], ["number", isCount]],
  game_over: [["winner", (v) => v === 0 || v === 1]],
};

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** `events` if it is an array of events as {@link applyWithEvents} makes them; else a {@link PegsError}. */
export function checkedEvents(events: unknown): readonly GameEvent[] {
  if (!Array.isArray(events)) throw new PegsError(`expected an array of events, not ${repr(events)}`);
  for (const event of events as unknown[]) checkedEvent(event);
  return events as readonly GameEvent[];
}

function checkedEvent(event: unknown): GameEvent {
  const kind = typeof event === "object" && event !== null ? (event as { event?: unknown }).event : undefined;
  const fields = typeof kind === "string" && Object.hasOwn(FIELDS, kind) ? FIELDS[kind] : undefined;
  if (fields === undefined) throw new PegsError(`not an event: ${repr(event)}`);
  for (const [name, holds] of fields) {
    const value = (event as Record<string, unknown>)[name];
    if (!holds(value)) throw new PegsError(`a ${kind as string} event's ${name} cannot be ${repr(value)}`);
  }
  return event as GameEvent;
}

/** An event as an English sentence (the same the reference engine writes). */
export function eventText(given: GameEvent): string {
  const event = checkedEvent(given);
  switch (event.event) {
    case "card_played":
      return `seat ${event.seat} plays ${cardSymbol(event.card)}`;
    case "card_discarded":
      return `seat ${event.seat} discards ${cardSymbol(event.card)}`;
    case "passed":
      return `seat ${event.seat} passes`;
    case "peg_moved":
      return `seat ${event.seat}'s peg moves from ${locationName(event.from)} to ${locationName(event.to)}`;
    case "peg_displaced": {
      const where = event.to === START ? "back to its start" : `to its in-spot ${event.to}`;
      return `seat ${event.seat}'s peg is knocked from ${locationName(event.from)} ${where}`;
    }
    case "cards_drawn":
      return event.cards === null
        ? `seat ${event.seat} draws ${event.count} card${event.count === 1 ? "" : "s"}`
        : `seat ${event.seat} draws ${formatCards(event.cards)}`;
    case "reshuffled":
      return `the discard pile (${event.cards} card${event.cards === 1 ? "" : "s"}) is shuffled into a new draw pile`;
    case "game_over":
      return `team ${event.winner} wins`;
  }
}

/** {@link apply} `move`, and say what happened, in order. Throws as `apply` does. */
export function applyWithEvents(state: GameState, move: Move): [GameState, GameEvent[]] {
  const turn = checked(state, move);
  return guarded(state, () => {
    const after = carryOut(state, turn);
    const seat = state.turn;
    const events: GameEvent[] = [];
    const listed = turn.listed;
    if (listed.action === "play") {
      events.push({ event: "card_played", seat, card: listed.card });
      const g = geometryFor(state.pegs.length);
      const steps: Step[] = [...listed.steps];
      for (const code of turn.changes) {
        const change = stepOf(g, code);
        const next = steps[0];
        if (next !== undefined && next.seat === change.seat && next.from === change.from && next.to === change.to) {
          steps.shift();
          events.push({ event: "peg_moved", ...change });
        } else {
          events.push({ event: "peg_displaced", ...change });
        }
      }
    } else if (listed.action === "discard") {
      events.push({ event: "card_discarded", seat, card: listed.card });
    } else {
      events.push({ event: "passed", seat });
    }
    events.push(...drawEvents(state, after, turn.card));
    if (after.winner !== null) events.push({ event: "game_over", winner: after.winner });
    return [after, events];
  });
}

function drawEvents(before: GameState, after: GameState, played: Rank | null): GameEvent[] {
  const out: GameEvent[] = [];
  before.hands.forEach((old, seat) => {
    const kept = countCards(old);
    if (seat === before.turn && played !== null) kept[played] = (kept[played] as number) - 1;
    const now = countCards(after.hands[seat] as readonly Rank[]);
    const drawn: Rank[] = [];
    for (const rank of RANKS) for (let n = (now[rank] as number) - (kept[rank] as number); n > 0; n--) drawn.push(rank);
    if (drawn.length === 0) return;
    if (after.reshuffles === before.reshuffles) {
      out.push(drawnEvent(seat, inPileOrder(drawn, before.drawPile)));
      return;
    }
    const first = before.drawPile; // the old pile ran out: all of it was drawn first
    if (first.length) out.push(drawnEvent(seat, first));
    const rest = countCards(drawn);
    for (const card of first) rest[card] = (rest[card] as number) - 1;
    const restCards: Rank[] = [];
    for (const rank of RANKS) for (let n = rest[rank] as number; n > 0; n--) restCards.push(rank);
    out.push({ event: "reshuffled", cards: after.drawPile.length + restCards.length, number: after.reshuffles });
    if (restCards.length) out.push(drawnEvent(seat, restCards));
  });
  return out;
}

/** The drawn cards as they lay on top of the pile (sorted if they did not). */
function inPileOrder(drawn: readonly Rank[], pile: readonly Rank[]): readonly Rank[] {
  const top = pile.slice(0, drawn.length);
  const a = countCards(top);
  const b = countCards(drawn);
  return a.every((n, i) => n === b[i]) ? top : drawn;
}

function drawnEvent(seat: number, cards: readonly Rank[]): CardsDrawn {
  return { event: "cards_drawn", seat, count: cards.length, cards };
}

/** `events` as `seat` may see them: the cards other seats drew are hidden (`-1`: from all). */
export function redact(events: readonly GameEvent[], seat: number): GameEvent[] {
  wholeIn(seat, 0, 7, "seat");
  return checkedEvents(events).map((e) => (e.event === "cards_drawn" && e.seat !== seat ? { ...e, cards: null } : e));
}
