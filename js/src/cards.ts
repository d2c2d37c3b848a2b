/**
 * Card ranks and the deck (`deck.composition`). Suits play no part in any rule, so a card is
 * its rank: a number from 1 (ace) to 13 (king), and 14 for the joker, which sorts last.
 *
 * @module
 */
import { wholeIn } from "./args.js";
import { RulesError } from "./errors.js";

/** A card: 1 (ace) to 13 (king), 14 (joker). */
export type Rank = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14;

/** The ace (`A`): a peg 1 forward, or out of start (`card.ace`, `card.come-out`). */
export const ACE = 1;
/** The 2: a peg 2 forward (`card.number`). */
export const TWO = 2;
/** The 3: a peg 3 forward (`card.number`). */
export const THREE = 3;
/** The 4: a peg 4 forward (`card.number`). */
export const FOUR = 4;
/** The 5: a peg 5 forward (`card.number`). */
export const FIVE = 5;
/** The 6: a peg 6 forward (`card.number`). */
export const SIX = 6;
/** The 7: a peg 7 forward, or split over two pegs (`card.seven`). */
export const SEVEN = 7;
/** The 8: a track peg 8 backwards (`card.eight`). */
export const EIGHT = 8;
/** The 9: a peg 9 forward, or split over two pegs as the rules' `nine` says (`card.nine`). */
export const NINE = 9;
/** The 10: a peg 10 forward (`card.number`). */
export const TEN = 10;
/** The jack (`J`): a peg its face value forward, or out of start (`card.face`, `card.come-out`). */
export const JACK = 11;
/** The queen (`Q`): as the jack. */
export const QUEEN = 12;
/** The king (`K`): as the jack. */
export const KING = 13;
/** The joker (`JK`): a peg onto a hole held by a peg of another colour (`card.joker`). */
export const JOKER = 14;

/** Every rank in order, the joker last. */
export const RANKS: readonly Rank[] = Object.freeze([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);

const SYMBOLS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
const BY_SYMBOL = new Map<string, Rank>(RANKS.map((rank) => [SYMBOLS[rank] as string, rank]));

/** The symbol of a card: `A`, `2`..`10`, `J`, `Q`, `K`, `JK`. */
export function cardSymbol(rank: Rank): string {
  return SYMBOLS[rank] as string;
}

/** The card a symbol names (any case, surrounding blanks ignored), or `undefined`. */
export function cardOf(symbol: string): Rank | undefined {
  return BY_SYMBOL.get(symbol.trim().toUpperCase());
}

/**
 * The cards a text names, separated by white space; `unknown` makes the error for a word that
 * names no card (each reader says it in its own words).
 */
export function cardsOf(text: string, unknown: (word: string) => Error): Rank[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const card = cardOf(word);
      if (card === undefined) throw unknown(word);
      return card;
    });
}

/** Whether `value` is a card. */
export function isRank(value: unknown): value is Rank {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 14;
}

/** Cards that may bring a peg out of a start area (`card.come-out`). */
export function comesOut(rank: Rank): boolean {
  return rank === ACE || rank >= JACK && rank <= KING;
}

/** `decks` 52-card decks and `jokers` jokers (`deck.composition`: at most 16 and 64), in rank order. */
export function buildDeck(decks: number, jokers: number): Rank[] {
  wholeIn(decks, 0, 16, "decks", RulesError);
  wholeIn(jokers, 0, 64, "jokers", RulesError);
  const deck: Rank[] = [];
  for (const rank of RANKS) {
    const count = rank === JOKER ? jokers : 4 * decks;
    for (let i = 0; i < count; i++) deck.push(rank);
  }
  return deck;
}

/** Cards as symbols separated by spaces. */
export function formatCards(cards: readonly Rank[]): string {
  return cards.map(cardSymbol).join(" ");
}

/** How many of each rank `cards` holds, indexed by rank. */
export function countCards(cards: readonly Rank[], into: number[] = new Array<number>(15).fill(0)): number[] {
  for (const card of cards) into[card] = (into[card] ?? 0) + 1;
  return into;
}

/** Cards sorted in rank order (a new array). */
export function sortedCards(cards: readonly Rank[]): Rank[] {
  return [...cards].sort((a, b) => a - b);
}
