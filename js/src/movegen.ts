/**
 * Legal-move generation: {@link legalMoves}.
 *
 * Every legal move of the seat to act, in this order (deterministic, no duplicates):
 *
 * 1. plays, by card (A, 2, ..., K, JK), then by their steps compared as `(seat, from, to)`
 *    (a start area before track holes, track holes before home holes), one step before two;
 * 2. discards, by card (only when no card but a joker can be played, `turn.discard`);
 * 3. `pass`, alone, for a seat holding no cards (`turn.pass`).
 *
 * A card held twice gives its moves once. A split whose two orders leave the same position is
 * listed once, in the order that sorts first (`card.seven.split.order`); so is a swap of two pegs
 * the seat may both move, the lower seat's peg first (`variant.two-swap.order`).
 *
 * @module
 */
import { teamOf, type Location } from "./board.js";
import { isRank, JOKER, type Rank } from "./cards.js";
import { PASS, type Move, type Play, type Step } from "./moves.js";
import { cardPlays } from "./plays.js";
import type { Rules } from "./rules.js";
import type { GameState } from "./state.js";
import { guarded, isTrusted } from "./validate.js";
import { WorkBoard, type Geometry } from "./workboard.js";

/**
 * The seats whose pegs `seat` may move with `pegs` on the board (`team.control`): under
 * `team` every seat of its team; under `own_then_teammate` its own until all five are home,
 * then the first teammate clockwise with a peg outside home.
 */
export function seatsToMove(
  pegs: readonly (readonly Location[])[],
  seat: number,
  rules: Rules,
): readonly number[] {
  const players = pegs.length;
  if (rules.control === "team") return TEAMS[players]?.[seat % 2] ?? [];
  for (let step = 0; step < players; step += 2) {
    const mate = (seat + step) % players;
    if (!(pegs[mate] as readonly Location[]).every((p) => p > 1000)) return [mate];
  }
  return [seat];
}

const TEAMS: readonly (readonly number[][])[] = Array.from({ length: 9 }, (_, players) => [
  Array.from({ length: players }, (_, s) => s).filter((s) => s % 2 === 0),
  Array.from({ length: players }, (_, s) => s).filter((s) => s % 2 === 1),
]);

/** The seats whose pegs the seat to act may move (`team.control`). */
export function movableSeats(state: GameState): readonly number[] {
  return guarded(state, () => seatsToMove(state.pegs, state.turn, state.rules));
}

/** The plays of one card held, in order: their keys (ascending) and changes. */
export interface CardPlays {
  readonly rank: Rank;
  readonly keys: readonly number[];
  readonly changes: readonly (readonly number[])[];
}

/** What a position offers the seat to act (never handed out: {@link legalMoves} makes moves of it). */
export interface Found {
  readonly geometry: Geometry;
  readonly cards: readonly CardPlays[];
  /** Whether a card other than a joker has a legal play. */
  readonly playable: boolean;
  /** The legal moves, made with the rest, until {@link legalMoves} hands them out (once). */
  moves: Move[] | undefined;
}

/**
 * The last two states asked about, and what they offer (`apply` right after `legalMoves`): only
 * states the package made, which nothing can change; a hand-built state is looked at anew.
 */
let lastState: GameState | undefined;
let lastFound: Found | undefined;
let earlierState: GameState | undefined;
let earlierFound: Found | undefined;

/** What `state` offers the seat to act (remembered for the last two states asked about). */
export function found(state: GameState): Found {
  if (lastState === state) return lastFound as Found;
  if (earlierState === state) return earlierFound as Found;
  const result = find(state);
  if (!isTrusted(state)) return result;
  earlierState = lastState;
  earlierFound = lastFound;
  lastState = state;
  lastFound = result;
  return result;
}

