/**
 * Game records: everything needed to replay a game ({@link recordOf}, {@link replay}). A record
 * holds the rules, the seat count, the seed, the dealer and the moves in canonical notation; the
 * game starts from the deal {@link newGame} makes from the seed (the seed also picks the dealer
 * when it is `null`), or from the deck order it gives (`deck`, top card first) for a game
 * shuffled elsewhere. Reshuffles always come from the seed (`turn.reshuffle`).
 *
 * @module
 */
import { START } from "./board.js";
import { isArrayOf } from "./args.js";
import { countCards, buildDeck, isRank, type Rank } from "./cards.js";
import { FormatError, IllegalMoveError, NotationError, PegsError, PositionError, ReplayError } from "./errors.js";
import { moveText, parseNotation, type Move } from "./moves.js";
import { ARIZONA, checkedRules, deckFor, rulesProblem, type Rules } from "./rules.js";
import { deal, isSeed, newGame, seedProblem, type GameState } from "./state.js";
import { repr } from "./text.js";
import { apply } from "./turn.js";
import { guarded } from "./validate.js";
import { otherWriting } from "./verdict.js";
import { sameState } from "./compare.js";

/** A replayable game: how it was dealt and every move made. Make one with {@link makeRecord}. */
export interface GameRecord {
  readonly rules: Rules;
  readonly players: number;
  readonly seed: bigint;
  /** The dealer, or `null` when the seed chose it. */
  readonly dealer: number | null;
  /** The deck order dealt, top card first, or `null` when the seed shuffled it. */
  readonly deck: readonly Rank[] | null;
  /** The moves in order, in canonical notation. */
  readonly moves: readonly string[];
}

/** A checked record, its moves in canonical notation; {@link FormatError} lists every problem. */
export function makeRecord(fields: {
  readonly rules?: Rules;
  readonly players: number;
  readonly seed: bigint;
  readonly dealer?: number | null;
  readonly deck?: readonly Rank[] | null;
  readonly moves?: readonly string[];
}): GameRecord {
  if (typeof fields !== "object" || fields === null) throw new FormatError([`not a game record: ${repr(fields)}`]);
  const rules = fields.rules ?? ARIZONA;
  const problem = rulesProblem(rules);
  if (problem !== undefined) throw new FormatError([`rules: ${problem}`]);
  const deck: unknown = fields.deck ?? null;
  const moves: unknown = fields.moves ?? [];
  const record: GameRecord = {
    rules: checkedRules(rules),
    players: fields.players,
    seed: fields.seed,
    dealer: fields.dealer ?? null,
    deck: Array.isArray(deck) ? Object.freeze([...(deck as Rank[])]) : (deck as null),
    moves: Array.isArray(moves) ? [...(moves as string[])] : (moves as string[]),
  };
  const problems = recordProblems(record);
  if (problems.length) throw new FormatError(problems);
  const made = Object.freeze({ ...record, moves: Object.freeze(record.moves.map((text) => moveText(parseNotation(text)))) });
  MADE.add(made);
  return made;
}

/** The records the package made (checked, frozen, their moves in canonical notation). */
const MADE = new WeakSet<object>();

/** `record` if the package made it, else a checked copy; {@link FormatError} lists every problem. */
export function checkedRecord(record: GameRecord): GameRecord {
  if (typeof record === "object" && record !== null && MADE.has(record)) return record;
  return makeRecord(record);
}

function recordProblems(record: GameRecord): string[] {
  const problems: string[] = [];
  let players = record.players;
  if (!Number.isInteger(players) || !record.rules.playerCounts.includes(players)) {
    problems.push(
      `players: preset ${repr(record.rules.name)} allows ${repr(record.rules.playerCounts)}, not ${repr(players)}`,
    );
    players = 0;
  }
  if (!isSeed(record.seed)) problems.push(`seed: ${seedProblem(record.seed)}`);
  const dealer = record.dealer;
  if (dealer !== null && !(Number.isInteger(dealer) && dealer >= 0 && dealer < Math.max(players, 1))) {
    problems.push(`dealer: expected a seat or null, not ${repr(dealer)}`);
  }
  const deck = record.deck;
  if (deck !== null) {
    if (dealer === null) problems.push("dealer: a record with a deck order names its dealer");
    if (!(isArrayOf(deck, isRank))) {
      problems.push("deck: expected an array of cards");
    } else if (players) {
      const [decks, jokers] = deckFor(record.rules, players);
      const want = countCards(buildDeck(decks, jokers));
      const have = countCards(deck);
      if (!want.every((n, i) => n === have[i])) problems.push(`deck: not the deck for ${players} players under these rules`);
    }
  }
  const moves: unknown = record.moves;
  if (!Array.isArray(moves)) {
    problems.push(`moves: expected an array of move texts, not ${repr(moves)}`);
    return problems;
  }
  (moves as unknown[]).forEach((text, index) => {
    try {
      parseNotation(text as string);
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      problems.push(`moves[${index}]: ${error.message}`);
    }
  });
  return problems;
}

