// Whole games: random play to the end at 4, 6 and 8 seats under both presets, and the greedy
// bots replaying every game vector of the suite move for move (they choose as the reference's).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  apply,
  decide,
  findPreset,
  GreedyBot,
  HOME_BASE,
  legalMoves,
  makeBot,
  moveText,
  newGame,
  parseNotation,
  withRule,
  type GameState,
} from "../src/index.js";
import { playOut } from "./play.js";
import { loadGames, SPECS } from "./specs.js";

describe.each([4, 6, 8])("%i players", (players) => {
  test.each(["arizona", "standard"])("random games under %s end with a winning team", (preset) => {
    for (let seed = 0n; seed < 3n; seed++) {
      const states = playOut(players, 500n + seed, 100_000, findPreset(preset));
      const last = states.at(-1) as GameState;
      expect(last.winner).not.toBeNull();
      expect(legalMoves(last)).toEqual([]);
      for (let seat = last.winner as number; seat < players; seat += 2) {
        expect(last.pegs[seat]?.every((p) => p > HOME_BASE)).toBe(true);
      }
      // turn.order: the turn passes clockwise, one seat a ply
      for (let i = 1; i < states.length - 1; i++) {
        expect((states[i] as GameState).turn).toBe(((states[i - 1] as GameState).turn + 1) % players);
      }
    }
  });

  test("bots of every level finish a game", () => {
    for (const name of ["random", "easy", "medium", "hard:4", "expert:8"]) {
      const bots = Array.from({ length: players }, (_, seat) => makeBot(name, seat));
      let state = newGame(players, { seed: 77n });
      while (state.winner === null && state.ply < 5_000) state = apply(state, decide(bots[state.turn] as ReturnType<typeof makeBot>, state));
      expect(state.winner).not.toBeNull();
    }
  });
});

describe("the greedy bots choose as the reference's", () => {
  test.each(loadGames())("%s", (name) => {
    const vector = JSON.parse(readFileSync(join(SPECS, "games", name), "utf8")) as {
      players: number;
      seed: number;
      preset: string;
      rules?: string[];
      turns: [string, string][];
    };
    let rules = findPreset(vector.preset);
    for (const line of vector.rules ?? []) {
      const colon = line.indexOf(":");
      rules = withRule(rules, line.slice(0, colon).trim(), line.slice(colon + 1));
    }
    // the suite recorded these games with GreedyBot(seed * 10 + seat) at every seat
    const bots = Array.from({ length: vector.players }, (_, seat) => new GreedyBot(vector.seed * 10 + seat));
    let state = newGame(vector.players, { seed: BigInt(vector.seed), rules });
    for (const [move] of vector.turns) {
      expect(moveText(decide(bots[state.turn] as GreedyBot, state))).toBe(move);
      state = apply(state, parseNotation(move));
    }
    expect(state.winner).not.toBeNull();
  });
});