function find(state: GameState): Found {
  const hand: unknown = state.hands[state.turn];
  if (!Number.isInteger(state.turn) || !isSortedHand(hand)) {
    throw new TypeError("not a hand of cards");
  }
  const seats = seatsToMove(state.pegs, state.turn, state.rules);
  const board = WorkBoard.scratch(state.pegs, teamOf(state.turn), state.rules);
  if (board === undefined || seats.length === 0) {
    throw new TypeError("a peg is not on this board");
  }
  const g = board.g;
  const cards: CardPlays[] = [];
  const moves: Move[] = [];
  let playable = false;
  let last = 0;
  for (const rank of hand) {
    if (rank === last) continue;
    last = rank;
    const found = cardPlays(board, seats, rank, state.rules);
    const count = found.keys.length;
    const order = sortedOrder(found.keys);
    const keys: number[] = [];
    const changes: (readonly number[])[] = [];
    for (let n = 0; n < count; n++) {
      const i = order[n] as number;
      const key = found.keys[i] as number;
      keys.push(key);
      changes.push(found.changes[i] as readonly number[]);
      moves.push(playOf(g, rank, key));
    }
    cards.push({ rank, keys, changes });
    if (count > 0 && rank !== JOKER) playable = true;
  }
  if (!playable) for (const { rank } of cards) moves.push(DISCARDS[rank] as Move);
  return { geometry: g, cards, playable, moves };
}

/** The plays of `card`, in order: new objects, their steps frozen and shared. */
export function listedPlays(g: Geometry, card: CardPlays): Play[] {
  return card.keys.map((key) => playOf(g, card.rank, key));
}

/** Room for the positions of the plays of one card when they are sorted (see sortedOrder). */
const SPREAD = 65536;
let packed = new Float64Array(256);
const orderBuffer: number[] = [];

/**
 * The positions of `keys` in ascending order of key. Each key (below 2^36) is packed with its
 * position into one whole number below 2^53, and the numbers sorted natively.
 */
function sortedOrder(keys: readonly number[]): readonly number[] {
  const count = keys.length;
  if (count >= SPREAD) {
    return Array.from(keys.keys()).sort((a, b) => (keys[a] as number) - (keys[b] as number));
  }
  if (count > packed.length) packed = new Float64Array(Math.max(count, 2 * packed.length));
  for (let i = 0; i < count; i++) packed[i] = (keys[i] as number) * SPREAD + i;
  let sorted: Float64Array = packed;
  if (count <= 32) {
    for (let i = 1; i < count; i++) {
      const value = packed[i] as number; // insertion sort: few plays, no call into the runtime
      let at = i - 1;
      while (at >= 0 && (packed[at] as number) > value) {
        packed[at + 1] = packed[at] as number;
        at--;
      }
      packed[at + 1] = value;
    }
  } else {
    sorted = packed.subarray(0, count).sort();
  }
  orderBuffer.length = count;
  for (let i = 0; i < count; i++) {
    const value = sorted[i] as number;
    orderBuffer[i] = value - Math.floor(value / SPREAD) * SPREAD; // not %: that is fmod on doubles
  }
  return orderBuffer;
}

function isSortedHand(hand: unknown): hand is readonly Rank[] {
  if (!Array.isArray(hand)) return false;
  const cards = hand as readonly unknown[];
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    if (!isRank(card) || (i > 0 && (cards[i - 1] as number) > card)) return false;
  }
  return true;
}


/** The step of change `code`. */
export function stepOf(g: Geometry, code: number): Step {
  const size = g.slots;
  return {
    seat: Math.floor(code / (size * size)),
    from: g.locationOf(Math.floor(code / size) % size),
    to: g.locationOf(code % size),
  };
}

/** The one-step list of each change's step, by board size, peg (seat and slot) and slot it goes
 * to: made once, frozen and shared (the inner lists made as they are first needed). */
const SINGLE_STEPS = new Map<Geometry, ((readonly Step[] | undefined)[] | undefined)[]>();
const DISCARDS: readonly Move[] = Array.from({ length: 15 }, (_, card) => Object.freeze({ action: "discard", card }) as Move);

