// Random play for the tests: games dealt from a seed, moves picked by a seeded generator.
import fc from "fast-check";
import { apply, ARIZONA, legalMoves, makeRules, newGame, STANDARD, type GameState, type Rules } from "../src/index.js";
import { Twister } from "../src/random.js";

/** Every state of a random game prefix (the first is the deal). */
export function playOut(players: number, seed: bigint, plies: number, rules: Rules = ARIZONA, choices = seed): GameState[] {
  const rng = new Twister(choices);
  let state = newGame(players, { seed, rules });
  const states = [state];
  while (state.winner === null && state.ply < plies) {
    state = apply(state, rng.choice(legalMoves(state)));
    states.push(state);
  }
  return states;
}

const DECK_TABLES = [
  [[4, 3, 6], [6, 3, 6], [8, 4, 8]],
  [[4, 2, 4], [6, 3, 6], [8, 4, 8]],
  [[4, 1, 8], [6, 2, 0], [8, 3, 2]],
] as const;

/** Any combination of the house-rule switches, on either preset. */
export const anyRules: fc.Arbitrary<Rules> = fc.oneof(
  fc.constant(ARIZONA),
  fc.constant(STANDARD),
  fc
    .record({
      decks: fc.constantFrom(...DECK_TABLES),
      handSize: fc.constantFrom(4, 5, 6),
      drawFirst: fc.boolean(),
      control: fc.constantFrom("team", "own_then_teammate"),
      jokerSource: fc.constantFrom("team_start_first", "any"),
      nine: fc.constantFrom("plain", "forward_forward", "forward_backward"),
      faceValues: fc.tuple(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 13 })),
      homeEntryCompulsory: fc.boolean(),
      waitOnInSpot: fc.boolean(),
      inSpotOccupied: fc.constantFrom("chain", "illegal", "to_start"),
      twoSwap: fc.boolean(),
    })
    .map((fields) => makeRules({ ...fields, name: "house" })),
);

/** The states of a random game prefix: seat count, seed, rules and length drawn. */
export const playedGames = (maxPlies = 300): fc.Arbitrary<GameState[]> =>
  fc
    .record({
      players: fc.constantFrom(4, 6, 8),
      seed: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      rules: anyRules,
      plies: fc.integer({ min: 0, max: maxPlies }),
      choices: fc.bigInt({ min: 0n, max: 2n ** 32n }),
    })
    .map(({ players, seed, rules, plies, choices }) => playOut(players, seed, plies, rules, choices));
