/**
 * The game state, an immutable value holding everything about a game, and the deal
 * (`deal.dealer`, `deal.hands`) and reshuffles (`turn.reshuffle`) that chance decides.
 *
 * @module
 */
import { PEGS_PER_SEAT, START, type Location } from "./board.js";
import { buildDeck, type Rank } from "./cards.js";
import { PositionError } from "./errors.js";
import { Twister } from "./random.js";
import { ARIZONA, checkedRules, deckFor, type Rules } from "./rules.js";
import { repr } from "./text.js";
import { sealed } from "./validate.js";

/**
 * A complete game position, hidden cards included. States are never changed: {@link apply}
 * returns a new one, and every state the package makes is frozen, its rows and piles too.
 */
export interface GameState {
  /** The rules in force. */
  readonly rules: Rules;
  /** For each seat, the sorted locations of its five pegs. */
  readonly pegs: readonly (readonly Location[])[];
  /** For each seat, its cards in rank order (hidden from the others). */
  readonly hands: readonly (readonly Rank[])[];
  /** The face-down draw pile, top card first (hidden from all). */
  readonly drawPile: readonly Rank[];
  /** The face-up discard pile, most recent card last. */
  readonly discardPile: readonly Rank[];
  /** The seat to act. */
  readonly turn: number;
  /** The seat that dealt. */
  readonly dealer: number;
  /** The game's seed, from which all chance derives: keep it secret from the players. */
  readonly seed: bigint;
  /** How many times the discard pile has been reshuffled. */
  readonly reshuffles: number;
  /** How many turns have been taken. */
  readonly ply: number;
  /** The winning team, or `null` while the game goes on. */
  readonly winner: 0 | 1 | null;
}

/** Options of {@link newGame}. */
export interface NewGameOptions {
  /**
   * The seed: a bigint of at most 4,300 digits, or a safe integer; without one, 128 random bits
   * from the platform's crypto.
   */
  readonly seed?: bigint | number;
  /** The rules, {@link ARIZONA} by default. */
  readonly rules?: Rules;
  /** The dealer; by default drawn from the seed. */
  readonly dealer?: number;
}

/**
 * Shuffle and deal a new game from its seed (`deal.dealer`, `deal.hands`): the same seed deals
 * the same cards as the reference engine's `new_game`.
 */
export function newGame(players = 4, options: NewGameOptions = {}): GameState {
  if (typeof options !== "object" || options === null) {
    throw new PositionError(`options: not an object, but ${repr(options)}`);
  }
  const rules = options.rules === undefined ? ARIZONA : checkedRules(options.rules);
  const seed = seedOf(options.seed);
  if (typeof players !== "number" || !rules.playerCounts.includes(players)) {
    throw new PositionError(
      `preset ${repr(rules.name)} allows ${repr(rules.playerCounts)} players, not ${repr(players)}`,
    );
  }
  const rng = shuffler(seed);
  let dealer = options.dealer;
  if (dealer === undefined) {
    dealer = rng.below(players);
  } else if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) {
    throw new PositionError(`dealer must be a seat 0..${players - 1}, not ${repr(dealer)}`);
  }
  const [decks, jokers] = deckFor(rules, players);
  const deck = buildDeck(decks, jokers);
  rng.shuffle(deck);
  return deal(rules, players, dealer, deck, seed);
}

/** Deal `deck` (top card first) as {@link newGame} does: one card at a time clockwise. */
export function deal(
  rules: Rules,
  players: number,
  dealer: number,
  deck: readonly Rank[],
  seed: bigint,
): GameState {
  const order = Array.from({ length: players }, (_, i) => (dealer + 1 + i) % players);
  const hands: Rank[][] = Array.from({ length: players }, () => []);
  const dealt = rules.handSize * players;
  for (let i = 0; i < dealt; i++) (hands[order[i % players] as number] as Rank[]).push(deck[i] as Rank);
  let draw = deck.slice(dealt);
  if (rules.drawFirst) {
    (hands[order[0] as number] as Rank[]).push(...draw.slice(0, 1));
    draw = draw.slice(1);
  }
  return sealed({
    rules,
    pegs: Array.from({ length: players }, () => new Array<Location>(PEGS_PER_SEAT).fill(START)),
    hands: hands.map((hand) => hand.sort((a, b) => a - b)),
    drawPile: draw,
    discardPile: [],
    turn: order[0] as number,
    dealer,
    seed,
    reshuffles: 0,
    ply: 0,
    winner: null,
  });
}

