/**
 * Whether a game state could occur in a real game: {@link validate} lists every way it could
 * not. The engine trusts the states it made (frozen); any other state is checked before use, at
 * every call ({@link checkState}), and data from outside (JSON, a database, another program) is
 * checked with this first ({@link fromJson} does). It checks:
 *
 * - the seat count is one the rules allow (`board.sides`);
 * - every seat has five pegs (`board.pegs`) on holes of this board (`board.geometry`), sorted,
 *   and no two pegs share a hole;
 * - every hand holds at most the hand size (one more for the seat to act when the rules draw
 *   first), in rank order (`deal.hands`);
 * - hands and piles together hold exactly the deck for this many players (`deck.composition`);
 * - `turn` and `dealer` are seats; `ply` and `reshuffles` are counts;
 * - `winner` is set exactly when one team has every peg home, and the seat that brought the
 *   last one home is still to act (`game.end`).
 *
 * @module
 */
import { isHome, isValidLocation, locationName, PEGS_PER_SEAT, START, teamOf } from "./board.js";
import { isArrayOf } from "./args.js";
import { cardSymbol, countCards, isRank, RANKS, type Rank } from "./cards.js";
import { PositionError } from "./errors.js";
import { deckFor, rulesProblem, type Rules } from "./rules.js";
import { isSeed, seedProblem, type GameState } from "./state.js";
import { repr } from "./text.js";

/** Every problem that makes `state` impossible, one sentence each; `[]` if none. */
export function validate(state: unknown): string[] {
  return problemsOf(state, false);
}

/** Every problem of a state made by hand: its cards may fall short of the deck (out of play). */
export function handMadeProblems(state: unknown): string[] {
  return problemsOf(state, true);
}

/**
 * Every problem of `state`; with `outOfPlay`, cards may fall short of the deck (the rest out of
 * play, as in a position made by hand), but never exceed it.
 */
function problemsOf(state: unknown, outOfPlay: boolean): string[] {
  if (typeof state !== "object" || state === null) return [`not a game state: ${repr(state)}`];
  const s = state as Record<string, unknown>;
  const rulesProblemText = rulesProblem(s["rules"]);
  if (rulesProblemText !== undefined) return [`rules: ${rulesProblemText}`];
  const rules = s["rules"] as Rules;
  const problems: string[] = [];
  const pegs = s["pegs"];
  const pegsOk = isRows(pegs, (p) => Number.isInteger(p));
  if (!pegsOk) problems.push("pegs: expected an array of arrays of locations, one per seat");
  const players = Array.isArray(pegs) ? pegs.length : 0;
  if (!rules.playerCounts.includes(players)) {
    problems.push(
      `players: ${players} seats, but preset ${repr(rules.name)} allows ${or(rules.playerCounts.map(String))}`,
    );
  }
  const boardOk = players === 4 || players === 6 || players === 8;
  if (pegsOk && boardOk) problems.push(...pegProblems(pegs as number[][], players));
  const turnOk = seatProblem(problems, "turn", s["turn"], players);
  seatProblem(problems, "dealer", s["dealer"], players);
  for (const name of ["reshuffles", "ply"]) {
    const value = s[name];
    if (!Number.isInteger(value) || (value as number) < 0) {
      problems.push(`${name}: expected a count (0 or more), not ${repr(value)}`);
    }
  }
  if (!isSeed(s["seed"])) problems.push(`seed: ${seedProblem(s["seed"])}`);
  const winner = s["winner"];
  const winnerOk = winner === null || winner === 0 || winner === 1;
  if (!winnerOk) problems.push(`winner: expected team 0, team 1 or null, not ${repr(winner)}`);
  const cardsOk = cardProblems(problems, s, rules, players, outOfPlay);
  if (cardsOk && turnOk && winnerOk) problems.push(...handSizeProblems(state as GameState));
  if (pegsOk && winnerOk && turnOk && players) problems.push(...winnerProblems(state as GameState));
  return problems;
}

