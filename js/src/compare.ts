/**
 * Equality of states, field by field (states are values).
 *
 * @module
 */
import { sameRules } from "./rules.js";
import type { GameState } from "./state.js";
import { checkState } from "./validate.js";

function sameRows(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean {
  return a.length === b.length && a.every((row, i) => sameList(row, b[i] as readonly number[]));
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether two states are the same position, with the same history counters and seed. */
export function sameState(a: GameState, b: GameState): boolean {
  checkState(a);
  checkState(b);
  return (
    a.turn === b.turn &&
    a.dealer === b.dealer &&
    a.seed === b.seed &&
    a.reshuffles === b.reshuffles &&
    a.ply === b.ply &&
    a.winner === b.winner &&
    sameRules(a.rules, b.rules) &&
    sameRows(a.pegs, b.pegs) &&
    sameRows(a.hands, b.hands) &&
    sameList(a.drawPile, b.drawPile) &&
    sameList(a.discardPile, b.discardPile)
  );
}
