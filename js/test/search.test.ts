// The searching bots, hard (MctsBot) and expert (ExpertBot), and makeBot's names and budgets.
// That they choose as the reference's bots do at the same seed and budget is checked from the
// Python side (tests/test_js_bots.py, tools/bot_differential.py), which asks both engines.
import { describe, expect, test } from "vitest";
import {
  apply,
  decide,
  EasyBot,
  ExpertBot,
  GreedyBot,
  legalMoves,
  makeBot,
  MctsBot,
  moveText,
  newGame,
  parseNotation,
  PegsError,
  RandomBot,
  view,
  type GameState,
  type Move,
} from "../src/index.js";
import { playOut } from "./play.js";

/** A position some way into a game with at least `atLeast` legal moves. */
function position(players: number, seed: bigint, atLeast = 3): GameState {
  const states = playOut(players, seed, 400);
  const found = states.find((state, i) => i > 20 && state.winner === null && legalMoves(state).length >= atLeast);
  return found as GameState;
}

describe("makeBot", () => {
  test("names the levels and kinds, with budgets after a colon", () => {
    expect(makeBot("random")).toBeInstanceOf(RandomBot);
    expect(makeBot("easy")).toBeInstanceOf(EasyBot);
    expect(makeBot("medium")).toBeInstanceOf(GreedyBot);
    expect(makeBot("greedy")).toBeInstanceOf(GreedyBot);
    for (const name of ["hard", "mcts", "hard:", "hard:50", "mcts:0.2s", " hard:7 "]) expect(makeBot(name)).toBeInstanceOf(MctsBot);
    for (const name of ["expert", "expert:500", "expert:0.5s", "expert:1e-2s"]) expect(makeBot(name)).toBeInstanceOf(ExpertBot);
  });

  test("refuses unknown names and bad budgets with a PegsError", () => {
    for (const name of ["", "best", "random:5", "medium:1", "hard:0", "hard:-3", "hard:1.5", "hard:x", "expert:0s", "expert:-1s", "expert:Infinitys", "expert:NaNs", "expert:s"]) {
      expect(() => makeBot(name), name).toThrow(PegsError);
    }
    expect(() => makeBot(7 as unknown as string)).toThrow(PegsError);
    expect(() => makeBot("hard", 1.5)).toThrow(PegsError);
  });
});

describe.each([
  ["hard", MctsBot],
  ["expert", ExpertBot],
] as const)("%s", (_, Bot) => {
  test("the same seed and budget choose the same move, one of those given", () => {
    for (const players of [4, 6, 8]) {
      const state = position(players, BigInt(players));
      const moves = legalMoves(state);
      const chosen = new Bot(3, { iterations: 40 }).choose(view(state, state.turn), moves);
      expect(moves).toContain(chosen);
      expect(moveText(new Bot(3, { iterations: 40 }).choose(view(state, state.turn), legalMoves(state)))).toBe(moveText(chosen));
    }
  });

  test("a lone move is chosen at once; a move not legal in the view is refused", () => {
    const state = position(4, 11n);
    const moves = legalMoves(state);
    const seen = view(state, state.turn);
    expect(new Bot(0).choose(seen, [moves[0] as Move])).toBe(moves[0]);
    expect(() => new Bot(0, { iterations: 5 }).choose(seen, [...moves, parseNotation("7 0:5-12")])).toThrow(PegsError);
    expect(() => new Bot(0, { iterations: 5 }).choose(seen, [...moves, { action: "discard", card: 14 }])).toThrow(PegsError);
  });

  test("a time budget is kept", () => {
    const state = position(8, 5n);
    const began = Date.now();
    new Bot(1, { seconds: 0.05 }).choose(view(state, state.turn), legalMoves(state));
    expect(Date.now() - began).toBeLessThan(1000);
  });

  test("options are checked", () => {
    for (const options of [null, 5, { iterations: 0 }, { iterations: 1.5 }, { seconds: 0 }, { seconds: Infinity }, { maxSeconds: -1 }, { seconds: "1" }]) {
      expect(() => new Bot(0, options as object)).toThrow(PegsError);
    }
    expect(() => new Bot(-1.5)).toThrow(PegsError);
  });

  test("plays a whole game to its end, seeing only views", () => {
    const bots = [0, 1, 2, 3].map((seat) => new Bot(seat, { iterations: 4 }));
    let state = newGame(4, { seed: 21n });
    while (state.winner === null && state.ply < 5_000) state = apply(state, decide(bots[state.turn] as MctsBot, state));
    expect(state.winner).not.toBeNull();
  });
});
