/**
 * Perft: the number of distinct sequences of legal moves of a given length from a position,
 * every play, discard and pass counted with the draws it makes from the known draw pile. A
 * sequence that ends the game early is not counted at the depths beyond its end.
 *
 * @module
 */
import { legalMoves } from "./movegen.js";
import { moveText } from "./moves.js";
import type { GameState } from "./state.js";
import { apply } from "./turn.js";

/** How many sequences of `depth` legal moves start from `state`. */
export function perft(state: GameState, depth: number): number {
  if (depth === 0) return 1;
  const moves = legalMoves(state);
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) nodes += perft(apply(state, move), depth - 1);
  return nodes;
}

/** {@link perft} at `depth` (at least 1) for each first move, in legal-move order. */
export function divide(state: GameState, depth: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const move of legalMoves(state)) out.set(moveText(move), perft(apply(state, move), depth - 1));
  return out;
}
