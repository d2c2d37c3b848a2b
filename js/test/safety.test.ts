// Nothing a caller does to a value the package returned changes a later answer, for that game or
// any other: a game is played with this module instance while everything it returns (move lists,
// moves, steps, states, views, events, records, rules) is mutated at random, and every answer is
// compared with a fresh instance of the module that nothing has touched.
import fc from "fast-check";
import { beforeAll, describe, expect, test, vi } from "vitest";
import * as used from "../src/index.js";
import type { GameState, Move } from "../src/index.js";

type Api = typeof used;
let fresh: Api;

beforeAll(async () => {
  vi.resetModules();
  fresh = await import("../src/index.js");
  expect(fresh.legalMoves).not.toBe(used.legalMoves);
});

const RUNS = { numRuns: Math.max(20, Math.ceil(Number(process.env["PEGS_FUZZ_RUNS"] ?? 300) / 5)) };

/** One random edit: where to go (child picks) and what to do there. */
interface Edit {
  readonly path: readonly number[];
  readonly op: number;
  readonly junk: unknown;
}

const edits = fc.array(
  fc.record({
    path: fc.array(fc.nat(), { maxLength: 4 }),
    op: fc.nat(),
    junk: fc.oneof(fc.integer({ min: -2, max: 200 }), fc.constantFrom(null, undefined, "x", 14, 7, -1), fc.constant([])),
  }),
  { maxLength: 6 },
);