/** The error for a state the engine cannot work on, naming its `problems`. */
export function malformed(problems: readonly string[]): PositionError {
  return new PositionError(`malformed game state: ${problems.join("; ")}`);
}

/**
 * A state the package made: frozen, like its rows and piles, so trusted without another look.
 * The private field marks it: no copy or look-alike of it has one.
 */
class Made implements GameState {
  readonly #made = true;
  readonly rules: Rules;
  readonly pegs: GameState["pegs"];
  readonly hands: GameState["hands"];
  readonly drawPile: GameState["drawPile"];
  readonly discardPile: GameState["discardPile"];
  readonly turn: number;
  readonly dealer: number;
  readonly seed: bigint;
  readonly reshuffles: number;
  readonly ply: number;
  readonly winner: 0 | 1 | null;

  constructor(state: GameState) {
    this.rules = state.rules;
    this.pegs = state.pegs;
    this.hands = state.hands;
    this.drawPile = state.drawPile;
    this.discardPile = state.discardPile;
    this.turn = state.turn;
    this.dealer = state.dealer;
    this.seed = state.seed;
    this.reshuffles = state.reshuffles;
    this.ply = state.ply;
    this.winner = state.winner;
    Object.freeze(this);
  }

  /** Whether `value` is a state the package made. */
  static has(value: object): boolean {
    return #made in value;
  }
}

/**
 * `state` with its rows and piles frozen, as a state the package made: every state the package
 * makes goes out through here or {@link trusted} (its rules are frozen already).
 */
export function sealed(state: GameState): GameState {
  for (const row of state.pegs) Object.freeze(row);
  for (const hand of state.hands) Object.freeze(hand);
  Object.freeze(state.pegs);
  Object.freeze(state.hands);
  Object.freeze(state.drawPile);
  Object.freeze(state.discardPile);
  return trusted(state);
}

/** `state` as a state the package made; its rows and piles must be frozen already. */
export function trusted(state: GameState): GameState {
  return new Made(state);
}

/** Whether the package made `state` (then nothing can have changed it since). */
export function isTrusted(state: unknown): boolean {
  return typeof state === "object" && state !== null && Made.has(state);
}

/**
 * Throw {@link PositionError} naming every problem unless `state` is one the package made, or a
 * hand-built state that could occur (its cards may fall short of the deck: the rest are out of
 * play). A hand-built state is checked at every call, as it stands then.
 */
export function checkState(state: unknown): asserts state is GameState {
  if (isTrusted(state)) return;
  const problems = handMadeProblems(state);
  if (problems.length) throw malformed(problems);
}

/** `work()` on `state`, once {@link checkState} has found nothing wrong with it. */
export function guarded<T>(state: unknown, work: () => T): T {
  checkState(state);
  return work();
}

function isRows(rows: unknown, item: (x: unknown) => boolean): boolean {
  return isArrayOf(rows, (row) => isArrayOf(row, item));
}

function or(words: readonly string[]): string {
  return words.length === 1 ? (words[0] as string) : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function seatProblem(problems: string[], name: string, value: unknown, players: number): boolean {
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) < players) return true;
  problems.push(`${name}: ${repr(value)} is not a seat (0..${players - 1})`);
  return false;
}

function pegProblems(pegs: readonly (readonly number[])[], players: number): string[] {
  const problems: string[] = [];
  const holders = new Map<string, number[]>();
  pegs.forEach((locs, seat) => {
    if (locs.length !== PEGS_PER_SEAT) problems.push(`pegs ${seat}: ${locs.length} pegs, not ${PEGS_PER_SEAT}`);
    const bad = locs.filter((p) => !isValidLocation(p, players));
    if (bad.length) {
      problems.push(`pegs ${seat}: no such location on a ${players}-seat board: ${bad.join(", ")}`);
    }
    if (locs.some((p, i) => i > 0 && (locs[i - 1] as number) > p)) problems.push(`pegs ${seat}: not in sorted order`);
    for (const p of locs) {
      if (p !== START && isValidLocation(p, players)) {
        const key = `${isHome(p) ? seat : -1},${p}`;
        const list = holders.get(key) ?? [];
        list.push(seat);
        holders.set(key, list);
      }
    }
  });
  for (const [key, seats] of holders) {
    if (seats.length > 1) {
      const hole = Number(key.split(",")[1]);
      const who = [...new Set(seats)].sort((a, b) => a - b).join(" and ");
      problems.push(`pegs: ${seats.length} pegs share hole ${locationName(hole)} (seat ${who})`);
    }
  }
  return problems;
}

