// Generated from specs/verdict.json by scripts/verdict-order.mjs: do not edit by hand.
import type { Rules } from "./rules.js";

/** The name of a check of `move.verdict`. */
export type CheckName =
  | "game-over"
  | "pass-holding-cards"
  | "card-not-held"
  | "discard-while-a-card-plays"
  | "steps-the-card-cannot-make"
  | "no-such-seat"
  | "no-such-hole"
  | "seat-not-movable"
  | "no-peg-there"
  | "split-part-from-start"
  | "split-moves-one-peg-twice"
  | "eight-not-on-track"
  | "eight-count"
  | "joker-from-home"
  | "joker-not-from-start"
  | "joker-target"
  | "come-out-card"
  | "come-out-hole"
  | "home-count"
  | "home-entry-count"
  | "count"
  | "split-part-count"
  | "split-total"
  | "path-blocked"
  | "wait-on-in-spot"
  | "home-entry-compulsory"
  | "nine-split-shape"
  | "knock-onto-held-in-spot"
  | "swap-no-such-seat"
  | "swap-no-such-hole"
  | "swap-written-from-the-other-peg"
  | "swap-of-pegs-not-movable"
  | "swap-misfit";

/** One check of `move.verdict`: its item, name, scope and the house rule that brings it in. */
export interface Check {
  readonly item: string;
  readonly name: CheckName;
  readonly scope: "move" | "swap" | "step";
  readonly when: { readonly field: keyof Rules; readonly value: string | boolean } | null;
}

/** Every check of `move.verdict`, in the order a move is judged (`specs/verdict.json`). */
export const VERDICT_ORDER: readonly Check[] = Object.freeze([
  { item: "1", name: "game-over", scope: "move", when: null },
  { item: "2", name: "pass-holding-cards", scope: "move", when: null },
  { item: "3", name: "card-not-held", scope: "move", when: null },
  { item: "4", name: "discard-while-a-card-plays", scope: "move", when: null },
  { item: "5", name: "steps-the-card-cannot-make", scope: "move", when: null },
  { item: "6.1", name: "no-such-seat", scope: "step", when: null },
  { item: "6.1", name: "no-such-hole", scope: "step", when: null },
  { item: "6.2", name: "seat-not-movable", scope: "step", when: null },
  { item: "6.3", name: "no-peg-there", scope: "step", when: null },
  { item: "6.4", name: "split-part-from-start", scope: "step", when: null },
  { item: "6.4", name: "split-moves-one-peg-twice", scope: "step", when: null },
  { item: "6.5", name: "eight-not-on-track", scope: "step", when: null },
  { item: "6.5", name: "eight-count", scope: "step", when: null },
  { item: "6.5", name: "joker-from-home", scope: "step", when: null },
  { item: "6.5", name: "joker-not-from-start", scope: "step", when: { field: "jokerSource", value: "team_start_first" } },
  { item: "6.5", name: "joker-target", scope: "step", when: null },
  { item: "6.5", name: "come-out-card", scope: "step", when: null },
  { item: "6.5", name: "come-out-hole", scope: "step", when: null },
  { item: "6.5", name: "home-count", scope: "step", when: null },
  { item: "6.5", name: "home-entry-count", scope: "step", when: null },
  { item: "6.5", name: "count", scope: "step", when: null },
  { item: "6.5", name: "split-part-count", scope: "step", when: null },
  { item: "6.5", name: "split-total", scope: "step", when: null },
  { item: "6.6", name: "path-blocked", scope: "step", when: null },
  { item: "6.7", name: "wait-on-in-spot", scope: "step", when: { field: "waitOnInSpot", value: true } },
  { item: "6.7", name: "home-entry-compulsory", scope: "step", when: { field: "homeEntryCompulsory", value: true } },
  { item: "6.7", name: "nine-split-shape", scope: "step", when: { field: "nine", value: "forward_backward" } },
  { item: "6.8", name: "knock-onto-held-in-spot", scope: "step", when: null },
  { item: "8.1", name: "swap-no-such-seat", scope: "swap", when: { field: "twoSwap", value: true } },
  { item: "8.1", name: "swap-no-such-hole", scope: "swap", when: { field: "twoSwap", value: true } },
  { item: "8.2", name: "swap-written-from-the-other-peg", scope: "swap", when: { field: "twoSwap", value: true } },
  { item: "8.2", name: "swap-of-pegs-not-movable", scope: "swap", when: { field: "twoSwap", value: true } },
  { item: "8.3", name: "swap-misfit", scope: "swap", when: { field: "twoSwap", value: true } },
] as const satisfies readonly Check[]);