function singleSteps(g: Geometry, code: number): readonly Step[] {
  let made = SINGLE_STEPS.get(g);
  if (made === undefined) {
    made = new Array<undefined>(g.players * g.slots).fill(undefined);
    SINGLE_STEPS.set(g, made);
  }
  const peg = Math.floor(code / g.slots);
  let row = made[peg];
  if (row === undefined) {
    row = new Array<undefined>(g.slots).fill(undefined);
    made[peg] = row;
  }
  const to = code - peg * g.slots;
  let steps = row[to];
  if (steps === undefined) {
    steps = Object.freeze([Object.freeze(stepOf(g, code))]);
    row[to] = steps;
  }
  return steps;
}

/**
 * The play of `card` keyed `key`: a new object, its steps frozen and shared (a one-step list too;
 * a two-step list is the play's own).
 */
function playOf(g: Geometry, card: Rank, key: number): Play {
  const first = Math.floor(key / g.key);
  const second = key - first * g.key;
  const steps = second
    ? [singleSteps(g, first)[0] as Step, singleSteps(g, second - 1)[0] as Step]
    : singleSteps(g, first);
  return { action: "play", card, steps };
}

/** The key of a play's steps (`undefined` when a step is not on the board or not a step). */
export function playKey(g: Geometry, play: Play): number | undefined {
  const steps = play.steps;
  if (!Array.isArray(steps) || steps.length < 1 || steps.length > 2) return undefined;
  let key = 0;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Step;
    if (typeof s !== "object" || s === null) return undefined;
    const { seat, from, to } = s;
    if (!Number.isInteger(seat) || seat < 0 || seat >= g.players) return undefined;
    if (!Number.isInteger(from) || !Number.isInteger(to)) return undefined;
    const a = g.slotOf(from);
    const b = g.slotOf(to);
    if (a < 0 || b < 0) return undefined;
    const code = g.code(seat, a, b);
    key = i === 0 ? code * g.key : key + code + 1;
  }
  return key;
}

/** The changes a listed play makes (landings included), or `undefined` if it is not listed. */
export function playChanges(state: GameState, play: Play): readonly number[] | undefined {
  const result = found(state);
  const key = playKey(result.geometry, play);
  if (key === undefined) return undefined;
  for (const card of result.cards) {
    if (card.rank !== play.card) continue;
    const keys = card.keys;
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = keys[middle] as number;
      if (at === key) return card.changes[middle];
      if (at < key) low = middle + 1;
      else high = middle - 1;
    }
  }
  return undefined;
}

/**
 * Every legal move of the seat to act, in the documented order (the reference's page
 * *Contracts*, "Legal moves and their order"), in a new array of new plays that the caller may
 * change at will (their steps are frozen). A finished game has none. `turn.must-play`: if any
 * card but a joker can be played, only plays are legal; otherwise (`turn.discard`) the seat may
 * play a joker or discard any card. An empty hand passes. A state the engine cannot work on
 * throws {@link PositionError}.
 */
export function legalMoves(state: GameState): readonly Move[] {
  return guarded(state, () => {
    if (state.winner !== null) return [];
    if ((state.hands[state.turn] as readonly Rank[]).length === 0) return [PASS];
    const result = found(state);
    const made = result.moves;
    if (made !== undefined) {
      result.moves = undefined; // the caller owns these: a later call makes its own
      return made;
    }
    const moves: Move[] = [];
    for (const card of result.cards) moves.push(...listedPlays(result.geometry, card));
    if (!result.playable) for (const { rank } of result.cards) moves.push(DISCARDS[rank] as Move);
    return moves;
  });
}

/** Whether the seat to act holds a card other than a joker with a legal play. */
export function hasPlayableCard(state: GameState): boolean {
  return found(state).playable;
}