function cardProblems(
  problems: string[],
  s: Record<string, unknown>,
  rules: Rules,
  players: number,
  outOfPlay: boolean,
): boolean {
  let ok = true;
  const hands = s["hands"];
  if (!isRows(hands, isRank)) {
    problems.push("hands: expected an array of arrays of cards, one per seat");
    ok = false;
  } else if ((hands as unknown[]).length !== players) {
    problems.push(`hands: ${(hands as unknown[]).length} hands for ${players} seats`);
    ok = false;
  } else {
    (hands as Rank[][]).forEach((hand, seat) => {
      if (hand.some((c, i) => i > 0 && (hand[i - 1] as number) > c)) problems.push(`hand ${seat}: not in rank order`);
    });
  }
  for (const name of ["drawPile", "discardPile"]) {
    const pile = s[name];
    if (!(isArrayOf(pile, isRank))) {
      problems.push(`${name === "drawPile" ? "draw_pile" : "discard_pile"}: expected an array of cards`);
      ok = false;
    }
  }
  if (!ok || !rules.playerCounts.includes(players)) return ok;
  const held = new Array<number>(15).fill(0);
  for (const hand of hands as Rank[][]) countCards(hand, held);
  countCards(s["drawPile"] as Rank[], held);
  countCards(s["discardPile"] as Rank[], held);
  const [decks, jokers] = deckFor(rules, players);
  const missing: string[] = [];
  const extra: string[] = [];
  let total = 0;
  let deckTotal = 0;
  for (const rank of RANKS) {
    const want = rank === 14 ? jokers : 4 * decks;
    const have = held[rank] as number;
    total += have;
    deckTotal += want;
    if (have < want) missing.push(cardSymbol(rank) + (want - have > 1 ? ` x${want - have}` : ""));
    if (have > want) extra.push(cardSymbol(rank) + (have - want > 1 ? ` x${have - want}` : ""));
  }
  if (extra.length || (missing.length && !outOfPlay)) {
    const detail = [missing.length ? `missing ${missing.join(" ")}` : "", extra.length ? `extra ${extra.join(" ")}` : ""]
      .filter(Boolean)
      .join("; ");
    problems.push(
      `cards: hands and piles hold ${total} cards, not the ${deckTotal}-card deck for ${players} players (${detail})`,
    );
  }
  return ok;
}

function handSizeProblems(state: GameState): string[] {
  const problems: string[] = [];
  const rules = state.rules;
  state.hands.forEach((hand, seat) => {
    const extra = rules.drawFirst && seat === state.turn && state.winner === null ? 1 : 0;
    const limit = rules.handSize + extra;
    if (hand.length > limit) problems.push(`hand ${seat}: ${hand.length} cards, more than ${limit}`);
  });
  return problems;
}

function winnerProblems(state: GameState): string[] {
  const done = [0, 1].filter((team) =>
    state.pegs.every((locs, seat) => teamOf(seat) !== team || locs.every(isHome)),
  );
  if (done.length === 2) {
    return ["winner: both teams have every peg home, but the game ends when the first does"];
  }
  if (state.winner === null) {
    return done.length ? [`winner: team ${done[0]} has every peg home, so it has won`] : [];
  }
  if (done[0] !== state.winner) return [`winner: team ${state.winner} has won, but not all its pegs are home`];
  if (teamOf(state.turn) !== state.winner) {
    return [
      `turn: the game is over and stays with the seat that won it, not seat ${state.turn} of team ${teamOf(state.turn)}`,
    ];
  }
  return [];
}
