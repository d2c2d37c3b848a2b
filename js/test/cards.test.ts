// The card names the package exports: one per rank, in order, each the rank its symbol reads as.
import { expect, test } from "vitest";
import * as pegs from "../src/index.js";

test("every card has a name, the rank its symbol reads as", () => {
  const { ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, JOKER } = pegs;
  const named: pegs.Rank[] = [ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, JOKER];
  expect(named).toEqual(pegs.RANKS);
  const symbols = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
  expect(symbols.map((symbol) => pegs.cardOf(symbol))).toEqual(named);
  expect(named.map(pegs.cardSymbol)).toEqual(symbols);
});