/**
 * The most decimal digits a seed may have: the longest whole number either engine reads from
 * JSON or position text (Python's own limit), so that every game can be saved and read back.
 */
export const SEED_DIGITS = 4300;
const SEED_BOUND = 10n ** BigInt(SEED_DIGITS);

/** Whether `seed` is a seed the package accepts: a bigint of at most {@link SEED_DIGITS} digits. */
export function isSeed(seed: unknown): seed is bigint {
  return typeof seed === "bigint" && -SEED_BOUND < seed && seed < SEED_BOUND;
}

/** Why `seed` is not one: the end of a sentence starting "seed: ". */
export function seedProblem(seed: unknown): string {
  if (typeof seed === "bigint") return `a whole number of more than ${SEED_DIGITS} digits`;
  if (typeof seed === "number" && Number.isInteger(seed)) {
    return `${seed} is beyond 2^53, where a number loses digits: give a bigint`;
  }
  return `expected a whole number (a bigint or a safe integer), not ${repr(seed)}`;
}

/** The seed as a bigint; a fresh 128-bit one when none is given. */
function seedOf(seed: unknown): bigint {
  if (seed === undefined) {
    const words = new Uint32Array(4);
    globalThis.crypto.getRandomValues(words);
    return words.reduce((n, word) => (n << 32n) | BigInt(word), 0n);
  }
  if (isSeed(seed)) return seed;
  if (typeof seed === "number" && Number.isSafeInteger(seed)) return BigInt(seed);
  throw new PositionError(`seed: ${seedProblem(seed)}`);
}

/**
 * The generator of the deal of game `seed`: keyed by the seed itself, or for a negative seed by
 * bytes of its own, so that `n` and `-n` deal different games (as the reference engine does):
 * `"pegs-rules/negative/"` then the seed in two's complement, big-endian, in the fewest bytes
 * that hold its sign. Linear in the seed's size.
 */
export function shuffler(seed: bigint): Twister {
  if (seed >= 0n) return new Twister(seed);
  const size = Math.floor((bitLength(seed) + 8) / 8);
  const hex = BigInt.asUintN(size * 8, seed).toString(16).padStart(size * 2, "0");
  const prefix = new TextEncoder().encode("pegs-rules/negative/");
  const bytes = new Uint8Array(prefix.length + size);
  bytes.set(prefix);
  for (let i = 0; i < size; i++) bytes[prefix.length + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return new Twister(bytes);
}

/** The bit length of a whole number (that of its absolute value), as Python's `bit_length`. */
function bitLength(n: bigint): number {
  const hex = (n < 0n ? -n : n).toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex.charAt(0), 16));
}

const DECIMAL_SEEDS = 10n ** 4300n;

/** The seed as text for naming its reshuffles: decimal, or hexadecimal beyond 4,300 digits. */
export function seedText(seed: bigint): string {
  if (-DECIMAL_SEEDS < seed && seed < DECIMAL_SEEDS) return seed.toString();
  return seed < 0n ? `-0x${(-seed).toString(16)}` : `0x${seed.toString(16)}`;
}

/** The new draw pile made by reshuffle `number` of game `seed` (`turn.reshuffle`). */
export function reshuffled(seed: bigint, number: number, cards: readonly Rank[]): Rank[] {
  const pile = [...cards];
  new Twister(`pegs-rules/${seedText(seed)}/reshuffle/${number}`).shuffle(pile);
  return pile;
}

