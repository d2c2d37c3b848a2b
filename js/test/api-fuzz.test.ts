// Every exported function, given any JavaScript values (right-shaped objects with wrong-typed
// fields included), returns or throws one of the package's own errors (a PegsError), never a
// TypeError, RangeError or stack overflow from inside it.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as api from "../src/index.js";
import * as render from "../src/render.js";
import type { GameState, Move } from "../src/index.js";
import { playOut } from "./play.js";

const RUNS = { numRuns: Number(process.env["PEGS_FUZZ_RUNS"] ?? 300) };

const sample = playOut(4, 9n, 40).at(-1) as GameState;
const move = api.legalMoves(sample)[0] as Move;
const record = api.recordOf(api.newGame(4, { seed: 9n }), []);
const seen = api.view(sample, 0);
const [, events] = api.applyWithEvents(sample, move);

/** Any value at all: primitives of every kind, symbols, functions, arrays and objects. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true, withBoxedValues: true, withTypedArray: true, withSparseArray: true }),
  fc.constantFrom(Symbol("x"), () => 1, NaN, Infinity, -1, 1.5, 2 ** 60, -(2n ** 80n), "", "x", [], {}, null, undefined),
);

/** `value` with one field (its own or a new one) set to junk, or deleted. */
function withJunk(value: object): fc.Arbitrary<unknown> {
  const keys = Object.keys(value);
  return fc.tuple(fc.constantFrom(...keys, "extra"), junk, fc.boolean()).map(([key, bad, drop]) => {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (drop) delete copy[key];
    else copy[key] = bad;
    return copy;
  });
}

/** Nested junk: an array row of a state, or a step of a move. */
const shaped: fc.Arbitrary<unknown> = fc.oneof(
  withJunk(sample),
  withJunk(move),
  withJunk(api.ARIZONA),
  withJunk(record),
  withJunk(seen),
  withJunk(events[0] as object),
  withJunk({ seed: 1n, rules: api.ARIZONA, dealer: 0, indent: 2 }),
  fc.tuple(junk, fc.nat(4)).map(([bad, at]) => ({ ...sample, pegs: sample.pegs.map((row, seat) => (seat === at ? [bad, ...row.slice(1)] : row)) })),
  junk.map((bad) => ({ action: "play", card: 7, steps: [{ seat: bad, from: 70, to: 5 }] })),
  junk.map((bad) => ({ ...move, steps: [bad] })),
);

/** The arguments an exported function is called with. */
const argument = fc.oneof(
  { weight: 2, arbitrary: junk },
  { weight: 3, arbitrary: shaped },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(sample, move, record, seen, events, api.ARIZONA, 4, 0, "arizona", "pegs 0: 70\nhand 0: 7", "7 0:70-5") },
);

/** Call `work`; it may return, or throw a PegsError, and nothing else. */
function onlyOurs(work: () => unknown): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof api.PegsError)) throw error;
  }
}

const functions = (Object.entries({ ...api, svg: render.svg }) as [string, unknown][]).filter(
  (entry): entry is [string, (...args: unknown[]) => unknown] =>
    typeof entry[1] === "function" && !/^class /.test(Function.prototype.toString.call(entry[1])),
);
const classes = ["RandomBot", "EasyBot", "GreedyBot", "MctsBot", "ExpertBot"] as const;

describe("every exported function, any arguments: only the package's errors", () => {
  test.each(functions.map(([name, fn]) => [name, fn] as const))("%s", (name, fn) => {
    // perft of a real position at any depth would take for ever: there it is asked to depth 2
    const shallow = (args: unknown[]): boolean =>
      !["perft", "divide"].includes(name) || args[0] !== sample || !(typeof args[1] === "number" && args[1] > 2);
    fc.assert(
      fc.property(fc.array(argument, { maxLength: 4 }).filter(shallow), (args) => onlyOurs(() => fn(...args))),
      RUNS,
    );
  });
  test.each(classes)("%s: made and asked with any arguments", (name) => {
    fc.assert(
      fc.property(fc.array(argument, { maxLength: 2 }), fc.array(argument, { maxLength: 3 }), (made, asked) =>
        onlyOurs(() => {
          const bot = new (api[name] as new (...args: unknown[]) => api.Bot)(...made);
          return (bot.choose as (...args: unknown[]) => unknown)(...asked);
        }),
      ),
      RUNS,
    );
  });
  test("the findings", () => {
    for (const work of [
      () => api.newGame(4, { rules: {} as api.Rules }),
      () => api.sameState(null as unknown as GameState, sample),
      () => api.perft(sample, -1),
      () => api.perft(sample, 1.5),
      () => api.perft(sample, "x" as unknown as number),
      () => api.toJson(sample, { indent: -1 }),
      () => api.toJson(sample, { indent: 1e9 }),
      () => api.replay({ ...record, moves: "x" } as unknown as api.GameRecord),
      () => api.toJson({ action: "play", card: 99, steps: [{ seat: 0 }] } as unknown as Move),
      () => api.legalMoves({} as GameState),
    ]) {
      expect(work).toThrow(api.PegsError);
    }
  });
});
