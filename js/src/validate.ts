/**
 * Whether a game state could occur in a real game: {@link validate} lists every way it could
 * not. The engine trusts its states; data from outside (JSON, a database, another program) is
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
import { cardSymbol, countCards, isRank, RANKS, type Rank } from "./cards.js";
import { PegsError, PositionError } from "./errors.js";
import { deckFor, type Rules } from "./rules.js";
import { isSeed, seedProblem, type GameState } from "./state.js";
import { repr } from "./text.js";

/** Every problem that makes `state` impossible, one sentence each; `[]` if none. */
export function validate(state: unknown): string[] {
  if (typeof state !== "object" || state === null) return [`not a game state: ${repr(state)}`];
  const s = state as Record<string, unknown>;
  const rules = s["rules"] as Rules | undefined;
  if (typeof rules !== "object" || rules === null || !Array.isArray(rules.playerCounts)) {
    return ["rules: not a rules object"];
  }
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
  const cardsOk = cardProblems(problems, s, rules, players);
  if (cardsOk && turnOk && winnerOk) problems.push(...handSizeProblems(state as GameState));
  if (pegsOk && winnerOk && turnOk && players) problems.push(...winnerProblems(state as GameState));
  return problems;
}

/** The error for a state the engine cannot work on, naming its `problems`. */
export function malformed(problems: readonly string[]): PositionError {
  return new PositionError(`malformed game state: ${problems.join("; ")}`);
}

/**
 * `work()` on `state`, any error it runs into that is not the package's own turned into a
 * {@link PositionError} naming what {@link validate} finds (a hand-built state the engine cannot
 * work on). If it finds nothing, the error had another cause and is thrown as it is.
 */
export function guarded<T>(state: unknown, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof PegsError) throw error;
    const problems = validate(state);
    if (problems.length) throw malformed(problems);
    throw error;
  }
}

function isRows(rows: unknown, item: (x: unknown) => boolean): boolean {
  return Array.isArray(rows) && rows.every((row) => Array.isArray(row) && row.every(item));
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

function cardProblems(problems: string[], s: Record<string, unknown>, rules: Rules, players: number): boolean {
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
    if (!(Array.isArray(pile) && pile.every(isRank))) {
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
  if (missing.length || extra.length) {
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
