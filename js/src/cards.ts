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

export const ACE = 1;
export const TWO = 2;
export const SEVEN = 7;
export const EIGHT = 8;
export const NINE = 9;
export const JACK = 11;
export const QUEEN = 12;
export const KING = 13;
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
