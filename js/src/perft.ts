/**
 * Perft: the number of distinct sequences of legal moves of a given length from a position,
 * every play, discard and pass counted with the draws it makes from the known draw pile. A
 * sequence that ends the game early is not counted at the depths beyond its end.
 *
 * @module
 */
import { wholeIn } from "./args.js";
import { legalMoves } from "./movegen.js";
import { moveText } from "./moves.js";
import type { GameState } from "./state.js";
import { apply } from "./turn.js";

/** The deepest count asked for: deeper ones are beyond any machine. */
const MAX_DEPTH = 32;

/** How many sequences of `depth` (0 to 32) legal moves start from `state`. */
export function perft(state: GameState, depth: number): number {
  wholeIn(depth, 0, MAX_DEPTH, "depth");
  return count(state, depth);
}

function count(state: GameState, depth: number): number {
  if (depth === 0) return 1;
  const moves = legalMoves(state);
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) nodes += count(apply(state, move), depth - 1);
  return nodes;
}

/** {@link perft} at `depth` (1 to 32) for each first move, in legal-move order. */
export function divide(state: GameState, depth: number): Map<string, number> {
  wholeIn(depth, 1, MAX_DEPTH, "depth");
  const out = new Map<string, number>();
  for (const move of legalMoves(state)) out.set(moveText(move), count(apply(state, move), depth - 1));
  return out;
}