/** Apply `edit` to something inside `root`; writes to frozen values throw TypeError, ignored. */
function mutate(root: unknown, edit: Edit): void {
  let node = root;
  for (const pick of edit.path) {
    if (typeof node !== "object" || node === null) break;
    const keys = Object.keys(node);
    const child = keys.length ? (node as Record<string, unknown>)[keys[pick % keys.length] as string] : undefined;
    if (typeof child !== "object" || child === null) break;
    node = child;
  }
  if (typeof node !== "object" || node === null) return;
  try {
    if (Array.isArray(node)) {
      const list = node as unknown[];
      const ops = [
        () => list.push(edit.junk),
        () => void list.splice(edit.op % (list.length + 1), 1),
        () => void list.sort(),
        () => void list.reverse(),
        () => (list.length = 0),
        () => (list[edit.op % (list.length + 1)] = edit.junk),
      ];
      (ops[edit.op % ops.length] as () => void)();
    } else {
      const keys = Object.keys(node);
      const key = keys.length ? (keys[edit.op % keys.length] as string) : "x";
      if (edit.op % 3 === 2) delete (node as Record<string, unknown>)[key];
      else (node as Record<string, unknown>)[key] = edit.junk;
    }
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

const texts = (api: Api, moves: readonly Move[]): string[] => moves.map((m) => api.moveText(m));

describe("returned values cannot change later answers", () => {
  test("a game played while everything returned is mutated answers as an untouched instance", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 6, 8),
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
        fc.array(fc.tuple(fc.nat(), edits), { minLength: 1, maxLength: 12 }),
        (players, seed, turns) => {
          let state: GameState = used.newGame(players, { seed });
          let twin: GameState = fresh.newGame(players, { seed });
          for (const [pick, edit] of turns) {
            if (twin.winner !== null) break;
            const moves = used.legalMoves(state);
            const seat = pick % players;
            const returned: unknown[] = [moves, moves[pick % moves.length], state, used.view(state, seat), used.ARIZONA, used.RANKS];
            for (const e of edit) mutate(returned[e.op % returned.length], e);
            const again = fresh.legalMoves(twin);
            expect(texts(used, used.legalMoves(state))).toEqual(texts(fresh, again));
            expect(used.toJson(used.view(state, seat))).toBe(fresh.toJson(fresh.view(twin, seat)));
            const chosen = again[pick % again.length] as Move;
            const [after, events] = used.applyWithEvents(state, used.legalMoves(state)[pick % again.length] as Move);
            for (const e of edit) mutate(events, e);
            state = after;
            twin = fresh.apply(twin, chosen);
            expect(used.toJson(state)).toBe(fresh.toJson(twin));
          }
          const record = used.recordOf(used.newGame(players, { seed }), []);
          for (const [, edit] of turns) for (const e of edit) mutate(record, e);
          expect(used.toJson(used.replay(record))).toBe(fresh.toJson(fresh.newGame(players, { seed })));
          expect(used.toJson(used.newGame(players, { seed }))).toBe(fresh.toJson(fresh.newGame(players, { seed })));
          expect(texts(used, used.legalMoves(used.newGame(players, { seed })))).toEqual(
            texts(fresh, fresh.legalMoves(fresh.newGame(players, { seed }))),
          );
        },
      ),
      RUNS,
    );
  });

  test("the searching bots choose alike whatever was done to the moves and views they were given", () => {
    fc.assert(
      fc.property(fc.constantFrom("hard:6", "expert:12"), fc.bigInt({ min: 0n, max: 2n ** 32n }), fc.array(edits, { minLength: 1, maxLength: 6 }), (name, seed, turns) => {
        let state: GameState = used.newGame(4, { seed });
        const bot = used.makeBot(name, 7);
        const twin = fresh.makeBot(name, 7);
        for (const edit of turns) {
          if (state.winner !== null) break;
          const moves = used.legalMoves(state);
          const seen = used.view(state, state.turn);
          const chosen = used.moveText(bot.choose(seen, moves));
          for (const e of edit) mutate([moves, seen][e.op % 2], e);
          const again = fresh.legalMoves(state);
          expect(chosen).toBe(fresh.moveText(twin.choose(fresh.view(state, state.turn), again)));
          state = used.apply(state, used.parseNotation(chosen));
        }
      }),
      { numRuns: Math.min(RUNS.numRuns, 20) },
    );
  });

  test("the findings: a truncated, sorted or edited move list, a step edited", () => {
    const game = used.parsePosition("pegs 0: 70\nhand 0: 7 K");
    const moves = used.legalMoves(game) as Move[];
    const before = texts(used, moves);
    moves.sort().reverse();
    moves.length = 0;
    expect(texts(used, used.legalMoves(game))).toEqual(before);
    const dealt = used.newGame(4, { seed: 2n });
    const first = used.legalMoves(dealt).find((m) => m.action === "play");
    if (first?.action === "play") expect(() => ((first.steps[0] as { to: number }).to = 47)).toThrow(TypeError);
    expect(texts(used, used.legalMoves(used.newGame(4, { seed: 2n })))).toEqual(texts(fresh, fresh.legalMoves(fresh.newGame(4, { seed: 2n }))));
  });

  test("states the package makes are frozen through and through", () => {
    const states = [
      used.newGame(6, { seed: 3n }),
      used.parsePosition("pegs 0: 12\nhand 0: 5"),
      used.fromJson(used.toJson(used.newGame(4, { seed: 1n })), "state"),
    ];
    states.push(used.apply(states[0] as GameState, used.legalMoves(states[0] as GameState)[0] as Move));
    for (const state of states) {
      expect(Object.isFrozen(state)).toBe(true);
      for (const rows of [state.pegs, state.hands]) {
        expect(Object.isFrozen(rows)).toBe(true);
        for (const row of rows) expect(Object.isFrozen(row)).toBe(true);
      }
      for (const pile of [state.drawPile, state.discardPile, state.rules, state.rules.decks]) expect(Object.isFrozen(pile)).toBe(true);
    }
  });

  test("a hand-built state changed in place is judged as it now stands", () => {
    const game = used.parsePosition("pegs 0: 70\nhand 0: 7 K");
    const own = { ...game, pegs: game.pegs.map((row) => [...row]), hands: game.hands.map((row) => [...row]) };
    const listed = texts(used, used.legalMoves(own));
    expect(listed).toContain("7 0:70-h2");
    (own.hands[0] as number[]).splice(0, 1); // the 7 is gone
    expect(texts(used, used.legalMoves(own))).toEqual(texts(fresh, fresh.legalMoves(structuredClone(own))));
    expect(() => used.apply(own, used.parseNotation("7 0:70-h2"))).toThrow(used.IllegalMoveError);
    (own.hands[0] as number[]).push(14, 14, 14, 14, 14, 14, 14, 14, 14); // more jokers than the deck holds
    expect(() => used.legalMoves(own)).toThrow(used.PositionError);
  });

  test("shared tables cannot be changed", () => {
    expect(() => (used.PRESETS as Map<string, unknown>).set("arizona", {})).toThrow(TypeError);
    expect(() => (used.RULINGS as Map<string, string>).clear()).toThrow(TypeError);
    expect(() => (used.RANKS as number[]).push(15)).toThrow(TypeError);
    expect(used.findPreset("arizona")).toBe(used.ARIZONA);
  });
});