/** The position before the record's first move. */
export function recordStart(given: GameRecord): GameState {
  const record = checkedRecord(given);
  if (record.deck === null) {
    return newGame(record.players, {
      seed: record.seed,
      rules: record.rules,
      ...(record.dealer === null ? {} : { dealer: record.dealer }),
    });
  }
  return deal(record.rules, record.players, record.dealer as number, record.deck, record.seed);
}

/**
 * The record of the game dealt as `start` (a fresh deal: ply 0, every peg in start, no
 * discards) in which `moves` were made. A split given in its other order, or a swap written from
 * its other peg, is recorded in its listed form. The moves are not checked here; {@link replay}
 * does that.
 */
export function recordOf(start: GameState, moves: readonly (Move | string)[]): GameRecord {
  return guarded(start, () => {
    const fresh =
      start.ply === 0 &&
      start.reshuffles === 0 &&
      start.winner === null &&
      start.discardPile.length === 0 &&
      start.pegs.every((locs) => locs.every((p) => p === START));
    if (!fresh) {
      throw new PositionError("a record starts from a fresh deal: ply 0, all pegs in start, no discards");
    }
    const texts = listedTexts(start, moves);
    const make = (dealer: number | null, deck: readonly Rank[] | null = null): GameRecord =>
      makeRecord({ rules: start.rules, players: start.pegs.length, seed: start.seed, dealer, deck, moves: texts });
    for (const dealer of [null, start.dealer]) {
      let dealt: GameState;
      try {
        dealt = newGame(start.pegs.length, { seed: start.seed, rules: start.rules, ...(dealer === null ? {} : { dealer }) });
      } catch (error) {
        if (error instanceof PegsError) break;
        throw error;
      }
      if (sameState(dealt, start)) return make(dealer);
    }
    const deck = undeal(start);
    let record: GameRecord | undefined;
    if (deck !== undefined) {
      try {
        record = make(start.dealer, deck);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
      }
    }
    if (record === undefined || !sameState(recordStart(record), start)) {
      throw new PositionError("this position is not a deal of the deck that the rules use");
    }
    return record;
  });
}

function undeal(state: GameState): Rank[] | undefined {
  const players = state.pegs.length;
  const size = state.rules.handSize;
  const order = Array.from({ length: players }, (_, i) => (state.dealer + 1 + i) % players);
  if (order.some((seat) => (state.hands[seat] as readonly Rank[]).length < size)) return undefined;
  const dealt: Rank[] = [];
  for (let i = 0; i < size * players; i++) {
    dealt.push((state.hands[order[i % players] as number] as readonly Rank[])[Math.floor(i / players)] as Rank);
  }
  const extra = order.flatMap((seat) => (state.hands[seat] as readonly Rank[]).slice(size));
  return [...dealt, ...extra, ...state.drawPile];
}

function listedTexts(start: GameState, moves: readonly (Move | string)[]): string[] {
  const texts: string[] = [];
  let state: GameState | undefined = start;
  for (const move of moves) {
    let text = typeof move === "string" ? move : moveText(move);
    if (state !== undefined) {
      try {
        const played = parseNotation(text);
        const listed = otherWriting(state, played);
        if (listed !== undefined) text = moveText(listed.play);
        state = apply(state, played);
      } catch (error) {
        if (!(error instanceof PegsError)) throw error;
        state = undefined; // replay reports it
      }
    }
    texts.push(text);
  }
  return texts;
}

/**
 * The position after every move of `record`. Throws {@link ReplayError} at the first move that
 * is not legal, with its turn (the first move is turn 1), the ruling and the reason.
 */
export function replay(given: GameRecord): GameState {
  const record = checkedRecord(given);
  let state = recordStart(record);
  record.moves.forEach((text, index) => {
    try {
      state = apply(state, parseNotation(text));
    } catch (error) {
      if (error instanceof IllegalMoveError) throw new ReplayError(index + 1, text, error.rule, error.reason);
      if (error instanceof NotationError) throw new ReplayError(index + 1, text, "turn.sequence", error.message);
      throw error;
    }
  });
  return state;
}
