/**
 * The board and card helpers as exported: each checks what it is given and refuses anything
 * else with the package's error, while the engine calls the unchecked ones on values it made.
 *
 * @module
 */
import * as board from "./board.js";
import { isArrayOf } from "./args.js";
import * as bots from "./bots.js";
import type { Pegs } from "./bots.js";
import { cardOf as cardOfText, cardSymbol as symbolOf, formatCards as formatText, isRank, type Rank } from "./cards.js";
import { NotationError, PositionError } from "./errors.js";
import { checkedRules, type Rules } from "./rules.js";
import { repr } from "./text.js";

/** `value` if it is a seat number (0..7); else a {@link PositionError}. */
function seat(value: unknown): number {
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) < 8) return value as number;
  throw new PositionError(`expected a seat (0..7), not ${repr(value)}`);
}

/** `value` if it is a location of some board (`board.geometry`); else a {@link PositionError}. */
function location(value: unknown): board.Location {
  if (Number.isInteger(value) && board.isValidLocation(value as number, 8)) return value as number;
  throw new PositionError(`expected a location (-1 for start, a track hole, 1001..1005 for home), not ${repr(value)}`);
}

/** Home hole `k` (1..5) as a location (`board.geometry`). */
export function home(k: number): board.Location {
  if (Number.isInteger(k) && k >= 1 && k <= board.HOME_HOLES) return board.home(k);
  throw new PositionError(`expected a home hole 1..${board.HOME_HOLES}, not ${repr(k)}`);
}

/** Whether `location` is a home hole. */
export function isHome(location_: board.Location): boolean {
  return board.isHome(location(location_));
}

/** Whether `location` is a track hole. */
export function isTrack(location_: board.Location): boolean {
  return board.isTrack(location(location_));
}

/** The number of track holes with `players` seats (4, 6 or 8). */
export function trackLength(players: number): number {
  if (board.SEAT_COUNTS.includes(players)) return board.trackLength(players);
  throw new PositionError(`expected 4, 6 or 8 players, not ${repr(players)}`);
}

/** Seat `seat`'s in-spot, where its home lane branches off (`board.geometry`). */
export function inSpot(seat_: number): number {
  return board.inSpot(seat(seat_));
}

/** Seat `seat`'s come-out hole (`board.geometry`). */
export function comeOutHole(seat_: number): number {
  return board.comeOutHole(seat(seat_));
}

/** The team of `seat`: 0 for even seats, 1 for odd (`board.sides`). */
export function teamOf(seat_: number): 0 | 1 {
  return board.teamOf(seat(seat_));
}

/** A location as notation writes it: `s`, `h1`..`h5` or a hole number. */
export function locationName(location_: board.Location): string {
  return board.locationName(location(location_));
}

/** The location `text` names (`s`, `h1`..`h5`, a hole number), or `undefined`. */
export function parseLocation(text: string): board.Location | undefined {
  if (typeof text !== "string") throw new NotationError(`a location is written as text, not ${repr(text)}`);
  return board.parseLocation(text);
}

/** A card's symbol: `A`, `2`..`10`, `J`, `Q`, `K`, `JK`. */
export function cardSymbol(rank: Rank): string {
  if (isRank(rank)) return symbolOf(rank);
  throw new NotationError(`not a card: ${repr(rank)} (cards are 1..14)`);
}

/** The card `symbol` names (`A`, `2`..`10`, `J`, `Q`, `K`, `JK`, any case), or `undefined`. */
export function cardOf(symbol: string): Rank | undefined {
  if (typeof symbol !== "string") throw new NotationError(`a card is written as text, not ${repr(symbol)}`);
  return cardOfText(symbol);
}

/** Cards as symbols separated by spaces. */
export function formatCards(cards: readonly Rank[]): string {
  if (isArrayOf(cards, isRank)) return formatText(cards);
  throw new NotationError(`expected an array of cards (1..14), not ${repr(cards)}`);
}

/** `pegs` if it is the pegs of a board of 4, 6 or 8 seats: five sorted locations of it each. */
function pegsOf(pegs: unknown): Pegs {
  const players = Array.isArray(pegs) ? pegs.length : 0;
  const row = (locs: unknown): boolean =>
    Array.isArray(locs) &&
    locs.length === board.PEGS_PER_SEAT &&
    Array.from(locs).every((p, i) => Number.isInteger(p) && board.isValidLocation(p as number, players) && (i === 0 || (locs[i - 1] as number) <= (p as number)));
  if (board.SEAT_COUNTS.includes(players) && isArrayOf(pegs, row)) return pegs as Pegs;
  throw new PositionError(`expected the pegs of 4, 6 or 8 seats, five sorted locations each, not ${repr(pegs)}`);
}

/** `value` if it is a team, 0 or 1; else a {@link PositionError}. */
function teamArg(value: unknown): 0 | 1 {
  if (value === 0 || value === 1) return value;
  throw new PositionError(`expected team 0 or 1, not ${repr(value)}`);
}

/** The greedy bot's score of `pegs` for `team` under `rules` (see the bots' module). */
export function evaluate(pegs: Pegs, team: number, rules: Rules, joker = false): number {
  if (typeof joker !== "boolean") throw new PositionError(`joker: true or false, not ${repr(joker)}`);
  return bots.evaluate(pegsOf(pegs), teamArg(team), checkedRules(rules), joker);
}

/** {@link evaluate} without the safety terms: the team's peg values less the others'. */
export function progress(pegs: Pegs, team: number): number {
  return bots.progress(pegsOf(pegs), teamArg(team));
}

/** Whether `team` has every peg home (`game.end`). */
export function won(pegs: Pegs, team: number): boolean {
  return bots.won(pegsOf(pegs), teamArg(team));
}
