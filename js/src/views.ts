/**
 * What one seat may know: {@link view}. A {@link PlayerView} holds everything public (the rules,
 * every peg, how many cards each hand and the draw pile hold, the face-up discard pile, whose
 * turn it is, the dealer, the ply, the reshuffles so far, the winner) and the seat's own hand.
 * It holds nothing else: not the other hands, not the draw pile's order, not the seed.
 *
 * A view is an API boundary, not a sandbox: send views to clients and bots, never states.
 *
 * @module
 */
import type { Location } from "./board.js";
import type { Rank } from "./cards.js";
import { PositionError } from "./errors.js";
import type { Rules } from "./rules.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";
import { guarded } from "./validate.js";

/** Everything `seat` may know about a game, and nothing more. */
export interface PlayerView {
  readonly seat: number;
  readonly rules: Rules;
  readonly pegs: readonly (readonly Location[])[];
  /** The seat's own cards, in rank order. */
  readonly hand: readonly Rank[];
  /** How many cards each seat holds. */
  readonly handSizes: readonly number[];
  readonly drawPileSize: number;
  readonly discardPile: readonly Rank[];
  readonly turn: number;
  readonly dealer: number;
  readonly reshuffles: number;
  readonly ply: number;
  readonly winner: 0 | 1 | null;
}

/** What `seat` may know of `state`: frozen, its rows and piles shared with the state. */
export function view(state: GameState, seat: number): PlayerView {
  return guarded(state, () => {
    if (!Number.isInteger(seat) || seat < 0 || seat >= state.pegs.length) {
      throw new PositionError(`no seat ${repr(seat)} among ${state.pegs.length}`);
    }
    return Object.freeze({
      seat,
      rules: state.rules,
      pegs: state.pegs,
      hand: state.hands[seat] as readonly Rank[],
      handSizes: Object.freeze(state.hands.map((hand) => hand.length)),
      drawPileSize: state.drawPile.length,
      discardPile: state.discardPile,
      turn: state.turn,
      dealer: state.dealer,
      reshuffles: state.reshuffles,
      ply: state.ply,
      winner: state.winner,
    });
  });
}
